/**
 * Issue 22, a spreadsheet that is filling up (BUILT add-on, local runtime with its cell limit
 * LOWERED, local service behind the recording proxy): a scan whose results cannot fit is refused
 * before anything is uploaded, with the numbers; an import that meets the limit stops with the rows
 * so far, says what to delete, and continues once the user deleted an old tab, every row once; a
 * column that first has a value on a later page is inserted in its place without shifting a row.
 */
import { Workbook } from '../../emulator/gas/spreadsheet';
import { NEEDS_ROOM_MARKER } from '../../src/app/failure';
import type { Runtime } from '../../emulator/gas';
import { IMPORT_TUNING_KEY } from '../../src/store/keys';
import { connect, runtime, thrown, useServiceBehindProxy } from './scanflow-helpers';
import { serviceRows, startSheetScan, supplierRows, testCatalog, upc, uploadScan, waitFinished } from './import-helpers';

jest.setTimeout(60_000);

const env = useServiceBehindProxy({ SCAN_SERVICE_CATALOG: testCatalog(), SCAN_SERVICE_SPEED: '6000000' });

/** Lowers the spreadsheet's limit in the runtime and tells the add-on (the support knob), as a smaller Google would. */
function lowerLimit(rt: Runtime, wb: Workbook, limit: number): void {
  wb.cellLimit = limit;
  rt.properties.script.set(IMPORT_TUNING_KEY, JSON.stringify({ cellLimit: limit, pagesPerWave: 1 }));
}

async function uploads() {
  return (await env.proxy.seen()).filter((s) => s.method === 'POST' && s.path === '/api/v3/scans');
}

/** What the user does in Sheets: right-click the tab, Delete. */
function userDeletes(wb: Workbook, name: string): void {
  wb.sheets.splice(wb.sheets.indexOf(wb.requireSheet(name)), 1);
}

test('a scan whose results cannot fit is refused before sending, with the numbers and what fits; nothing is uploaded', async () => {
  const wb = new Workbook({ name: 'Supplier', empty: true });
  const sh = wb.addSheet('Prices', undefined, 1001, 2);
  wb.writeInput(sh, 1, 1, 'UPC');
  wb.writeInput(sh, 1, 2, 'Cost');
  for (let i = 0; i < 1000; i++) {
    wb.writeInput(sh, i + 2, 1, "'" + upc(20000 + i));
    wb.writeInput(sh, i + 2, 2, 4 + (i % 10));
  }
  const rt = runtime(wb);
  try {
    connect(rt, env.proxy.url, env.svc.apiKey);
    lowerLimit(rt, wb, 30_000);
    const setup = rt.scriptRun('getScanSetup') as any;
    const request = {
      roles: setup.columns.map((c: any) => c.role),
      options: { marketplace: 'US', name: 'Whole catalogue' },
      sheetName: setup.sheetName,
      rangeA1: setup.rangeA1,
      selection: setup.selection,
      headerRow: setup.headerRow,
    };
    expect(request.roles).toEqual(['identifier', 'cost']);
    // The form knows before Send: 1,000 lines x 1.12 = 1,120 products, one row each, plus the header.
    const preview = rt.scriptRun('previewScan', [request]) as any;
    const columns = preview.room.columns;
    expect(preview.room).toMatchObject({
      fits: false,
      lines: 1000,
      products: 1120,
      needed: 1121 * columns,
      limit: 30_000,
      left: 30_000 - 2002,
    });
    // Identity, prices, fees, profit, demand, offers, risks: not the supplier inputs that were not uploaded (MAP, stock, pack, SKU).
    expect(columns).toBeGreaterThan(30);
    expect(columns).toBeLessThan(41); // (issue 36: the Picture column)
    const message = thrown(() => rt.scriptRun('startScan', [request]));
    // The sidebar knows it by its marker (it then offers Send anyway), not by the words.
    expect(message).toBe(NEEDS_ROOM_MARKER + 'Not sent, so nothing is charged. ' + preview.room.message);
    expect(preview.room.message).toMatch(/^The results will not fit in this spreadsheet\. About/);
    expect(message).toContain(
      `About 1,120 products (1,000 lines × 1.12 products a line, as scans of catalogue lists average) × ${columns} columns need about ${(1121 * columns).toLocaleString('en-US')} cells; the spreadsheet has 27,998 of its 30,000 cells left`,
    );
    expect(message).toMatch(/import only the rows that pass your filters .*: about \d[\d,]* rows fit\./);
    expect(message).toContain('download them to Drive (Scans > Download)');
    expect(await uploads()).toEqual([]);
    // Chosen "send anyway" (to import with filters or download): sent once.
    const started = rt.scriptRun('startScan', [{ ...request, sendWhenFull: true }]) as any;
    expect(started.progress.scanId).toBeGreaterThan(0);
    expect(started.preview.room.fits).toBe(false);
    expect(await uploads()).toHaveLength(1);
  } finally {
    await rt.stop();
  }
});

