/**
 * Identifier formulas at the API's call floor (issue 5): the BUILT add-on's custom functions in the
 * local Apps Script runtime (modelled Apps Script time, emulator/gas/README.md cost model) against
 * the local Scan Service in a child process.
 *
 * 1. One =ASIN_FROM_UPC over 5,000 UPCs (2,000 distinct, real UPCs of the sample catalog): requests
 *    made against the floor of 100 (2,000 distinct / 20 per call), fetchAll calls, and the formula
 *    call's modelled seconds against the 30-second limit.
 * 2. The same sheet recalculated (what reopening does): requests made (target 0).
 * 3. The per-cell approach for comparison: 5,000 one-cell formulas =ASIN_FROM_UPC(A2), ... with an
 *    empty cache (a fresh runtime): requests, executions, and modelled seconds (sum over the cells'
 *    executions: each is a server call counted against the quotas). Typed one at a time, each cell is
 *    its own recalculation; reopening recalculates them all at once, and the local runtime (like
 *    Sheets: 30 simultaneous executions per user) fails all but 30 with "There are too many scripts
 *    running simultaneously" (emulator/gas/README.md, Concurrency). Counted for the range formula too.
 * Run alone: `npm run build && npx tsx bench/formulas.ts` (ADDON_OUT_DIR for another build folder).
 */
import { TOO_MANY_SCRIPTS_MESSAGE, createRuntime, type Runtime } from '../emulator/gas';
import { Workbook } from '../emulator/gas/spreadsheet';
import { spawnService } from '../emulator/service/spawn';
import { sampleIndex } from '../emulator/service/catalog/sample-index';
import { runAlone } from './run-alone';

const CELLS = 5000;
const DISTINCT = 2000;
const LIMIT_S = 30;
const OWNER = 'owner@example.com';

function sheetWithUpcs(upcs: string[]): Workbook {
  const wb = new Workbook({ owner: OWNER, name: 'Bench', empty: true });
  wb.addSheet('Sheet1', undefined, CELLS + 10, 26);
  // Text with an apostrophe, as a careful user keeps UPCs (the runtime drops it from the value).
  upcs.forEach((u, i) => wb.type('Sheet1', 'A' + (i + 2), "'" + u));
  return wb;
}

function connected(wb: Workbook, url: string, apiKey: string): Runtime {
  const rt = createRuntime({ workbook: wb, startTime: Date.UTC(2026, 10, 21, 9, 0, 0), urlFetchTimeoutMs: 30_000 });
  // As a user enables the add-on in a spreadsheet (its custom functions are unknown before): open, Settings from the menu.
  rt.open();
  rt.run('menuSettings');
  rt.scriptRun('saveSettings', [{ apiKey, serviceUrl: url }]);
  rt.scriptRun('setFormulaKeySharing', [true]);
  return rt;
}

/** Cells of column B (rows 2..CELLS+1) showing "There are too many scripts running simultaneously". */
function tooManyCells(wb: Workbook): number {
  let n = 0;
  for (let i = 0; i < CELLS; i++) if (wb.cell('Sheet1', 'B' + (i + 2)).error === TOO_MANY_SCRIPTS_MESSAGE) n++;
  return n;
}

function formulaCost(rt: Runtime, from: number) {
  const runs = rt.executions.slice(from).filter((e) => e.kind === 'custom-function');
  return {
    executions: runs.length,
    requests: runs.reduce((n, e) => n + e.counters.urlFetchRequests, 0),
    fetchAlls: runs.reduce((n, e) => n + e.counters.urlFetchCalls, 0),
    totalS: runs.reduce((n, e) => n + e.durationMs, 0) / 1000,
    maxS: runs.reduce((m, e) => Math.max(m, e.durationMs), 0) / 1000,
    failed: runs.filter((e) => !e.ok).length,
  };
}

