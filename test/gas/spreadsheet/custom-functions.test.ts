import { Workbook } from '../../../emulator/gas/spreadsheet';
import { CustomFns, makeEnv, thrown } from './env';

const fns: CustomFns = {
  DOUBLE: (x: unknown) => (Array.isArray(x) ? x.map((r: unknown[]) => r.map((v) => (v as number) * 2)) : (x as number) * 2),
  ECHO: (...args: unknown[]) => JSON.stringify(args),
  TABLE: (n: number) => Array.from({ length: n }, (_, i) => [i + 1, `row ${i + 1}`]),
  LIST: () => ['a', 'b', 'c'],
  FAIL: () => {
    throw new Error('Service key missing');
  },
  WHEN: () => new Date('2024-05-06T00:00:00Z'),
  CELL: () => 'x',
};

describe('custom functions are read-only', () => {
  test('inside a custom function set*/insert*/delete*/clear*/toast calls throw "You do not have permission to call X"', () => {
    const { ss, sheet, run } = makeEnv();
    run('custom-function', () => {
      expect(thrown(() => sheet.getRange('A1').setValue(1))).toBe('You do not have permission to call setValue');
      expect(thrown(() => sheet.getRange('A1:B1').setValues([[1, 2]]))).toBe('You do not have permission to call setValues');
      expect(thrown(() => sheet.getRange('A1').setBackground('red'))).toBe('You do not have permission to call setBackground');
      expect(thrown(() => sheet.insertRowsAfter(1, 1))).toBe('You do not have permission to call insertRowsAfter');
      expect(thrown(() => sheet.deleteRows(1, 1))).toBe('You do not have permission to call deleteRows');
      expect(thrown(() => sheet.getRange('A1').clear())).toBe('You do not have permission to call clear');
      expect(thrown(() => sheet.appendRow([1]))).toBe('You do not have permission to call appendRow');
      expect(thrown(() => ss.insertSheet('X'))).toBe('You do not have permission to call insertSheet');
      expect(thrown(() => ss.toast('hi'))).toBe('You do not have permission to call toast');
      expect(thrown(() => ss.setNamedRange('N', sheet.getRange('A1')))).toBe('You do not have permission to call setNamedRange');
    });
    expect(sheet.getLastRow()).toBe(0);
  });

  test('inside a custom function the selection cannot be moved: setActiveSheet/setActiveRange/activate throw (chosen: Google only says set* does not work)', () => {
    const { app, ss, sheet, run } = makeEnv();
    const other = ss.insertSheet('Other');
    sheet.activate();
    run('custom-function', () => {
      expect(thrown(() => ss.setActiveSheet(other))).toBe('You do not have permission to call setActiveSheet');
      expect(thrown(() => app.setActiveSheet(other))).toBe('You do not have permission to call setActiveSheet');
      expect(thrown(() => other.activate())).toBe('You do not have permission to call activate');
      expect(thrown(() => other.getRange('B2').activate())).toBe('You do not have permission to call activate');
      expect(thrown(() => ss.setActiveRange(other.getRange('B2')))).toBe('You do not have permission to call setActiveRange');
      expect(thrown(() => other.setActiveRange(other.getRange('B2')))).toBe('You do not have permission to call setActiveRange');
    });
    expect(ss.getActiveSheet().getName()).toBe('Sheet1');
  });

  test('inside a custom function getUi throws and openById/openByUrl throw', () => {
    const { app, run } = makeEnv();
    run('custom-function', () => {
      expect(thrown(() => app.getUi())).toBe('Cannot call SpreadsheetApp.getUi() from this context.');
      expect(thrown(() => app.openById('test-id'))).toBe(
        'You do not have permission to call SpreadsheetApp.openById. Required permissions: https://www.googleapis.com/auth/spreadsheets',
      );
      expect(thrown(() => app.openByUrl('https://docs.google.com/spreadsheets/d/test-id/edit'))).toBe(
        'You do not have permission to call SpreadsheetApp.openByUrl. Required permissions: https://www.googleapis.com/auth/spreadsheets',
      );
    });
  });

  test('inside a custom function get* calls work', () => {
    const { app, sheet, run } = makeEnv();
    sheet.getRange('A1:B1').setValues([[1, 'x']]);
    const got = run('custom-function', () => [
      app.getActiveSpreadsheet().getSheetByName('Sheet1')!.getRange('A1:B1').getValues(),
      sheet.getLastRow(),
      sheet.getRange('A1').getDisplayValue(),
    ]);
    expect(got).toEqual([[[1, 'x']], 1, '1']);
  });
});

