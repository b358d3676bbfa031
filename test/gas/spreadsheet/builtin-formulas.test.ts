/**
 * Built-in formulas are computed (HyperFormula) like Sheets computes them: getValues gives the result,
 * getFormulas the formula, every change recalculates, errors read as Sheets shows them.
 */
import { Workbook } from '../../../emulator/gas/spreadsheet';
import { CustomFns, makeEnv } from './env';

/** A supplier price list: UPC, list price, a discounted cost formula per row. */
function priceList() {
  const env = makeEnv();
  env.sheet.getRange('A1:C4').setValues([
    ['UPC', 'List', 'Cost'],
    ['012345678905', 10, '=B2*0.9'],
    ['012345678912', 25.5, '=B3*0.9'],
    ['012345678929', 4, '=B4*0.9'],
  ]);
  return env;
}

describe('built-in formulas are computed', () => {
  test('=B2*0.9: getValues/getDisplayValues give the result, getFormulas/getFormula the formula', () => {
    const { sheet } = priceList();
    expect(sheet.getRange('C2:C4').getValues()).toEqual([[9], [22.95], [3.6]]);
    expect(sheet.getRange('C2:C4').getDisplayValues()).toEqual([['9'], ['22.95'], ['3.6']]);
    expect(sheet.getRange('C2:C4').getFormulas()).toEqual([['=B2*0.9'], ['=B3*0.9'], ['=B4*0.9']]);
    expect(sheet.getRange('C2').getFormula()).toBe('=B2*0.9');
    expect(sheet.getRange('B2').getFormula()).toBe('');
  });

  test('recalculated on setValue, setValues, setFormula, setFormulas and clear', () => {
    const { sheet } = priceList();
    sheet.getRange('B2').setValue(20);
    expect(sheet.getRange('C2').getValue()).toBe(18);
    sheet.getRange('B3:B4').setValues([[100], [1]]);
    expect(sheet.getRange('C3:C4').getValues()).toEqual([[90], [0.9]]);
    sheet.getRange('D2').setFormula('=SUM(C2:C4)');
    expect(sheet.getRange('D2').getValue()).toBeCloseTo(108.9, 10);
    sheet.getRange('C2:C3').setFormulas([['=B2/2'], ['=B3/4']]);
    expect(sheet.getRange('C2:C3').getValues()).toEqual([[10], [25]]);
    expect(sheet.getRange('D2').getValue()).toBeCloseTo(35.9, 10);
    sheet.getRange('B2').clear();
    expect(sheet.getRange('C2').getValue()).toBe(0);
    sheet.getRange('C2:C4').clearContent();
    expect(sheet.getRange('D2').getValue()).toBe(0);
    expect(sheet.getRange('C2').getFormula()).toBe('');
  });

  test('inserting and deleting rows and columns moves references and rewrites the formula text', () => {
    const { sheet } = priceList();
    sheet.getRange('E1').setFormula('=SUM(C2:C4)');
    sheet.insertRowsAfter(1, 2);
    expect(sheet.getRange('C4').getFormula()).toBe('=B4*0.9');
    expect(sheet.getRange('C4').getValue()).toBe(9);
    expect(sheet.getRange('E1').getFormula()).toBe('=SUM(C4:C6)');
    sheet.deleteRow(5);
    expect(sheet.getRange('E1').getFormula()).toBe('=SUM(C4:C5)');
    expect(sheet.getRange('E1').getValue()).toBeCloseTo(12.6, 10);
    sheet.insertColumnBefore(2);
    expect(sheet.getRange('D4').getFormula()).toBe('=C4*0.9');
    expect(sheet.getRange('F1').getFormula()).toBe('=SUM(D4:D5)');
    sheet.deleteColumn(3); // the List column: the formulas reading it lose their reference
    expect(sheet.getRange('C4').getValue()).toBe('#REF!');
    expect(sheet.getRange('C4').getFormula()).toBe('=#REF!*0.9');
  });

  test('what price lists use: SUM, ROUND, IF, VLOOKUP, INDEX/MATCH, TEXT, CONCATENATE and &', () => {
    const { sheet } = priceList();
    const f = (formula: string) => {
      sheet.getRange('H1').setFormula(formula);
      return sheet.getRange('H1').getValue();
    };
    expect(f('=SUM(B2:B4)')).toBe(39.5);
    expect(f('=ROUND(B3/3,2)')).toBe(8.5);
    expect(f('=ROUND(2/3,2)')).toBe(0.67);
    expect(f('=IF(B2>5,"high","low")')).toBe('high');
    expect(f('=IF(B4>5,"high","low")')).toBe('low');
    // The UPCs were typed, so they are numbers (Sheets parses "012345678912" to 12345678912).
    expect(f('=VLOOKUP(12345678912,A2:C4,2,FALSE)')).toBe(25.5);
    expect(f('=VLOOKUP("012345678912",A2:C4,2,FALSE)')).toBe('#N/A');
    expect(f('=INDEX(C2:C4,MATCH(12345678929,A2:A4,0))')).toBe(3.6);
    expect(f('=TEXT(1234.5,"$#,##0.00")')).toBe('$1,234.50');
    expect(f('=TEXT(0.256,"0.0%")')).toBe('25.6%');
    expect(f('=CONCATENATE(A2," @ ",B2)')).toBe('12345678905 @ 10');
    expect(f('=A2&"-"&B2')).toBe('12345678905-10');
    expect(f('=B2>5')).toBe(true);
    expect(f('=TRUE')).toBe(true);
  });

  test("cross-sheet references 'Sheet 2'!A1 follow the other sheet, its renaming and its deletion", () => {
    const { ss, sheet } = priceList();
    const rates = ss.insertSheet('Sheet 2');
    rates.getRange('A1').setValue(1.1);
    sheet.getRange('D2').setFormula("=C2*'Sheet 2'!A1");
    expect(sheet.getRange('D2').getValue()).toBeCloseTo(9.9, 10);
    rates.getRange('A1').setValue(2);
    expect(sheet.getRange('D2').getValue()).toBe(18);
    rates.setName('Rates');
    expect(sheet.getRange('D2').getFormula()).toBe('=C2*Rates!A1');
    expect(sheet.getRange('D2').getValue()).toBe(18);
    ss.deleteSheet(rates);
    expect(sheet.getRange('D2').getValue()).toBe('#REF!');
  });

  test('a reference to a sheet that does not exist yet shows #REF! and resolves when the sheet is added', () => {
    const { ss, sheet } = makeEnv();
    sheet.getRange('A1').setFormula("='Later'!B2+1");
    expect(sheet.getRange('A1').getValue()).toBe('#REF!');
    ss.insertSheet('Later').getRange('B2').setValue(41);
    expect(sheet.getRange('A1').getValue()).toBe(42);
  });

  test('the errors Sheets shows: #DIV/0!, #REF!, #VALUE!, #N/A as values and display values', () => {
    const { sheet, wb } = priceList();
    sheet.getRange('E2:E4').setFormulas([['=B2/0'], ['=VLOOKUP("nope",A2:C4,2,FALSE)'], ['="abc"*2']]);
    sheet.getRange('E5').setFormula('=B4*2');
    sheet.deleteColumn(2);
    // E moved to D; the List column was deleted, so D5's reference is gone (#REF!) and D2's #DIV/0! too.
    expect(sheet.getRange('D2:D5').getValues()).toEqual([['#REF!'], ['#N/A'], ['#VALUE!'], ['#REF!']]);
    expect(sheet.getRange('D2:D5').getDisplayValues()).toEqual([['#REF!'], ['#N/A'], ['#VALUE!'], ['#REF!']]);
    sheet.getRange('D2').setFormula('=C2/0');
    expect(sheet.getRange('D2').getValue()).toBe('#DIV/0!');
    expect(wb.cell('Sheet1', 'D2').error).toBeTruthy();
    // An error flows into formulas reading it.
    sheet.getRange('F2').setFormula('=D2+1');
    expect(sheet.getRange('F2').getValue()).toBe('#DIV/0!');
  });

  test('text stays text for formulas: a typed-as-text "007" is not the number 7', () => {
    const { sheet } = makeEnv();
    sheet.getRange('A1').setValue("'007");
    sheet.getRange('B1').setFormula('=A1&"x"');
    expect(sheet.getRange('B1').getValue()).toBe('007x');
  });

  test('date results get a date format (TODAY/DATE), read back as Date', () => {
    const { sheet } = makeEnv();
    sheet.getRange('A1').setFormula('=DATE(2024,1,15)');
    const v = sheet.getRange('A1').getValue() as Date;
    expect(Object.prototype.toString.call(v)).toBe('[object Date]');
    expect(v.toISOString()).toBe('2024-01-15T00:00:00.000Z');
    expect(sheet.getRange('A1').getDisplayValue()).toBe('1/15/2024');
  });

  test('named ranges can be used in formulas', () => {
    const { ss, sheet } = priceList();
    ss.setNamedRange('ListPrices', sheet.getRange('B2:B4'));
    sheet.getRange('E1').setFormula('=SUM(ListPrices)');
    expect(sheet.getRange('E1').getValue()).toBe(39.5);
  });

  test('a formula that cannot be parsed shows #ERROR! "Formula parse error."', () => {
    const { sheet, wb } = makeEnv();
    sheet.getRange('A1').setFormula('=1+*2');
    expect(sheet.getRange('A1').getValue()).toBe('#ERROR!');
    expect(wb.cell('Sheet1', 'A1').error).toBe('Formula parse error.');
  });
});

