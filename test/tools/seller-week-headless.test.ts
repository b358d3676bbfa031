/**
 * A seller's week (issue 32) headless: `npm run local` commands chained, each on the workbook the
 * previous command saved, against one local Scan Service (SCAN_SERVICE_URL), on the SHIPPED sample
 * with defaults. Between commands the test only does what a seller does to the saved file: select
 * (given to the entry as the sidebar's form does), lower costs, type a formula, edit a quantity.
 *
 * What the runner cannot do is left to test/addon/seller-week-runtime.test.ts: the virtual clock (the runner
 * runs at real time, so no scheduled slot comes due), a trigger run without the document, and row
 * actions (they act on the selection, which an .xlsx file does not keep).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { spawnService, type SpawnedService } from '../../emulator/service/spawn';
import { runLocal } from './run-local';

jest.setTimeout(120_000);

const ROOT = join(__dirname, '..', '..');
const SAMPLE = join(ROOT, 'samples', 'supplier-price-list.xlsx');
const LIST = 'Price List';
/** The block the seller selected: the middle of the list, its header row (row 1) above it. */
const BLOCK = { sheetName: LIST, rangeA1: 'A101:G200', selection: true, headerRow: 1 };

const dir = mkdtempSync(join(tmpdir(), 'seller-week-cmd-'));
let svc: SpawnedService;
let n = 0;
/** The workbook the last command saved: every command reads it and saves the next one. */
let current = SAMPLE;

beforeAll(async () => {
  svc = await spawnService({ SCAN_SERVICE_SPEED: '600000' });
}, 60_000);
afterAll(async () => {
  await svc?.stop();
});

/** A file name for the next command's output. */
const next = (label: string) => join(dir, `${String(++n).padStart(2, '0')}-${label}.xlsx`);

/** One `npm run local -- ...` on the current workbook; the workbook it saved becomes the current one. */
async function local(args: string[], label: string): Promise<string> {
  const out = next(label);
  const r = await runLocal([...args, '--out', out], { SCAN_SERVICE_URL: svc.url, SCAN_SERVICE_API_KEY: svc.apiKey });
  if (r.code !== 0 || r.stderr.replace(/npm warn[^\n]*\n/g, '') !== '')
    throw new Error(`npm run local -- ${args.join(' ')}: exit ${r.code}\n${r.stdout}${r.stderr}`);
  current = out;
  return r.stdout;
}

/** `npm run local -- <entry> [json args...] --workbook <current>`: the entry's result. */
async function entry(fn: string, ...args: unknown[]): Promise<any> {
  const out = await local([fn, ...args.map((a) => JSON.stringify(a)), '--workbook', current], fn);
  const line = out.split('\n').find((l) => l.startsWith('result: '));
  if (!line) throw new Error(`${fn}: no result printed\n${out}`);
  return JSON.parse(line.slice('result: '.length));
}

/** Opens the current workbook, lets `edit` change it as a seller would, saves it as the next one. */
async function edit(label: string, change: (wb: Workbook) => void): Promise<Workbook> {
  const wb = await Workbook.fromXlsx(current);
  change(wb);
  const out = next(label);
  await wb.saveXlsx(out);
  current = out;
  return wb;
}

async function scanStatus(id: number): Promise<string> {
  const r = await fetch(`${svc.url}/api/v3/scans/${id}`, { headers: { authorization: `Bearer ${svc.apiKey}` } });
  return ((await r.json()) as { status: string }).status;
}

/** The seller's scan of the block, New scan's suggestions as they are, imported: its id and tab. */
async function scanBlock(): Promise<{ scanId: number; tab: string; setup: any }> {
  const setup = await entry('getScanSetup', BLOCK);
  expect(setup).toMatchObject({ rangeA1: BLOCK.rangeA1, headerRow: 1 });
  const request = {
    roles: setup.columns.map((c: any) => c.role),
    options: { marketplace: setup.defaultMarketplace, name: setup.defaultName },
    sheetName: setup.sheetName,
    rangeA1: setup.rangeA1,
    selection: setup.selection,
    headerRow: setup.headerRow,
    headers: setup.columns.map((c: any) => c.header),
  };
  const started = await entry('startScan', request);
  const scanId = started.progress.scanId as number;
  // The service runs in real time: wait for it (as the sidebar's progress card does).
  for (let i = 0; !['success', 'error', 'cancelled'].includes(await scanStatus(scanId)); i++) {
    if (i > 200) throw new Error(`scan ${scanId} did not finish`);
    await new Promise((r) => setTimeout(r, 25));
  }
  let p: any;
  for (let i = 0; i < 20 && !(p && p.done); i++) p = await entry('importScan', scanId, null);
  expect(p.done).toBe(true);
  return { scanId, tab: p.sheetName, setup };
}

