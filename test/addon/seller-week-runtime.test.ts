/**
 * A seller's week (issue 32) as a standing test: the BUILT add-on in the local runtime, the local
 * Scan Service in a child process, the SHIPPED sample price list, defaults only, and only the
 * add-on's entry points (menu items, google.script.run calls, the hourly trigger). Each step works on
 * the workbook the step before left; the steps of a day are ordered tests sharing that state, so a
 * failure names its day and step.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Workbook } from '../../emulator/gas/spreadsheet';
import type { Runtime } from '../../emulator/gas';
import { spawnService, type SpawnedService } from '../../emulator/service/spawn';
import { connect, runtime, SAMPLE } from './scanflow-helpers';
import { api, waitFinished } from './import-helpers';
import { tab } from './lists-helpers';

jest.setTimeout(120_000);

const HOUR = 3600_000;
const LIST = 'Price List';
/** The block the seller selects: the middle of the list, its header row (row 1) above it. */
const FIRST_ROW = 101;
const LAST_ROW = 200;

let svc: SpawnedService;
let wb: Workbook;
let rt: Runtime;
/** The highest scan id the test has waited for at the service. */
let lastScanId = 0;
const dir = mkdtempSync(join(tmpdir(), 'seller-week-'));

beforeAll(async () => {
  svc = await spawnService({ SCAN_SERVICE_SPEED: '600000' });
  wb = await Workbook.fromXlsx(SAMPLE);
  rt = runtime(wb);
}, 60_000);
afterAll(async () => {
  await rt?.stop();
  await svc?.stop();
});

/**
 * A google.script.run call as the sidebar makes it. A failure is thrown again from here with the
 * entry's name, so the report shows the add-on's message rather than a frame of the minified bundle.
 */
function call(fn: string, args: unknown[] = [], on: Runtime = rt): any {
  try {
    return on.scriptRun(fn, args);
  } catch (e) {
    throw new Error(`${fn}: ${String((e as Error)?.message ?? e)}`);
  }
}

/** Moves the virtual clock to `at` (UTC ms), without firing triggers. */
function clockTo(at: number): void {
  if (rt.state.clock.now() < at) rt.advance(at - rt.state.clock.now());
}

/** Waits until every scan the service was sent since the last call has finished (ids follow each other). */
async function waitNewScans(): Promise<number[]> {
  const ids: number[] = [];
  for (;;) {
    const s = await api(svc, 'GET', `/api/v3/scans/${lastScanId + 1}`);
    if (!s || typeof s.id !== 'number') return ids;
    await waitFinished(svc, s.id);
    lastScanId = s.id;
    ids.push(s.id);
  }
}

/** Runs the hourly trigger hour by hour until `until`, each run ok, waiting for the scans it sent. */
async function hoursUntil(until: number): Promise<void> {
  while (rt.state.clock.now() + HOUR <= until) {
    rt.advance(HOUR);
    for (const f of rt.runDueTriggers()) expect(f).toMatchObject({ handler: 'importFinishedScans', ok: true });
    await waitNewScans();
  }
}

/** The seller selects rows r1..r2 (columns A:G) of the price list. */
function selectBlock(r1: number, r2: number): void {
  const sh = wb.requireSheet(LIST);
  wb.activeSheet = sh;
  wb.activeRange = { sheet: sh, r1, c1: 1, r2, c2: 7 };
}

/** Selects rows r1..r2 of a tab (a few columns, as a seller's click does). */
function selectRows(sheet: string, r1: number, r2: number): void {
  const sh = wb.requireSheet(sheet);
  wb.activeSheet = sh;
  wb.activeRange = { sheet: sh, r1, c1: 1, r2, c2: 3 };
}

