/** exceljs and JSZip are loaded only when a workbook is saved or loaded as .xlsx (own test file: a fresh module registry). */
import { Workbook } from '../../../emulator/gas/spreadsheet';
import { xlsxLibrariesLoaded } from '../../../emulator/gas/spreadsheet/xlsx';
import { makeEnv } from './env';

test('values, formulas, named ranges and CSV never load the .xlsx libraries; the first .xlsx save does', async () => {
  const { wb, ss, sheet } = makeEnv();
  sheet.getRange('A1:B2').setValues([
    ['SKU', 'Cost'],
    ['B000000001', 2.5],
  ]);
  ss.setNamedRange('Skus', sheet.getRange('A2:A'));
  sheet.getRange('C2').setFormula('=B2*2');
  Workbook.fromCsv(wb.toCsv('Sheet1'), 'Copy');
  expect(sheet.getRange('C2').getValue()).toBe(5);
  expect(xlsxLibrariesLoaded()).toBe(false);
  const back = await Workbook.fromXlsx(await wb.toXlsx());
  expect(xlsxLibrariesLoaded()).toBe(true);
  expect(back.values('Sheet1')[1].slice(0, 3)).toEqual(['B000000001', 2.5, 5]);
});
