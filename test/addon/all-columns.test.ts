/**
 * Issue 36, "Every documented product field reachable" and "History at a glance", through the
 * add-on's entry points (getScanSetup, previewScan, startScan, importScan) against the local Scan
 * Service over its shipped sample catalog, in its own answer shapes and in the vendor client's
 * (vendor-shapes-proxy.cjs). New scan's "All columns" is kept in the scan's record, so the import
 * (run later, here by importScan) knows it; the room check counts it. A scan that pulled history
 * gets one trend chart per row for rank and for price (=SPARKLINE over the row's own history
 * cells, oldest to newest: Google's SPARKLINE page, support.google.com/docs/answer/3093289).
 */
import { spawnService, type SpawnedService } from '../../emulator/service/spawn';
import { Workbook } from '../../emulator/gas/spreadsheet';
import type { Runtime } from '../../emulator/gas';
import { connect, runtime, scanRequest, startChildProxy } from './scanflow-helpers';
import { sampleUsListings, serviceRows, waitFinished, type SampleListing } from './import-helpers';
import { ALL_COLUMN_HEADERS } from '../../src/domain/result-tabs/all-columns';

jest.setTimeout(90_000);

/**
 * The headers "All columns" adds (src/domain/result-tabs/all-columns.ts). Each must be in the
 * seller's words: capitalised words, a unit in brackets, never the API's field name (snake_case).
 * The first test reads every one of them by name and checks it read exactly these.
 */
const ALL_HEADERS = ALL_COLUMN_HEADERS;
const SELLER_WORDS = /^[A-Z][A-Za-z]*( [A-Za-z]+)*( \((in|lb)\))?$/;
/** The history figures a trend reads, oldest to newest, then today's column. */
const RANK_SERIES = ['Avg rank 180d', 'Avg rank 90d', 'Avg rank 60d', 'Avg rank 30d', 'Rank'];
const PRICE_SERIES = ['Avg price 180d', 'Avg price 90d', 'Avg price 60d', 'Avg price 30d', 'Buy Box'];

let service: SpawnedService;
let proxy: { url: string; stop: () => void };

type Rec = SampleListing;

/** Identifiers of sample US listings (one listing each) holding every field "All" shows: a few of each kind. */
function sampleList(): Array<{ upc: string; cost: string }> {
  // An identifier of the listing no other US listing has (a book has no UPC: its ISBN).
  const { us, single } = sampleUsListings(['upc', 'ean', 'isbn', 'jan']);
  const kinds: Array<(r: Rec) => boolean> = [
    (r) => !r.inbound_eligibility.eligible,
    (r) => r.lowest_price_used_fba !== null && r.lowest_price_used_fbm !== null,
    (r) => r.parent_asin !== null,
    (r) => !r.fees_available,
    (r) => (r.identifiers.ean ?? []).length > 0 && (r.identifiers.gtin ?? []).length > 0,
    (r) => (r.identifiers.jan ?? []).length > 0,
    (r) => (r.identifiers.isbn ?? []).length > 0,
    (r) => r.history !== undefined,
  ];
  const picked = new Set<Rec>();
  for (const kind of kinds) for (const r of us.filter((x) => kind(x) && single(x)).slice(0, 3)) picked.add(r);
  return [...picked].map((r) => ({ upc: single(r)!, cost: '4.00' }));
}

const LIST = sampleList();

beforeAll(async () => {
  service = await spawnService({ SCAN_SERVICE_SPEED: '6000000' });
  proxy = await startChildProxy('vendor-shapes-proxy.cjs', service.url);
});
afterAll(async () => {
  await proxy?.stop();
  await service?.stop();
});

function session(url = service.url): { rt: Runtime; wb: Workbook } {
  const wb = new Workbook({ name: 'Supplier' });
  wb.addSheet('List', undefined, LIST.length + 1, 2);
  wb.type('List', 'A1', 'UPC');
  wb.type('List', 'B1', 'Cost');
  LIST.forEach((r, i) => {
    wb.type('List', wb.a1(i + 2, 1), "'" + r.upc);
    wb.type('List', wb.a1(i + 2, 2), r.cost);
  });
  wb.activeSheet = wb.requireSheet('List');
  const rt = runtime(wb);
  connect(rt, url, service.apiKey);
  return { rt, wb };
}