export async function benchFormulas(): Promise<Record<string, number | string>> {
  const s = sampleIndex();
  const pool = Array.from(s.asinsByUpc.keys()).sort().slice(0, DISTINCT);
  if (pool.length < DISTINCT) throw new Error('the sample catalog has fewer than ' + DISTINCT + ' US UPCs');
  // Every distinct UPC at least twice, then spread: 5,000 cells, 2,000 distinct.
  const upcs = Array.from({ length: CELLS }, (_x, i) => pool[(i * 7) % DISTINCT]);
  const expected = upcs.map((u) => s.asinsByUpc.get(u)![0]);
  const svc = await spawnService();
  const out: Record<string, number | string> = {};
  try {
    // 1 + 2: one range formula, then a recalculation.
    const wb = sheetWithUpcs(upcs);
    const rt = connected(wb, svc.url, svc.apiKey);
    try {
      let from = rt.executions.length;
      const t0 = Date.now();
      wb.type('Sheet1', 'B2', `=ASIN_FROM_UPC(A2:A${CELLS + 1})`);
      const wall = Date.now() - t0;
      const first = formulaCost(rt, from);
      const wrong = expected.filter((a, i) => wb.cell('Sheet1', 'B' + (i + 2)).value !== a).length;
      out['range formula: cells / distinct UPCs'] = `${CELLS} / ${DISTINCT}`;
      out['range formula: requests (floor 100)'] = first.requests;
      out['range formula: fetchAll calls'] = first.fetchAlls;
      out['range formula: modelled seconds (limit 30)'] = first.maxS;
      out['range formula: within 30 s'] = first.maxS < LIMIT_S && first.failed === 0 ? 'yes' : 'NO';
      out['range formula: cells not matching the catalog'] = wrong;
      out['range formula: cells failed "too many scripts running"'] = tooManyCells(wb);
      out['range formula: wall ms (this machine)'] = wall;
      from = rt.executions.length;
      rt.recalculate();
      const again = formulaCost(rt, from);
      out['recalculated: requests (target 0)'] = again.requests;
      out['recalculated: modelled seconds'] = again.maxS;
      out['recalculated: cells failed "too many scripts running"'] = tooManyCells(wb);
      out['cache entries (document cache, limit 1,000)'] = rt.caches.document!.keys().length;
    } finally {
      await rt.stop();
    }

    // 3: one formula per cell, empty cache.
    const wb2 = sheetWithUpcs(upcs);
    const rt2 = connected(wb2, svc.url, svc.apiKey);
    try {
      const from = rt2.executions.length;
      const t0 = Date.now();
      for (let i = 0; i < CELLS; i++) wb2.type('Sheet1', 'B' + (i + 2), `=ASIN_FROM_UPC(A${i + 2})`);
      const wall = Date.now() - t0;
      const per = formulaCost(rt2, from);
      out['per-cell formulas: executions'] = per.executions;
      out['per-cell formulas: requests'] = per.requests;
      out['per-cell formulas: modelled seconds, sum over cells'] = per.totalS;
      out['per-cell formulas: failed cells'] = per.failed;
      out['per-cell formulas: cells failed "too many scripts running" (typed one by one)'] = tooManyCells(wb2);
      out['per-cell formulas: wall ms (this machine)'] = wall;
      // Reopening recalculates all 5,000 at once: one recalculation, 30 simultaneous executions per user.
      const reopenFrom = rt2.executions.length;
      rt2.recalculate();
      const reopen = formulaCost(rt2, reopenFrom);
      out['per-cell formulas, reopened: executions started'] = reopen.executions;
      out['per-cell formulas, reopened: cells failed "too many scripts running"'] = tooManyCells(wb2);
      out['per-cell formulas, reopened: modelled seconds, sum over cells'] = reopen.totalS;
    } finally {
      await rt2.stop();
    }
  } finally {
    await svc.stop();
  }
  return out;
}

if (require.main === module) runAlone(benchFormulas);
