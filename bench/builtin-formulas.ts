/**
 * Built-in formulas in the local Apps Script runtime (issue 8): a 10,000-row price list whose Cost and
 * Price columns are formulas (=B2*0.9, =ROUND(C2*1.2,2)), computed by HyperFormula. Real Node time
 * on this machine (not modelled Apps Script time): writing it, one edit, a row insert, rewriting the
 * price column, and the heap used; then the overview's category block (issue 36) written and edited.
 * Run alone: `npx tsx bench/builtin-formulas.ts`.
 */
import { Workbook, createSpreadsheetApp } from '../emulator/gas/spreadsheet';
import { RuntimeState, emptyCounters, LIMIT_MS } from '../emulator/gas/execution';
import { runAlone } from './run-alone';

const ROWS = 10_000;

export async function benchBuiltinFormulas(): Promise<Record<string, number | string>> {
  const state = new RuntimeState();
  const wb = new Workbook({ name: 'Bench' });
  const app = createSpreadsheetApp(state, wb, { isCustomFunction: () => false, callCustomFunction: () => null });
  state.current = {
    kind: 'normal',
    authMode: 'FULL',
    startedAt: state.clock.now(),
    limitMs: LIMIT_MS.normal,
    user: wb.owner,
    counters: emptyCounters(),
  };
  const sheet = app.getActiveSpreadsheet().getActiveSheet();
  sheet.insertRowsAfter(1000, ROWS);
  const rows = Array.from({ length: ROWS }, (_, i) => [100000 + i, (i % 50) + 1, `=B${i + 1}*0.9`, `=ROUND(C${i + 1}*1.2,2)`]);
  const heap0 = process.memoryUsage().heapUsed;
  const time = (f: () => void) => {
    const t = process.hrtime.bigint();
    f();
    return Number(process.hrtime.bigint() - t) / 1e6;
  };
  const first = time(() => sheet.getRange(1, 1, ROWS, 4).setValues(rows));
  const read = time(() => sheet.getRange(1, 1, ROWS, 4).getValues());
  const edit = time(() => sheet.getRange('B5').setValue(1000));
  const insert = time(() => sheet.insertRowsBefore(1, 1));
  const prices = time(() => sheet.getRange(2, 2, ROWS, 1).setValues(rows.map((r) => [r[1]])));
  const check = sheet.getRange(6, 3, 1, 2).getValues()[0];
  if (check[0] !== 4.5 || check[1] !== 5.4) throw new Error(`wrong result after the rewrite: ${JSON.stringify(check)}`);
  const categories = categoryBlock(app.getActiveSpreadsheet(), time);
  return {
    'rows x formulas': `${ROWS} x 2`,
    'first setValues (engine loaded and built), ms': first,
    'getValues of the block, ms': read,
    'one price edited (one dependent pair recomputed), ms': edit,
    'one row inserted above (references moved, text rewritten), ms': insert,
    'price column rewritten (10,000 cells), ms': prices,
    'heap growth, MB': (process.memoryUsage().heapUsed - heap0) / 1e6,
    ...categories,
  };
}

/**
 * The overview's products-per-category block (src/domain/result-tabs/overview.ts, issue 36): 20
 * chained ARRAYFORMULA/MATCH formulas over 10,000 category cells, written by one setValues, then one
 * category edited. Premise: the block lists the 17 categories in the tab's order.
 */
function categoryBlock(ss: GoogleAppsScript.Spreadsheet.Spreadsheet, time: (f: () => void) => number): Record<string, number> {
  const tab = ss.insertSheet('Tab');
  tab.insertRowsAfter(1000, ROWS);
  tab.getRange(1, 1, ROWS, 1).setValues(Array.from({ length: ROWS }, (_, i) => [`Category ${(i * 7) % 17}`]));
  const range = `Tab!A1:A${ROWS}`;
  const block = Array.from({ length: 20 }, (_, k) => {
    const listed = k ? `ISNUMBER(MATCH(${range},A$1:A${k},0))` : 'FALSE';
    return [`=ARRAYFORMULA(IFERROR(INDEX(${range},MATCH(0,${listed}+(${range}=""),0)),""))`];
  });
  const overview = ss.insertSheet('Overview');
  overview.getRange('B1').setFormula('=1'); // the engine holds this tab before the block is written
  const write = time(() => overview.getRange(1, 1, 20, 1).setValues(block));
  const listed = overview
    .getRange(1, 1, 17, 1)
    .getValues()
    .map((r) => r[0]);
  const want = Array.from({ length: 17 }, (_, i) => `Category ${(i * 7) % 17}`);
  if (JSON.stringify(listed) !== JSON.stringify(want)) throw new Error(`categories listed: ${JSON.stringify(listed)}`);
  const edit = time(() => tab.getRange('A2').setValue('Category new'));
  if (overview.getRange('A2').getValue() !== 'Category new') throw new Error('the edit did not reach the category block');
  return {
    'category block (20 chained ARRAYFORMULA/MATCH over 10,000 cells) written in one setValues, ms': write,
    'one category edited (the block recomputed), ms': edit,
  };
}

if (require.main === module) runAlone(benchBuiltinFormulas);