/** New scan as the sidebar sends it: every suggested role, with `options` and the column choice. */
function request(rt: Runtime, options: Record<string, unknown>, columns?: string) {
  const setup = rt.scriptRun('getScanSetup') as any;
  return { ...scanRequest(setup, { marketplace: 'US', ...options }), headerRow: setup.headerRow, ...(columns ? { columns } : {}) };
}

async function scanAndImport(rt: Runtime, name: string, options: Record<string, unknown>, columns?: string): Promise<any[]> {
  const started = rt.scriptRun('startScan', [request(rt, { name, ...options }, columns)]) as any;
  const id = started.progress.scanId as number;
  await waitFinished(service, id);
  const result = rt.scriptRun('importScan', [id, null]) as any;
  expect(result.done).toBe(true);
  return serviceRows(service, id);
}

const dateIn = (seconds: number, tz: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(seconds * 1000));

test('All columns: every documented product field in its column, in seller’s words and units; the essential columns stay the default', async () => {
  const { rt, wb } = session();
  try {
    // The room check counts what is chosen: all columns are more columns.
    const essential = rt.scriptRun('previewScan', [request(rt, { name: 'Everything' })]) as any;
    const all = rt.scriptRun('previewScan', [request(rt, { name: 'Everything' }, 'all')]) as any;
    expect(all.room.columns - essential.room.columns).toBe(ALL_HEADERS.length);
    expect(all.room.needed).toBeGreaterThan(essential.room.needed);

    const products = await scanAndImport(rt, 'Everything', {}, 'all');
    const tab = wb.values('Everything');
    const header = tab[0] as string[];
    for (const h of ALL_HEADERS) expect(header).toContain(h);
    for (const h of ALL_HEADERS) expect(h).toMatch(SELLER_WORDS);
    const read = new Set<string>();
    const cell = (r: number, h: string) => {
      read.add(h);
      return wb.cell('Everything', wb.a1(r + 2, header.indexOf(h) + 1));
    };
    const v = (r: number, h: string) => cell(r, h).value;
    const tz = wb.timeZone;
    products.forEach((p, r) => {
      const el = p.inbound_eligibility;
      const pkg = p.dimensions.package_dimensions;
      const ids = (k: string) => (p.identifiers[k] ?? []).join(', ');
      const cents = (c: number | null) => (c === null ? '' : c / 100);
      expect({
        upc: v(r, 'Listing UPC'),
        ean: v(r, 'Listing EAN'),
        isbn: v(r, 'Listing ISBN'),
        gtin: v(r, 'Listing GTIN'),
        jan: v(r, 'Listing JAN'),
        parent: v(r, 'Parent ASIN'),
        variations: v(r, 'Variations'),
        fee: v(r, 'Fee problem'),
        usedFba: v(r, 'Lowest used FBA'),
        usedFbm: v(r, 'Lowest used FBM'),
        sellers: v(r, 'Competing sellers'),
        eligible: v(r, 'Can send to FBA'),
        checked: cell(r, 'FBA checked on').display,
        smallLight: v(r, 'Small and Light'),
        blocked: v(r, 'Brand blocked'),
        size: v(r, 'Package (in)'),
        weight: v(r, 'Package weight (lb)'),
      }).toEqual({
        upc: ids('upc'),
        ean: ids('ean'),
        isbn: ids('isbn'),
        gtin: ids('gtin'),
        jan: ids('jan'),
        parent: p.parent_asin ?? '',
        variations: p.number_of_variations,
        fee: p.market_fees.error ?? '',
        usedFba: cents(p.lowest_price_used_fba),
        usedFbm: cents(p.lowest_price_used_fbm),
        sellers: p.competitive_sellers,
        eligible: el.eligible,
        checked: dateIn(el.updated_at, tz),
        smallLight: p.small_and_light_eligible,
        blocked: p.is_brand_blocklisted,
        size: `${pkg.length} × ${pkg.width} × ${pkg.height}`,
        weight: pkg.weight,
      });
      // The reasons in words (verdict.ts), never a bare code the seller must look up.
      if (el.eligible === false && el.ineligible_codes.includes('HAZMAT_REVIEW_REQUIRED'))
        expect(v(r, 'Why not FBA')).toContain('dangerous goods (hazmat)');
      if (el.eligible !== false) expect(v(r, 'Why not FBA')).toBe('');
    });
    // Each added header was read by name above, and no other: a header dropped from the tab fails here.
    expect([...read].sort()).toEqual([...ALL_HEADERS].sort());
    // The premise: every added column has a figure in some row (the sample rows carry each field).
    for (const h of ALL_HEADERS) expect([h, products.some((_, r) => v(r, h) !== '')]).toEqual([h, true]);
    // Essential (the default): today's columns, none of these.
    const plain = session();
    try {
      await scanAndImport(plain.rt, 'Essential', {});
      const essentialHeader = plain.wb.values('Essential')[0];
      for (const h of ALL_HEADERS) expect(essentialHeader).not.toContain(h);
      expect(essentialHeader.length).toBe(header.length - ALL_HEADERS.length);
    } finally {
      await plain.rt.stop();
    }
  } finally {
    await rt.stop();
  }
});