/** "Scan this sheet" from the menu, then Preview and Send with every suggestion as it is; the scan's id. */
async function scanSelection(): Promise<{ scanId: number; setup: any }> {
  rt.run('menuScanSheet');
  const setup = call('getScanSetup');
  const request = {
    roles: setup.columns.map((c: any) => c.role),
    options: { marketplace: setup.defaultMarketplace, name: setup.defaultName },
    sheetName: setup.sheetName,
    rangeA1: setup.rangeA1,
    selection: setup.selection,
    headerRow: setup.headerRow,
    headers: setup.columns.map((c: any) => c.header),
  };
  const preview = call('previewScan', [request]);
  expect(preview.problems).toEqual([]);
  const started = call('startScan', [request]);
  const scanId = started.progress.scanId as number;
  await waitFinished(svc, scanId);
  lastScanId = Math.max(lastScanId, scanId);
  return { scanId, setup };
}

/** "Import results" on the scan's card, called again until the tab is complete. */
function importAll(scanId: number): any {
  let p: any;
  for (let i = 0; i < 50 && !(p && p.done); i++) p = call('importScan', [scanId, null]);
  expect(p.done).toBe(true);
  return p;
}

/** Data rows of a tab as objects by header. */
function rowsOf(sheet: string): Array<Record<string, any>> {
  const v = tab(wb, sheet);
  const h = v[0] as string[];
  return v.slice(1).map((r, i) => {
    const o: Record<string, any> = { row: i + 2 };
    h.forEach((name, j) => {
      if (!(name in o)) o[name] = r[j];
    });
    return o;
  });
}

const week = {} as {
  firstScan: number;
  firstTab: string;
  secondScan: number;
  secondTab: string;
  lowered: Array<{ sheetRow: number; identifier: string }>;
  supplierId: string;
  scheduledTabs: string[];
  tagAction: string;
};

describe('Monday: the sample scanned from the middle of the list, imported, then Negotiate and a purchase order', () => {
  test('scan a selection in the middle of the sample: the header row above it names the columns; import', async () => {
    clockTo(Date.UTC(2026, 10, 23, 9)); // Monday Nov 23, 09:00 UTC
    rt.open();
    rt.run('menuSettings');
    connect(rt, svc.url, svc.apiKey);
    selectBlock(FIRST_ROW, LAST_ROW);
    const { scanId, setup } = await scanSelection();
    expect(setup).toMatchObject({ rangeA1: `A${FIRST_ROW}:G${LAST_ROW}`, selection: true, headerRow: 1 });
    expect(setup.columns.map((c: any) => c.header)).toEqual([
      'Item Code',
      'UPC',
      'Description',
      'Unit Cost',
      'MSRP/MAP',
      'Qty Avail',
      'Case Pack',
    ]);
    const p = importAll(scanId);
    expect(p.sheetName).toBe('Price List 2026-11-23');
    week.firstScan = scanId;
    week.firstTab = p.sheetName;
    const rows = rowsOf(p.sheetName);
    expect(rows.length).toBeGreaterThan(50);
    // Every product comes from the selected rows, by their sheet row.
    for (const r of rows) expect(r['Sheet row']).toBeGreaterThanOrEqual(FIRST_ROW);
    for (const r of rows) expect(r['Sheet row']).toBeLessThanOrEqual(LAST_ROW);
  });

  test('Negotiate tab from the result tab (no prep cost given: a prep of 0)', () => {
    const n = call('makeNegotiateTab', [{ sheetName: week.firstTab }]);
    // Named to fit an .xlsx file (31 characters, src/domain/sheet/tab-name.ts): the date and the kind stay whole.
    expect(n.sheetName).toMatch(/ 2026-\d\d-\d\d – Negotiate$/);
    expect(n.sheetName.length).toBeLessThanOrEqual(31);
    expect(wb.sheetNames()).toContain(n.sheetName);
    expect(tab(wb, n.sheetName)[0]).toEqual(expect.arrayContaining(['Identifier', 'Today’s cost', 'Cost needed', 'Discount needed']));
  });

  test('purchase order from the selected rows of the result tab; a quantity edited: the line and the totals recompute', () => {
    const rows = rowsOf(week.firstTab);
    selectRows(week.firstTab, 2, Math.min(rows.length + 1, 41));
    rt.state.uiAnswers.push({ button: 'OK' });
    rt.run('menuPurchaseOrder');
    const alert = rt.uiEvents.filter((e) => e.kind === 'alert').pop() as any;
    expect(alert.title).toBe('Purchase order');
    const said = /^Purchase order "([^"]+ – PO)": \d+ lines?\./.exec(alert.prompt);
    expect(said).not.toBeNull();
    const po = said![1];
    const head = tab(wb, po)[0] as string[];
    const col = (name: string) => {
      const i = head.indexOf(name);
      expect(i).toBeGreaterThanOrEqual(0);
      return wb.a1(1, i + 1).replace(/\d+$/, '');
    };
    const [q, cost, line, total] = [col('Quantity'), col('Cost per unit'), col('Line cost'), 'ASIN'];
    void total;
    const lines = rowsOf(po).filter((r) => /^B[0-9A-Z]{9}$/.test(String(r.ASIN)));
    expect(lines.length).toBeGreaterThan(0);
    const totalRow = rowsOf(po).find((r) => r.ASIN === 'Total')!;
    expect(totalRow).toBeDefined();
    const before = Number(wb.cell(po, `${line}${totalRow.row}`).value);
    const oldQty = Number(wb.cell(po, `${q}2`).value);
    const unit = Number(wb.cell(po, `${cost}2`).value);
    wb.type(po, `${q}2`, oldQty + 24);
    expect(wb.cell(po, `${line}2`).value).toBeCloseTo((oldQty + 24) * unit, 2);
    expect(Number(wb.cell(po, `${line}${totalRow.row}`).value)).toBeCloseTo(before + 24 * unit, 2);
  });
});

