/**
 * "Convert selected column" end to end (issue 5): the BUILT add-on's menu action and sidebar server
 * function in the local Apps Script runtime, against the local Scan Service (child process, behind
 * the fault-injecting proxy). Plain values next to the selection, progress, the clicking user's own
 * key, and runs that stop near or are killed at the 6-minute limit and are resumed from the
 * checkpoint without losing or repeating a row.
 */
import type { Runtime, RuntimeOptions } from '../../emulator/gas';
import type { Workbook } from '../../emulator/gas/spreadsheet';
import { NOT_FOUND } from '../../src/custom-functions/messages';
import { columnJobKey } from '../../src/store/keys';
import { useServiceBehindProxy } from './scanflow-helpers';
import {
  EDITOR,
  OWNER,
  SHEET,
  columnValues,
  fillColumn,
  newWorkbook,
  runtimeFor,
  sampleIndex,
  saveKey,
  upcWithCheck,
} from './formulas-helpers';

const env = useServiceBehindProxy({}, 60_000);
const opened: Runtime[] = [];

beforeAll(() => {
  sampleIndex();
}, 60_000);

afterAll(async () => {
  for (const rt of opened) await rt.stop();
});

interface Progress {
  done: boolean;
  rowsDone: number;
  totalRows: number;
  targetA1: string;
  sourceA1: string;
  conversion: string;
  marketplace: string;
  message: string;
}

function world(opts: RuntimeOptions = {}): { wb: Workbook; rt: Runtime } {
  const wb = newWorkbook();
  const rt = runtimeFor(wb, opts);
  opened.push(rt);
  saveKey(rt, env.proxy.url, env.svc.apiKey);
  return { wb, rt };
}

function select(wb: Workbook, r1: number, c1: number, r2: number, c2: number): void {
  const sheet = wb.requireSheet(SHEET);
  wb.activeSheet = sheet;
  wb.activeRange = { sheet, r1, c1, r2, c2 };
}

/** The user's column-job checkpoints, of any spreadsheet (their key prefix named by src/store). */
function checkpointKeys(rt: Runtime, user = OWNER): string[] {
  return Object.keys(rt.properties.user(user).toObject()).filter((k) => k.startsWith(columnJobKey('')));
}

function failure(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return String((e as Error)?.message ?? e);
  }
  return '';
}

/** A messy UPC column of `n` rows: repeats, blanks, numbers that lost a zero, invalid and unknown ids. */
function messyUpcs(n: number, offset = 0): { column: unknown[]; expected: string[] } {
  const s = sampleIndex();
  const pool = s.singleUpcs.slice(offset, offset + Math.ceil(n / 3));
  const unknown = upcWithCheck('99999999990');
  const column: unknown[] = [];
  const expected: string[] = [];
  for (let i = 0; i < n; i++) {
    const u = pool[(i * 5) % pool.length];
    if (i % 97 === 13) {
      column.push('');
      expected.push('');
    } else if (i % 101 === 7) {
      column.push('12345');
      expected.push('invalid UPC: wrong length');
    } else if (i % 211 === 3) {
      column.push(unknown);
      expected.push(NOT_FOUND);
    } else if (i % 7 === 0 && /^0[1-9]/.test(u)) {
      column.push(Number(u)); // typed as a number: leading zero lost, restored by its check digit
      expected.push(s.asinsByUpc.get(u)![0]);
    } else {
      column.push(u);
      expected.push(s.asinsByUpc.get(u)![0]);
    }
  }
  return { column, expected };
}

