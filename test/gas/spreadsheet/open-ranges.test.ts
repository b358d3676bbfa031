/**
 * Open ranges (A:A, 2:2, A2:A, B:D) keep their open A1 notation, as Sheets does, cover the sheet's
 * current size, and a named range set to one grows with the sheet (the lists sync stores and compares them).
 */
import { Workbook } from '../../../emulator/gas/spreadsheet';
import { makeEnv, thrown } from './env';

describe('open ranges', () => {
  test("getRange('A:A'), '2:2', 'A2:A', 'B:D' keep their notation and cover the sheet's current size", () => {
    const { sheet } = makeEnv();
    const cases: Array<[string, number, number, number, number]> = [
      ['A:A', 1, 1, 1000, 1],
      ['2:2', 2, 1, 1, 26],
      ['A2:A', 2, 1, 999, 1],
      ['B:D', 1, 2, 1000, 3],
      ['2:4', 2, 1, 3, 26],
    ];
    for (const [a1, row, col, rows, cols] of cases) {
      const r = sheet.getRange(a1);
      expect([r.getA1Notation(), r.getRow(), r.getColumn(), r.getNumRows(), r.getNumColumns()]).toEqual([a1, row, col, rows, cols]);
    }
    expect(sheet.getRange('A2:A').getValues()).toHaveLength(999);
    expect(sheet.getRange('A1:B3').getA1Notation()).toBe('A1:B3');
    expect(sheet.getRange("'Sheet1'!B:B").getA1Notation()).toBe('B:B');
  });

  test('an open range object follows the sheet as it grows and shrinks', () => {
    const { sheet } = makeEnv();
    const col = sheet.getRange('A2:A');
    sheet.insertRowsAfter(1000, 10);
    expect(col.getNumRows()).toBe(1009);
    expect(col.getA1Notation()).toBe('A2:A');
    sheet.deleteRows(500, 100);
    expect(col.getNumRows()).toBe(909);
    const row = sheet.getRange('1:1');
    sheet.insertColumnsAfter(26, 4);
    expect(row.getNumColumns()).toBe(30);
  });

  test('a named range set to an open range keeps its notation and takes rows appended to the sheet', () => {
    const { ss, sheet } = makeEnv();
    ss.setNamedRange('Skus', sheet.getRange('A2:A'));
    sheet.getRange('A1000').setValue('last');
    sheet.appendRow(['appended']); // row 1001: the sheet grows
    const nr = ss.getRangeByName('Skus')!;
    expect(nr.getA1Notation()).toBe('A2:A');
    expect(nr.getNumRows()).toBe(1000);
    expect(nr.getValues()[999]).toEqual(['appended']);
    sheet.insertRowsAfter(1001, 5);
    expect(ss.getRangeByName('Skus')!.getNumRows()).toBe(1005);
    sheet.insertRowsBefore(1, 1); // rows above move the start, the end stays open
    expect(ss.getRangeByName('Skus')!.getA1Notation()).toBe('A3:A');
    expect(ss.getNamedRanges()[0].getRange().getA1Notation()).toBe('A3:A');
  });

  test('NamedRange.setRange to an open range, getLastRow/getLastColumn of open ranges, setRange with a non-range', () => {
    const { ss, sheet } = makeEnv();
    ss.setNamedRange('List', sheet.getRange('A1:B5'));
    const nr = ss.getNamedRanges()[0];
    nr.setRange(sheet.getRange('B:D'));
    expect([nr.getName(), nr.getRange().getA1Notation()]).toEqual(['List', 'B:D']);
    const r = ss.getRangeByName('List')!;
    expect([r.getRow(), r.getLastRow(), r.getColumn(), r.getLastColumn()]).toEqual([1, 1000, 2, 4]);
    expect(sheet.getRange('3:3').getLastColumn()).toBe(26);
    expect(thrown(() => nr.setRange('A1' as never))).toBe(
      "The parameters (String) don't match the method signature for SpreadsheetApp.NamedRange.setRange.",
    );
    nr.remove();
    expect(ss.getRangeByName('List')).toBeNull();
  });

  test('a formula over a named open range counts appended rows', () => {
    const { ss, sheet } = makeEnv();
    ss.setNamedRange('Costs', sheet.getRange('B:B'));
    sheet.getRange('C1').setFormula('=SUM(Costs)');
    sheet.getRange('B1').setValue(5);
    sheet.appendRow(['x', 7]); // row 2
    sheet.insertRowsAfter(1000, 1);
    sheet.getRange('B1001').setValue(100);
    expect(sheet.getRange('C1').getValue()).toBe(112);
  });

  // Issue 20 changed this (an open range was saved as its extent then, A2:A1000): it stays open.
  test('XLSX keeps a named open range open (written as Excel whole-column $A$2:$A$1048576, read back as A2:A)', async () => {
    const { ss, sheet, wb } = makeEnv();
    ss.setNamedRange('Skus', sheet.getRange('A2:A'));
    const back = await Workbook.fromXlsx(await wb.toXlsx());
    const env = makeEnv({ wb: back });
    expect(env.ss.getRangeByName('Skus')!.getA1Notation()).toBe('A2:A');
    env.sheet.insertRowsAfter(1000, 5);
    expect(env.ss.getRangeByName('Skus')!.getNumRows()).toBe(1004);
  });
});
