import { ineligibleReason, verdictNote, verdictOf } from '../../../../src/domain/result-tabs/verdict';

/** A plain profitable, eligible product row as the results answer gives it (API document, 2.3). */
function row(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    asin: 'B000000001',
    is_hazmat: false,
    is_meltable: false,
    is_adult: false,
    is_brand_blocklisted: false,
    financials: { profit: 412, margin: 1800, roi: 3500 },
    market_fees: { referral_fee: 300, fba_fees: 400 },
    inbound_eligibility: { eligible: true, updated_at: 1700000000, ineligible_codes: [] },
    ...over,
  };
}

describe('verdict of a result row', () => {
  it('an eligible, profitable row without flags is a plain buy with no note', () => {
    const v = verdictOf(row());
    expect(v.word).toBe('Buy');
    expect(verdictNote(v)).toBe('');
  });

  it('a profitable row Amazon will not take into FBA is never a buy: reasons in words, unknown codes as the code', () => {
    const v = verdictOf(
      row({ inbound_eligibility: { eligible: false, updated_at: 1, ineligible_codes: ['HAZMAT_REVIEW_REQUIRED', 'FBA_INB_0099'] } }),
    );
    expect(v.word).toBe("Can't send to FBA");
    expect(verdictNote(v)).toBe(
      'Amazon will not take it into FBA: Amazon must review it as dangerous goods (hazmat) first; code FBA_INB_0099.',
    );
  });

  it('ineligible without codes still says so', () => {
    expect(verdictNote(verdictOf(row({ inbound_eligibility: { eligible: false } })))).toBe(
      'Amazon will not take it into FBA: no reason given by the service.',
    );
  });

  it('each documented code reads in words', () => {
    expect(ineligibleReason('MELTABLE_OUT_OF_SEASON')).toMatch(/meltable/);
    expect(ineligibleReason('ADULT_PRODUCT_RESTRICTED')).toMatch(/adult/);
    expect(ineligibleReason('BRAND_APPROVAL_REQUIRED')).toMatch(/approval/);
  });

  it('hazmat, meltable and adult rows are to check, each reason on its own line', () => {
    expect(verdictOf(row({ is_hazmat: true })).word).toBe('Check');
    expect(verdictOf(row({ is_meltable: true })).reasons).toEqual(['Meltable: FBA takes it in only from October to April.']);
    const v = verdictOf(row({ is_hazmat: true, is_adult: true }));
    expect(v.word).toBe('Check');
    expect(verdictNote(v).split('\n')).toHaveLength(2);
  });

  it('a brand on the blocklist outranks flags, and FBA ineligibility outranks the brand', () => {
    expect(verdictOf(row({ is_brand_blocklisted: true, is_hazmat: true })).word).toBe('Blocked brand');
    const both = verdictOf(row({ is_brand_blocklisted: true, inbound_eligibility: { eligible: false, ineligible_codes: [] } }));
    expect(both.word).toBe("Can't send to FBA");
    expect(both.reasons).toContain('The brand is on your blocklist.');
  });

  it('a fee the service could not compute is to check, with its message', () => {
    const v = verdictOf(
      row({ market_fees: { referral_fee: null, error: 'Fee estimate unavailable for this listing.' }, financials: { profit: null } }),
    );
    expect(v.word).toBe('Check');
    expect(verdictNote(v)).toBe('Fees not computed (the service said: Fee estimate unavailable for this listing.), so profit is unknown.');
  });

  it('no profit and unknown profit are not buys', () => {
    expect(verdictOf(row({ financials: { profit: 0 } })).word).toBe('No profit');
    expect(verdictOf(row({ financials: { profit: -50 } })).word).toBe('No profit');
    expect(verdictOf(row({ financials: {} })).word).toBe('Check');
  });

  it('reads a row with odd members without throwing', () => {
    expect(verdictOf({ inbound_eligibility: 'yes', market_fees: [], financials: null }).word).toBe('Check');
  });
});
