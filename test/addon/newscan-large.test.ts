/**
 * Reading very large sheets for a new scan (BUILT add-on, local runtime with its cost model, local
 * service behind the recording proxy): preview and start read only the mapped columns; a block too
 * large to read in one execution is refused, naming its size and what to select, before any cell is
 * read; a 100,000 x 100 sheet with six mapped columns scans within the 6-minute limit.
 */
import { Workbook } from '../../emulator/gas/spreadsheet';
import type { Runtime } from '../../emulator/gas';
import { connect, runtime, thrown, useServiceBehindProxy } from './scanflow-helpers';
import { RUNNING_KEY } from '../../src/store/keys';

jest.setTimeout(60_000);

const env = useServiceBehindProxy({ SCAN_SERVICE_SPEED: '600000' });

/** A valid UPC-A for i. */
function upc(i: number): string {
  const body = String(100000000000 + i * 7).slice(0, 11);
  let sum = 0;
  for (let k = 0; k < 11; k++) sum += Number(body[k]) * (k % 2 === 0 ? 3 : 1);
  return body + ((10 - (sum % 10)) % 10);
}

function colName(n: number): string {
  let s = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
}

/**
 * `rows` data rows under a header of `width` columns: UPC, SKU, Description, Cost, Stock, Brand
 * filled in A-F; the other columns have a header only and one note in the last row (the data range
 * is the whole block; reads cost per cell whether filled or not).
 */
function wideSheet(rows: number, width: number): Workbook {
  const wb = new Workbook({ name: 'Wide', empty: true });
  const sh = wb.addSheet('Wide', undefined, rows + 1, width);
  const head = ['UPC', 'SKU', 'Description', 'Cost', 'Stock', 'Brand'];
  for (let c = 1; c <= width; c++) wb.writeInput(sh, 1, c, head[c - 1] || 'Notes ' + c);
  for (let i = 0; i < rows; i++) {
    wb.writeInput(sh, i + 2, 1, i === 5 ? '' : "'" + upc(i));
    wb.writeInput(sh, i + 2, 2, 'S' + i);
    wb.writeInput(sh, i + 2, 3, 'Item ' + i);
    wb.writeInput(sh, i + 2, 4, i === 7 ? 'call us' : 1 + (i % 50) / 4);
    wb.writeInput(sh, i + 2, 5, i % 9);
    wb.writeInput(sh, i + 2, 6, 'Acme');
  }
  wb.writeInput(sh, rows + 1, width, 'last note');
  return wb;
}

function request(setup: any, roles: string[]) {
  return {
    roles,
    options: { marketplace: 'US', name: 'Wide list' },
    sheetName: setup.sheetName,
    rangeA1: setup.rangeA1,
    selection: setup.selection,
    headerRow: setup.headerRow,
  };
}

const last = (rt: Runtime) => rt.executions[rt.executions.length - 1];

test('a wide block: preview reads only the mapped columns, one pair of reads per run, and names real rows and columns', async () => {
  const wb = wideSheet(20_000, 100);
  const rt = runtime(wb);
  connect(rt, env.proxy.url, env.svc.apiKey);
  const setup = rt.scriptRun('getScanSetup') as any;
  expect(setup.columns).toHaveLength(100);
  expect(setup.rangeA1).toBe('A1:CV20001');
  // Identifier, SKU, cost; Description (C) and everything right of D not sent.
  const roles = setup.columns.map(() => 'ignore');
  roles[0] = 'identifier';
  roles[1] = 'sku';
  roles[3] = 'cost';
  const preview = rt.scriptRun('previewScan', [request(setup, roles)]) as any;
  expect(preview.counts).toEqual(expect.objectContaining({ send: 19_998, skipped: 2 }));
  expect(preview.skipped.map((s: any) => [s.sheetRow, s.message])).toEqual([
    [7, 'Row 7: no identifier in column A.'],
    [9, expect.stringMatching(/^Row 9: /)],
  ]);
  const c = last(rt).counters;
  // A:B and D: two runs, values and display values of each, 20,001 rows.
  expect(c.sheetReadCalls).toBe(4);
  expect(c.cellsRead).toBe(2 * 20_001 * 3);
  await rt.stop();
});

test('too many cells to read: refused with the size and what to do, before any cell is read; nothing sent', async () => {
  const wb = new Workbook({ name: 'Huge', empty: true });
  const sh = wb.addSheet('Huge', undefined, 100_001, 30);
  for (let c = 1; c <= 30; c++) wb.writeInput(sh, 1, c, c === 1 ? 'UPC' : c === 2 ? 'Cost' : 'Extra ' + c);
  wb.writeInput(sh, 2, 1, "'" + upc(1));
  wb.writeInput(sh, 2, 2, 2.5);
  wb.writeInput(sh, 100_001, 30, 'x');
  const rt = runtime(wb);
  connect(rt, env.proxy.url, env.svc.apiKey);
  const setup = rt.scriptRun('getScanSetup') as any;
  const roles = setup.columns.map((_c: any, i: number) => (i === 0 ? 'identifier' : i === 1 ? 'cost' : 'custom'));
  for (const fn of ['previewScan', 'startScan']) {
    const msg = thrown(() => rt.scriptRun(fn, [request(setup, roles)]));
    expect(msg).toBe(
      'The list is too large to read at once: 100,001 rows x 30 chosen columns = 3,000,030 cells (at most 2,000,000). ' +
        'Set fewer columns to be sent (custom columns to "' +
        setup.roles.find((r: any) => r.role === 'ignore').label +
        '"), or select fewer rows (with the header row) and scan the list in parts.',
    );
    expect(last(rt).counters.cellsRead).toBe(0);
  }
  expect((await env.proxy.seen()).filter((s) => s.method === 'POST')).toEqual([]);
  expect(rt.properties.document!.get(RUNNING_KEY)).toBeNull();
  await rt.stop();
});

