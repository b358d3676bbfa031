import { CELL_LIMIT_MESSAGE, cellLimitMessage, Workbook } from '../../../emulator/gas/spreadsheet';
import { makeEnv, thrown } from './env';

describe('getRange in all its forms, sheet size and growth', () => {
  test('getRange(a1), (row, col), (row, col, numRows), (row, col, numRows, numCols) address the same cells', () => {
    const { sheet } = makeEnv();
    expect(sheet.getRange('B3').getA1Notation()).toBe('B3');
    expect(sheet.getRange(3, 2).getA1Notation()).toBe('B3');
    expect(sheet.getRange(3, 2, 4).getA1Notation()).toBe('B3:B6');
    const r = sheet.getRange(3, 2, 4, 3);
    expect(r.getA1Notation()).toBe('B3:D6');
    expect([r.getRow(), r.getColumn(), r.getNumRows(), r.getNumColumns(), r.getLastRow(), r.getLastColumn()]).toEqual([3, 2, 4, 3, 6, 4]);
    expect(sheet.getRange('b3:d6').getA1Notation()).toBe('B3:D6');
    expect(sheet.getRange('$B$3').getA1Notation()).toBe('B3');
  });

  test('A1 ranges may be open-ended (A:B, 2:3, A2:C) and name a sheet (Spreadsheet.getRange("\'My sheet\'!A1:B2"))', () => {
    const { ss, sheet } = makeEnv();
    // Issue 8 changed these (they read A1:B1000, A2:Z3, A2:C1000): Sheets keeps the open notation.
    expect(sheet.getRange('A:B').getA1Notation()).toBe('A:B');
    expect(sheet.getRange('A:B').getNumRows()).toBe(1000);
    expect(sheet.getRange('2:3').getA1Notation()).toBe('2:3');
    expect(sheet.getRange('2:3').getNumColumns()).toBe(26);
    expect(sheet.getRange('A2:C').getA1Notation()).toBe('A2:C');
    expect(sheet.getRange('A2:C').getNumRows()).toBe(999);
    const other = ss.insertSheet('My sheet');
    other.getRange('A1').setValue('here');
    expect(ss.getRange("'My sheet'!A1:B2").getSheet().getName()).toBe('My sheet');
    expect(ss.getRange("'My sheet'!A1").getValue()).toBe('here');
    expect(thrown(() => ss.getRange('Nope!A1'))).toBe('Range not found');
    expect(thrown(() => sheet.getRange('not a range'))).toBe('Range not found');
  });

  test('a new sheet is 1000 rows by 26 columns', () => {
    const { ss, sheet } = makeEnv();
    expect([sheet.getMaxRows(), sheet.getMaxColumns()]).toEqual([1000, 26]);
    const s2 = ss.insertSheet('Two');
    expect([s2.getMaxRows(), s2.getMaxColumns()]).toEqual([1000, 26]);
  });

  test("getRange outside the sheet's size throws Google's message", () => {
    const { sheet } = makeEnv();
    const msg = 'The coordinates of the range are outside the dimensions of the sheet.';
    expect(thrown(() => sheet.getRange(1001, 1))).toBe(msg);
    expect(thrown(() => sheet.getRange(1, 1, 1, 27))).toBe(msg);
    expect(thrown(() => sheet.getRange('AA1'))).toBe(msg);
    expect(thrown(() => sheet.getRange('A1:A1001'))).toBe(msg);
    expect(sheet.getRange(1000, 26).getA1Notation()).toBe('Z1000');
  });

  test("getRange with a row or column below 1 or an empty size throws Google's messages", () => {
    const { sheet } = makeEnv();
    expect(thrown(() => sheet.getRange(0, 1))).toBe('The starting row of the range is too small.');
    expect(thrown(() => sheet.getRange(1, 0))).toBe('The starting column of the range is too small.');
    expect(thrown(() => sheet.getRange(1, 1, 0))).toBe('The number of rows in the range must be at least 1.');
    expect(thrown(() => sheet.getRange(1, 1, 1, 0))).toBe('The number of columns in the range must be at least 1.');
  });

  test('appendRow writes after the last row with content and grows the sheet when it is full', () => {
    const { sheet } = makeEnv();
    sheet.getRange('B5').setValue('x');
    sheet.appendRow(['a', '007']);
    expect(sheet.getRange('A6:B6').getValues()).toEqual([['a', 7]]);
    sheet.deleteRows(10, 991);
    expect(sheet.getMaxRows()).toBe(9);
    sheet.getRange('A9').setValue('last');
    sheet.appendRow([1, 2, 3]);
    expect(sheet.getMaxRows()).toBe(10);
    expect(sheet.getRange('A10:C10').getValues()).toEqual([[1, 2, 3]]);
    sheet.appendRow(new Array(30).fill('w'));
    expect(sheet.getMaxColumns()).toBe(30);
    expect(sheet.getLastColumn()).toBe(30);
  });

  test('getDataRange, getLastRow and getLastColumn cover cells with content', () => {
    const { sheet } = makeEnv();
    expect(sheet.getDataRange().getA1Notation()).toBe('A1');
    expect([sheet.getLastRow(), sheet.getLastColumn()]).toEqual([0, 0]);
    sheet.getRange('C4').setValue(1);
    sheet.getRange('B7').setNote('a note is not content');
    sheet.getRange('A2').setBackground('red');
    expect(sheet.getDataRange().getA1Notation()).toBe('A1:C4');
  });

  test('the workbook holds at most 10,000,000 cells across all tabs: insertSheet and insertRows beyond throw', () => {
    const { ss, sheet } = makeEnv();
    // 26 columns x 384,615 rows = 9,999,990 cells
    sheet.insertRowsAfter(1000, 384615 - 1000);
    expect(sheet.getMaxRows()).toBe(384615);
    expect(thrown(() => sheet.insertRowsAfter(1, 1))).toBe(CELL_LIMIT_MESSAGE);
    expect(thrown(() => ss.insertSheet('More'))).toBe(CELL_LIMIT_MESSAGE);
    expect(thrown(() => sheet.insertColumnsAfter(26, 1))).toBe(CELL_LIMIT_MESSAGE);
    expect(CELL_LIMIT_MESSAGE).toBe('This action would increase the number of cells in the workbook above the limit of 10000000 cells.');
    expect(ss.getSheets().length).toBe(1);
  });

  test('Google Drive Help "Files you can store in Google Drive": every cell of every grid counts (max rows x max columns), and every grid-growing call refuses past the limit (lowered here)', () => {
    const { ss, sheet, wb } = makeEnv();
    wb.cellLimit = 60_000;
    // Sheet1 is 1000 x 26 = 26,000 cells, all empty: they count.
    expect(wb.totalCells()).toBe(26_000);
    const message = cellLimitMessage(60_000);
    expect(message).toBe('This action would increase the number of cells in the workbook above the limit of 60000 cells.');
    const more = ss.insertSheet('More'); // 52,000
    expect(thrown(() => ss.insertSheet('Third'))).toBe(message);
    expect(thrown(() => sheet.insertRowsAfter(1000, 400))).toBe(message); // +10,400
    expect(thrown(() => sheet.insertColumnsAfter(26, 10))).toBe(message); // +10,000
    sheet.insertRowBefore(1); // +26: fits
    expect(wb.totalCells()).toBe(52_026);
    // appendRow past the last grid row adds a row (and columns for a wider row): refused too.
    more.getRange(1000, 1).setValue('last');
    expect(thrown(() => more.appendRow(new Array(400).fill('x')))).toBe(message);
    // A value beyond the grid is refused by getRange, never grows it.
    expect(thrown(() => more.getRange(1001, 1).setValue('x'))).toBe(
      'The coordinates of the range are outside the dimensions of the sheet.',
    );
    // Deleting frees room: the same insert then passes.
    ss.deleteSheet(more);
    expect(ss.insertSheet('Third').getMaxRows()).toBe(1000);
    expect(wb.totalCells()).toBe(26_026 + 26_000);
  });

  test('insertRows and deleteRows move cells, named ranges and the filter with them', () => {
    const { ss, sheet } = makeEnv();
    sheet.getRange('A1:A3').setValues([[1], [2], [3]]);
    ss.setNamedRange('Third', sheet.getRange('A3'));
    sheet.getRange('A1:A3').createFilter();
    sheet.insertRowsAfter(1, 2); // rows 2-3 new
    expect(sheet.getRange('A1:A5').getValues()).toEqual([[1], [''], [''], [2], [3]]);
    expect(ss.getRangeByName('Third')!.getA1Notation()).toBe('A5');
    expect(sheet.getFilter()!.getRange().getA1Notation()).toBe('A1:A5');
    sheet.insertRows(1);
    expect(sheet.getRange('A2').getValue()).toBe(1);
    sheet.deleteRows(1, 3);
    expect(sheet.getRange('A1:A3').getValues()).toEqual([[''], [2], [3]]);
    expect(ss.getRangeByName('Third')!.getA1Notation()).toBe('A3');
    expect(sheet.getMaxRows()).toBe(1000);
    sheet.insertColumnsAfter(0 + 1, 1);
    expect(sheet.getMaxColumns()).toBe(27);
  });

  test('offset and getCell address cells relative to the range', () => {
    const { sheet } = makeEnv();
    const r = sheet.getRange('B2:C3');
    expect(r.offset(1, 1).getA1Notation()).toBe('C3:D4');
    expect(r.offset(0, 0, 1, 1).getA1Notation()).toBe('B2');
    expect(r.getCell(2, 2).getA1Notation()).toBe('C3');
    expect(thrown(() => r.offset(-2, 0))).toBe('The starting row of the range is too small.');
  });

  test('clear, clearContent and clearFormat remove what they name', () => {
    const { sheet } = makeEnv();
    const r = sheet.getRange('A1:B1');
    r.setValues([[1, 'x']])
      .setBackground('#ff0000')
      .setNumberFormat('0.00')
      .setFontWeight('bold');
    r.clearContent();
    expect(r.getValues()).toEqual([['', '']]);
    expect(r.getBackground()).toBe('#ff0000');
    r.setValue(2);
    r.clearFormat();
    expect(r.getValues()).toEqual([[2, 2]]);
    expect([r.getBackground(), r.getNumberFormat(), r.getFontWeight()]).toEqual(['#ffffff', '0.###############', 'normal']);
    r.setBackground('blue');
    r.clear();
    expect(r.getValues()).toEqual([['', '']]);
    expect(r.getBackground()).toBe('#ffffff');
    sheet.getRange('C3').setValue('z');
    sheet.clearContents();
    expect(sheet.getLastRow()).toBe(0);
  });

  test('formats, notes, backgrounds, font weight, colour, alignment and wrap read back', () => {
    const { sheet } = makeEnv();
    const r = sheet.getRange('A1:B2');
    r.setNumberFormats([
      ['0.00', '@'],
      ['0%', '#,##0'],
    ]);
    r.setNotes([
      ['n1', ''],
      [null as unknown as string, 'n4'],
    ]);
    r.setBackgrounds([
      ['#FF0000', null as unknown as string],
      ['green', '#abc'],
    ]);
    r.setFontWeights([
      ['bold', 'normal'],
      [null, 'bold'],
    ] as GoogleAppsScript.Spreadsheet.FontWeight[][]);
    r.setFontColor('#0000FF').setHorizontalAlignment('center').setWrap(true);
    expect(r.getNumberFormats()).toEqual([
      ['0.00', '@'],
      ['0%', '#,##0'],
    ]);
    expect(r.getNotes()).toEqual([
      ['n1', ''],
      ['', 'n4'],
    ]);
    expect(r.getBackgrounds()).toEqual([
      ['#ff0000', '#ffffff'],
      ['#008000', '#aabbcc'],
    ]);
    expect(r.getFontWeights()).toEqual([
      ['bold', 'normal'],
      ['normal', 'bold'],
    ]);
    expect([r.getFontColor(), r.getHorizontalAlignment(), r.getWrap()]).toEqual(['#0000ff', 'center', true]);
    expect(sheet.getRange('C1').getHorizontalAlignment()).toBe('general');
  });

  test('getFormulas/setFormulas: dimensions checked, "" clears', () => {
    const { sheet } = makeEnv();
    const r = sheet.getRange('A1:B1');
    r.setFormulas([['=X()', '']]);
    expect(r.getFormulas()).toEqual([['=X()', '']]);
    r.setFormulas([['', '=Y()']]);
    expect(r.getFormulas()).toEqual([['', '=Y()']]);
    expect(thrown(() => r.setFormulas([['=1']]))).toBe(
      'The number of columns in the data does not match the number of columns in the range. The data has 1 but the range has 2.',
    );
  });

  test('Workbook.cell gives raw access without charging costs', () => {
    const wb = new Workbook();
    wb.type('Sheet1', 'A1', '$5');
    expect(wb.cell('Sheet1', 'A1')).toMatchObject({ value: 5, display: '$5.00', format: '"$"#,##0.00' });
  });
});
