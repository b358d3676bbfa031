/** The formula engine is loaded only when a workbook holds a built-in formula (own test file: a fresh module registry). */
import { builtinEngineLoaded } from '../../../emulator/gas/spreadsheet/builtin';
import { CustomFns, makeEnv } from './env';

test('values, custom functions, inserts and XLSX without built-in formulas never load the engine; the first built-in formula does', async () => {
  const fns: CustomFns = { DOUBLE: (x: number) => x * 2 };
  const { sheet, wb } = makeEnv({ fns });
  sheet.getRange('A1:B2').setValues([
    [1, 'x'],
    [2, '=DOUBLE(A1)'],
  ]);
  sheet.insertRowsBefore(1, 1);
  sheet.getRange('A1').clear();
  await wb.toXlsx();
  expect(sheet.getRange('B3').getValue()).toBe(2);
  expect(builtinEngineLoaded()).toBe(false);
  sheet.getRange('C1').setFormula('=A2+1');
  expect(builtinEngineLoaded()).toBe(true);
  expect(sheet.getRange('C1').getValue()).toBe(2);
});
