/**
 * The shipped sample catalog shows every verdict a seller can meet (issue 36), and every
 * ineligibility code it answers reads in words in the add-on's verdict (none falls back to the code).
 */
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { SAMPLE_CATALOG_PATH } from '../../emulator/service/catalog/index';
import type { CatalogRecord } from '../../emulator/service/catalog/format';
import { ineligibleReason } from '../../src/domain/result-tabs/verdict';

const records: CatalogRecord[] = gunzipSync(readFileSync(SAMPLE_CATALOG_PATH))
  .toString('utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l));

describe('sample catalog and the verdict', () => {
  it('every ineligibility code in the sample has words', () => {
    const codes = new Set(records.flatMap((r) => r.inbound_eligibility.ineligible_codes));
    expect([...codes].sort()).toEqual([
      'ADULT_PRODUCT_RESTRICTED',
      'BRAND_APPROVAL_REQUIRED',
      'HAZMAT_REVIEW_REQUIRED',
      'MELTABLE_OUT_OF_SEASON',
    ]);
    for (const c of codes) expect(ineligibleReason(c)).not.toMatch(/^code /);
  });

  it('has eligible listings flagged hazmat, meltable or adult (Check) and ineligible ones with and without flags', () => {
    const eligible = records.filter((r) => r.inbound_eligibility.eligible);
    for (const flag of ['is_hazmat', 'is_meltable', 'is_adult'] as const)
      expect([flag, eligible.filter((r) => r[flag]).length > 10]).toEqual([flag, true]);
    const ineligible = records.filter((r) => !r.inbound_eligibility.eligible);
    expect(ineligible.every((r) => r.inbound_eligibility.ineligible_codes.length > 0)).toBe(true);
    expect(ineligible.filter((r) => !r.is_hazmat && !r.is_meltable && !r.is_adult).length).toBeGreaterThan(10);
    expect(records.filter((r) => !r.fees_available && r.inbound_eligibility.eligible).length).toBeGreaterThan(10);
  });
});
