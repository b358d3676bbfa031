/**
 * Reading and sending a 10,000-row supplier sheet: the BUILT add-on's getScanSetup, previewScan and
 * startScan (what the sidebar calls) in the local Apps Script runtime against the local Scan Service
 * in a child process. Figures: spreadsheet read calls and cells, API requests, modelled Apps Script
 * seconds per call against the 6-minute limit. For comparison, a naive reader written only here:
 * one getValue() per cell, killed at the limit and projected.
 * Run alone: `npm run build && npx tsx bench/addon-send.ts`.
 */
import { createRuntime, type Runtime } from '../emulator/gas';
import { Workbook } from '../emulator/gas/spreadsheet';
import { spawnService } from '../emulator/service/spawn';
import { runAlone } from './run-alone';
import { scriptWithNaive } from './naive-script';

const ROWS = 10_000;
const HEADERS = [
  'UPC',
  'Item #',
  'Description',
  'Brand',
  'Unit Cost',
  'MSRP/MAP',
  'Qty Avail',
  'Case Pack',
  'Category',
  'Color',
  'Size',
  'Notes',
];

/** GS1 check digit of the first 11 digits of a UPC-A. */
function upc(n: number): string {
  const body = String(100000000000 + n * 7919).slice(1, 12);
  let sum = 0;
  for (let i = 0; i < 11; i++) sum += Number(body[i]) * (i % 2 === 0 ? 3 : 1);
  return body + ((10 - (sum % 10)) % 10);
}

/** The sheet as a supplier's CSV opened in Sheets: UPCs lose leading zeros, costs carry symbols. */
function supplierCsv(): string {
  const q = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const lines = [HEADERS.join(',')];
  for (let i = 0; i < ROWS; i++) {
    const cost = i % 7 === 0 ? `$${(i % 9) + 1},${String(i % 1000).padStart(3, '0')}.50` : ((i % 4000) / 100 + 1).toFixed(2);
    lines.push(
      [upc(i), `SKU-${i}`, `Item ${i}, "assorted"`, i % 3 ? 'Acme' : 'Globex', cost, '', String(i % 50), '6', 'Toys', 'Red', 'M', '']
        .map(q)
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}

const NAIVE = `
function benchNaiveRead() {
  var sheet = SpreadsheetApp.getActiveSpreadsheet().getActiveSheet();
  var rows = sheet.getLastRow(), cols = sheet.getLastColumn(), out = [];
  for (var r = 1; r <= rows; r++) { var row = []; for (var c = 1; c <= cols; c++) row.push(sheet.getRange(r, c).getValue()); out.push(row); }
  return out.length;
}
`;

function measure(rt: Runtime, label: string, out: Record<string, number | string>, fn: () => unknown): unknown {
  const first = rt.executions.length;
  const result = fn();
  const ex = rt.executions.slice(first);
  const c = (k: keyof (typeof ex)[number]['counters']) => ex.reduce((a, e) => a + e.counters[k], 0);
  out[`${label}: spreadsheet read calls`] = c('sheetReadCalls');
  out[`${label}: cells read`] = c('cellsRead');
  out[`${label}: API requests`] = c('urlFetchRequests');
  out[`${label}: modelled Apps Script s (limit 360)`] = ex.reduce((a, e) => a + e.durationMs, 0) / 1000;
  return result;
}

export async function benchAddonSend(): Promise<Record<string, number | string>> {
  const out: Record<string, number | string> = {};
  const service = await spawnService({ SCAN_SERVICE_SPEED: '100000000' });
  const wb = Workbook.fromCsv(supplierCsv(), 'Supplier', { name: 'Bench send' });
  const rt = createRuntime({ scriptPath: scriptWithNaive(NAIVE, 'bench-send-'), workbook: wb });
  try {
    rt.scriptRun('saveSettings', [{ apiKey: service.apiKey, serviceUrl: service.url }]);
    out['sheet: rows x columns'] = `${ROWS} x ${HEADERS.length}`;
    const setup = measure(rt, 'getScanSetup', out, () => rt.scriptRun('getScanSetup')) as any;
    const request = {
      roles: setup.columns.map((c: any) => c.role),
      options: { marketplace: 'US', name: 'Bench send' },
      sheetName: setup.sheetName,
      rangeA1: setup.rangeA1,
      selection: setup.selection,
      headerRow: setup.headerRow,
    };
    const preview = measure(rt, 'previewScan', out, () => rt.scriptRun('previewScan', [request])) as any;
    out['previewScan: rows to send'] = preview.counts.send;
    out['previewScan: cells repaired'] = preview.counts.repaired ?? preview.repaired.length;
    out['previewScan: rows skipped, by reason'] = JSON.stringify(preview.counts.bySkipReason);
    const started = measure(rt, 'startScan (read + CSV + upload)', out, () => rt.scriptRun('startScan', [request])) as any;
    out['startScan: lines the service counted'] = started.progress.lines;
    // The premise: the upload measured is the whole list the preview said it would send.
    if (started.progress.lines !== preview.counts.send)
      throw new Error(`startScan sent ${started.progress.lines} lines, the preview ${preview.counts.send}`);

    // Naive: a getValue() per cell; killed at the limit, projected from the cells it read.
    const first = rt.executions.length;
    let killed = '';
    try {
      rt.run('benchNaiveRead');
    } catch (e) {
      killed = (e as Error).message;
    }
    const naive = rt.executions[first];
    const cells = (ROWS + 1) * HEADERS.length;
    out['naive cell-by-cell read: read calls before it ended'] = naive.counters.sheetReadCalls;
    out['naive cell-by-cell read: ended'] = killed ? `killed: ${killed}` : 'finished';
    out['naive cell-by-cell read: modelled s, projected for the whole sheet'] = Math.round(
      ((naive.durationMs / 1000) * cells) / Math.max(1, naive.counters.cellsRead),
    );
  } finally {
    await rt.stop();
    await service.stop();
  }
  return out;
}

if (require.main === module) runAlone(benchAddonSend);