test('an import that meets the limit stops with the rows so far, names the old tabs to delete, and continues after one is deleted: every row once', async () => {
  const old = await uploadScan(env.svc, supplierRows(600, 0), 'Old list');
  const big = await uploadScan(env.svc, supplierRows(1500, 0), 'New list');
  await waitFinished(env.svc, old);
  await waitFinished(env.svc, big);
  const wb = new Workbook({ name: 'Supplier' });
  const rt = runtime(wb);
  try {
    connect(rt, env.svc.url, env.svc.apiKey);
    expect((rt.scriptRun('importScan', [old, null]) as any).done).toBe(true);
    const oldCells = wb.requireSheet('Old list').cellCount();
    // Room for 1,000 of the 1,500 rows and the header (the new tab's 1,000 x 26 cells fit until it is trimmed).
    const columns = wb.requireSheet('Old list').maxCols;
    // (and the new scan's overview tab, as large as the old one's: the import counts it before any row, issue 36)
    lowerLimit(rt, wb, wb.totalCells() + 1000 * columns + 2 * columns + wb.requireSheet('Old list – Overview').cellCount());
    const message = thrown(() => rt.scriptRun('importScan', [big, null]));
    expect(message).toMatch(
      /^The spreadsheet is full: 1,0\d\d of 1,500 rows of "New list" are imported so far \(kept in a hidden tab; nothing is lost\)\./,
    );
    expect(message).toContain(
      `To free room, delete older result tabs you no longer need: "Old list" (${oldCells.toLocaleString('en-US')} cells)`,
    );
    expect(message).toMatch(/Then import the scan again: it continues from row 1,0\d1\./);
    expect(message).not.toContain('This action would increase');
    const sofar = Number(/full: ([\d,]+) of/.exec(message)![1].replace(',', ''));
    // Nothing visible yet; the staging tab is kept with exactly the rows so far.
    expect(wb.sheets.filter((s) => !s.hidden).map((s) => s.name)).toEqual(['Sheet1', 'Old list', 'Old list – Overview']);
    const staging = wb.sheets.find((s) => s.hidden)!;
    expect(staging.lastRow()).toBe(sofar + 1);
    // Asked again without room: the same rows, none doubled.
    expect(thrown(() => rt.scriptRun('importScan', [big, null]))).toBe(message);
    expect(staging.lastRow()).toBe(sofar + 1);
    userDeletes(wb, 'Old list');
    const done = rt.scriptRun('importScan', [big, null]) as any;
    expect(done).toMatchObject({ done: true, rowsWritten: 1500, sheetName: 'New list' });
    const want = (await serviceRows(env.svc, big)).map((p) => p.asin);
    expect(want).toHaveLength(1500);
    expect(
      wb
        .values('New list')
        .slice(1)
        .map((r) => r[0]),
    ).toEqual(want);
    // The tab's grid is exactly its data.
    expect([wb.requireSheet('New list').maxRows, wb.requireSheet('New list').maxCols]).toEqual([1501, columns]);
    expect(wb.totalCells()).toBeLessThanOrEqual(wb.cellLimit);
  } finally {
    await rt.stop();
  }
});

test('a column nothing came back for is not written; one that first has a value on a later page is inserted in its place, no row shifted', async () => {
  // Row 150's cost is many times its Buy Box: its "Check" is the only one (page 2 of 3).
  const rows = supplierRows(250, 0);
  rows[150].cost = '900.00';
  const id = await uploadScan(env.svc, rows, 'Checked list');
  await waitFinished(env.svc, id);
  const wb = new Workbook({ name: 'Supplier' });
  const rt = runtime(wb);
  try {
    connect(rt, env.svc.url, env.svc.apiKey);
    rt.properties.script.set(IMPORT_TUNING_KEY, JSON.stringify({ pagesPerWave: 1 }));
    expect((rt.scriptRun('importScan', [id, null]) as any).done).toBe(true);
    const values = wb.values('Checked list');
    const headers = values[0];
    // Not uploaded: MAP, stock, pack quantity; nothing came back for them.
    for (const h of ['MAP', 'Stock', 'Pack qty']) expect(headers).not.toContain(h);
    const check = headers.indexOf('Check');
    expect(headers.slice(check - 1, check + 2)).toEqual(['Cost for 30% ROI', 'Check', 'Storage/mo']);
    const products = await serviceRows(env.svc, id);
    const at = products.findIndex((p) => p.inputs.cost === 90000);
    expect(at).toBeGreaterThanOrEqual(100);
    values.slice(1).forEach((r, i) => {
      expect(r[check] !== '').toBe(i === at);
      expect([r[0], r[headers.indexOf('Identifier')], r[headers.indexOf('SKU')]]).toEqual([
        products[i].asin,
        products[i].inputs.identifier,
        products[i].inputs.supplier_sku,
      ]);
    });
    expect(values[at + 1][check]).toMatch(/^Cost is [\d.]+× the Buy Box/);
    expect(wb.requireSheet('Checked list').maxCols).toBe(headers.length);
  } finally {
    await rt.stop();
  }
});