describe('Next Monday: five costs lowered, scanned again, compared, a weekly schedule, the hourly trigger with and without the document', () => {
  test('the supplier lowers five costs; the same selection is scanned again and imported', async () => {
    clockTo(Date.UTC(2026, 10, 30, 9)); // Monday Nov 30
    // Five products of last week's tab, on five different sheet rows.
    const seen = new Set<number>();
    week.lowered = [];
    for (const r of rowsOf(week.firstTab)) {
      if (week.lowered.length === 5) break;
      if (seen.has(r['Sheet row']) || typeof r.Profit !== 'number') continue;
      seen.add(r['Sheet row']);
      week.lowered.push({ sheetRow: r['Sheet row'], identifier: String(r.Identifier) });
    }
    expect(week.lowered).toHaveLength(5);
    for (const { sheetRow } of week.lowered) {
      const old = Number(wb.cell(LIST, `D${sheetRow}`).value);
      wb.type(LIST, `D${sheetRow}`, Math.round(old * 60) / 100); // 40 % off
    }
    selectBlock(FIRST_ROW, LAST_ROW);
    const { scanId, setup } = await scanSelection();
    expect(setup.memory?.note ?? 'no supplier memory').toMatch(/^Columns and options as in your scan of Price List on /);
    const p = importAll(scanId);
    expect(p.sheetName).toBe('Price List 2026-11-30');
    week.secondScan = scanId;
    week.secondTab = p.sheetName;
  });

  test('compare with last week: the Changes tab names exactly the five lowered products', () => {
    let c: any;
    for (let i = 0; i < 50 && !(c && c.done); i++) c = call('compareScans', [week.secondScan, week.firstScan]);
    expect(c).toMatchObject({ done: true, before: week.firstScan, after: week.secondScan });
    const rows = rowsOf(c.sheetName).filter((r) => String(r.Identifier ?? '').trim() !== '');
    const ids = new Set(rows.map((r) => String(r.Identifier)));
    expect([...ids].sort()).toEqual(week.lowered.map((l) => l.identifier).sort());
  });

  test('a weekly schedule for the list: said to be paid, next run named', () => {
    const suppliers = call('getRememberedSuppliers');
    expect(suppliers).toHaveLength(1);
    week.supplierId = suppliers[0].id;
    const saved = call('saveSchedule', [week.supplierId, 'w1@6', week.secondScan]);
    expect(saved.notice).toBeNull();
    expect(saved.schedules[0]).toMatchObject({
      label: 'every Monday at 06:00',
      paused: false,
      line: 'Next run: Mon Dec 7, 06:00. Each run is a paid scan at the Scan Service, like one you start.',
    });
  });

  test('the hourly trigger with the document: the scheduled scan is sent, imported and compared (nothing changed: no empty Changes tab)', async () => {
    const before = wb.sheetNames();
    await hoursUntil(Date.UTC(2026, 11, 7, 12));
    const added = wb.sheetNames().filter((n) => !before.includes(n));
    expect(added).toEqual(expect.arrayContaining(['Price List 2026-12-07']));
    // The supplier changed nothing since last week's scan: no Changes tab (issue 32 item 10: an empty "Changes (2)").
    expect(added.filter((n) => / – Changes/.test(n))).toHaveLength(0);
    const s = call('getSchedules')[0];
    expect(s.status).toMatch(/^Scan \d+ imported and compared on Mon Dec 7, /);
  });

  test('the hourly trigger without the document: nothing is lost, the seller is told, and the next run with it catches up', async () => {
    const before = wb.sheetNames();
    await hoursUntil(Date.UTC(2026, 11, 14, 5));
    // The supplier lowers one more cost before the slot: the run that catches up has one change to show.
    const one = week.lowered[0].sheetRow;
    wb.type(LIST, `D${one}`, Math.round(Number(wb.cell(LIST, `D${one}`).value) * 50) / 100);
    rt.triggerDocument = 'none';
    try {
      await hoursUntil(Date.UTC(2026, 11, 14, 9)); // the runs after the 06:00 slot have no document
    } finally {
      rt.triggerDocument = 'active';
    }
    expect(wb.sheetNames()).toEqual(before);
    // What the seller reads in Settings > Remembered suppliers and in Scans says why nothing happened.
    // Told where the seller looks: the schedule (Settings > Remembered suppliers) and Scans.
    const s = call('getSchedules')[0];
    const told =
      /without (access to |opening )?(this|the|its) (spreadsheet|document)|(spreadsheet|document) was not open|(did|could) not open (this|the|its) (spreadsheet|document)/i;
    expect(`${s.line} ${s.status}`).toMatch(told);
    const scans = call('listScans', [1]);
    expect(`${scans.notice ?? ''} ${(scans.schedules as string[]).join(' ')}`).toMatch(told);
    // Back with the document within the slot's 6 hours: sent, imported and compared, once.
    await hoursUntil(Date.UTC(2026, 11, 14, 13));
    const added = wb.sheetNames().filter((n) => !before.includes(n));
    expect(added.filter((n) => /^Price List 2026-12-14/.test(n) && !/ – /.test(n))).toHaveLength(1);
    expect(added.filter((n) => / – Changes/.test(n))).toHaveLength(1);
    expect(call('getSchedules')[0].status).toMatch(/^Scan \d+ imported and compared on Mon Dec 14, /);
  });
});