/** Data rows of a tab of the current workbook as objects by header. */
async function rowsOf(sheet: string, file = current): Promise<Array<Record<string, any>>> {
  const v = (await Workbook.fromXlsx(file)).values(sheet);
  const h = v[0] as string[];
  return v
    .slice(1)
    .filter((r) => r.some((x) => x !== '' && x !== null))
    .map((r) => Object.fromEntries(h.map((name, j) => [name, r[j]]).reverse()));
}

const week = {} as {
  firstScan: number;
  firstTab: string;
  secondScan: number;
  secondTab: string;
  lowered: Array<{ sheetRow: number; identifier: string }>;
};

describe('Monday (headless): the sample scanned from the middle of the list, imported, Negotiate, a purchase order', () => {
  test('getScanSetup, startScan and importScan runs on the selected block: the header row above it names the columns', async () => {
    const { scanId, tab, setup } = await scanBlock();
    expect(setup.columns.map((c: any) => c.header)).toEqual([
      'Item Code',
      'UPC',
      'Description',
      'Unit Cost',
      'MSRP/MAP',
      'Qty Avail',
      'Case Pack',
    ]);
    expect(tab).toMatch(/^Price List \d{4}-\d\d-\d\d$/);
    week.firstScan = scanId;
    week.firstTab = tab;
    const rows = await rowsOf(tab);
    expect(rows.length).toBeGreaterThan(50);
    for (const r of rows) expect(r['Sheet row']).toBeGreaterThanOrEqual(101);
    for (const r of rows) expect(r['Sheet row']).toBeLessThanOrEqual(200);
  });

  test('makeNegotiateTab run on the saved workbook', async () => {
    const r = await entry('makeNegotiateTab', { sheetName: week.firstTab });
    // The tab's name fits an .xlsx file (31 characters, src/domain/sheet/tab-name.ts): the date and the kind stay whole.
    expect(r.sheetName).toMatch(/ 2026-\d\d-\d\d – Negotiate$/);
    expect(r.sheetName.length).toBeLessThanOrEqual(31);
    expect((await Workbook.fromXlsx(current)).sheetNames()).toContain(r.sheetName);
  });

  test('po on the saved workbook; a quantity edited in the file: the line and the total recompute', async () => {
    const out = await local(['po', current, '--tab', week.firstTab, '--rows', '2-41'], 'po');
    const said = /^Purchase order "([^"]+ – PO)": \d+ lines?\./m.exec(out);
    expect(said).not.toBeNull();
    const po = said![1];
    await edit('quantity', (wb) => {
      const v = wb.values(po);
      const head = v[0] as string[];
      const col = (name: string) => wb.a1(1, head.indexOf(name) + 1).replace(/\d+$/, '');
      const total = v.findIndex((r) => r[0] === 'Total') + 1;
      expect(total).toBeGreaterThan(2);
      const [q, cost, line] = [col('Quantity'), col('Cost per unit'), col('Line cost')];
      const before = Number(wb.cell(po, `${line}${total}`).value);
      const qty = Number(wb.cell(po, `${q}2`).value);
      const unit = Number(wb.cell(po, `${cost}2`).value);
      wb.type(po, `${q}2`, qty + 24);
      expect(wb.cell(po, `${line}2`).value).toBeCloseTo((qty + 24) * unit, 2);
      expect(Number(wb.cell(po, `${line}${total}`).value)).toBeCloseTo(before + 24 * unit, 2);
    });
  });
});