test('menu: a 3,000-row UPC column becomes plain ASINs right of it, header kept, progress as toasts, checkpoint cleared', () => {
  const { column, expected } = messyUpcs(3000);
  const { wb, rt } = world();
  wb.type(SHEET, 'A1', 'UPC');
  fillColumn(wb, 'A', 2, column);
  wb.type(SHEET, 'C1', 'Notes');
  select(wb, 1, 1, 3001, 1);
  // The add-on menu offers it (onOpen), and it runs as one ordinary execution.
  rt.open();
  const menu = rt.uiEvents.filter((e) => e.kind === 'menu').pop() as { items: Array<{ caption: string; functionName: string } | null> };
  expect(menu.items).toContainEqual({ caption: 'Convert selected column', functionName: 'menuConvertColumn' });
  const from = rt.executions.length;
  rt.run('menuConvertColumn');
  expect(wb.cell(SHEET, 'B1').value).toBe('ASIN');
  expect(columnValues(wb, 'B', 2, 3001)).toEqual(expected);
  // Plain values, not formulas; the column beyond is untouched.
  expect(wb.cell(SHEET, 'B2').formula).toBe('');
  expect(wb.cell(SHEET, 'C1').value).toBe('Notes');
  expect(wb.cell(SHEET, 'C2').value).toBe('');
  const toasts = rt.uiEvents.filter((e) => e.kind === 'toast').map((e) => (e as { message: string }).message);
  expect(toasts).toContain('Converted 1000 of 3000 rows (33%).');
  expect(toasts[toasts.length - 1]).toBe('Converted 3000 rows.');
  expect(checkpointKeys(rt)).toEqual([]);
  const run = rt.executions.slice(from).find((e) => e.functionName === 'menuConvertColumn')!;
  expect(run.ok).toBe(true);
  expect(run.durationMs).toBeLessThan(6 * 60_000);
  // Distinct valid ids per 1,000-row chunk, 20 per call.
  const s = sampleIndex();
  const idsOf = (rows: unknown[]) =>
    new Set(rows.filter((v) => v !== '' && v !== '12345').map((v) => (typeof v === 'number' ? '0' + v : String(v))));
  const firstChunkIds = idsOf(column.slice(0, 1000));
  expect(idsOf(column.slice(1000, 2000))).toEqual(firstChunkIds);
  let calls = 0;
  for (let c = 0; c < 3; c++) calls += Math.ceil(idsOf(column.slice(c * 1000, c * 1000 + 1000)).size / 20);
  // Each 1,000-row chunk holds the same ids (the column repeats them): the first chunk asks for its
  // distinct valid ids, 20 per call; the next two find them in the user cache and make no call.
  expect(calls).toBeGreaterThan(3);
  expect(run.counters.urlFetchRequests).toBe(Math.ceil(firstChunkIds.size / 20));
  expect(s.singleUpcs.length).toBeGreaterThan(1000);
}, 40_000);

test('sidebar: an ASIN column gets one column per kind, identifiers as text with their leading zeros', () => {
  const s = sampleIndex();
  const upcs = s.singleUpcs.filter((u) => /^0[1-9]/.test(u)).slice(0, 50);
  const asins = upcs.map((u) => s.asinsByUpc.get(u)![0]);
  const { wb, rt } = world();
  fillColumn(wb, 'D', 5, asins);
  select(wb, 5, 4, 54, 4);
  const p = rt.scriptRun('convertSelectedColumn', []) as Progress;
  expect(p).toEqual({
    done: true,
    rowsDone: 50,
    totalRows: 50,
    targetA1: 'Sheet1!E5:I54',
    sourceA1: 'Sheet1!D5:D54',
    conversion: 'IDENTIFIERS_FROM_ASIN',
    marketplace: 'US',
    message: 'Converted 50 rows.',
  });
  asins.forEach((asin, i) => {
    const ids = s.idsByAsin.get(asin)!;
    const upcCell = wb.cell(SHEET, 'E' + (5 + i)).value;
    expect(upcCell).toBe((ids.upc ?? []).join(', '));
    expect(typeof upcCell).toBe('string');
    expect(String(upcCell).startsWith('0')).toBe(true);
  });
  // No header was selected, so none was written above the output.
  expect(wb.cell(SHEET, 'E4').value).toBe('');
}, 30_000);

test('the output columns must be empty: nothing is overwritten and nothing is written', () => {
  const s = sampleIndex();
  const { wb, rt } = world();
  wb.type(SHEET, 'A1', 'UPC');
  fillColumn(wb, 'A', 2, s.singleUpcs.slice(0, 10));
  wb.type(SHEET, 'B7', 'my note');
  select(wb, 1, 1, 11, 1);
  const msg = failure(() => rt.scriptRun('convertSelectedColumn', []));
  expect(msg).toMatch(
    /Cell Sheet1!B7 is not empty\. The converted values go into Sheet1!B2:B11, right of the selection; insert an empty column there and run it again\. Nothing was written\./,
  );
  expect(columnValues(wb, 'B', 1, 11)).toEqual(['', '', '', '', '', '', 'my note', '', '', '', '']);
  expect(checkpointKeys(rt)).toEqual([]);
  // Two columns selected: a clear message.
  select(wb, 1, 1, 11, 2);
  expect(failure(() => rt.scriptRun('convertSelectedColumn', []))).toMatch(/Select one column of identifiers \(you selected 2 columns\)/);
}, 30_000);

