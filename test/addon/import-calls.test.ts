/**
 * Issue 36: the seller waits on each importScan call, so an import that would run longer than
 * IMPORT_CALL_BUDGET_MS (30 s, modelled) in one call is split at its waves into calls of about equal
 * length, each within it (All columns with history writes some 70 cells a product). The split
 * changes nothing a seller sees: the result tab and its overview are cell for cell (values, formulas,
 * number formats, notes, links), width for width, the ones the hourly trigger writes in one execution.
 *
 * To keep the test small, Sheets is slower here than the cost model's figures (each cell written 25
 * times dearer, as a busy spreadsheet may be) and the support knob makes waves of 2 pages: 1,000
 * lines then cost what 10,000 lines cost at the usual figures. BUILT add-on, local runtime, local
 * Scan Service over the test catalog.
 */
import type { SpawnedService } from '../../emulator/service/spawn';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { IMPORT_TUNING_KEY } from '../../src/store/keys';
import { IMPORT_CALL_BUDGET_MS } from '../../src/domain/time-budgets';
import { connect, runtime } from './scanflow-helpers';
import { startImportService, startSheetScan, waitFinished } from './import-helpers';

jest.setTimeout(120_000);

const LINES = 1000;
const NAME = 'Everything';

let service: SpawnedService;
beforeAll(async () => {
  service = await startImportService();
});
afterAll(async () => {
  await service?.stop();
});

/** Everything a seller sees of a tab: its grid, frozen panes, widths, heights, and every cell. */
function seen(wb: Workbook, name: string) {
  const s = wb.requireSheet(name);
  const cells: unknown[] = [];
  for (let r = 1; r <= s.maxRows; r++) for (let c = 1; c <= s.maxCols; c++) cells.push(wb.cell(name, wb.a1(r, c)));
  return {
    grid: [s.maxRows, s.maxCols, s.frozenRows, s.frozenCols, s.hidden],
    widths: [...s.colWidths].sort((a, b) => a[0] - b[0]),
    heights: [...s.rowHeights].sort((a, b) => a[0] - b[0]),
    rules: s.cfRules.length,
    filter: s.filter !== null,
    cells,
  };
}

test('All columns + history: split between sidebar calls of at most 30 s when longer, into the same tab the trigger writes in one execution', async () => {
  const wb = new Workbook({ name: 'Supplier' });
  const rt = runtime(wb, { cost: { sheetWriteCellMs: 0.8 } });
  try {
    connect(rt, service.url, service.apiKey);
    rt.properties.script.set(IMPORT_TUNING_KEY, JSON.stringify({ pagesPerWave: 2 }));
    const id = startSheetScan(rt, wb, 'List', LINES, NAME, { options: { pullHistoricalData: true }, columns: 'all' });
    const finished = await waitFinished(service, id);
    expect(finished.products).toBe(LINES);

    // The hourly trigger imports it in one execution (nobody waits on it: the import's 4-minute budget).
    rt.advance(3600_000);
    const before = rt.executions.length;
    expect(rt.runDueTriggers()).toMatchObject([{ handler: 'importFinishedScans', ok: true }]);
    const trigger = rt.executions.slice(before);
    expect(trigger).toHaveLength(1);
    const header = wb.values(NAME)[0];
    // The premise: all columns with the trend charts, every row, and more than one call's worth of work.
    for (const h of ['Listing UPC', 'Can send to FBA', 'Rank trend', 'Price trend']) expect(header).toContain(h);
    expect(header.length).toBeGreaterThan(60);
    expect(wb.values(NAME)).toHaveLength(LINES + 1);
    expect(trigger[0].durationMs).toBeGreaterThan(IMPORT_CALL_BUDGET_MS * 1.5);
    const once = { tab: seen(wb, NAME), overview: seen(wb, `${NAME} – Overview`) };

    // Import it again from Scans: call after call, as the sidebar does, each within the call budget.
    const first = rt.executions.length;
    let r: any;
    do r = rt.scriptRun('importScan', [id, null]);
    while (!r.done && rt.executions.length - first < 20);
    expect(r).toMatchObject({ done: true, rowsWritten: LINES, sheetName: NAME });
    const calls = rt.executions.slice(first);
    expect(calls.length).toBeGreaterThan(1);
    for (const call of calls) expect([call.ok, call.durationMs <= IMPORT_CALL_BUDGET_MS]).toEqual([true, true]);
    // Only the planned calls: the work shared out, not one call per wave.
    expect(calls.length).toBeLessThanOrEqual(Math.ceil(trigger[0].durationMs / IMPORT_CALL_BUDGET_MS) + 1);
    // Each page asked for once (the floor: the scan record, 10 pages of products, the empty errors page).
    expect(calls.reduce((n, e) => n + e.counters.urlFetchRequests, 0)).toBe(LINES / 100 + 2);

    expect(wb.sheetNames()).toEqual(['Sheet1', 'List', NAME, `${NAME} – Overview`]);
    expect(seen(wb, NAME)).toEqual(once.tab);
    expect(seen(wb, `${NAME} – Overview`)).toEqual(once.overview);
  } finally {
    await rt.stop();
  }
});
