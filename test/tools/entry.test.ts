/**
 * `npm run local -- <entry> [json args...] --workbook in --out out` (issue 2's headless runner), as a
 * child process on the BUILT add-on: it prints what the add-on showed the user (menus, sidebars,
 * toasts), the entry's result or error, and saves the workbook.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { spawnService } from '../../emulator/service/spawn';
import { runLocal } from './run-local';

const dir = mkdtempSync(join(tmpdir(), 'local-entry-'));
const input = join(dir, 'prices.csv');
writeFileSync(input, 'UPC,Cost\r\n686043640931,12.50\r\n');

test('an entry point runs on the workbook: the menu it added is printed and the workbook is saved', async () => {
  const out = join(dir, 'open.xlsx');
  const r = await runLocal(['onOpen', '--workbook', input, '--out', out]);
  expect(r.code).toBe(0);
  const lines = r.stdout.trim().split('\n');
  expect(lines[0]).toMatch(/^menu "[^"]+": Scan this sheet \| .*Settings/);
  expect(lines[lines.length - 1]).toBe(`saved ${out}`);
  const wb = await Workbook.fromXlsx(out);
  expect(wb.sheetNames()).toEqual(['prices']);
  expect(wb.cell('prices', 'B2').value).toBe(12.5);
});

test('sidebars opened and toasts shown are printed', async () => {
  const sidebar = await runLocal(['menuScanSheet', '--workbook', input, '--out', join(dir, 'sidebar.xlsx')]);
  expect(sidebar.code).toBe(0);
  expect(sidebar.stdout).toMatch(/^sidebar opened: .+ \(\d+ bytes\)$/m);
  const toast = await runLocal(['menuConvertColumn', '--workbook', input, '--out', join(dir, 'toast.xlsx')]);
  expect(toast.code).toBe(0);
  expect(toast.stdout).toMatch(/^toast: .+/m);
});

test('JSON arguments reach the entry and its result is printed; a failing entry exits 1 with its message', async () => {
  const listed = await runLocal(['listScans', '1', '--workbook', input, '--out', join(dir, 'list.xlsx')]);
  expect(listed.code).toBe(0);
  expect(listed.stdout).toMatch(/^result: \{"scans":\[\],"page":1,"hasMore":false,"notice":null,"schedules":\[\]\}$/m);
  const missing = await runLocal(['noSuchEntry', '--workbook', input, '--out', join(dir, 'missing.xlsx')]);
  expect(missing.code).toBe(1);
  expect(missing.stdout).toMatch(/^error: Script function not found: noSuchEntry$/m);
});

test('--out must name an .xlsx file: anything else is refused before the entry runs and nothing is written', async () => {
  const out = join(dir, 'result.csv');
  const r = await runLocal(['onOpen', '--workbook', input, '--out', out]);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/error: --out .*result\.csv: the result is saved as a workbook; name an \.xlsx file/);
  expect(r.stdout).not.toMatch(/^menu /m);
  expect(existsSync(out)).toBe(false);
});

test('the runner stands for a user of the add-on: its formulas in the loaded workbook are active', async () => {
  // A workbook saved with an identifier formula; before any menu item ran, Sheets would show #NAME?.
  const wb = new Workbook({ name: 'formulas' });
  wb.type('Sheet1', 'A1', 'UPC');
  wb.type('Sheet1', 'A2', "'686043640931");
  wb.type('Sheet1', 'B2', '=ASIN_FROM_UPC(A2)');
  const file = join(dir, 'formulas.xlsx');
  await wb.saveXlsx(file);
  const out = join(dir, 'formulas-out.xlsx');
  const r = await runLocal(['onOpen', '--workbook', file, '--out', out]);
  expect(r.code).toBe(0);
  const cell = (await Workbook.fromXlsx(out)).cell('Sheet1', 'B2');
  expect(cell.formula).toBe('=ASIN_FROM_UPC(A2)');
  // The formula ran: without a key shared by the owner it says what to do (not #NAME?).
  expect(String(cell.value)).toMatch(/Formulas are off in this spreadsheet/);
});

test('an entry run again on its own saved output picks up where it stopped: formulas on stay on, and the key is in no part of the file', async () => {
  const svc = await spawnService({ SCAN_SERVICE_SPEED: '60000' });
  try {
    const env = { SCAN_SERVICE_URL: svc.url, SCAN_SERVICE_API_KEY: svc.apiKey };
    const first = join(dir, 'formulas-on.xlsx');
    const on = await runLocal(['saveSettings', JSON.stringify({ formulasOnMyKey: true }), '--workbook', input, '--out', first], env);
    expect(on.stdout).toMatch(/^result: \{.*"formulaKeyShared":true/m);
    // The seller's key lives in user properties: neither the bytes nor any inflated part of the file hold it.
    const bytes = readFileSync(first);
    expect(bytes.includes(Buffer.from(svc.apiKey))).toBe(false);
    const zip = await JSZip.loadAsync(bytes);
    for (const f of Object.values(zip.files).filter((x) => !x.dir)) expect(await f.async('string')).not.toContain(svc.apiKey);
    const again = await runLocal(['getSettings', '--workbook', first, '--out', join(dir, 'formulas-again.xlsx')], env);
    expect(again.stdout).toMatch(/^result: \{.*"formulaKeyShared":true/m);
  } finally {
    await svc.stop();
  }
}, 120_000);