describe('Next Monday (headless): five costs lowered, scanned again, compare, a weekly schedule, the hourly trigger', () => {
  test('five costs lowered in the saved file; the block scanned again and imported; supplier memory recognises the list', async () => {
    const rows = await rowsOf(week.firstTab);
    const seen = new Set<number>();
    week.lowered = [];
    for (const r of rows) {
      if (week.lowered.length === 5) break;
      if (seen.has(r['Sheet row']) || typeof r.Profit !== 'number') continue;
      seen.add(r['Sheet row']);
      week.lowered.push({ sheetRow: r['Sheet row'], identifier: String(r.Identifier) });
    }
    expect(week.lowered).toHaveLength(5);
    await edit('lower-costs', (wb) => {
      for (const { sheetRow } of week.lowered)
        wb.type(LIST, `D${sheetRow}`, Math.round(Number(wb.cell(LIST, `D${sheetRow}`).value) * 60) / 100);
    });
    const { scanId, tab, setup } = await scanBlock();
    week.secondScan = scanId;
    week.secondTab = tab;
    expect(scanId).not.toBe(week.firstScan);
    expect(setup.memory?.note ?? 'no supplier memory').toMatch(/^Columns and options as in your scan of Price List on /);
  });

  test('compare on the saved workbook: the Changes tab names exactly the five lowered products', async () => {
    const out = await local(['compare', current, '--scan', String(week.secondScan), '--with', String(week.firstScan)], 'compare');
    const m = /"([^"]+ – Changes)"/.exec(out);
    expect(m).not.toBeNull();
    const rows = (await rowsOf(m![1])).filter((r) => String(r.Identifier ?? '').trim() !== '');
    expect([...new Set(rows.map((r) => String(r.Identifier)))].sort()).toEqual(week.lowered.map((l) => l.identifier).sort());
  });

  test('saveSchedule run (weekly, for the remembered list); an hourly trigger run keeps it', async () => {
    const suppliers = await entry('getRememberedSuppliers');
    expect(suppliers).toHaveLength(1);
    const saved = await entry('saveSchedule', suppliers[0].id, 'w1@6', week.secondScan);
    expect(saved.notice).toBeNull();
    expect(saved.schedules[0]).toMatchObject({ label: 'every Monday at 06:00', paused: false });
    const out = await local(['importFinishedScans', '--workbook', current], 'hourly');
    expect(out).not.toMatch(/^error: /m);
    const after = await entry('getSchedules');
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ label: 'every Monday at 06:00', paused: false });
  });
});

describe('Owner formulas and lists (headless)', () => {
  test('formulas turned on (saveSettings run); =ASIN_FROM_UPC typed into the saved file computes in the next run', async () => {
    const view = await entry('saveSettings', { formulasOnMyKey: true });
    expect(view.formulaKeyShared).toBe(true);
    await edit('formula', (wb) => wb.type(LIST, 'H2', '=ASIN_FROM_UPC(B2:B11)'));
    await entry('getSettings');
    const wb = await Workbook.fromXlsx(current);
    const cells = Array.from({ length: 10 }, (_, i) => String(wb.cell(LIST, `H${i + 2}`).value));
    for (const v of cells) expect(v).toMatch(/^B[0-9A-Z]{9}$|^not found$/);
    expect(cells.filter((v) => v !== 'not found').length).toBeGreaterThan(0);
  });

  test('setUpLists run, then sync on its output', async () => {
    const status = await entry('setUpLists');
    expect(status.lists).toHaveLength(6);
    const out = await local(['sync', current], 'sync');
    expect(out).toMatch(/^sync: Lists synced\./m);
  });
});

describe('Reopened (headless): the last saved workbook synced again, its state still there', () => {
  test('sync again on the saved workbook: nothing to do', async () => {
    const out = await local(['sync', current], 'sync-again');
    const lines = out.split('\n').filter((l) => /^SCAN_[A-Z_]+ \(/.test(l));
    expect(lines).toHaveLength(6);
    for (const l of lines) expect(l).toContain(': unchanged — ');
  });

  test('the weekly schedule is still there', async () => {
    const s = await entry('getSchedules');
    expect(s).toHaveLength(1);
    expect(s[0]).toMatchObject({ label: 'every Monday at 06:00', paused: false });
  });

  test('the scan cards know their tabs: no "Import results" for the imported scans', async () => {
    const page = await entry('listScans', 1);
    const byId = new Map<number, any>(page.scans.map((s: any) => [s.scanId, s]));
    expect(byId.get(week.firstScan)?.resultSheet).toBe(week.firstTab);
    expect(byId.get(week.secondScan)?.resultSheet).toBe(week.secondTab);
  });

  test('the lists are still set up', async () => {
    const status = await entry('getListsStatus');
    expect(status.lists.map((l: any) => l.sheetName)).toEqual([
      'Scan tags',
      'Scan notes',
      'Scan brand blocklist',
      'Scan ASIN blocklist',
      'Scan listing matches',
      'Scan multipack',
    ]);
  });
});
