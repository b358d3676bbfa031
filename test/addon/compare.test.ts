/**
 * "Compare with an earlier scan" (issue 23) end to end: two scans of one supplier list at the local
 * Scan Service (a week apart: costs moved, rows gone, rows new), imported by the BUILT add-on in the
 * local Apps Script runtime, then compareScans. The Changes tab is checked cell by cell against the
 * service's own rows (read over HTTP here, figures worked out here from cents).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SpawnedService } from '../../emulator/service/spawn';
import { Workbook } from '../../emulator/gas/spreadsheet';
import type { Runtime } from '../../emulator/gas';
import { connect, runtime } from './scanflow-helpers';
import { serviceRows, startImportService, supplierRows, uploadScan, waitFinished, type SupplierRow } from './import-helpers';
import { COMPARE_KEY, IMPORT_TUNING_KEY } from '../../src/store/keys';
import { main } from '../../tools/local';

jest.setTimeout(120_000);

const MONEY = '"$"#,##0.00';
const FIGS = ['Cost', 'Buy Box', 'Fees', 'Profit', 'ROI', 'Rank', 'Offers'];
const FORMATS = [MONEY, MONEY, MONEY, MONEY, '0.00%', '#,##0', '#,##0'];

/** The week-later list: rows 50-54 gone, 60-64 new, costs down on rows 0-9 (unprofitable ones), far up on rows 40-44 and a little up on 45-49 (profitable ones). */
function laterRows(first: SupplierRow[]): SupplierRow[] {
  const rows = first.filter((_, i) => i < 50 || i > 54).map((r, i) => ({ ...r }));
  rows.forEach((r, i) => {
    const n = Number(r.sku.replace(/^SKU-|^00/, ''));
    if (n < 10) r.cost = '0.50';
    else if (n >= 40 && n < 45) r.cost = '40.00';
    else if (n >= 45 && n < 50) r.cost = (Number(r.cost) + 1).toFixed(2);
    void i;
  });
  const extra = supplierRows(65, 0).slice(60);
  return rows.concat(extra);
}

interface F {
  asin: string;
  identifier: string;
  title: string;
  sku: string;
  v: (number | null)[];
}

const c2a = (c: unknown) => (typeof c === 'number' ? c / 100 : null);
function fact(p: any): F {
  const fees = [
    p.market_fees.referral_fee,
    p.market_fees.fba_fees,
    p.market_fees.per_item_fee,
    p.market_fees.variable_closing_fee,
    p.market_fees.inbound_placement_fee,
  ].filter((x) => typeof x === 'number');
  const allIn = p.inputs.total_cogs + (p.financials.prep_cost || 0) + (p.financials.inbound_shipping || 0);
  return {
    asin: p.asin,
    identifier: p.inputs.identifier,
    title: p.market_title ?? '',
    sku: p.inputs.supplier_sku ?? '',
    v: [
      c2a(p.inputs.cost),
      c2a(p.buybox_price),
      fees.length ? fees.reduce((a: number, b: number) => a + b, 0) / 100 : null,
      c2a(p.financials.profit),
      typeof p.financials.profit === 'number' && allIn > 0 ? Math.round((p.financials.profit / allIn) * 1e6) / 1e6 : null,
      typeof p.rank === 'number' ? p.rank : null,
      // The result tab's one offer count: FBA + FBM offers (the service's total only without them).
      p.new_fba_offers_count == null && p.new_fbm_offers_count == null
        ? typeof p.total_offers_count === 'number'
          ? p.total_offers_count
          : null
        : Math.max(0, p.new_fba_offers_count || 0) + Math.max(0, p.new_fbm_offers_count || 0),
    ],
  };
}

