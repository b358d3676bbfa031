/**
 * The Changes tab's pairing, order and cells (src/domain/result-tabs/changes.ts, issue 23), on facts written out here.
 */
import {
  changesSummary,
  changesTabBase,
  changesValues,
  compareFacts,
  factsFromTab,
  readScanNote,
  scanNote,
  type Fact,
} from '../../../../src/domain/result-tabs/changes';

function f(asin: string, identifier: string, profit: number | null, extra: Partial<{ cost: number; buybox: number | null }> = {}): Fact {
  const cost = extra.cost ?? 5;
  const buybox = extra.buybox === undefined ? 20 : extra.buybox;
  return {
    asin,
    identifier,
    title: 'T ' + asin,
    sku: 'S-' + asin,
    v: [cost, buybox, 6, profit, profit === null ? null : profit / 10, 1000, 3],
  };
}

describe('compareFacts', () => {
  test('a supplier identifier matched to another ASIN this time is one Re-matched row naming both ASINs, not one gone and one new', () => {
    const cmp = compareFacts([f('B000000001', '012345678905', 2)], [f('B000000009', '012345678905', 3)]);
    expect(cmp.counts).toMatchObject({ rematched: 1, added: 0, gone: 0 });
    expect(cmp.rows.map((r) => [r.kind, r.note])).toEqual([
      ['Re-matched', 'Identifier 012345678905 now matches B000000009 (was B000000001)'],
    ]);
    const [row] = changesValues(cmp.rows);
    // The row shows the product it is now (after), with before / after / change per figure; text with digits is guarded (safe.ts).
    expect(row.slice(0, 5)).toEqual(['Re-matched', "'B000000009", "'T B000000009", "'012345678905", "'S-B000000009"]);
    expect(row.slice(14, 17)).toEqual([2, 3, 1]);
  });

  test('the same ASIN under another identifier is another supplier line: gone and new', () => {
    const cmp = compareFacts([f('B000000001', '111', 2)], [f('B000000001', '222', 2)]);
    expect(cmp.rows.map((r) => r.kind).sort()).toEqual(['Gone', 'New']);
  });

  test('rows are sorted by what matters first, the larger profit (gain, loss) first within a group; unchanged rows are left out', () => {
    const before = [
      f('A', '1', -1),
      f('B', '2', 1),
      f('C', '3', 4),
      f('D', '4', 5),
      f('E', '5', 2),
      f('F', '6', 9),
      f('G', '7', 3),
      f('H', '8', -2),
      f('I', '9', 7),
    ];
    const after = [
      f('A', '1', 2), // newly profitable
      f('B', '2', 6), // profit up by 5
      f('C', '3', 5), // profit up by 1
      f('D', '4', -1), // no longer profitable (lost 6)
      f('E', '5', 1), // profit down by 1
      f('G', '7', 3), // unchanged
      f('H', '8', -2, { cost: 6 }), // changed, not profitable
      f('I', '9', 7, { buybox: null }), // lost the Buy Box, profit the same: changed
      f('N', '10', 8), // new, profitable
      f('M', '11', -3), // new, not profitable
      f('Z', '12', 12), // newly listed and best, still after the newly profitable
    ];
    const cmp = compareFacts(before, after);
    expect(cmp.rows.map((r) => r.kind + ' ' + (r.after || r.before)!.asin)).toEqual([
      'Newly profitable A',
      'New Z',
      'New N',
      'Profit up B',
      'Profit up C',
      'No longer profitable D',
      'Profit down E',
      'Gone F',
      'New M',
      'Changed I',
      'Changed H',
    ]);
    expect(cmp.counts).toMatchObject({
      newlyProfitable: 1,
      lostBuyBox: 1,
      noLongerProfitable: 1,
      profitUp: 2,
      profitDown: 1,
      added: 3,
      gone: 1,
      unchanged: 1,
    });
    expect(changesSummary(cmp.counts)).toBe(
      '1 newly profitable, 1 lost the Buy Box, 1 no longer profitable, 2 profit up, 1 profit down, 3 new, 1 gone, 2 other changes · 1 unchanged',
    );
    expect(cmp.rows.find((r) => r.after?.asin === 'I')!.note).toBe('No Buy Box now');
  });

  test('a product listed twice under one key pairs in order', () => {
    const cmp = compareFacts([f('A', '1', 1), f('A', '1', 2)], [f('A', '1', 1), f('A', '1', 3)]);
    expect(cmp.rows.map((r) => [r.kind, r.before!.v[3], r.after!.v[3]])).toEqual([['Profit up', 2, 3]]);
    expect(cmp.counts.unchanged).toBe(1);
  });
});