describe('built-in formulas and custom functions together', () => {
  const fns: CustomFns = { DOUBLE: (x: number) => x * 2, TAG: (x: unknown) => `tag:${String(x)}` };

  test('a custom function reading a built-in result runs with the computed value, and again when it changes', () => {
    const { sheet, calls } = makeEnv({ fns });
    sheet.getRange('A1').setValue(10);
    sheet.getRange('B1').setFormula('=A1*0.9');
    sheet.getRange('C1').setFormula('=DOUBLE(B1)');
    expect(sheet.getRange('C1').getValue()).toBe(18);
    sheet.getRange('A1').setValue(20);
    expect(sheet.getRange('C1').getValue()).toBe(36);
    expect(calls.map((c) => c.args)).toEqual([[9], [18]]);
  });

  test("a built-in formula reading a custom function's result is computed from the script's result", () => {
    const { sheet, calls } = makeEnv({ fns });
    sheet.getRange('A1').setValue(4);
    sheet.getRange('B1').setFormula('=DOUBLE(A1)');
    sheet.getRange('C1').setFormula('=B1+1');
    expect(sheet.getRange('C1').getValue()).toBe(9);
    sheet.getRange('A1').setValue(5);
    expect(sheet.getRange('C1').getValue()).toBe(11);
    expect(calls).toHaveLength(2);
  });

  test('a custom function inside a built-in formula is not computed locally: #ERROR! says so (never a silent value)', () => {
    const { sheet, wb, calls } = makeEnv({ fns });
    sheet.getRange('A1').setFormula('=IFERROR(DOUBLE(2),0)');
    expect(sheet.getRange('A1').getValue()).toBe('#ERROR!');
    expect(wb.cell('Sheet1', 'A1').error).toBe('The local runtime does not compute a custom function (DOUBLE) inside another formula.');
    expect(calls).toHaveLength(0);
  });
});

describe('loading, saving and laziness', () => {
  test('XLSX keeps formulas and writes computed results as cached values; loading recomputes', async () => {
    const { wb, sheet } = priceList();
    const back = await Workbook.fromXlsx(await wb.toXlsx());
    expect(back.cell('Sheet1', 'C3').formula).toBe('=B3*0.9');
    expect(back.cell('Sheet1', 'C3').value).toBe(22.95); // the cached value, before any script is attached
    const env = makeEnv({ wb: back });
    expect(env.sheet.getRange('C2:C4').getValues()).toEqual([[9], [22.95], [3.6]]);
    env.sheet.getRange('B3').setValue(1);
    expect(env.sheet.getRange('C3').getValue()).toBe(0.9);
    expect(sheet.getRange('C3').getValue()).toBe(22.95);
  });

  test('Workbook.type computes built-in formulas without a script', () => {
    const wb = new Workbook();
    wb.type('Sheet1', 'A1', 3);
    wb.type('Sheet1', 'A2', '=A1*A1');
    expect(wb.cell('Sheet1', 'A2').value).toBe(9);
  });
});