/** The Changes rows expected, written out here: pairs by ASIN + identifier, the groups and order of the header note. */
function expectedRows(before: any[], after: any[]): { rows: unknown[][]; counts: Record<string, number> } {
  const b = before.map(fact);
  const a = after.map(fact);
  const key = (f: F) => f.asin + '|' + f.identifier;
  const left = new Map(b.map((f) => [key(f), f]));
  const out: Array<{ kind: string; g: number; w: number; b: F | null; a: F | null; i: number }> = [];
  const counts: Record<string, number> = { newly: 0, lost: 0, up: 0, down: 0, added: 0, gone: 0, unchanged: 0, changed: 0 };
  const profit = (f: F | null) => (f ? f.v[3] : null);
  const pos = (f: F | null) => (profit(f) ?? 0) > 0;
  a.forEach((f) => {
    const old = left.get(key(f));
    if (!old) {
      counts.added++;
      out.push({ kind: 'New', g: pos(f) ? 1 : 7, w: profit(f) ?? -Infinity, b: null, a: f, i: out.length });
      return;
    }
    left.delete(key(f));
    const pb = profit(old)!;
    const pa = profit(f)!;
    if (!pos(old) && pos(f)) counts.newly++, out.push({ kind: 'Newly profitable', g: 0, w: pa, b: old, a: f, i: out.length });
    else if (pos(old) && !pos(f)) counts.lost++, out.push({ kind: 'No longer profitable', g: 4, w: pb - pa, b: old, a: f, i: out.length });
    else if (pos(old) && pa > pb) counts.up++, out.push({ kind: 'Profit up', g: 2, w: pa - pb, b: old, a: f, i: out.length });
    else if (pos(old) && pa < pb) counts.down++, out.push({ kind: 'Profit down', g: 5, w: pb - pa, b: old, a: f, i: out.length });
    else if (JSON.stringify(old.v) !== JSON.stringify(f.v))
      counts.changed++, out.push({ kind: 'Changed', g: 8, w: pa ?? -Infinity, b: old, a: f, i: out.length });
    else counts.unchanged++;
  });
  for (const f of left.values()) counts.gone++, out.push({ kind: 'Gone', g: 6, w: profit(f) ?? -Infinity, b: f, a: null, i: out.length });
  // The service's order among equals: ours lists the new ones, then the gone, then the pairs.
  out.sort((x, y) => x.g - y.g || y.w - x.w || order(x) - order(y));
  function order(r: (typeof out)[number]): number {
    return r.kind === 'New' ? r.i : r.kind === 'Gone' ? 1e6 + r.i : 2e6 + r.i;
  }
  const round = (k: number, v: number) => (k < 4 ? Math.round(v * 100) / 100 : k === 4 ? Math.round(v * 1e6) / 1e6 : v);
  const rows = out.map((r) => {
    const id = (r.a || r.b)!;
    const row: unknown[] = [r.kind, id.asin, id.title, id.identifier, id.sku];
    for (let k = 0; k < 7; k++) {
      const vb = r.b ? r.b.v[k] : null;
      const va = r.a ? r.a.v[k] : null;
      row.push(vb ?? '', va ?? '', vb === null || va === null ? '' : round(k, va - vb));
    }
    row.push('');
    return row;
  });
  return { rows, counts };
}

