/**
 * The BUILT add-on's import against a Scan Service that lies (issue 26), through lying-proxy.cjs in
 * front of the local service: a count that lies once, oversized strings in a row, a 60,000-character
 * scan name, a service that ignores `page`, objects where strings are declared, huge numbers, a
 * 429 asking for 10 hours or 25 seconds, a tab name whose 90th character is half an emoji. One case
 * per item; each fails on the code before the issue.
 */
import type { SpawnedService } from '../../emulator/service/spawn';
import type { Workbook } from '../../emulator/gas/spreadsheet';
import type { Runtime } from '../../emulator/gas';
import { startChildProxy, thrown } from './scanflow-helpers';
import { importSession, serviceRows, startImportService, supplierRows, uploadScan, waitFinished } from './import-helpers';
import { IMPORT_TUNING_KEY, importKey, importKeyIds } from '../../src/store/keys';

jest.setTimeout(60_000);

const RESULTS = '^/api/v3/scans/\\d+$';
const PRODUCTS = { tableType: 'products' };
/** A UTF-16 unit of a pair without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

interface LieRule {
  method?: string;
  path: string;
  times?: number;
  when?: Record<string, unknown>;
  pageToOne?: boolean;
  countFactor?: number;
  set?: Record<string, unknown>;
  rows?: { first?: number; set: Record<string, unknown> };
  status?: number;
  headers?: Record<string, string>;
}

let service: SpawnedService;
let proxy: { url: string; stop: () => void };
let scanId: number;
let asins: string[];
const NAME = 'Lied';

async function lies(rules: LieRule[]): Promise<void> {
  await fetch(proxy.url + '/__lies', { method: 'POST', body: JSON.stringify(rules) });
}

beforeAll(async () => {
  service = await startImportService();
  proxy = await startChildProxy('lying-proxy.cjs', service.url);
  scanId = await uploadScan(service, supplierRows(250, 3), NAME);
  await waitFinished(service, scanId);
  asins = (await serviceRows(service, scanId)).map((p) => p.asin);
});
afterAll(async () => {
  await proxy?.stop();
  await service?.stop();
});
beforeEach(async () => {
  await fetch(proxy.url + '/__reset', { method: 'POST' });
});

function session(): { rt: Runtime; wb: Workbook } {
  return importSession({ url: proxy.url, apiKey: service.apiKey });
}

const column = (wb: Workbook, tab: string, header: string) => {
  const values = wb.values(tab);
  const c = values[0].indexOf(header);
  expect(c).toBeGreaterThanOrEqual(0);
  return values.slice(1).map((r) => r[c]);
};
const importKeys = (rt: Runtime) => importKeyIds(Object.keys(rt.properties.document!.toObject()));
const hiddenTabs = (wb: Workbook) => wb.sheets.filter((s) => s.hidden).map((s) => s.name);

/** importScan called as the sidebar does (the same request each step) until done, at most `max` calls. */
function importAll(rt: Runtime, max = 30): any {
  for (let i = 0; i < max; i++) {
    const r = rt.scriptRun('importScan', [scanId, {}]) as any;
    if (r.done) return r;
  }
  throw new Error('not done after ' + max + ' calls');
}

describe.each([
  ['10 times', 10],
  ['half', 0.5],
])('item 1: a count that lies once (%s the real one) heals', (_label, factor) => {
  test('the import re-reads the count and imports every row once, in one call', async () => {
    const { rt, wb } = session();
    try {
      await lies([{ method: 'POST', path: RESULTS, when: PRODUCTS, times: 1, countFactor: factor }]);
      const r = rt.scriptRun('importScan', [scanId, {}]) as any;
      expect(r).toMatchObject({ done: true, rowsWritten: 250, totalRows: 250 });
      expect(column(wb, NAME, 'ASIN')).toEqual(asins);
      expect(hiddenTabs(wb)).toEqual([]);
      expect(importKeys(rt)).toEqual([]);
    } finally {
      await rt.stop();
    }
  });

  test('a checkpoint saved under the lying count is discarded: the next steps start again and finish, no row twice', async () => {
    const { rt, wb } = session();
    try {
      // One page a call, so the lie is saved in the checkpoint before the service answers right again.
      rt.properties.script.set(IMPORT_TUNING_KEY, JSON.stringify({ budgetMs: 1, pagesPerWave: 1 }));
      await lies([{ method: 'POST', path: RESULTS, when: PRODUCTS, times: 1, countFactor: factor }]);
      const first = rt.scriptRun('importScan', [scanId, {}]) as any;
      expect(first.done).toBe(false);
      expect(JSON.parse(rt.properties.document!.get(importKey(scanId))!).productsTotal).toBe(Math.round(250 * factor));
      const r = importAll(rt);
      expect(r).toMatchObject({ done: true, rowsWritten: 250, totalRows: 250 });
      expect(column(wb, NAME, 'ASIN')).toEqual(asins);
      expect(hiddenTabs(wb)).toEqual([]);
      expect(importKeys(rt)).toEqual([]);
    } finally {
      await rt.stop();
    }
  });
});

