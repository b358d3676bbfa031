/**
 * A wholesaler's full catalogue (issue 22): a 100,000-line scan imported by the BUILT add-on's
 * importScan in the local Apps Script runtime (modelled Apps Script time) from the local Scan Service
 * in a child process, call after call as the sidebar does, into a spreadsheet that starts with one
 * 1,000 x 26 tab. Figures: executions, longest execution, modelled seconds, API requests (and their
 * floor), spreadsheet write calls, cells written, cells per product, cells left of 10,000,000.
 *
 * Then the same import into a fresh spreadsheet with the room check off (the script-property knob
 * `{roomCheck: false}`), so the cost of reading the room before each growth is visible.
 * Products per line is printed too: it is the basis of the estimate before sending (src/domain/price-list/room.ts).
 * Run alone: `npm run build && npx tsx bench/big-list.ts` (LINES=20000 for a shorter run).
 */
import { createRuntime } from '../emulator/gas';
import { Workbook } from '../emulator/gas/spreadsheet';
import { priceListCsv } from './price-list';
import { spawnService } from '../emulator/service/spawn';
import { runAlone } from './run-alone';
import { IMPORT_TUNING_KEY } from '../src/store/keys';

const LINES = Number(process.env.LINES || 100_000);
const LIMIT = 10_000_000;

async function scanOf(service: { url: string; apiKey: string }): Promise<{ id: number; products: number; errors: number; lines: number }> {
  const form = new FormData();
  form.append('file', new Blob([priceListCsv(LINES, { sku: true, eol: '\r\n' })], { type: 'text/csv' }), 'big.csv');
  form.append(
    'attributes',
    JSON.stringify({ mapping: { id: 0, cost: 1, supplier_sku: 2 }, options: { marketplace_id: 'US', name: 'Big list', header: true } }),
  );
  const auth = { authorization: 'Bearer ' + service.apiKey };
  const up = await fetch(service.url + '/api/v3/scans', { method: 'POST', headers: auth, body: form });
  const { id } = (await up.json()) as { id: number };
  for (;;) {
    const scan = (await (await fetch(service.url + '/api/v3/scans/' + id, { headers: auth })).json()) as any;
    if (['success', 'error', 'cancelled'].includes(scan.status))
      return { id, products: scan.products, errors: scan.errors, lines: scan.lines };
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function importAll(
  service: { url: string; apiKey: string },
  scan: { id: number; products: number; errors: number },
  roomCheck: boolean,
): Promise<Record<string, number | string>> {
  const wb = new Workbook({ name: 'Big' });
  const rt = createRuntime({ workbook: wb });
  try {
    rt.scriptRun('saveSettings', [{ apiKey: service.apiKey, serviceUrl: service.url }]);
    if (!roomCheck) rt.properties.script.set(IMPORT_TUNING_KEY, JSON.stringify({ roomCheck: false }));
    const first = rt.executions.length;
    const t0 = Date.now();
    let r: any;
    do r = rt.scriptRun('importScan', [scan.id, null]);
    while (!r.done);
    const wall = Date.now() - t0;
    const ex = rt.executions.slice(first);
    const sum = (k: keyof (typeof ex)[number]['counters']) => ex.reduce((a, e) => a + e.counters[k], 0);
    const sheet = wb.requireSheet(r.sheetName);
    const rows = sheet.lastRow() - 1;
    if (rows !== scan.products) throw new Error(`import wrote ${rows} rows, the scan has ${scan.products}`);
    const p = roomCheck ? 'import' : 'import without room check';
    return {
      [`${p}: rows written`]: rows,
      [`${p}: executions`]: ex.length,
      [`${p}: longest execution, modelled s (limit 360)`]: Math.max(...ex.map((e) => e.durationMs)) / 1000,
      [`${p}: modelled Apps Script s (total)`]: ex.reduce((a, e) => a + e.durationMs, 0) / 1000,
      [`${p}: API requests`]: sum('urlFetchRequests'),
      [`${p}: API requests, floor (pages of 100 + scan record)`]:
        Math.ceil(scan.products / 100) + Math.max(1, Math.ceil(scan.errors / 100)) + 1,
      [`${p}: spreadsheet write calls`]: sum('sheetWriteCalls'),
      [`${p}: spreadsheet read calls`]: sum('sheetReadCalls'),
      // The room check is cheap calls (getSheets, getMaxRows, getMaxColumns, a property read): counted here, 5 modelled ms each.
      [`${p}: other service calls (the room check's reads among them)`]: sum('serviceCalls'),
      [`${p}: cells written (values, links, formats)`]: sum('cellsWritten'),
      [`${p}: result tab grid (rows x columns)`]: `${sheet.maxRows} x ${sheet.maxCols}`,
      [`${p}: cells per product (result tab columns)`]: sheet.maxCols,
      [`${p}: spreadsheet cells used`]: wb.totalCells(),
      [`${p}: cells left of ${LIMIT.toLocaleString('en-US')}`]: LIMIT - wb.totalCells(),
      [`${p}: wall s on this machine`]: wall / 1000,
    };
  } finally {
    await rt.stop();
  }
}

export async function benchBigList(): Promise<Record<string, number | string>> {
  const out: Record<string, number | string> = {};
  const service = await spawnService({ SCAN_SERVICE_SPEED: '100000000' });
  try {
    const t0 = Date.now();
    const scan = await scanOf(service);
    out['scan: lines'] = scan.lines;
    out['scan: products'] = scan.products;
    out['scan: error rows'] = scan.errors;
    out['scan: products per line (basis of the estimate before sending)'] = scan.products / scan.lines;
    out['scan: wall s at the service'] = (Date.now() - t0) / 1000;
    Object.assign(out, await importAll(service, scan, true));
    Object.assign(out, await importAll(service, scan, false));
  } finally {
    await service.stop();
  }
  return out;
}

if (require.main === module) runAlone(benchBigList);