function a1(r: number, c: number): string {
  let s = '';
  for (let n = c; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s + r;
}

describe('Compare with an earlier scan', () => {
  let service: SpawnedService;
  let first: number;
  let later: number;
  let other: number;
  let before: any[];
  let after: any[];

  beforeAll(async () => {
    service = await startImportService();
    const rows = supplierRows(60, 0);
    first = await uploadScan(service, rows, 'Acme 2026-11-02');
    await waitFinished(service, first);
    later = await uploadScan(service, laterRows(rows), 'Acme 2026-11-09');
    await waitFinished(service, later);
    other = await uploadScan(service, supplierRows(5, 0), 'Other list 2026-11-10');
    await waitFinished(service, other);
    before = await serviceRows(service, first);
    after = await serviceRows(service, later);
  });
  afterAll(async () => {
    await service?.stop();
  });

  function imported(): { rt: Runtime; wb: Workbook } {
    const wb = new Workbook({ name: 'Supplier' });
    const rt = runtime(wb);
    connect(rt, service.url, service.apiKey);
    for (const id of [first, later]) {
      let r: any;
      for (let i = 0; i < 20 && !(r && r.done); i++) r = rt.scriptRun('importScan', [id, null]);
      expect(r.done).toBe(true);
    }
    return { rt, wb };
  }

  /** `savedXlsx`: blank cells are not checked for their format (the local XLSX writer leaves empty cells out). */
  function expectChangesTab(wb: Workbook, name: string, savedXlsx = false): void {
    const want = expectedRows(before, after);
    const headers = [
      'Change',
      'ASIN',
      'Title',
      'Identifier',
      'SKU',
      ...FIGS.flatMap((f) => [f + ' before', f + ' after', f + ' change']),
      'Note',
    ];
    const sh = wb.requireSheet(name);
    expect(sh.hidden).toBe(false);
    expect(wb.values(name)[0]).toEqual(headers);
    expect(sh.lastRow()).toBe(want.rows.length + 1);
    want.rows.forEach((row, i) => {
      row.forEach((v, j) => {
        const cell = wb.cell(name, a1(i + 2, j + 1));
        if (cell.value !== v)
          throw new Error(`${name}!${a1(i + 2, j + 1)} (${headers[j]}) is ${JSON.stringify(cell.value)}, expected ${JSON.stringify(v)}`);
        if (cell.formula !== '') throw new Error(`${name}!${a1(i + 2, j + 1)} holds a formula`);
        const fig = j >= 5 && j < 26 ? Math.floor((j - 5) / 3) : -1;
        if (fig >= 0 && !(savedXlsx && v === '') && cell.format !== FORMATS[fig])
          throw new Error(`${name}!${a1(i + 2, j + 1)} has format ${cell.format}`);
      });
    });
    // The kinds a seller acts on came out of the scenario: cheaper costs made products profitable, dearer ones lost it.
    expect(want.counts.newly).toBeGreaterThan(0);
    expect(want.counts.lost).toBeGreaterThan(0);
    expect(want.counts.down).toBeGreaterThan(0);
    expect(want.counts.added).toBe(5);
    expect(want.counts.gone).toBe(5);
    expect(sh.frozenRows).toBe(1);
    expect(sh.frozenCols).toBe(2);
    expect(sh.filter && { r1: sh.filter.r1, c2: sh.filter.c2, r2: sh.filter.r2 }).toEqual({
      r1: 1,
      c2: headers.length,
      r2: want.rows.length + 1,
    });
    const ruled = (sh.cfRules as any[]).map((r) => headers[r.d.ranges[0]._c - 1]);
    expect([...new Set(ruled)]).toEqual(['Profit after', 'Profit change', 'ROI after', 'ROI change']);
    expect(wb.cell(name, 'A1').note).toMatch(/^Sorted by what matters first: Newly profitable/);
    expect(wb.cell(name, a1(1, headers.indexOf('ROI after') + 1)).note).toMatch(
      /^ROI = Profit ÷ \(Total cost \+ Prep \+ Inbound shipping\)/,
    );
  }

  test('a Changes tab checked cell by cell against two known scans, read from their untouched result tabs (no request)', async () => {
    const { rt, wb } = imported();
    try {
      const runs = rt.executions.length;
      // Later scan first: the older one is "before" whatever the order.
      const r = rt.scriptRun('compareScans', ['Acme 2026-11-09', 'Acme 2026-11-02']) as any;
      expect(r.done).toBe(true);
      expect([r.before, r.after]).toEqual([first, later]);
      expect(r.sources).toEqual({ before: 'tab', after: 'tab' });
      expect(r.requests).toBe(0);
      expect(rt.executions.slice(runs).reduce((s, e) => s + e.counters.urlFetchRequests, 0)).toBe(0);
      expect(r.sheetName).toBe('Acme 2026-11-09 – Changes');
      expectChangesTab(wb, r.sheetName);
      const c = expectedRows(before, after).counts;
      expect(r.summary).toContain(`${c.newly} newly profitable`);
      expect(r.summary).toContain(`${c.lost} no longer profitable`);
      expect(r.summary).toContain('5 new, 5 gone');
      expect(rt.properties.document!.get(COMPARE_KEY)).toBeNull();
      expect(wb.sheets.filter((s) => s.hidden)).toEqual([]);
    } finally {
      await rt.stop();
    }
  });

  test('a result tab with a row removed is read from the service instead, requests counted, the same Changes tab; resumed call by call', async () => {
    const { rt, wb } = imported();
    try {
      const tab = wb.requireSheet('Acme 2026-11-02');
      const last = tab.lastRow();
      for (let c = 1; c <= tab.lastColumn(); c++) {
        const cell = tab.cell(last, c);
        if (cell) wb.clearContent(cell);
      }
      // One results page per call and no time to spare: every call does one step and checkpoints.
      rt.properties.script.set(IMPORT_TUNING_KEY, JSON.stringify({ budgetMs: 1, pagesPerWave: 1 }));
      let r: any;
      const steps: any[] = [];
      for (let i = 0; i < 20 && !(r && r.done); i++) {
        r = rt.scriptRun('compareScans', [first, later]);
        steps.push(r);
        if (!r.done) {
          expect(wb.sheets.filter((s) => !s.hidden).map((s) => s.name)).toEqual([
            'Sheet1',
            'Acme 2026-11-02',
            'Acme 2026-11-02 – Overview',
            'Acme 2026-11-09',
            'Acme 2026-11-09 – Overview',
          ]);
          expect(rt.properties.document!.get(COMPARE_KEY)!.length).toBeLessThan(9 * 1024);
        }
      }
      expect(r.done).toBe(true);
      expect(r.sources).toEqual({ before: 'service', after: 'tab' });
      // The scan record and one page of 60 products.
      expect(r.requests).toBe(2);
      expect(steps.length).toBeGreaterThan(1);
      expectChangesTab(wb, r.sheetName);
    } finally {
      await rt.stop();
    }
  });

  test('a spreadsheet without room for the Changes tab gets a plain message before any tab is made, and nothing is left behind', async () => {
    const { rt, wb } = imported();
    try {
      // Fill the spreadsheet to 2,000 cells short of the 10,000,000 Google Sheets holds.
      const used = wb.sheets.reduce((n, s) => n + s.maxRows * s.maxCols, 0);
      const big = wb.addSheet('Big', undefined, 1, 1);
      big.maxRows = 10_000_000 - used - 2000;
      rt.scriptRun('compareScans', [first, later]);
    } catch (e) {
      expect(String((e as Error).message)).toMatch(
        /^The Changes tab needs [\d,]+ cells and this spreadsheet has 2,000 left of the 10,000,000 Google Sheets holds\. Delete tabs you no longer need/,
      );
      expect(wb.sheetNames()).toEqual([
        'Sheet1',
        'Acme 2026-11-02',
        'Acme 2026-11-02 – Overview',
        'Acme 2026-11-09',
        'Acme 2026-11-09 – Overview',
        'Big',
      ]);
      expect(rt.properties.document!.get(COMPARE_KEY)).toBeNull();
      return;
    } finally {
      await rt.stop();
    }
    throw new Error('expected the compare to be refused');
  });

  test('compareChoices offers the previous scan of the same list first (same name before the date, marketplace and headers), in one request', async () => {
    const wb = new Workbook({ name: 'Supplier' });
    const rt = runtime(wb);
    try {
      connect(rt, service.url, service.apiKey);
      const runs = rt.executions.length;
      const c = rt.scriptRun('compareChoices', [later]) as any;
      expect(c.suggested).toBe(first);
      expect(c.scans).toEqual([
        { scanId: first, name: 'Acme 2026-11-02', label: expect.any(String), sameSupplier: true },
        { scanId: other, name: 'Other list 2026-11-10', label: expect.any(String), sameSupplier: false },
      ]);
      expect(rt.executions.slice(runs).reduce((n, e) => n + e.counters.urlFetchRequests, 0)).toBe(1);
      // The earliest scan of the list has no earlier one.
      expect((rt.scriptRun('compareChoices', [first]) as any).suggested).toBeNull();
    } finally {
      await rt.stop();
    }
  });

  test('two scans of one list under one name are told apart in the choice: line count, time sent and scan number', async () => {
    // The same list sent again under the same name (fewer lines this time).
    const twin = await uploadScan(service, supplierRows(5, 0), 'Acme 2026-11-02');
    await waitFinished(service, twin);
    const wb = new Workbook({ name: 'Supplier' });
    const rt = runtime(wb);
    try {
      connect(rt, service.url, service.apiKey);
      const c = rt.scriptRun('compareChoices', [later]) as any;
      const labels = c.scans.filter((s: any) => s.name === 'Acme 2026-11-02').map((s: any) => s.label);
      expect(labels).toHaveLength(2);
      expect(new Set(labels).size).toBe(2);
      const time = '\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}';
      expect(labels).toEqual(
        expect.arrayContaining([
          expect.stringMatching(new RegExp(`^Acme 2026-11-02 · 60 lines · ${time} \\(scan ${first}\\)$`)),
          expect.stringMatching(new RegExp(`^Acme 2026-11-02 · 5 lines · ${time} \\(scan ${twin}\\)$`)),
        ]),
      );
    } finally {
      await rt.stop();
    }
  });

  test('headless: npm run local -- compare <workbook.xlsx> --scan A --with B writes the Changes tab into the saved workbook', async () => {
    const { rt, wb } = imported();
    const dir = mkdtempSync(join(tmpdir(), 'compare-'));
    const input = join(dir, 'two-scans.xlsx');
    const out = join(dir, 'out.xlsx');
    await rt.stop();
    await wb.saveXlsx(input);
    const lines: string[] = [];
    const log = jest.spyOn(console, 'log').mockImplementation((s: unknown) => void lines.push(String(s)));
    let code: number;
    try {
      code = await main(['compare', input, '--scan', 'Acme 2026-11-02', '--with', 'Acme 2026-11-09', '--out', out]);
    } finally {
      log.mockRestore();
    }
    expect(code).toBe(0);
    // Read from the workbook's own tabs: the note on their ASIN header names the scan and its rows.
    expect(lines[0]).toMatch(
      /^Scan \d+ \(before, read from its result tab\) and scan \d+ \(after, read from its result tab\): see "Acme 2026-11-09 – Changes"\. .*No request to the Scan Service\.$/,
    );
    const saved = await Workbook.fromXlsx(out);
    expectChangesTab(saved, 'Acme 2026-11-09 – Changes', true);
  });
});
