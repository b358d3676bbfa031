/**
 * `npm run local -- po <workbook.xlsx> --tab NAME --rows 2-40 [--months N] [--out out.xlsx]` (issue 24),
 * as a child process on the BUILT add-on: the PO tab is written from those rows and saved, with no
 * Scan Service started or asked.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { resultWorkbook } from '../addon/buy-helpers';
import { runLocal } from './run-local';

jest.setTimeout(60_000);
const dir = mkdtempSync(join(tmpdir(), 'po-cmd-'));

test('po --tab --rows --months --out: the PO tab from those rows, quantities for those months, formulas saved', async () => {
  const input = join(dir, 'results.xlsx');
  await resultWorkbook().saveXlsx(input);
  const out = join(dir, 'po.xlsx');
  // No service may be reached: an address nothing listens on.
  const r = await runLocal(['po', input, '--tab', 'Sheet1', '--rows', '2-5', '--months', '1', '--out', out], {
    SCAN_SERVICE_URL: 'http://127.0.0.1:9',
  });
  expect(r.stderr.replace(/npm warn[^\n]*\n/g, '')).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('Purchase order "Sheet1 – PO": 4 lines.');
  expect(r.stdout).toContain(`saved ${out}`);
  const wb = await Workbook.fromXlsx(out);
  expect(wb.sheetNames()).toEqual(['Sheet1', 'Sheet1 – PO']);
  const v = wb.values('Sheet1 – PO');
  const q = (v[0] as string[]).indexOf('Quantity');
  // One month: 18 → 2 cases of 12 = 24; the 2-pack: 5 × 2 = 10 → 2 cases of 6 = 12.
  expect([v[1][q], v[2][q], v[3][q], v[4][q]]).toEqual([24, 0, 0, 12]);
  expect(wb.cell('Sheet1 – PO', 'M2').formula).toBe('=L2*I2');
  expect(wb.cell('Sheet1 – PO', 'L7').formula).toBe('=SUM(L2:L5)');
});

test('po without --tab: the usage line; rows that are not products: named', async () => {
  const input = join(dir, 'results2.xlsx');
  await resultWorkbook().saveXlsx(input);
  const usage = await runLocal(['po', input]);
  expect(usage.code).toBe(2);
  expect(usage.stderr).toContain('usage: npm run local -- po <workbook.xlsx> --tab NAME --rows 2-40');
  const bad = await runLocal(['po', input, '--tab', 'Sheet1', '--rows', '1-3']);
  expect(bad.code).toBe(1);
  expect(bad.stdout.trim()).toBe('error: Row 1 is not a product row of "Sheet1" (rows 2 to 8).');
});