describe('Owner formulas, lists, a row action and undo', () => {
  test('formulas turned on in Settings: =ASIN_FROM_UPC over the sample’s UPCs computes, also in a cell typed before', () => {
    wb.type(LIST, 'H2', '=ASIN_FROM_UPC(B2:B11)');
    expect(String(wb.cell(LIST, 'H2').value)).toMatch(/^Formulas are off in this spreadsheet/);
    const view = call('saveSettings', [{ formulasOnMyKey: true }]);
    expect(view.formulaKeyShared).toBe(true);
    wb.type(LIST, 'I2', '=ASIN_FROM_UPC(B2:B11)');
    for (const c of ['H', 'I']) {
      const cells = Array.from({ length: 10 }, (_, i) => String(wb.cell(LIST, `${c}${i + 2}`).value));
      for (const v of cells) expect(v).toMatch(/^B[0-9A-Z]{9}$|^not found$/);
      expect(cells.filter((v) => v !== 'not found').length).toBeGreaterThan(0);
    }
  });

  test('lists set up and synced', () => {
    const status = call('setUpLists');
    expect(status.lists.map((l: any) => l.rangeName)).toEqual([
      'SCAN_TAGS',
      'SCAN_NOTES',
      'SCAN_BRAND_BLOCKLIST',
      'SCAN_ASIN_BLOCKLIST',
      'SCAN_LISTING_MATCHES',
      'SCAN_MULTIPACK',
    ]);
    const r = call('syncNow');
    expect(r.done).toBe(true);
    expect(r.lists.every((l: any) => l.state === 'synced' || l.state === 'unchanged')).toBe(true);
  });

  test('a row action on the result tab (add tags), then undo: the tags tab and the service are as before', async () => {
    const rows = rowsOf(week.secondTab);
    selectRows(week.secondTab, 2, 3);
    const done = call('applyRowAction', ['addTags', 'week one']);
    expect(done.count).toBe(2);
    expect(tab(wb, 'Scan tags').slice(1)).toEqual([
      ['US', rows[0].ASIN, 'week one'],
      ['US', rows[1].ASIN, 'week one'],
    ]);
    expect(await api(svc, 'GET', '/api/v3/public/tags?marketplace_id=US')).toEqual({
      [rows[0].ASIN]: ['week one'],
      [rows[1].ASIN]: ['week one'],
    });
    const undone = call('undoRowAction', [done.id]);
    expect(undone.message).toMatch(/^Undone: Tag 2 ASINs with week one/);
    expect(tab(wb, 'Scan tags')).toEqual([['Marketplace', 'ASIN', 'Tags']]);
    expect(await api(svc, 'GET', '/api/v3/public/tags?marketplace_id=US')).toEqual({});
  });
});

