/**
 * Set-up of the result-import, history and trigger tests: a catalog with known products (formula
 * bait in titles, identifiers with leading zeros, unprofitable and fee-less products), the local
 * Scan Service over it in a child process, scans uploaded straight over HTTP, and the service's own
 * results read over HTTP for cell-by-cell comparison.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnService, type SpawnedService } from '../../emulator/service/spawn';
import { readCatalogRecords, SAMPLE_CATALOG_PATH } from '../../emulator/service/catalog';
import { Workbook } from '../../emulator/gas/spreadsheet';
import type { Runtime, RuntimeOptions } from '../../emulator/gas';
import { connect, runtime, scanRequest } from './scanflow-helpers';

/** A valid UPC-A from a number (GS1 check digit); small numbers keep their leading zeros. */
export function upc(n: number): string {
  const body = String(n).padStart(11, '0');
  let sum = 0;
  for (let i = body.length - 1, w = 3; i >= 0; i--, w = w === 3 ? 1 : 3) sum += Number(body[i]) * w;
  return body + ((10 - (sum % 10)) % 10);
}

export const asinOf = (i: number) => 'B3' + String(i).padStart(8, '0');

/** Titles the sheet must keep as text (never formulas). */
export const BAIT_TITLES = ['=1+1', '+44 20 7946 0958', '-5 pack', '@home set', '=HYPERLINK("http://evil.invalid","click")', '007 Agent'];

const dims = { length: 8, width: 6, height: 2, weight: 0.9 };

function record(i: number): Record<string, unknown> {
  const bait = i < BAIT_TITLES.length ? BAIT_TITLES[i] : null;
  return {
    marketplace_id: 1,
    asin: asinOf(i),
    title: bait ?? `Widget number ${i}`,
    brand: i % 7 === 0 ? null : i % 5 === 0 ? '=BRAND()' : 'Acme',
    color: null,
    size_name: null,
    category: i % 2 ? 'Home & Kitchen' : 'Toys & Games',
    rank: i % 11 === 0 ? null : 1000 + i * 3,
    // Prices rise with i: the first products sell below cost (negative profit).
    buybox_price: 900 + (i % 97) * 37,
    lowest_price_new_fba: 900 + (i % 97) * 37,
    lowest_price_new_fbm: i % 3 ? 950 + (i % 97) * 37 : null,
    lowest_price_used_fba: null,
    lowest_price_used_fbm: null,
    competitive_sellers: i % 4,
    new_fba_offers_count: i % 6,
    new_fbm_offers_count: i % 3,
    total_offers_count: (i % 6) + (i % 3),
    market_pack_quantity: 1,
    number_of_variations: 0,
    parent_asin: null,
    is_hazmat: i % 13 === 0,
    is_meltable: i % 17 === 0,
    is_adult: false,
    package_dimensions: dims,
    item_dimensions: dims,
    identifiers: { upc: [upc(20000 + i)] },
    images: ['img' + i],
    fees_available: i % 19 !== 5,
    inbound_eligibility: { eligible: true, updated_at: 1700000000, ineligible_codes: [] },
    // Sales history (30/60/90/180 days) for every third product; the others have none (-1 in results).
    ...(i % 3 === 0
      ? {
          history: {
            bsr: [1000 + i, 1100 + i, 1200 + i, 1300 + i],
            price: [950, 960, 970 + i, 980],
            instock_rate: [9000, 8800, 8600, 8400],
            rank_drops: [5, 9, 14 + (i % 4), 30],
          },
        }
      : {}),
  };
}

export const CATALOG_SIZE = 12000;