test('tabs the add-on makes for lists are only their columns (1,000 rows to type into), and its hidden bases exactly their cells (not 1,000 x 26 each)', async () => {
  const wb = new Workbook({ name: 'Supplier' });
  const rt = runtime(wb);
  try {
    connect(rt, env.svc.url, env.svc.apiKey);
    rt.scriptRun('setUpLists');
    const lists = wb.sheets.filter((s) => s.name.startsWith('Scan '));
    expect(lists).toHaveLength(6);
    for (const s of lists) {
      expect(s.maxRows).toBe(1000);
      expect(s.maxCols).toBe(s.lastColumn()); // the header's columns, no more
    }
    const brands = wb.requireSheet('Scan brand blocklist');
    expect([brands.maxCols, wb.cell('Scan brand blocklist', 'B1').value]).toEqual([2, 'Brand']);
    wb.writeInput(brands, 2, 1, 'US');
    wb.writeInput(brands, 2, 2, 'Acme Sample Brand');
    rt.scriptRun('syncNow', [false]);
    const bases = wb.sheets.filter((s) => s.name.startsWith('_scan_base_'));
    expect(bases.length).toBeGreaterThan(0);
    for (const b of bases) {
      expect(b.hidden).toBe(true);
      expect([b.maxRows, b.maxCols]).toEqual([b.lastRow(), 1]);
    }
    // Before, every list tab and base was 1,000 x 26 = 26,000 cells.
    const listCells = lists.reduce((n, s) => n + 1000 * s.maxCols, 0);
    expect(listCells).toBeLessThan(6 * 1000 * 6);
    expect(wb.totalCells()).toBe(26_000 + listCells + bases.reduce((n, b) => n + b.maxRows, 0));
  } finally {
    await rt.stop();
  }
});

test('the hourly import that meets the limit says so in a toast, keeps its rows, and finishes on a later run once the user made room', async () => {
  const wb = new Workbook({ name: 'Supplier' });
  wb.addSheet('Old stuff', undefined, 2000, 26); // the user's own tab: 52,000 cells
  const rt = runtime(wb);
  try {
    connect(rt, env.svc.url, env.svc.apiKey);
    // Started here as a seller does (getScanSetup, startScan) from a 'Prices' tab: this user's scan in this document.
    const id = startSheetScan(rt, wb, 'Prices', 1500, 'Night list');
    await waitFinished(env.svc, id);
    // What the hourly trigger runs (src/app/trigger/), as an installable-trigger execution.
    const hourly = () => rt.run('importFinishedScans', [], { kind: 'installable-trigger' });
    // Room for about 1,000 of the 1,500 rows.
    lowerLimit(rt, wb, wb.totalCells() + 40_000);
    hourly();
    const toasts = () => rt.uiEvents.filter((e) => e.kind === 'toast') as any[];
    expect(toasts()).toHaveLength(1);
    expect(toasts()[0].title).toBe('Scan "Night list" needs room');
    expect(toasts()[0].message).toMatch(/^The spreadsheet is full: [\d,]+ of 1,500 rows of "Night list" are imported so far/);
    const staging = wb.sheets.find((s) => s.hidden)!;
    const sofar = staging.lastRow() - 1;
    expect(sofar).toBeGreaterThan(500);
    expect(toasts()[0].message).toContain(`continues from row ${(sofar + 1).toLocaleString('en-US')}.`);
    userDeletes(wb, 'Old stuff');
    // The next attempts (backed off after a failure) finish it: every row once.
    for (let h = 0; h < 4 && !wb.sheetNames().includes('Night list'); h++) {
      rt.advance(3600_000);
      hourly();
    }
    expect(toasts()[toasts().length - 1].title).toBe('Scan "Night list" is done');
    const want = (await serviceRows(env.svc, id)).map((p) => p.asin);
    expect(
      wb
        .values('Night list')
        .slice(1)
        .map((r) => r[0]),
    ).toEqual(want);
  } finally {
    await rt.stop();
  }
});