test("the vendor client's answer shapes fill every added column alike", async () => {
  const direct = session();
  const vendor = session(proxy.url);
  try {
    await scanAndImport(direct.rt, 'Shapes', { pullHistoricalData: true }, 'all');
    await scanAndImport(vendor.rt, 'Shapes', { pullHistoricalData: true }, 'all');
    const a = direct.wb.values('Shapes');
    const b = vendor.wb.values('Shapes');
    expect(b[0]).toEqual(a[0]);
    for (const h of [...ALL_HEADERS, ...RANK_SERIES, ...PRICE_SERIES]) {
      const c = a[0].indexOf(h);
      // The premise: the column is there and the vendor's shapes gave it figures.
      expect([h, c >= 0, b.slice(1).some((r) => r[c] !== '')]).toEqual([h, true, true]);
      expect([h, b.map((r) => r[c])]).toEqual([h, a.map((r) => r[c])]);
    }
  } finally {
    await direct.rt.stop();
    await vendor.rt.stop();
  }
});

test('history at a glance: a rank and a price trend per row, =SPARKLINE over its own figures oldest to newest, coloured by direction', async () => {
  const { rt, wb } = session();
  try {
    const products = await scanAndImport(rt, 'Trends', { pullHistoricalData: true });
    const tab = wb.values('Trends');
    const header = tab[0] as string[];
    const letter = (h: string) => wb.a1(1, header.indexOf(h) + 1).replace(/\d+$/, '');
    for (const h of [...RANK_SERIES, ...PRICE_SERIES, 'Rank trend', 'Price trend']) expect(header).toContain(h);
    let charts = 0;
    products.forEach((p, i) => {
      const row = i + 2;
      for (const [trend, series, today, better] of [
        ['Rank trend', RANK_SERIES, p.rank, 'lower'],
        ['Price trend', PRICE_SERIES, p.buybox_price, 'higher'],
      ] as const) {
        const c = wb.cell('Trends', wb.a1(row, header.indexOf(trend) + 1));
        // The figures stay in their columns; the chart holds no value of its own.
        expect([c.value, c.display, c.error]).toEqual(['', '', null]);
        const key = trend === 'Rank trend' ? 'bsr' : 'price';
        const points = [180, 90, 60, 30].map((d) => p[`${key}_${d}_days`]).concat([today]);
        const known = points.filter((x: unknown) => typeof x === 'number' && x >= 0) as number[];
        if (known.length < 2) {
          expect(c.formula).toBe('');
          continue;
        }
        charts++;
        const change = known[known.length - 1] - known[0];
        const colour = change === 0 ? '#80868b' : change < 0 === (better === 'lower') ? '#188038' : '#d93025';
        expect(c.formula).toBe(
          `=SPARKLINE({${series.map((h) => letter(h) + row).join(',')}},{"charttype","line";"color","${colour}";"empty","ignore";"nan","ignore";"linewidth",2})`,
        );
      }
    });
    // The premise: rows with history, charted.
    expect(charts).toBeGreaterThan(4);
    // The figures a chart reads are the service's, in their columns.
    const withHistory = products.findIndex((p) => p.bsr_180_days >= 0 && p.price_30_days >= 0);
    expect(withHistory).toBeGreaterThanOrEqual(0);
    const at = (h: string) => tab[withHistory + 1][header.indexOf(h)];
    expect([at('Avg rank 180d'), at('Avg price 30d')]).toEqual([
      products[withHistory].bsr_180_days,
      products[withHistory].price_30_days / 100,
    ]);
  } finally {
    await rt.stop();
  }
});