/** A catalog file of `records` (one JSON line each) in a new temporary folder; its path. */
function writeCatalog(records: Array<Record<string, unknown>>): string {
  const path = join(mkdtempSync(join(tmpdir(), 'import-catalog-')), 'catalog.jsonl');
  writeFileSync(path, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return path;
}

let catalogPath: string | undefined;
/** The test catalog (written once per process). */
export function testCatalog(): string {
  catalogPath ??= writeCatalog(Array.from({ length: CATALOG_SIZE }, (_, i) => record(i)));
  return catalogPath;
}

/**
 * A catalog of the test catalog's first products, one per entry of `brands` and sold under it
 * (null: no brand): a test's own brand text on products a supplier list of upc(20000 + i) finds.
 */
export function catalogWithBrands(brands: Array<string | null>): string {
  return writeCatalog(brands.map((brand, i) => ({ ...record(i), brand })));
}

export function startImportService(env: Record<string, string> = {}): Promise<SpawnedService> {
  return spawnService({
    SCAN_SERVICE_CATALOG: testCatalog(),
    SCAN_SERVICE_SPEED: '6000000',
    SCAN_SERVICE_API_KEYS: 'imp-key-a,imp-key-b',
    ...env,
  });
}

export interface SupplierRow {
  upc: string;
  cost: string;
  sku: string;
  sheetRow: number;
  note: string;
}

/**
 * A supplier list: `products` rows that the catalog knows (every 4th with formula-bait notes), then
 * `errors` rows the service cannot use (unknown identifiers, unusable costs).
 */
export function supplierRows(products: number, errors: number): SupplierRow[] {
  const rows: SupplierRow[] = [];
  const notes = ['=SUM(A1:A2)', '+1', '-2+3', '@x', 'plain note', "'quoted"];
  for (let i = 0; i < products; i++) {
    rows.push({
      upc: upc(20000 + i),
      cost: (3 + (i % 40) * 0.55).toFixed(2),
      sku: i % 9 === 0 ? '00' + i : 'SKU-' + i,
      sheetRow: 5 + i,
      note: i % 4 === 0 ? notes[(i / 4) % notes.length] : '',
    });
  }
  for (let j = 0; j < errors; j++) {
    const unknown = j % 2 === 0;
    rows.push({
      upc: unknown ? upc(900000 + j) : upc(20000 + j),
      cost: unknown ? '5.00' : 'abc',
      sku: 'ERR-' + j,
      sheetRow: 5 + products + j,
      note: j === 1 ? '=evil()' : '',
    });
  }
  return rows;
}

function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

export function supplierCsv(rows: SupplierRow[]): string {
  const lines = ['UPC,Cost,SKU,Sheet row,Note'];
  for (const r of rows) lines.push([r.upc, r.cost, r.sku, String(r.sheetRow), r.note].map(csvField).join(','));
  return lines.join('\r\n') + '\r\n';
}

/** Uploads a scan straight over HTTP (as the add-on's startScan does) and returns its id. */
export async function uploadScan(
  service: { url: string; apiKey: string },
  rows: SupplierRow[],
  name: string,
  marketplace = 'US',
  extraOptions: Record<string, unknown> = {},
): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([supplierCsv(rows)], { type: 'text/csv' }), 'list.csv');
  form.append(
    'attributes',
    JSON.stringify({
      mapping: { id: 0, cost: 1, supplier_sku: 2, custom_columns: [3, 4] },
      options: { marketplace_id: marketplace, name, header: true, custom_columns: ['Sheet row', 'Note'], ...extraOptions },
    }),
  );
  const res = await fetch(service.url + '/api/v3/scans', {
    method: 'POST',
    headers: { authorization: 'Bearer ' + service.apiKey },
    body: form,
  });
  const body = (await res.json()) as { id: number };
  if (res.status !== 201) throw new Error('upload failed: ' + res.status + ' ' + JSON.stringify(body));
  return body.id;
}