test('item 3: a 60,000-character string in a result row is cut visibly within the cell, never inside a character; every row imported', async () => {
  const { rt, wb } = session();
  try {
    const emoji = '😀';
    await lies([
      { method: 'POST', path: RESULTS, when: PRODUCTS, times: 1, rows: { first: 2, set: { market_title: `<repeat:60000:${emoji}>` } } },
    ]);
    const r = rt.scriptRun('importScan', [scanId, {}]) as any;
    expect(r).toMatchObject({ done: true, rowsWritten: 250 });
    const titles = column(wb, NAME, 'Title') as string[];
    for (const t of titles.slice(0, 2)) {
      expect(t.length).toBeLessThanOrEqual(50000);
      expect(t.length).toBeGreaterThan(49000);
      // 60,000 UTF-16 units of emoji = 30,000 characters
      expect(t.endsWith(' … [cut: 30,000 characters]')).toBe(true);
      expect(t.startsWith(emoji.repeat(10))).toBe(true);
      expect(LONE_SURROGATE.test(t)).toBe(false);
    }
    expect(titles[2]).not.toMatch(/cut/);
    expect(column(wb, NAME, 'ASIN')).toEqual(asins);
  } finally {
    await rt.stop();
  }
});

test('item 4: a scan name of 60,000 characters imports (checkpoint within 9 KB, tab name cut to the 31 characters of an .xlsx sheet name, marked "…"), no staging tab left', async () => {
  const { rt, wb } = session();
  try {
    await lies([{ method: 'GET', path: RESULTS, set: { name: '<repeat:60000:N>' } }]);
    const r = rt.scriptRun('importScan', [scanId, {}]) as any;
    expect(r).toMatchObject({ done: true, rowsWritten: 250, sheetName: 'N'.repeat(30) + '…' });
    expect(wb.sheetNames()).toEqual(['Sheet1', 'N'.repeat(30) + '…', 'N'.repeat(19) + '… – Overview', 'N'.repeat(21) + '… – errors']);
    expect(hiddenTabs(wb)).toEqual([]);
    expect(importKeys(rt)).toEqual([]);
    for (const v of Object.values(rt.properties.document!.toObject())) expect(Buffer.byteLength(v)).toBeLessThanOrEqual(9 * 1024);
  } finally {
    await rt.stop();
  }
});

test('item 4: a count no tab can hold is refused plainly, and leaves no staging tab and no checkpoint, try after try', async () => {
  const { rt, wb } = session();
  try {
    // A count of 10,000,000 rows: no tab can be made that large (Sheets' 10 million cells).
    await lies([{ method: 'POST', path: RESULTS, when: PRODUCTS, countFactor: 40000 }]);
    for (let i = 0; i < 3; i++) {
      expect(thrown(() => rt.scriptRun('importScan', [scanId, {}]))).toMatch(
        /^The Scan Service says this scan has 10,000,000 results: more than a spreadsheet holds \(10,000,000 cells\)\./,
      );
      expect(hiddenTabs(wb)).toEqual([]);
      expect(importKeys(rt)).toEqual([]);
    }
    expect(wb.sheetNames()).toEqual(['Sheet1']);
  } finally {
    await rt.stop();
  }
});