describe('Saved as .xlsx, reopened, synced again', () => {
  let again: Workbook;
  let rt2: Runtime;
  afterAll(() => rt2?.stop());

  test('save as .xlsx and reopen it: a new runtime on the loaded workbook, the add-on opened again', async () => {
    const file = join(dir, 'week.xlsx');
    await wb.saveXlsx(file);
    const now = rt.state.clock.now();
    await rt.stop();
    again = await Workbook.fromXlsx(file);
    expect(again.sheetNames()).toEqual(wb.sheetNames());
    rt2 = runtime(again, { startTime: now + HOUR });
    rt2.open();
    rt2.run('menuScanHistory');
    // The key is the seller's own (user properties, never in the file): the same seller, the same key.
    connect(rt2, svc.url, svc.apiKey);
  });

  test('the weekly schedule and its trigger are still there', () => {
    const s = call('getSchedules', [], rt2);
    expect(s).toHaveLength(1);
    expect(s[0]).toMatchObject({ label: 'every Monday at 06:00', paused: false });
    expect(s[0].line).toContain('Next run: Mon Dec 21, 06:00.');
    expect(rt2.triggers.records.map((t) => t.handler)).toEqual(['importFinishedScans']);
  });

  test('the scan cards know their tabs: no "Import results" for a scan already imported', () => {
    const page = call('listScans', [1], rt2);
    const byId = new Map<number, any>(page.scans.map((s: any) => [s.scanId, s]));
    expect(byId.get(week.firstScan)?.resultSheet).toBe(week.firstTab);
    expect(byId.get(week.secondScan)?.resultSheet).toBe(week.secondTab);
    for (const s of page.scans) expect(s.resultSheet).not.toBeNull();
  });

  test('formulas are still on (the key entered again reaches them): =ASIN_FROM_UPC typed after the reopening computes', () => {
    expect(call('getSettings', [], rt2).formulaKeyShared).toBe(true);
    again.type(LIST, 'J2', '=ASIN_FROM_UPC(B2:B11)');
    const cells = Array.from({ length: 10 }, (_, i) => String(again.cell(LIST, `J${i + 2}`).value));
    for (const v of cells) expect(v).toMatch(/^B[0-9A-Z]{9}$|^not found$/);
    expect(cells.filter((v) => v !== 'not found').length).toBeGreaterThan(0);
  });

  test('the lists are still set up and a sync has nothing to do', () => {
    const status = call('getListsStatus', [], rt2);
    expect(status.lists.map((l: any) => l.sheetName)).toEqual([
      'Scan tags',
      'Scan notes',
      'Scan brand blocklist',
      'Scan ASIN blocklist',
      'Scan listing matches',
      'Scan multipack',
    ]);
    const r = call('syncNow', [], rt2);
    expect(r.done).toBe(true);
    expect(r.lists.map((l: any) => l.state)).toEqual(Array(6).fill('unchanged'));
  });
});