test('an upload over 50 MB (Apps Script quotas: URL Fetch POST size 50 MB / call): refused before sending, with how many rows per part fit; nothing sent', async () => {
  await env.proxy.reset();
  const rows = 60_000;
  const wb = new Workbook({ name: 'Long texts', empty: true });
  const sh = wb.addSheet('Long texts', undefined, rows + 1, 3);
  ['UPC', 'Cost', 'Description'].forEach((h, c) => wb.writeInput(sh, 1, c + 1, h));
  const text = 'Stainless steel widget with a long supplier description. '.repeat(16); // 912 characters
  for (let i = 0; i < rows; i++) {
    wb.writeInput(sh, i + 2, 1, "'" + upc(i));
    wb.writeInput(sh, i + 2, 2, 2.5);
    wb.writeInput(sh, i + 2, 3, text + i);
  }
  const rt = runtime(wb);
  connect(rt, env.proxy.url, env.svc.apiKey);
  const setup = rt.scriptRun('getScanSetup') as any;
  const msg = thrown(() => rt.scriptRun('startScan', [request(setup, ['identifier', 'cost', 'custom'])]));
  expect(msg).toMatch(
    /^The scan was not started: These 60,000 rows make an upload of 5\d\.\d MB; the Scan Service takes at most 32\.0 MB in one scan \(Google's own limit for an add-on is 50 MB\)\. Scan the sheet in 2 parts: select about 3\d,000 rows at a time \(the header row is found above the selection\) and start a scan for each\. The column set to "Custom column" goes with every row: setting it to "Not used" if you do not need it makes the upload smaller\.$/,
  );
  // Nothing left for the service (the old code sent it, Google refused it, and it was retried as "could not be reached").
  expect((await env.proxy.seen()).filter((s) => s.method === 'POST')).toEqual([]);
  expect(rt.properties.document!.get(RUNNING_KEY)).toBeNull();
  await rt.stop();
});

test('a block wider than the form can offer: setup refuses before reading', async () => {
  const wb = new Workbook({ name: 'Very wide', empty: true });
  const sh = wb.addSheet('Very wide', undefined, 10, 300);
  wb.writeInput(sh, 1, 1, 'UPC');
  wb.writeInput(sh, 1, 300, 'Last');
  const rt = runtime(wb);
  const msg = thrown(() => rt.scriptRun('getScanSetup'));
  expect(msg).toBe(
    'The sheet "Very wide" has 300 columns (A1:' +
      colName(300) +
      '1); the add-on reads at most 250. Select the columns of the price list (with its header row) and open Scan this sheet again.',
  );
  expect(last(rt).counters.cellsRead).toBe(0);
  await rt.stop();
});

test('100,000 rows x 100 columns (header included: the 10,000,000 cells of a whole spreadsheet), six mapped: preview and start fit the 6-minute limit (modelled seconds in README)', async () => {
  const wb = wideSheet(99_999, 100);
  const rt = runtime(wb);
  connect(rt, env.proxy.url, env.svc.apiKey);
  const setup = rt.scriptRun('getScanSetup') as any;
  expect(setup.rowCount).toBe(99_999);
  const roles = setup.columns.map(() => 'ignore');
  ['identifier', 'sku', 'custom', 'cost', 'stock', 'custom'].forEach((r, i) => (roles[i] = r));
  const setupSec = last(rt).durationMs / 1000;
  const shown = rt.scriptRun('previewScan', [request(setup, roles)]) as any;
  const preview = last(rt);
  expect(preview.counters.cellsRead).toBe(2 * 100_000 * 6);
  // Issue 22: this sheet IS the spreadsheet's 10,000,000 cells, so the results cannot come back into it:
  // the form says so before Send, and Send alone is refused before anything is uploaded.
  expect(shown.room).toMatchObject({ fits: false, left: 0 });
  expect(thrown(() => rt.scriptRun('startScan', [request(setup, roles)]))).toMatch(
    /^\[needs-room\] Not sent, so nothing is charged\. The results will not fit/,
  );
  // The user chose to send anyway (to import with filters or download the results).
  const started = rt.scriptRun('startScan', [{ ...request(setup, roles), sendWhenFull: true }]) as any;
  const start = last(rt);
  expect(start.ok).toBe(true);
  expect(started.preview.counts).toEqual(expect.objectContaining({ send: 99_997 }));
  expect(start.durationMs).toBeLessThan(6 * 60_000);
  console.log(
    `100,000 x 100 (6 mapped): setup ${setupSec.toFixed(1)} s, preview ${(preview.durationMs / 1000).toFixed(1)} s, start ${(start.durationMs / 1000).toFixed(1)} s modelled ` +
      `(reads ${start.counters.sheetReadCalls}, cells ${start.counters.cellsRead})`,
  );
  await rt.stop();
});