describe('Changes tab cells', () => {
  test('money changes to the cent and ROI to 0.0001 %, never float noise; blank when either side is blank', () => {
    const b: Fact = { asin: 'A', identifier: '1', title: '=1+1', sku: '007', v: [0.1, 10.2, 0.3, 0.7, 0.123456, 5, 1] };
    const a: Fact = { asin: 'A', identifier: '1', title: '=1+1', sku: '007', v: [0.3, null, 0.6, 0.9, 0.2, 4, 1] };
    const [row] = changesValues(compareFacts([b], [a]).rows);
    expect(row.slice(5)).toEqual([
      0.1,
      0.3,
      0.2,
      10.2,
      '',
      '',
      0.3,
      0.6,
      0.3,
      0.7,
      0.9,
      0.2,
      0.123456,
      0.2,
      0.076544,
      5,
      4,
      -1,
      1,
      1,
      0,
      'No Buy Box now',
    ]);
    // Text from the supplier or the service stays text (formula guard).
    expect(row[2]).toBe("'=1+1");
    expect(row[4]).toBe("'007");
  });

  test('a result tab is read by its headers, wherever the columns are; the three fee columns summed', () => {
    const header = [
      'Title',
      'ASIN',
      'Identifier',
      'Rank',
      'Buy Box',
      'Referral fee',
      'FBA fee',
      'Other fees',
      'Cost',
      'Profit',
      'ROI',
      'Offers',
    ];
    const [fact] = factsFromTab(header, [['Lamp', 'B000000001', '012', 900, 19.99, 3, 4.1, '', 5.5, 2.2, 0.3, 4]]);
    expect(fact).toEqual({ asin: 'B000000001', identifier: '012', title: 'Lamp', sku: '', v: [5.5, 19.99, 7.1, 2.2, 0.3, 900, 4] });
    // A column the import left out because nothing came back for it (here every figure but Cost) reads as blank;
    // only a tab without an ASIN column is no result tab.
    expect(factsFromTab(['ASIN', 'Cost'], [['B000000001', 5.5]])).toEqual([
      { asin: 'B000000001', identifier: '', title: '', sku: '', v: [5.5, null, null, null, null, null, null] },
    ]);
    expect(() => factsFromTab(['Title'], [])).toThrow(/no ASIN column in its first row, so it is not a result tab/);
  });

  test('tab name: "<name> – Changes" cut by character (never half an emoji) within 26, so " (NN)" still fits in 31', () => {
    expect(changesTabBase('Acme 2026-11-09')).toBe('Acme 2026-11-09 – Changes');
    const long = changesTabBase('Großhandel 😀😀 Liste 2026-11-09');
    expect(Array.from(long).length).toBeLessThanOrEqual(26);
    expect(long.endsWith(' – Changes')).toBe(true);
    expect(long).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(changesTabBase('Acme – Changes')).toBe('Acme – Changes');
  });

  test('tab name (issue 32): never cut in the middle of a date or a word; a dated name keeps its date, short', () => {
    // Was "Price List 2026- – Changes".
    expect(changesTabBase('Price List 2026-11-28')).toBe('Price List 11-28 – Changes');
    expect(changesTabBase('Acme Wholesale Spring Catalogue 2026-11-28')).toBe('Acme 11-28 – Changes');
    expect(changesTabBase('Acme Wholesale Spring Catalogue')).toBe('Acme Wholesale – Changes');
    // Two dates of one list stay apart.
    expect(changesTabBase('Price List 2026-11-28')).not.toBe(changesTabBase('Price List 2026-12-05'));
    for (const n of ['Price List 2026-11-28', 'Acme Wholesale Spring Catalogue 2026-11-28', 'Supercalifragilisticexpialidocious'])
      expect(Array.from(changesTabBase(n)).length).toBeLessThanOrEqual(26);
  });

  test('the scan note on a result tab reads back', () => {
    expect(readScanNote(scanNote(42, 'US', 250, false))).toEqual({ scanId: 42, marketplace: 'US', rows: 250, filtered: false });
    expect(readScanNote(scanNote(42, 'DE', 3, true))!.filtered).toBe(true);
    expect(readScanNote('Scan 42 is great')).toBeNull();
  });
});