test('item 5: a service that ignores `page` (page 1 again for pages 2 and 3): refused plainly, nothing imported, nothing left', async () => {
  const { rt, wb } = session();
  try {
    await lies([{ method: 'POST', path: RESULTS, when: PRODUCTS, pageToOne: true }]);
    expect(thrown(() => rt.scriptRun('importScan', [scanId, {}]))).toBe(
      "The Scan Service answered page 2 of this scan's results with the same rows as page 1 (it seems to ignore which page is asked for), so nothing was imported: a tab of repeated rows would not be the scan's results. Try again later; if it happens again, tell the Scan Service's support.",
    );
    expect(wb.sheetNames()).toEqual(['Sheet1']);
    expect(importKeys(rt)).toEqual([]);
    // The repeat is caught across calls too (one page a call): never counted complete.
    rt.properties.script.set(IMPORT_TUNING_KEY, JSON.stringify({ budgetMs: 1, pagesPerWave: 1 }));
    expect((rt.scriptRun('importScan', [scanId, {}]) as any).done).toBe(false);
    expect(thrown(() => rt.scriptRun('importScan', [scanId, {}]))).toMatch(/same rows as page 1/);
    expect(wb.sheetNames()).toEqual(['Sheet1']);
    expect(importKeys(rt)).toEqual([]);
  } finally {
    await rt.stop();
  }
});

test('item 7: objects where strings are declared are written as their text ({name}, {value}) or JSON text, never "[object Object]"', async () => {
  const { rt, wb } = session();
  try {
    await lies([
      {
        method: 'POST',
        path: RESULTS,
        when: PRODUCTS,
        times: 1,
        rows: { first: 3, set: { market_title: { name: '=Bolt cutter' }, category: { value: 'Tools' }, brand: { id: 7, code: 'X' } } },
      },
    ]);
    expect(rt.scriptRun('importScan', [scanId, {}])).toMatchObject({ done: true });
    const all = wb.values(NAME).flat();
    expect(all.filter((v) => v === '[object Object]')).toEqual([]);
    expect(column(wb, NAME, 'Title').slice(0, 3)).toEqual(['=Bolt cutter', '=Bolt cutter', '=Bolt cutter']);
    expect(column(wb, NAME, 'Category').slice(0, 3)).toEqual(['Tools', 'Tools', 'Tools']);
    // stored as text, never run as a formula
    expect(wb.cell(NAME, 'B2').formula).toBe('');
    expect(column(wb, NAME, 'Brand').slice(0, 1)).toEqual(['{"id":7,"code":"X"}']);
  } finally {
    await rt.stop();
  }
});

test('item 8: huge numbers never reach the message ("$Infinity", "1e+306%"): only sane figures are stated', async () => {
  const { rt } = session();
  try {
    const fin = { profit: 500, roi: 1e306, margin: 1000, net_revenue: 2000, prep_cost: 0, inbound_shipping: 0 };
    await lies([
      { method: 'POST', path: RESULTS, when: PRODUCTS, times: 1, rows: { first: 3, set: { profit_per_month: 1e308, financials: fin } } },
    ]);
    const r = rt.scriptRun('importScan', [scanId, {}]) as any;
    expect(r.done).toBe(true);
    expect(r.message).not.toMatch(/Infinity|NaN|e\+\d/);
    expect(r.message).toMatch(/best ROI \d[\d.]*%/);
    expect(r.message).toMatch(/\$[\d,]+\.\d\d profit a month/);
  } finally {
    await rt.stop();
  }
});

test.each([
  ['36000', /asked to wait 10 hours \(until about \d\d:\d\d UTC\) before the next request/],
  ['25', /asked to wait 25 seconds before the next request/],
])('item 9 (and #27.11): a 429 with Retry-After %s s is told with the wait the service asked for', async (after, said) => {
  const { rt } = session();
  try {
    await lies([{ method: 'POST', path: RESULTS, status: 429, headers: { 'retry-after': after } }]);
    const msg = thrown(() => rt.scriptRun('importScan', [scanId, {}]));
    expect(msg).toMatch(said);
    expect(msg).not.toMatch(/few minutes/);
  } finally {
    await rt.stop();
  }
});

test('item 11: a tab name cut at 31 characters (an .xlsx sheet name) never ends in half an emoji', async () => {
  const { rt, wb } = session();
  try {
    // The emoji's two halves would be the 30th and 31st characters; the mark "…" takes the 31st.
    const name = 'A'.repeat(29) + '😀 tail';
    await lies([{ method: 'GET', path: RESULTS, set: { name } }]);
    const r = rt.scriptRun('importScan', [scanId, {}]) as any;
    expect(r.done).toBe(true);
    expect(r.sheetName).toBe('A'.repeat(29) + '…');
    for (const n of wb.sheetNames()) expect(LONE_SURROGATE.test(n)).toBe(false);
  } finally {
    await rt.stop();
  }
});