export async function api(service: { url: string; apiKey: string }, method: string, path: string, json?: unknown): Promise<any> {
  const res = await fetch(service.url + path, {
    method,
    headers: { authorization: 'Bearer ' + service.apiKey, ...(json !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: json !== undefined ? JSON.stringify(json) : undefined,
  });
  const text = await res.text();
  return text ? JSON.parse(text) : undefined;
}

export async function waitFinished(service: { url: string; apiKey: string }, id: number, timeoutMs = 20000): Promise<any> {
  const t0 = Date.now();
  for (;;) {
    const s = await api(service, 'GET', '/api/v3/scans/' + id);
    if (['success', 'error', 'cancelled'].includes(s.status)) return s;
    if (Date.now() - t0 > timeoutMs) throw new Error('scan did not finish: ' + JSON.stringify(s));
    // The service works through scans every 50 ms (scans/processor.ts); asking every 10 ms costs it
    // little and spares the test most of a turn per scan.
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Every row of a scan table as the service answers it (its own filter and sort), page by page. */
export async function serviceRows(
  service: { url: string; apiKey: string },
  id: number,
  body: Record<string, unknown> = {},
): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const r = await api(service, 'POST', '/api/v3/scans/' + id, { ...body, page, per_page: 100 });
    out.push(...r.data);
    if (out.length >= r.count || r.data.length === 0) return out;
  }
}

/**
 * What the import says a seller decides on, computed here from the service's rows (US dollars):
 * the best ROI on the all-in cost, and the profit a month EXPECTED for the seller (issue 27.3) by
 * the default rule, written out independently of src/domain/price-list/decide.ts.
 */
export function summaryOf(products: any[]): string {
  const profitable = products.filter((p) => p.financials?.profit > 0);
  const parts = [`${profitable.length} of ${products.length} product${products.length === 1 ? '' : 's'} profitable`];
  const rois = profitable
    .map((p) => p.financials.profit / (p.inputs.total_cogs + (p.financials.prep_cost || 0) + (p.financials.inbound_shipping || 0)))
    .filter((r) => isFinite(r));
  if (rois.length) parts.push(`best ROI ${Math.round(Math.max(...rois) * 10000) / 100}%`);
  if (profitable.length) {
    let cents = 0;
    let unestimated = 0;
    for (const p of profitable) {
      if (typeof p.units_per_month !== 'number') {
        unestimated++;
        continue;
      }
      const fbaBox =
        p.new_fba_offers_count > 0 &&
        p.lowest_price_new_fba !== null &&
        p.buybox_price !== null &&
        p.lowest_price_new_fba <= p.buybox_price;
      let u = p.units_per_month / (p.new_fba_offers_count + p.new_fbm_offers_count * (fbaBox ? 0.5 : 1) + 1);
      if (typeof p.inputs.stock === 'number') u = Math.min(u, p.inputs.stock / p.market_pack_quantity / 2);
      cents += Math.round((Math.round(u * 10 + 1e-9) / 10) * p.financials.profit);
    }
    parts.push(
      '$' +
        (cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }) +
        ' profit a month expected for you' +
        (products.length > profitable.length
          ? ` from the ${profitable.length} profitable, the other ${products.length - profitable.length} (losing or no profit figure) left out`
          : '') +
        ' (units ÷ (offers + 1), an FBM offer counting ½ where the Buy Box is FBA, capped by stock for 2 months' +
        (unestimated ? `; ${unestimated} without a sales estimate or offer count not counted` : '') +
        ')',
    );
  }
  return parts.join(' · ');
}

/** A seller's session: an empty spreadsheet in the local Apps Script runtime (made with `opts`), the add-on connected to `service`. */
export function importSession(service: { url: string; apiKey: string }, opts: RuntimeOptions = {}): { rt: Runtime; wb: Workbook } {
  const wb = new Workbook({ name: 'Supplier' });
  const rt = runtime(wb, opts);
  connect(rt, service.url, service.apiKey);
  return { rt, wb };
}

/** A service with one scan uploaded and finished, and sessions connected to it. */
export interface UploadedScan {
  service: SpawnedService;
  scanId: number;
  session(): { rt: Runtime; wb: Workbook };
}

/**
 * For a test file or describe block: the service `start` makes (by default over the test catalog)
 * with one finished scan of `rows()` named `name`, uploaded before its tests (the returned object is
 * filled in then) and stopped after them.
 */
export function useUploadedScan(
  name: string,
  rows: () => SupplierRow[],
  start: () => Promise<SpawnedService> = () => startImportService(),
): UploadedScan {
  const scan = { session: () => importSession(scan.service) } as UploadedScan;
  beforeAll(async () => {
    scan.service = await start();
    scan.scanId = await uploadScan(scan.service, rows(), name);
    await waitFinished(scan.service, scan.scanId);
  });
  afterAll(async () => {
    await scan.service?.stop();
  });
  return scan;
}

/** A listing of the shipped sample catalog (the one a service spawned without a catalog serves). */
export type SampleListing = ReturnType<typeof readCatalogRecords>[number];

/**
 * The sample catalog's US listings, and for each its first identifier of `kinds` that no other US
 * listing has (undefined when none): a supplier line that scans to that one listing.
 */
export function sampleUsListings(kinds: ReadonlyArray<'upc' | 'ean' | 'isbn' | 'jan'>): {
  us: SampleListing[];
  single: (r: SampleListing) => string | undefined;
} {
  const us = readCatalogRecords(SAMPLE_CATALOG_PATH).filter((r) => r.marketplace_id === 1);
  const idsOf = (r: SampleListing) => [...new Set(kinds.flatMap((k) => r.identifiers[k] ?? []))];
  const listings = new Map<string, number>();
  for (const r of us) for (const id of idsOf(r)) listings.set(id, (listings.get(id) ?? 0) + 1);
  return { us, single: (r) => idsOf(r).find((id) => listings.get(id) === 1) };
}

/** A service with one finished scan of 250 supplier rows (7 of them unusable), and what it answers. */
export interface FinishedScan {
  service: SpawnedService;
  scanId: number;
  /** The products' ASINs and the error rows' lines, in the service's order. */
  asins: string[];
  errorLines: number[];
}

export async function startFinishedScan(name: string): Promise<FinishedScan> {
  const service = await startImportService();
  const scanId = await uploadScan(service, supplierRows(250, 7), name);
  await waitFinished(service, scanId);
  const asins = (await serviceRows(service, scanId)).map((p) => p.asin);
  const errorLines = (await serviceRows(service, scanId, { tableType: 'errors', sort: 'line' })).map((e) => e.line);
  return { service, scanId, asins, errorLines };
}

/**
 * For a describe block: the finished scan named `name`, started before its tests (the returned
 * object is filled in then) and its service stopped after them.
 */
export function useFinishedScan(name: string): FinishedScan & { name: string } {
  const scan = { name } as FinishedScan & { name: string };
  beforeAll(async () => {
    Object.assign(scan, await startFinishedScan(name));
  });
  afterAll(async () => {
    await scan.service?.stop();
  });
  return scan;
}

/** The scan's result tab holds every product (by ASIN) and its errors tab every error row (by line), each once, in the service's order. */
export function expectEveryRowOnce(wb: Workbook, scan: FinishedScan & { name: string }): void {
  expect(
    wb
      .values(scan.name)
      .slice(1)
      .map((r) => r[0]),
  ).toEqual(scan.asins);
  expect(
    wb
      .values(`${scan.name} – errors`)
      .slice(1)
      .map((r) => r[1]),
  ).toEqual(scan.errorLines);
}

/**
 * A seller's scan of `n` valid UPCs typed into `sheet` (header "UPC", "Cost"; a new tab when there is none): "Scan this sheet", then
 * Send with every suggestion as it is (getScanSetup, startScan), as `user` when given, with New scan's
 * `options` and column choice when given; the scan's id.
 * `unknown` more rows follow with valid UPCs the catalog does not know (the scan's error rows).
 */
export function startSheetScan(
  rt: Runtime,
  wb: Workbook,
  sheet: string,
  n: number,
  name: string,
  opts: { user?: string; unknown?: number; options?: Record<string, unknown>; columns?: 'all' } = {},
): number {
  const unknown = opts.unknown ?? 0;
  if (!wb.sheetNames().includes(sheet)) wb.addSheet(sheet, undefined, n + unknown + 1, 2); // a new tab just big enough
  wb.type(sheet, 'A1', 'UPC');
  wb.type(sheet, 'B1', 'Cost');
  for (let i = 0; i < n; i++) {
    wb.type(sheet, wb.a1(i + 2, 1), "'" + upc(20000 + i));
    wb.type(sheet, wb.a1(i + 2, 2), (3 + (i % 40) * 0.55).toFixed(2));
  }
  for (let j = 0; j < unknown; j++) {
    wb.type(sheet, wb.a1(n + j + 2, 1), "'" + upc(900000 + j));
    wb.type(sheet, wb.a1(n + j + 2, 2), '4.00');
  }
  wb.activeSheet = wb.requireSheet(sheet);
  const as = opts.user ? { user: opts.user } : {};
  const setup = rt.scriptRun('getScanSetup', [], as) as any;
  const started = rt.scriptRun(
    'startScan',
    [
      {
        ...scanRequest(setup, { marketplace: 'US', name, ...opts.options }),
        headerRow: setup.headerRow,
        ...(opts.columns ? { columns: opts.columns } : {}),
      },
    ],
    as,
  ) as any;
  return started.progress.scanId as number;
}
