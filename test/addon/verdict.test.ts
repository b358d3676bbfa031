/**
 * Issue 36: the verdict of each result row, through importScan of a default scan over the shipped
 * sample catalog (the local service marks some of its products ineligible for FBA inbound, some
 * hazmat). The built add-on in the local Apps Script runtime.
 */
import { spawnService, type SpawnedService } from '../../emulator/service/spawn';
import { readCatalogRecords, SAMPLE_CATALOG_PATH } from '../../emulator/service/catalog';
import { Workbook } from '../../emulator/gas/spreadsheet';
import type { Runtime } from '../../emulator/gas';
import { connect, runtime } from './scanflow-helpers';
import { serviceRows, uploadScan, waitFinished, type SupplierRow } from './import-helpers';

jest.setTimeout(60_000);

const NAME = 'Sample buys';
let service: SpawnedService;
let scanId: number;

/** UPCs of the sample's US listings (one listing each): `n` of each kind the verdict tells apart. */
function sampleRows(n: number): SupplierRow[] {
  const us = readCatalogRecords(SAMPLE_CATALOG_PATH).filter((r) => r.marketplace_id === 1);
  const perUpc = new Map<string, number>();
  for (const r of us) for (const u of r.identifiers.upc ?? []) perUpc.set(u, (perUpc.get(u) ?? 0) + 1);
  const single = (r: (typeof us)[number]) => (r.identifiers.upc ?? []).find((u) => perUpc.get(u) === 1);
  const kinds = [
    (r: (typeof us)[number]) => !r.inbound_eligibility.eligible,
    (r: (typeof us)[number]) => r.inbound_eligibility.eligible && r.is_hazmat,
    (r: (typeof us)[number]) => r.inbound_eligibility.eligible && !r.is_hazmat && !r.is_meltable && !r.is_adult,
  ];
  const upcs: string[] = [];
  for (const kind of kinds)
    upcs.push(
      ...us
        .filter((r) => kind(r) && single(r))
        .slice(0, n)
        .map((r) => single(r)!),
    );
  // A low cost: most rows are profitable, so an ineligible one would look like a buy.
  return upcs.map((upc, i) => ({ upc, cost: '1.00', sku: 'S-' + i, sheetRow: i + 2, note: '' }));
}

beforeAll(async () => {
  service = await spawnService({ SCAN_SERVICE_SPEED: '6000000', SCAN_SERVICE_API_KEYS: 'imp-key-a' });
  scanId = await uploadScan(service, sampleRows(8), NAME);
  await waitFinished(service, scanId);
});
afterAll(async () => {
  await service?.stop();
});

function session(): { rt: Runtime; wb: Workbook } {
  const wb = new Workbook({ name: 'Supplier' });
  const rt = runtime(wb);
  connect(rt, service.url, service.apiKey);
  return { rt, wb };
}

test('every row has a verdict after Title; a product Amazon will not take into FBA, or hazmat, says so with the reasons in its note', async () => {
  const { rt, wb } = session();
  try {
    rt.scriptRun('importScan', [scanId, null]);
    const products = await serviceRows(service, scanId);
    const header = wb.values(NAME)[0];
    expect(header.slice(0, 3)).toEqual(['ASIN', 'Title', 'Verdict']);
    const at = (r: number) => wb.cell(NAME, wb.a1(r, 3));
    const ineligible = products.map((p, i) => [p, i + 2] as const).filter(([p]) => p.inbound_eligibility.eligible === false);
    const hazmat = products.map((p, i) => [p, i + 2] as const).filter(([p]) => p.inbound_eligibility.eligible && p.is_hazmat === true);
    // The premise: the scan holds both kinds, and ineligible rows that are profitable.
    expect(ineligible.length).toBe(8);
    expect(hazmat.length).toBe(8);
    expect(ineligible.some(([p]) => p.financials.profit > 0)).toBe(true);
    for (const [p, r] of ineligible) {
      expect(at(r).value).toBe("Can't send to FBA");
      expect(at(r).note).toMatch(/^Amazon will not take it into FBA: /);
      if (p.inbound_eligibility.ineligible_codes.includes('HAZMAT_REVIEW_REQUIRED')) expect(at(r).note).toContain('(hazmat)');
    }
    for (const [, r] of hazmat) {
      expect(at(r).value).toBe('Check');
      expect(at(r).note).toContain('Hazmat: dangerous goods');
    }
    // A plain buy is profitable, eligible and has no note.
    products.forEach((p, i) => {
      if (at(i + 2).value === 'Buy')
        expect([at(i + 2).note, p.inbound_eligibility.eligible, p.financials.profit > 0]).toEqual(['', true, true]);
    });
    expect(products.some((_, i) => at(i + 2).value === 'Buy')).toBe(true);
  } finally {
    rt.close();
  }
});
