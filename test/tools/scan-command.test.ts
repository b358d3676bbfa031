/**
 * `npm run local -- scan ...` end to end, as a child process on the BUILT add-on: the sidebar's
 * flow with the suggested mapping, the saved workbook's new tabs, the one summary line, the
 * SCAN_SERVICE_URL switch and failures.
 */
import { mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { runLocal } from './run-local';
import { spawnService } from '../../emulator/service/spawn';

const dir = mkdtempSync(join(tmpdir(), 'scan-cmd-'));

/** A small messy CSV: a duplicate, an unusable cost, formula bait, a UPC that lost its zero on import. */
const CSV = [
  'UPC,Description,Cost',
  '686043640931,Heavy-Duty Crew Socks Black XS,12.50',
  '695094441589,"Classic Baseball Cap, 12 oz",$16.25',
  '686043640931,Same socks another pack,11',
  '099999000009,=HYPERLINK("http://x"),4.50',
  '695094441589,No cost,call',
  '',
].join('\r\n');

test('scan <in.csv> --sheet --marketplace --name --out: one summary line, result and errors tabs saved', async () => {
  const input = join(dir, 'supplier.csv');
  writeFileSync(input, CSV);
  const out = join(dir, 'result.xlsx');
  const r = await runLocal(['scan', input, '--sheet', 'Supplier', '--marketplace', 'US', '--name', 'Socks run', '--out', out]);
  expect(r.stderr.replace(/npm warn[^\n]*\n/g, '')).toBe('');
  expect(r.code).toBe(0);
  const lines = r.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(
    new RegExp(
      '^scan \\d+ success: sent 4 rows \\(skipped 1, repaired 1\\), 3 products, 1 error -> tab "Socks run" \\+ "Socks run – errors" in ' +
        out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') +
        '; modelled Apps Script \\d+\\.\\d s over \\d+ executions? \\(longest \\d+\\.\\d s of 360\\)$',
    ),
  );
  const wb = await Workbook.fromXlsx(out);
  expect(wb.sheetNames()).toEqual(['Supplier', 'Socks run', 'Socks run – Overview', 'Socks run – errors']);
  const rows = wb.values('Socks run');
  const header = rows[0] as string[];
  const col = (name: string) => header.indexOf(name);
  expect(rows).toHaveLength(1 + 3);
  expect(rows.slice(1).map((r) => [r[col('Identifier')], r[col('Sheet row')]])).toEqual([
    ['686043640931', 2],
    ['695094441589', 3],
    ['686043640931', 4],
  ]);
  const errors = wb.values('Socks run – errors');
  // The service's error row, then the row skipped before sending: every row of the list is in some tab.
  expect(errors).toHaveLength(3);
  expect(errors[2].slice(0, 4)).toEqual([6, '', '695094441589', 'Not sent (skipped before the upload): Cost "call" is not an amount.']);
  expect(errors[1][0]).toBe(5);
  expect(errors[1][2]).toBe('099999000009');
  // What the tab has in Sheets, the saved file has for other programs: its filter, the profit and
  // ROI colours, and booleans marked as such (else LibreOffice prints 0).
  const x = new ExcelJS.Workbook();
  await x.xlsx.readFile(out);
  const ws = x.getWorksheet('Socks run')!;
  expect(ws.autoFilter).toBe('A1:' + ws.getRow(1).getCell(header.length).address.replace(/\d+$/, '') + '4');
  const cf = (ws as unknown as { conditionalFormattings: Array<{ ref: string }> }).conditionalFormattings.map((c) => c.ref);
  const letter = (name: string) =>
    ws
      .getRow(1)
      .getCell(col(name) + 1)
      .address.replace(/\d+$/, '');
  expect(cf).toEqual(expect.arrayContaining([`${letter('Profit')}2:${letter('Profit')}4`, `${letter('ROI')}2:${letter('ROI')}4`]));
  expect(ws.getCell(`${letter('Hazmat')}2`).numFmt).toBe('"TRUE";"TRUE";"FALSE"');
}, 60_000);

test('scan on a sheet with a 40-character name: every tab fits an .xlsx sheet name (31 characters), the file saves, and reopening it finds every tab', async () => {
  const input = join(dir, 'supplier.csv');
  writeFileSync(input, CSV);
  const out = join(dir, 'long-name.xlsx');
  const sheet = 'Acme Wholesale Spring Catalogue 2026 Q1X'; // 40 characters
  expect(sheet).toHaveLength(40);
  const r = await runLocal(['scan', input, '--sheet', sheet, '--marketplace', 'US', '--out', out]);
  expect(r.stderr.replace(/npm warn[^\n]*\n/g, '')).toBe('');
  expect(r.code).toBe(0);
  const m = /-> tab "([^"]+)" \+ "([^"]+)" in /.exec(r.stdout)!;
  const [result, errors] = [m[1], m[2]];
  // The default scan name is "<sheet> <date>": the tabs keep the date and the kind, and show the cut.
  expect(result).toMatch(/^Acme Wholesale[^…]*… \d{4}-\d{2}-\d{2}$/);
  expect(errors).toMatch(/^Acme[^…]*… \d{4}-\d{2}-\d{2} – errors$/);
  const wb = await Workbook.fromXlsx(out);
  const names = wb.sheetNames();
  expect(names).toHaveLength(4);
  expect([names[1], names[3]]).toEqual([result, errors]);
  expect(names[2]).toMatch(/^Acme[^…]*… \d{4}-\d{2}-\d{2} – Overview$/);
  expect(names[0]).toMatch(/^Acme Wholesale Spring Catalogu?…$/);
  for (const n of names) expect(n.length).toBeLessThanOrEqual(31);
  expect(wb.values(result)).toHaveLength(1 + 3);
  expect(wb.values(errors)).toHaveLength(3);
}, 60_000);

test('SCAN_SERVICE_URL: the scan goes to the given service instead of a new one', async () => {
  const svc = await spawnService({ SCAN_SERVICE_SPEED: '60000' });
  try {
    const input = join(dir, 'tiny.csv');
    writeFileSync(input, 'UPC,Cost\r\n686043640931,12.50\r\n');
    const out = join(dir, 'tiny.xlsx');
    const r = await runLocal(['scan', input, '--out', out], { SCAN_SERVICE_URL: svc.url, SCAN_SERVICE_API_KEY: svc.apiKey });
    expect(r.code).toBe(0);
    const id = Number(/^scan (\d+) success/.exec(r.stdout)![1]);
    const scan = await (await fetch(`${svc.url}/api/v3/scans/${id}`, { headers: { Authorization: `Bearer ${svc.apiKey}` } })).json();
    expect(scan).toEqual(expect.objectContaining({ id, lines: 1, status: 'success' }));
    expect(existsSync(out)).toBe(true);
  } finally {
    await svc.stop();
  }
}, 60_000);

test('failures: a missing input, and a sheet where nothing can be sent, exit non-zero with the reason and save nothing', async () => {
  const missing = await runLocal(['scan', join(dir, 'nope.xlsx')]);
  expect(missing.code).toBe(2);
  expect(missing.stderr).toContain(`error: No such workbook: ${join(dir, 'nope.xlsx')}`);

  const input = join(dir, 'bad.csv');
  writeFileSync(input, 'UPC,Cost\r\n12345,1.00\r\n');
  const out = join(dir, 'bad.xlsx');
  const bad = await runLocal(['scan', input, '--out', out]);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('error: The scan cannot start: No row can be sent: every row was skipped (see the reasons).');
  expect(existsSync(out)).toBe(false);
}, 60_000);