test("it uses the clicking user's own key: an editor without one is sent to Settings; with one it works though the owner shared nothing", async () => {
  const s = sampleIndex();
  const { wb, rt } = world();
  fillColumn(wb, 'A', 1, s.singleUpcs.slice(0, 30));
  select(wb, 1, 1, 30, 1);
  const msg = failure(() => rt.scriptRun('convertSelectedColumn', [], { user: EDITOR }));
  expect(msg).toMatch(/^\[open-settings\] No API key is saved yet\./);
  expect(columnValues(wb, 'B', 1, 30).every((v) => v === '')).toBe(true);
  const editorKey = env.svc.apiKeys[env.svc.apiKeys.length - 1];
  saveKey(rt, env.proxy.url, editorKey, EDITOR);
  const p = rt.scriptRun('convertSelectedColumn', [{ conversion: 'asin_from_upc', matches: 'all' }], { user: EDITOR }) as Progress;
  expect([p.done, p.conversion]).toEqual([true, 'ASIN_FROM_UPC']);
  expect(columnValues(wb, 'B', 1, 30)).toEqual(s.singleUpcs.slice(0, 30).map((u) => s.asinsByUpc.get(u)!.join(', ')));
  expect((await env.proxy.seen()).filter((x) => x.path === '/api/v3/convert').every((x) => x.authorization === 'Bearer ' + editorKey)).toBe(
    true,
  );
}, 30_000);

test('a run that nears the 6-minute limit (a 429 storm with long Retry-After) stops at a checkpoint; the next call continues; no row lost or repeated', async () => {
  const { column, expected } = messyUpcs(2500, 1500);
  const { wb, rt } = world();
  fillColumn(wb, 'A', 1, column);
  select(wb, 1, 1, 2500, 1);
  // Three waves of 25 convert requests answer 429 "come back in 100 s": after 300 s of waiting a further
  // retry does not fit in the execution, so it stops at a checkpoint instead of writing "service busy".
  await env.proxy.faults([{ method: 'POST', path: '^/api/v3/convert$', status: 429, times: 75, headers: { 'Retry-After': '100' } }]);
  const first = rt.scriptRun('convertSelectedColumn', []) as Progress;
  expect(first.done).toBe(false);
  expect(first.rowsDone).toBeLessThan(2500);
  expect((await env.proxy.seen()).filter((x) => x.injected)).toHaveLength(75);
  expect(first.message).toMatch(/^Converted \d+ of 2500 rows \(\d+%\)\. Run "Convert selected column" again to continue\.$/);
  expect(checkpointKeys(rt)).toHaveLength(1);
  const firstRun = rt.executions[rt.executions.length - 1];
  expect(firstRun.ok).toBe(true);
  expect(firstRun.durationMs).toBeLessThan(6 * 60_000);
  // What was written so far is exactly the first rowsDone rows; nothing below.
  expect(columnValues(wb, 'B', 1, first.rowsDone)).toEqual(expected.slice(0, first.rowsDone));
  expect(columnValues(wb, 'B', first.rowsDone + 1, 2500).every((v) => v === '')).toBe(true);
  // Another selection does not matter: the unfinished conversion continues.
  select(wb, 1, 5, 1, 5);
  let p = first;
  for (let i = 0; i < 5 && !p.done; i++) p = rt.scriptRun('convertSelectedColumn', []) as Progress;
  expect(p).toMatchObject({ done: true, rowsDone: 2500, sourceA1: 'Sheet1!A1:A2500', targetA1: 'Sheet1!B1:B2500' });
  expect(columnValues(wb, 'B', 1, 2500)).toEqual(expected);
  expect(checkpointKeys(rt)).toEqual([]);
}, 40_000);

test('a run KILLED at the 6-minute limit (slow sheet writes) is resumed from its checkpoint; no row lost or repeated', () => {
  const { column, expected } = messyUpcs(5000, 3000);
  // Every sheet write costs 100 s of Apps Script time: the execution passes 6 minutes mid-way and the runtime ends it.
  const { wb, rt } = world({ cost: { sheetWriteCallMs: 100_000 } });
  wb.type(SHEET, 'A1', 'UPC');
  fillColumn(wb, 'A', 2, column);
  select(wb, 1, 1, 5001, 1);
  const errors: string[] = [];
  let p: Progress | undefined;
  for (let i = 0; i < 12 && !(p && p.done); i++) {
    try {
      p = rt.scriptRun('convertSelectedColumn', []) as Progress;
    } catch (e) {
      errors.push(String((e as Error).message));
    }
  }
  expect(errors.length).toBeGreaterThan(0);
  expect(new Set(errors)).toEqual(new Set(['Exceeded maximum execution time']));
  expect(p).toMatchObject({ done: true, rowsDone: 5000, totalRows: 5000 });
  expect(wb.cell(SHEET, 'B1').value).toBe('ASIN');
  expect(columnValues(wb, 'B', 2, 5001)).toEqual(expected);
  expect(wb.cell(SHEET, 'B5002').value).toBe('');
  expect(checkpointKeys(rt)).toEqual([]);
}, 50_000);