describe('custom-function formulas', () => {
  test('a formula calling a custom function is evaluated when written; a cell argument arrives as its value', () => {
    const { sheet, calls } = makeEnv({ fns });
    sheet.getRange('A1').setValue(21);
    sheet.getRange('B1').setFormula('=DOUBLE(A1)');
    expect(sheet.getRange('B1').getValue()).toBe(42);
    expect(sheet.getRange('B1').getFormula()).toBe('=DOUBLE(A1)');
    expect(calls).toEqual([{ name: 'DOUBLE', args: [21] }]);
  });

  test('a range argument arrives as a 2D array; literals as numbers, strings and booleans; other sheets by quoted name', () => {
    const { ss, sheet, calls } = makeEnv({ fns });
    const other = ss.insertSheet('Price list');
    other.getRange('A1:B2').setValues([
      [1, 'a'],
      ['', true],
    ]);
    sheet.getRange('C1').setValue('=ECHO(\'Price list\'!A1:B2, 3.5, "te""xt", TRUE, \'Price list\'!B1)');
    expect(calls[0].args).toEqual([
      [
        [1, 'a'],
        ['', true],
      ],
      3.5,
      'te"xt',
      true,
      'a',
    ]);
  });

  test('a 2D result spills into the neighbouring cells; spilled cells read back values and have no formula', () => {
    const { sheet } = makeEnv({ fns });
    sheet.getRange('B2').setValue('=TABLE(3)');
    expect(sheet.getRange('B2:C4').getValues()).toEqual([
      [1, 'row 1'],
      [2, 'row 2'],
      [3, 'row 3'],
    ]);
    expect(sheet.getRange('B2:C4').getFormulas()).toEqual([
      ['=TABLE(3)', ''],
      ['', ''],
      ['', ''],
    ]);
    expect(sheet.getLastRow()).toBe(4);
  });

  test('a one-dimensional array result fills a column (chosen)', () => {
    const { sheet } = makeEnv({ fns });
    sheet.getRange('A1').setValue('=LIST()');
    expect(sheet.getRange('A1:B3').getValues()).toEqual([
      ['a', ''],
      ['b', ''],
      ['c', ''],
    ]);
  });

  test("a spill that would overwrite data shows #REF! with Google's message, and expands once the blocker is cleared", () => {
    const { wb, sheet } = makeEnv({ fns });
    sheet.getRange('C3').setValue('blocker');
    sheet.getRange('B2').setValue('=TABLE(3)');
    expect(sheet.getRange('B2').getValue()).toBe('#REF!');
    expect(wb.cell('Sheet1', 'B2').error).toBe('Array result was not expanded because it would overwrite data in C3.');
    expect(sheet.getRange('B3').getValue()).toBe('');
    sheet.getRange('C3').clearContent();
    expect(sheet.getRange('B2:C4').getValues()).toEqual([
      [1, 'row 1'],
      [2, 'row 2'],
      [3, 'row 3'],
    ]);
    expect(wb.cell('Sheet1', 'B2').error).toBeNull();
  });

  test('writing into a spilled cell turns the formula into #REF!', () => {
    const { wb, sheet } = makeEnv({ fns });
    sheet.getRange('A1').setValue('=TABLE(2)');
    sheet.getRange('B2').setValue('mine');
    expect(sheet.getRange('A1').getValue()).toBe('#REF!');
    expect(wb.cell('Sheet1', 'A1').error).toBe('Array result was not expanded because it would overwrite data in B2.');
    expect(sheet.getRange('B2').getValue()).toBe('mine');
    expect(sheet.getRange('A2').getValue()).toBe('');
  });

  test('overwriting the formula cell removes its spilled values', () => {
    const { sheet } = makeEnv({ fns });
    sheet.getRange('A1').setValue('=TABLE(2)');
    sheet.getRange('A1').setValue('plain');
    expect(sheet.getRange('A1:B2').getValues()).toEqual([
      ['plain', ''],
      ['', ''],
    ]);
  });

  test('an exception in the custom function shows #ERROR! with its message', () => {
    const { wb, sheet } = makeEnv({ fns });
    sheet.getRange('A1').setValue('=FAIL()');
    expect(sheet.getRange('A1').getValue()).toBe('#ERROR!');
    expect(sheet.getRange('A1').getDisplayValue()).toBe('#ERROR!');
    expect(wb.cell('Sheet1', 'A1').error).toBe('Service key missing');
  });

  test('a referenced cell changed by setValue(s) re-evaluates the formula', () => {
    const { sheet, calls } = makeEnv({ fns });
    sheet.getRange('A1:A2').setValues([[1], [2]]);
    sheet.getRange('B1').setValue('=DOUBLE(A1:A2)');
    expect(sheet.getRange('B1:B2').getValues()).toEqual([[2], [4]]);
    sheet.getRange('A2').setValue(10);
    expect(sheet.getRange('B1:B2').getValues()).toEqual([[2], [20]]);
    sheet.getRange('A5').setValue(1); // not an argument: no recalculation
    expect(calls.length).toBe(2);
  });

  test('a change flows through chains of custom formulas', () => {
    const { sheet } = makeEnv({ fns });
    sheet.getRange('A1').setValue(1);
    sheet.getRange('B1').setValue('=DOUBLE(A1)');
    sheet.getRange('C1').setValue('=DOUBLE(B1)');
    sheet.getRange('A1').setValue(5);
    expect(sheet.getRange('A1:C1').getValues()).toEqual([[5, 10, 20]]);
  });

  test('recalculate() re-evaluates every custom formula (reopen), including formulas typed before the runtime existed', () => {
    const wb = new Workbook();
    wb.type('Sheet1', 'A1', '4');
    wb.type('Sheet1', 'B1', '=DOUBLE(A1)');
    expect(wb.cell('Sheet1', 'B1').value).toBe('');
    const { calls } = makeEnv({ wb, fns });
    wb.recalculate();
    expect(wb.cell('Sheet1', 'B1').value).toBe(8);
    wb.recalculate();
    expect(calls.length).toBe(2);
  });

  test('a Date result shows as a date; strings returned are not parsed like input', () => {
    const { sheet } = makeEnv({ fns: { ...fns, TXT: () => '007' } });
    sheet.getRange('A1').setValue('=WHEN()');
    sheet.getRange('A2').setValue('=TXT()');
    expect((sheet.getRange('A1').getValue() as Date).toISOString()).toBe('2024-05-06T00:00:00.000Z');
    expect(sheet.getRange('A2').getValue()).toBe('007');
  });

  test('inside the custom function the active range is the calling cell', () => {
    let seen = '';
    const env = makeEnv({ fns: { WHERE: () => (seen = env.app.getActiveRange()!.getA1Notation()) } });
    env.sheet.getRange('D7').setValue('=WHERE()');
    expect(seen).toBe('D7');
    expect(env.sheet.getRange('D7').getValue()).toBe('D7');
  });

  // Issue 8 changed this (it was an empty value): Sheets shows #NAME? for a function nobody defines.
  test('a function the script does not declare shows #NAME? ("Unknown function"), and its formula text stays', () => {
    const { sheet, wb, calls } = makeEnv({ fns });
    sheet.getRange('A1').setValue('=NOT_DECLARED(B1)');
    expect(sheet.getRange('A1').getValue()).toBe('#NAME?');
    expect(sheet.getRange('A1').getFormula()).toBe('=NOT_DECLARED(B1)');
    expect(wb.cell('Sheet1', 'A1').error).toBe("Unknown function: 'NOT_DECLARED'.");
    expect(calls).toEqual([]);
  });

  test('a spill that does not fit the sheet shows #REF! (chosen wording)', () => {
    const { wb, sheet } = makeEnv({ fns });
    sheet.getRange('A999').setValue('=TABLE(3)');
    expect(sheet.getRange('A999').getValue()).toBe('#REF!');
    expect(wb.cell('Sheet1', 'A999').error).toBe('Result was not automatically expanded, please insert more rows (1).');
  });

  test("inserting rows moves a formula's references and rewrites its text, as Sheets does", () => {
    const { sheet, calls } = makeEnv({ fns });
    sheet.getRange('A2:A3').setValues([[1], [2]]);
    sheet.getRange('C1').setValue('=DOUBLE(A2:A3)');
    sheet.insertRowsBefore(1, 2);
    expect(sheet.getRange('C3').getFormula()).toBe('=DOUBLE(A4:A5)');
    expect(sheet.getRange('C3:C4').getValues()).toEqual([[2], [4]]);
    sheet.insertRowsAfter(4, 1); // inside the referenced range: it grows
    expect(sheet.getRange('C3').getFormula()).toBe('=DOUBLE(A4:A6)');
    expect(sheet.getRange('C3:C5').getValues()).toEqual([[2], [0], [4]]); // '' * 2 is 0
    expect(calls.length).toBe(2); // written, then recalculated once when its range grew (not when it only moved)
  });

  test('deleting the rows a formula references shows #REF! with "Reference does not exist."', () => {
    const { wb, sheet } = makeEnv({ fns });
    sheet.getRange('A5').setValue(3);
    sheet.getRange('B1').setValue('=DOUBLE(A5)');
    expect(sheet.getRange('B1').getValue()).toBe(6);
    sheet.deleteRows(5, 1);
    expect(sheet.getRange('B1').getFormula()).toBe('=DOUBLE(#REF!)');
    expect(sheet.getRange('B1').getValue()).toBe('#REF!');
    expect(wb.cell('Sheet1', 'B1').error).toBe('Reference does not exist.');
  });

  test("deleting the formula's own row removes its spilled values", () => {
    const { sheet } = makeEnv({ fns });
    sheet.getRange('A2').setValue('=TABLE(3)');
    sheet.deleteRow(2);
    expect(sheet.getLastRow()).toBe(0);
  });

  test('renaming a sheet rewrites references to it; a reference to a missing sheet is #REF! until the sheet exists', () => {
    const { wb, ss, sheet } = makeEnv({ fns });
    const data = ss.insertSheet('Data');
    data.getRange('A1').setValue(4);
    sheet.getRange('A1').setValue('=DOUBLE(Data!A1)');
    sheet.getRange('A2').setValue("=DOUBLE('Later sheet'!A1)");
    expect(sheet.getRange('A2').getValue()).toBe('#REF!');
    expect(wb.cell('Sheet1', 'A2').error).toBe("Unresolved sheet name 'Later sheet'.");
    data.setName('Input data');
    expect(sheet.getRange('A1').getFormula()).toBe("=DOUBLE('Input data'!A1)");
    expect(sheet.getRange('A1').getValue()).toBe(8);
    ss.getSheetByName('Input data')!.setName('Later sheet');
    expect(sheet.getRange('A2').getValue()).toBe(8);
  });

  test('a named range can be an argument; an unknown name shows #NAME?', () => {
    const { wb, ss, sheet } = makeEnv({ fns });
    sheet.getRange('A1:A2').setValues([[1], [2]]);
    ss.setNamedRange('Qty', sheet.getRange('A1:A2'));
    sheet.getRange('B1').setValue('=DOUBLE(Qty)');
    expect(sheet.getRange('B1:B2').getValues()).toEqual([[2], [4]]);
    sheet.getRange('C1').setValue('=DOUBLE(Nope)');
    expect(sheet.getRange('C1').getValue()).toBe('#NAME?');
    expect(wb.cell('Sheet1', 'C1').error).toBe("Unknown range name: 'NOPE'.");
  });
});

test('a result of 150,000 rows spills whole (it showed #ERROR!: the width was taken with a spread call, past the call stack)', () => {
  // developers.google.com/apps-script/guides/sheets/functions ("Return values"): a custom function may
  // return a two-dimensional array, which fills the cells below and to the right; no row limit is documented.
  const { sheet } = makeEnv({ fns });
  sheet.insertRowsAfter(1000, 149000);
  sheet.getRange('A1').setFormula('=TABLE(150000)');
  expect(sheet.getRange('A1:B1').getValues()).toEqual([[1, 'row 1']]);
  expect(sheet.getRange('A150000:B150000').getValues()).toEqual([[150000, 'row 150000']]);
});
