/**
 * Issue 33, "The runtime, held to Google's own suites": range and sheet behaviour recorded on real
 * Google by brucemcpherson/gas-fakes' tests (each test names the file and section), or stated on
 * Google's reference pages (named likewise).
 */
import { makeEnv, thrown } from './env';

describe('R1C1 notation', () => {
  test('setFormulaR1C1 / getFormulaR1C1: relative, absolute, mixed, negative, several references, text kept (gas-fakes test/testsheets.js "R1C1 Formula Notation", tests 1-4, 6, 8, 9)', () => {
    const { sheet } = makeEnv();
    const cases: Array<[string, string, string, string?]> = [
      ['A1', '=R[1]C[1]', '=B2'],
      ['C3', '=R1C1', '=$A$1'],
      ['D4', '=R[1]C1', '=$A5'],
      ['D4', '=R1C[1]', '=E$1'],
      ['E5', '=R[-2]C[-1]', '=D3'],
      ['G7', '=R[-1]C[-1]+R1C1*R[1]C[1]', '=F6+$A$1*H8'],
      ['H15', '=R[-1]C & " some text R1C1 not a ref"', '=H14 & " some text R1C1 not a ref"', '=R[-1]C[0] & " some text R1C1 not a ref"'],
      ['J20', '=R[0]C[0]', '=J20'],
      ['A2', '=SUM(R[-1]C:R[-1]C[2])', '=SUM(A1:C1)', '=SUM(R[-1]C[0]:R[-1]C[2])'],
    ];
    for (const [a1, r1c1, formula, canonical] of cases) {
      const cell = sheet.getRange(a1);
      cell.setFormulaR1C1(r1c1);
      expect([a1, cell.getFormula(), cell.getFormulaR1C1()]).toEqual([a1, formula, canonical ?? r1c1]);
    }
  });

  test('getFormulaR1C1 of A1 formulas, and setFormulasR1C1 / getFormulasR1C1 canonical with [0] (gas-fakes test/testsheets.js "R1C1 Formula Notation", tests 5, 7, 10)', () => {
    const { sheet } = makeEnv();
    const f6 = sheet.getRange('F6');
    f6.setFormula('=G10');
    expect(f6.getFormulaR1C1()).toBe('=R[4]C[1]');
    f6.setFormula('=$H$12');
    expect(f6.getFormulaR1C1()).toBe('=R12C8');
    const b3 = sheet.getRange('B3');
    b3.setFormula('=SUM($A$1:B$2)');
    expect(b3.getFormulaR1C1()).toBe('=SUM(R1C1:R2C[0])');
    b3.setFormulaR1C1('=SUM(R1C1:R2C[0])');
    expect(b3.getFormula()).toBe('=SUM($A$1:B$2)');
    const r = sheet.getRange('B10:C11');
    r.setFormulasR1C1([
      ['=R[1]C', '=R1C1'],
      ['=R[-1]C[-1]', 'Value'],
    ]);
    expect(r.getFormulas()).toEqual([
      ['=B11', '=$A$1'],
      ['=A10', '=Value'],
    ]);
    expect(r.getFormulasR1C1()).toEqual([
      ['=R[1]C[0]', '=R1C1'],
      ['=R[-1]C[-1]', '=Value'],
    ]);
  });

  test('a cell without a formula has getFormulaR1C1() null; an R1C1 formula computes like its A1 form (Google reference: Range.getFormulaR1C1 "or null if none")', () => {
    const { sheet } = makeEnv();
    expect(sheet.getRange('A1').getFormulaR1C1()).toBeNull();
    sheet.getRange('A1:A2').setValues([[2], [3]]);
    sheet.getRange('B2').setFormulaR1C1('=R[-1]C[-1]*RC[-1]');
    expect(sheet.getRange('B2').getFormula()).toBe('=A1*A2');
    expect(sheet.getRange('B2').getValue()).toBe(6);
  });

  test('getRange with R1C1: single cells, ranges, inverted ranges, lower case; "RC1" is A1 notation (column RC) (gas-fakes test/testsheets.js "getRange with R1C1 notation")', () => {
    const { sheet } = makeEnv();
    const r = sheet.getRange('R5C3');
    expect([r.getA1Notation(), r.getRow(), r.getColumn()]).toEqual(['C5', 5, 3]);
    const r2 = sheet.getRange('R2C2:R4C5');
    expect([r2.getA1Notation(), r2.getNumRows(), r2.getNumColumns()]).toEqual(['B2:E4', 3, 4]);
    expect(sheet.getRange('R10C5:R1C2').getA1Notation()).toBe('B1:E10');
    // Column RC is the 471st: the sheet is widened first, so that only the parse is in question here.
    sheet.insertColumnsAfter(26, 471 - 26);
    expect(sheet.getRange('RC1').getA1Notation()).toBe('RC1');
    expect(sheet.getRange('r1c1:r2c2').getA1Notation()).toBe('A1:B2');
  });

  test('getRange accepts absolute R1C1 notation, with or without a sheet name (Google reference: Sheet.getRange(a1Notation) "A1 notation or R1C1 notation")', () => {
    const { sheet, ss } = makeEnv();
    expect(sheet.getRange('R2C3').getA1Notation()).toBe('C2');
    expect(sheet.getRange('R1C1:R3C2').getA1Notation()).toBe('A1:B3');
    expect(ss.getRange('Sheet1!R2C2:R4C4').getA1Notation()).toBe('B2:D4');
    expect(thrown(() => sheet.getRange('R[1]C[1]'))).toBe('Range not found');
  });
});

describe('Direction: getNextDataCell and getDataRegion', () => {
  test('getNextDataCell DOWN and UP moves like Ctrl+arrow (gas-fakes test/testsheets.js "Range.getNextDataCell", DOWN and UP)', () => {
    const { app, sheet } = makeEnv();
    const D = app.Direction;
    sheet.getRange('B2').setValue('B2-val');
    sheet.getRange('B5').setValue('B5-val');
    sheet.getRange('D2:D4').setValues([['D2-val'], ['D3-val'], ['D4-val']]);
    const max = sheet.getMaxRows();
    sheet.getRange(`F${max}`).setValue('F-last-val');
    const next = (a1: string, d: GoogleAppsScript.Spreadsheet.Direction) => sheet.getRange(a1).getNextDataCell(d).getA1Notation();
    expect([next('B1', D.DOWN), next('B2', D.DOWN), next('D2', D.DOWN), next('B5', D.DOWN), next('A1', D.DOWN)]).toEqual([
      'B2',
      'B5',
      'D4',
      `B${max}`,
      `A${max}`,
    ]);
    expect([next(`F${max}`, D.DOWN), next('F1', D.DOWN)]).toEqual([`F${max}`, `F${max}`]);
    expect([next('B4', D.UP), next('B5', D.UP), next('D4', D.UP), next('B2', D.UP), next('A6', D.UP), next('A1', D.UP)]).toEqual([
      'B2',
      'B2',
      'D2',
      'B1',
      'A1',
      'A1',
    ]);
  });

  test('getNextDataCell NEXT and PREVIOUS moves along the row (gas-fakes test/testsheets.js "Range.getNextDataCell", NEXT)', () => {
    const { app, sheet } = makeEnv();
    const D = app.Direction;
    sheet.getRange('B2').setValue('B2-val');
    sheet.getRange('E2').setValue('E2-val');
    sheet.getRange('B4:D4').setValues([['B4-val', 'C4-val', 'D4-val']]);
    const next = (a1: string, d: GoogleAppsScript.Spreadsheet.Direction) => sheet.getRange(a1).getNextDataCell(d).getA1Notation();
    expect([next('A2', D.NEXT), next('B2', D.NEXT), next('B4', D.NEXT), next('E2', D.NEXT), next('Z1', D.NEXT)]).toEqual([
      'B2',
      'E2',
      'D4',
      'Z2',
      'Z1',
    ]);
    expect([next('E2', D.PREVIOUS), next('D4', D.PREVIOUS), next('B2', D.PREVIOUS)]).toEqual(['B2', 'B4', 'A2']);
  });

  test('getDataRegion grows over adjacent data, never along diagonals; Dimension keeps it to rows or columns (gas-fakes test/testsheetssets.js "Range.getDataRegion")', () => {
    const { app, sheet } = makeEnv();
    sheet.getRange('B2:D4').setValues([
      ['B2', 'C2', 'D2'],
      ['B3', 'C3', 'D3'],
      ['B4', 'C4', 'D4'],
    ]);
    sheet.getRange('F6:G7').setValues([
      ['F6', 'G6'],
      ['F7', 'G7'],
    ]);
    const region = (a1: string, d?: GoogleAppsScript.Spreadsheet.Dimension) =>
      (d ? sheet.getRange(a1).getDataRegion(d) : sheet.getRange(a1).getDataRegion()).getA1Notation();
    expect([region('C3'), region('B2:D4'), region('A1'), region('B1'), region('E3'), region('F6')]).toEqual([
      'B2:D4',
      'B2:D4',
      'A1',
      'B1:D4',
      'B2:E4',
      'F6:G7',
    ]);
    expect([region('C3', app.Dimension.ROWS), region('F7', app.Dimension.ROWS)]).toEqual(['C2:C4', 'F6:F7']);
    expect([region('C3', app.Dimension.COLUMNS), region('F7', app.Dimension.COLUMNS)]).toEqual(['B3:D3', 'F7:G7']);
  });
});

describe('hidden rows and columns, row heights', () => {
  test('hideRow(s)/hideColumn(s) and their undoing show in isRowHiddenByUser / isColumnHiddenByUser (gas-fakes test/testsheetstext.js "insert sheets,rows,columns", real-Google branch)', () => {
    const { sheet } = makeEnv();
    const r = sheet.getRange('B2');
    expect([sheet.isRowHiddenByUser(2), sheet.isColumnHiddenByUser(2)]).toEqual([false, false]);
    sheet.hideColumn(r);
    expect(sheet.isColumnHiddenByUser(2)).toBe(true);
    sheet.hideColumns(2, 2);
    expect([sheet.isColumnHiddenByUser(2), sheet.isColumnHiddenByUser(3), sheet.isColumnHiddenByUser(4)]).toEqual([true, true, false]);
    sheet.hideRow(r);
    expect(sheet.isRowHiddenByUser(2)).toBe(true);
    sheet.hideRows(2, 2);
    expect([sheet.isRowHiddenByUser(2), sheet.isRowHiddenByUser(3)]).toEqual([true, true]);
    sheet.unhideColumn(r);
    expect([sheet.isColumnHiddenByUser(2), sheet.isColumnHiddenByUser(3)]).toEqual([false, true]);
    sheet.unhideRow(r);
    expect([sheet.isRowHiddenByUser(2), sheet.isRowHiddenByUser(3)]).toEqual([false, true]);
    sheet.showRows(1, 5);
    sheet.showColumns(3);
    expect([sheet.isRowHiddenByUser(3), sheet.isColumnHiddenByUser(3)]).toEqual([false, false]);
  });

  test('hidden rows move with rows inserted above them and go with rows deleted (Google reference: Sheet.insertRowsBefore shifts rows)', () => {
    const { sheet } = makeEnv();
    sheet.hideRows(5);
    sheet.insertRowsBefore(2, 3);
    expect([sheet.isRowHiddenByUser(5), sheet.isRowHiddenByUser(8)]).toEqual([false, true]);
    sheet.deleteRows(8, 1);
    expect(sheet.isRowHiddenByUser(8)).toBe(false);
    expect(thrown(() => sheet.hideRows(0))).toBe('Those rows are out of bounds.');
    // Arguments are checked against the overloads first, as for every method (signatures.ts).
    expect(thrown(() => sheet.hideRows('2' as never))).toBe(
      "The parameters (String) don't match the method signature for SpreadsheetApp.Sheet.hideRows.",
    );
  });

  test('row heights: 21 by default; setRowHeight, setRowHeights, setRowHeightsForced change them and chain (gas-fakes test/testsheetsvalues.js, getRowHeight/setRowHeight section)', () => {
    const { sheet } = makeEnv();
    expect(sheet.getRowHeight(3)).toBe(21);
    expect(sheet.setColumnWidth(2, 200).setRowHeight(3, 31).getRowHeight(3)).toBe(31);
    sheet.setRowHeights(3, 4, 40);
    expect([3, 4, 5, 6, 7].map((r) => sheet.getRowHeight(r))).toEqual([40, 40, 40, 40, 21]);
    sheet.setRowHeightsForced(3, 4, 21);
    expect(sheet.getRowHeight(3)).toBe(21);
    sheet.setRowHeight(10, 50);
    sheet.insertRowsBefore(1, 2);
    expect([sheet.getRowHeight(10), sheet.getRowHeight(12)]).toEqual([21, 50]);
  });
});

describe('insertCells and deleteCells', () => {
  const initial = [
    ['A1', 'B1', 'C1', 'D1'],
    ['A2', 'B2', 'C2', 'D2'],
    ['A3', 'B3', 'C3', 'D3'],
    ['A4', 'B4', 'C4', 'D4'],
  ];
  test('deleteCells(COLUMNS) shifts left, deleteCells(ROWS) up; insertCells(COLUMNS) right, insertCells(ROWS) down (gas-fakes test/testsheets.js "Range.deleteCells and Range.insertCells")', () => {
    const { app, sheet } = makeEnv();
    const all = sheet.getRange('A1:D4');
    all.setValues(initial);
    sheet.getRange('B2:C3').deleteCells(app.Dimension.COLUMNS);
    expect(all.getValues()).toEqual([
      ['A1', 'B1', 'C1', 'D1'],
      ['A2', 'D2', '', ''],
      ['A3', 'D3', '', ''],
      ['A4', 'B4', 'C4', 'D4'],
    ]);
    all.setValues(initial);
    sheet.getRange('B2:C3').deleteCells(app.Dimension.ROWS);
    expect(all.getValues()).toEqual([
      ['A1', 'B1', 'C1', 'D1'],
      ['A2', 'B4', 'C4', 'D2'],
      ['A3', '', '', 'D3'],
      ['A4', '', '', 'D4'],
    ]);
    all.setValues(initial);
    sheet.getRange('B2:C2').insertCells(app.Dimension.COLUMNS);
    expect(all.getValues()).toEqual([
      ['A1', 'B1', 'C1', 'D1'],
      ['A2', '', '', 'B2'],
      ['A3', 'B3', 'C3', 'D3'],
      ['A4', 'B4', 'C4', 'D4'],
    ]);
    expect(sheet.getRange('E2:F2').getValues()).toEqual([['C2', 'D2']]);
    all.setValues(initial);
    sheet.getRange('E2:F2').clearContent();
    sheet.getRange('B2:B3').insertCells(app.Dimension.ROWS);
    expect(all.getValues()).toEqual([
      ['A1', 'B1', 'C1', 'D1'],
      ['A2', '', 'C2', 'D2'],
      ['A3', '', 'C3', 'D3'],
      ['A4', 'B2', 'C4', 'D4'],
    ]);
    expect(thrown(() => sheet.getRange('A1').insertCells('SIDEWAYS' as never))).toBe(
      "The parameters (String) don't match the method signature for SpreadsheetApp.Range.insertCells.",
    );
  });

  test('a formula reading moved cells is recomputed (Google reference: Range.deleteCells "shifting the cells")', () => {
    const { app, sheet } = makeEnv();
    sheet.getRange('A1:A3').setValues([[1], [2], [3]]);
    sheet.getRange('C1').setFormula('=SUM(A1:A3)');
    sheet.getRange('A1').deleteCells(app.Dimension.ROWS);
    expect(sheet.getRange('A1:A3').getValues()).toEqual([[2], [3], ['']]);
    expect(sheet.getRange('C1').getValue()).toBe(5);
  });
});

describe('removeDuplicates', () => {
  test('keeps the first of equal rows, moved up; returns the rows kept; compares only the given columns (gas-fakes test/testsheetsvalues.js "assorted data manipulation", removeDuplicates)', () => {
    const { sheet } = makeEnv();
    const rows = [
      ['foo', 'bar'],
      ['bar', 'foo'],
      ['foo', 'foo'],
      ['bar', 'foo'],
    ];
    const r = sheet.getRange('A1:B4');
    r.setValues(rows);
    const kept = r.removeDuplicates();
    expect(kept.getA1Notation()).toBe('A1:B3');
    expect(r.getValues()).toEqual([...rows.slice(0, 3), ['', '']]);
    const none = sheet.getRange('D1:E3');
    none.setValues(rows.slice(0, 3));
    expect(none.removeDuplicates().getA1Notation()).toBe('D1:E3');
    const byCol = sheet.getRange('G1:H4');
    byCol.setValues(rows);
    expect(byCol.removeDuplicates([8]).getValues()).toEqual([
      ['foo', 'bar'],
      ['bar', 'foo'],
    ]);
    expect(byCol.getValues().slice(2)).toEqual([
      ['', ''],
      ['', ''],
    ]);
  });
});

test('removeDuplicates ignores letter case and formulas: equal values are duplicates (Sheets API reference, DeleteDuplicatesRequest: "Rows with identical values but different letter cases, formatting, or formulas are considered to be duplicates")', () => {
  const { sheet } = makeEnv();
  const r = sheet.getRange('A1:A4');
  r.setValues([['Foo'], ['foo'], ['=1+1'], [2]]);
  expect(r.removeDuplicates().getValues()).toEqual([['Foo'], [2]]);
  expect(r.getValues()).toEqual([['Foo'], [2], [''], ['']]);
});

test('Sheet.sort(column[, ascending]) sorts every row below the frozen ones, an unfrozen header too; an empty sheet stays empty (gas-fakes test/testsheets.js "Sheet.sort()")', () => {
  const { sheet } = makeEnv();
  const data = [
    ['Header1', 'Header2', 'Header3'],
    ['C', 30, 'Z'],
    ['A', 10, 'Y'],
    ['B', 20, 'X'],
  ];
  sheet.getRange('A1:C4').setValues(data);
  sheet.sort(2);
  expect(sheet.getDataRange().getValues()).toEqual([['A', 10, 'Y'], ['B', 20, 'X'], ['C', 30, 'Z'], data[0]]);
  sheet.getRange('A1:C4').setValues(data);
  sheet.sort(1, false);
  expect(sheet.getDataRange().getValues()).toEqual([data[0], data[1], data[3], data[2]]);
  sheet.getRange('A1:C4').setValues(data);
  sheet.setFrozenRows(1);
  sheet.sort(2);
  expect(sheet.getDataRange().getValues()).toEqual([data[0], data[2], data[3], data[1]]);
  sheet.clear();
  sheet.sort(1);
  expect(sheet.getDataRange().getValues()).toEqual([['']]);
});

describe('sort, randomize, trimWhitespace (the same data-manipulation section as removeDuplicates)', () => {
  test('sort by a column, by {column, ascending}, by several; numbers before booleans, so false leads a descending sort (gas-fakes test/testsheetsvalues.js "assorted data manipulation", range.sort)', () => {
    const { sheet } = makeEnv();
    const data = [
      [1, 2, 3, 4, 5],
      [6, 7, 8, 9, 10],
      [11, 12, 13, 14, 15],
    ];
    const range = sheet.getRange('B21:F23');
    range.setValues(data);
    range.sort(4 + range.getColumn());
    expect(range.getValues()).toEqual(data);
    range.sort([{ column: 4 + range.getColumn(), ascending: false }, { column: 3 + range.getColumn() }, range.getColumn()]);
    expect(range.getValues()).toEqual([...data].reverse());
    range.setValues([
      [1, 2, 3, 4, false],
      [6, 7, 8, 9, 10],
      [11, 12, 13, 14, 15],
    ]);
    range.sort([{ column: 4 + range.getColumn(), ascending: false }, { column: 3 + range.getColumn() }, range.getColumn()]);
    expect(range.getValues()).toEqual([
      [1, 2, 3, 4, false],
      [11, 12, 13, 14, 15],
      [6, 7, 8, 9, 10],
    ]);
  });

  test('randomize keeps every row; trimWhitespace trims and collapses spaces, leaving text as text (gas-fakes test/testsheetsvalues.js "assorted data manipulation", randomize and trimWhitespace)', () => {
    const { sheet } = makeEnv();
    const rows = Array.from({ length: 30 }, (_, i) => [i, `r${i}`]);
    const r = sheet.getRange('A1:B30');
    r.setValues(rows);
    r.randomize();
    const after = r.getValues();
    expect([...after].sort((a, b) => (a[0] as number) - (b[0] as number))).toEqual(rows);
    expect(after).not.toEqual(rows); // 30! orders: the same one again is all but impossible
    const t = sheet.getRange('D1:D4');
    t.setValues([[' preceding space'], ['following space '], ['two  middle  spaces'], ['   =SUM(1,2)']]);
    t.trimWhitespace();
    expect(t.getValues()).toEqual([['preceding space'], ['following space'], ['two middle spaces'], ['=SUM(1,2)']]);
    expect(t.getFormulas()).toEqual([[''], [''], [''], ['']]);
  });
});

describe('TextFinder', () => {
  const values = [
    ['sample', 'sámplé'],
    ['SampleA', 'sámplé'],
    ['=SAMPLE()', '=SámpléB()'],
    ['=sample()', '=sámpléB()'],
    ['=sampleA()', '=sámpléB()'],
  ];
  function finders() {
    const env = makeEnv();
    env.sheet.getRange(1, 1, 5, 2).setValues(values);
    const targets = { spreadsheet: env.ss, sheet: env.sheet, range: env.sheet.getRange('A3:B5') } as const;
    return { env, targets };
  }
  const each = (targets: ReturnType<typeof finders>['targets'], f: (t: GoogleAppsScript.Spreadsheet.TextFinder) => unknown) =>
    Object.fromEntries(Object.entries(targets).map(([k, v]) => [k, f(v.createTextFinder('sample'))]));
  const a1s = (rs: GoogleAppsScript.Spreadsheet.Range[]) => rs.map((r) => r.getA1Notation());

  test('findAll on a spreadsheet, a sheet and a range, with matchCase, matchEntireCell, ignoreDiacritics, matchFormulaText (gas-fakes test/testsheetstext.js "spreadsheet textfinder", res1-res4)', () => {
    const { targets } = finders();
    expect(each(targets, (t) => a1s(t.findAll()))).toEqual({ spreadsheet: ['A1', 'A2'], sheet: ['A1', 'A2'], range: [] });
    expect(each(targets, (t) => a1s(t.ignoreDiacritics(true).matchCase(true).matchEntireCell(true).findAll()))).toEqual({
      spreadsheet: ['A1', 'B1', 'B2'],
      sheet: ['A1', 'B1', 'B2'],
      range: [],
    });
    expect(each(targets, (t) => a1s(t.matchFormulaText(true).findAll()))).toEqual({
      spreadsheet: ['A1', 'A2', 'A3', 'A4', 'A5'],
      sheet: ['A1', 'A2', 'A3', 'A4', 'A5'],
      range: ['A3', 'A4', 'A5'],
    });
    expect(
      each(targets, (t) => a1s(t.matchFormulaText(true).ignoreDiacritics(true).matchCase(true).matchEntireCell(true).findAll())),
    ).toEqual({ spreadsheet: ['A1', 'B1', 'B2'], sheet: ['A1', 'B1', 'B2'], range: [] });
  });

  test('replaceAllWith answers the number of cells changed (gas-fakes test/testsheetstext.js "spreadsheet textfinder", res5-res6)', () => {
    const { env, targets } = finders();
    const reset = () => env.sheet.getRange(1, 1, 5, 2).setValues(values);
    const counts = (f: (t: GoogleAppsScript.Spreadsheet.TextFinder) => GoogleAppsScript.Spreadsheet.TextFinder) =>
      Object.fromEntries(
        Object.entries(targets).map(([k, v]) => {
          reset();
          return [k, f(v.createTextFinder('sample')).replaceAllWith('test')];
        }),
      );
    expect(counts((t) => t)).toEqual({ spreadsheet: 2, sheet: 2, range: 0 });
    reset();
    env.ss.createTextFinder('sample').replaceAllWith('test');
    expect(env.sheet.getRange('A1:A2').getValues()).toEqual([['test'], ['testA']]);
    expect(counts((t) => t.matchFormulaText(true).matchCase(true).matchEntireCell(true))).toEqual({
      spreadsheet: 1,
      sheet: 1,
      range: 0,
    });
  });

  test('findNext / findPrevious walk the matches in order and answer null past the end; useRegularExpression; toString is "TextFinder" (Google reference: TextFinder)', () => {
    const { env } = finders();
    const t = env.sheet.createTextFinder('sample');
    expect(String(t)).toBe('TextFinder');
    expect(t.findNext()?.getA1Notation()).toBe('A1');
    expect(t.findNext()?.getA1Notation()).toBe('A2');
    expect(t.getCurrentMatch()?.getA1Notation()).toBe('A2');
    expect(t.findNext()).toBeNull();
    expect(t.findPrevious()?.getA1Notation()).toBe('A1');
    expect(a1s(env.sheet.createTextFinder('^s.mpl.$').useRegularExpression(true).findAll())).toEqual(['A1', 'B1', 'B2']);
    expect(a1s(env.sheet.createTextFinder('sample').startFrom(env.sheet.getRange('A1')).findAll())).toEqual(['A1', 'A2']);
    expect(env.sheet.createTextFinder('sample').startFrom(env.sheet.getRange('A1')).findNext()?.getA1Notation()).toBe('A2');
  });
});

describe('deleting every row or column', () => {
  test('deleting all rows or columns throws Google\'s "Sorry, it is not possible to delete all non-frozen rows." (Sheets\' message, public logs: theoephraim/node-google-spreadsheet#186, jlolling/talendcomp_tGoogleSheet#19)', () => {
    const { sheet } = makeEnv();
    expect(thrown(() => sheet.deleteRows(1, sheet.getMaxRows()))).toBe('Sorry, it is not possible to delete all non-frozen rows.');
    expect(thrown(() => sheet.deleteColumns(1, sheet.getMaxColumns()))).toBe('Sorry, it is not possible to delete all non-frozen columns.');
    // With a frozen header, the rows below it cannot all go either.
    sheet.setFrozenRows(1);
    expect(thrown(() => sheet.deleteRows(2, sheet.getMaxRows() - 1))).toBe('Sorry, it is not possible to delete all non-frozen rows.');
    sheet.deleteRows(2, sheet.getMaxRows() - 2);
    expect(sheet.getMaxRows()).toBe(2);
  });
});

test('freezing every row throws Google\'s "You can\'t freeze all visible rows on the sheet." (Sheets API and Apps Script logs, e.g. "Exception: You can\'t freeze all visible rows on the sheet.")', () => {
  const { sheet } = makeEnv();
  sheet.deleteRows(3, sheet.getMaxRows() - 2);
  expect(thrown(() => sheet.setFrozenRows(2))).toBe("You can't freeze all visible rows on the sheet.");
  sheet.setFrozenRows(1);
  expect(sheet.getFrozenRows()).toBe(1);
  expect(thrown(() => sheet.setFrozenColumns(sheet.getMaxColumns()))).toBe("You can't freeze all visible columns on the sheet.");
});

describe('class names', () => {
  test('toString() of Spreadsheet objects is the class name: "Range", "Sheet", "Spreadsheet", "Filter", "NamedRange", "Protection" (gas-fakes test/testassist.js isRange: a.toString() === "Range"; test/testsheetsdata.js criteria.toString())', () => {
    const { ss, sheet } = makeEnv();
    const r = sheet.getRange('A1:B2');
    ss.setNamedRange('named', r);
    expect([String(r), String(sheet), String(ss), String(r.createFilter()), String(ss.getNamedRanges()[0]), String(r.protect())]).toEqual([
      'Range',
      'Sheet',
      'Spreadsheet',
      'Filter',
      'NamedRange',
      'Protection',
    ]);
  });
});

describe('autoFill', () => {
  test('DEFAULT_SERIES continues numbers down and, backwards, to the left; the destination must contain the source and grow one way (gas-fakes test/testsheets.js "Range.autoFill and autoFillToNeighbor")', () => {
    const { app, sheet } = makeEnv();
    const S = app.AutoFillSeries;
    const src = sheet.getRange('A1:A4');
    src.setValues([[1], [2], [3], [4]]);
    src.autoFill(sheet.getRange('A1:A10'), S.DEFAULT_SERIES);
    expect(sheet.getRange('A1:A10').getValues()).toEqual([[1], [2], [3], [4], [5], [6], [7], [8], [9], [10]]);
    sheet.getRange('E1:H1').setValues([[10, 8, 6, 4]]);
    sheet.getRange('E1:H1').autoFill(sheet.getRange('B1:H1'), S.DEFAULT_SERIES);
    expect(sheet.getRange('B1:H1').getValues()).toEqual([[16, 14, 12, 10, 8, 6, 4]]);
    expect(thrown(() => src.autoFill(sheet.getRange('C1:C5'), S.DEFAULT_SERIES))).toMatch(
      /destination range must contain the source range/,
    );
    expect(thrown(() => src.autoFill(sheet.getRange('A1:B10'), S.DEFAULT_SERIES))).toBe(
      'AutoFill destination range must extend the source range in only one direction.',
    );
  });

  test('autoFillToNeighbor fills down to the end of the neighbouring column; months continue (gas-fakes test/testsheets.js "Range.autoFill and autoFillToNeighbor")', () => {
    const { app, sheet } = makeEnv();
    sheet.getRange('A1:A20').setValues(Array.from({ length: 20 }, (_, i) => [i + 1]));
    sheet.getRange('B1:B2').setValues([['Jan'], ['Feb']]);
    sheet.getRange('B1:B2').autoFillToNeighbor(app.AutoFillSeries.DEFAULT_SERIES);
    const b = sheet.getRange('B1:B21').getValues().flat();
    expect([b[2], b[12], b[19], b[20]]).toEqual(['Mar', 'Jan', 'Aug', '']);
  });

  test('ALTERNATE_SERIES copies the values; formulas are copied with their references moved (Google reference: AutoFillSeries, "copies of the existing values")', () => {
    const { app, sheet } = makeEnv();
    sheet.getRange('A1:A2').setValues([[1], [2]]);
    sheet.getRange('A1:A2').autoFill(sheet.getRange('A1:A5'), app.AutoFillSeries.ALTERNATE_SERIES);
    expect(sheet.getRange('A1:A5').getValues().flat()).toEqual([1, 2, 1, 2, 1]);
    sheet.getRange('B1').setFormula('=A1*10');
    sheet.getRange('B1').autoFill(sheet.getRange('B1:B3'), app.AutoFillSeries.DEFAULT_SERIES);
    expect(sheet.getRange('B1:B3').getFormulas().flat()).toEqual(['=A1*10', '=A2*10', '=A3*10']);
    expect(sheet.getRange('B1:B3').getValues().flat()).toEqual([10, 20, 10]);
  });
});

describe('class names of the builders and rules', () => {
  test('toString() gives "DataValidationBuilder", "DataValidation", "ConditionalFormatRule" and the like (gas-fakes test/testsheetsdatavalidations.js builder.toString() / built.toString(); test/testconditionalformat.js rule1.toString())', () => {
    const { app, sheet } = makeEnv();
    const builder = app.newDataValidation().requireCheckbox();
    const rule = app
      .newConditionalFormatRule()
      .whenCellEmpty()
      .setBackground('red')
      .setRanges([sheet.getRange('A1')]);
    const rich = app.newRichTextValue().setText('x');
    expect([
      String(builder),
      String(builder.build()),
      String(rule),
      String(rule.build()),
      String(rule.build().getBooleanCondition()),
      String(rich),
      String(rich.build()),
      String(app.getSelection()),
      String(app.getUi()),
      String(app.getUi().createMenu('m')),
    ]).toEqual([
      'DataValidationBuilder',
      'DataValidation',
      'ConditionalFormatRuleBuilder',
      'ConditionalFormatRule',
      'BooleanCondition',
      'RichTextValueBuilder',
      'RichTextValue',
      'Selection',
      'Ui',
      'Menu',
    ]);
  });
});

describe('copyTo and moveTo (cells moved, of a kind with insertCells/deleteCells)', () => {
  function source() {
    const env = makeEnv();
    const src = env.sheet.getRange('A1:B2');
    src.setValues([
      ['V1', 'V2'],
      ['V3', 'V4'],
    ]);
    src.setBackground('#ff0000').setFontColor('#0000ff').setFontWeight('bold');
    return { ...env, src };
  }
  const formats = (r: GoogleAppsScript.Spreadsheet.Range) => [r.getBackground(), r.getFontColor(), r.getFontWeight()];

  test('copyTo copies values and formats; a smaller destination gets the whole source, a larger one whole repeats only; contentsOnly keeps the target formats; wrong arguments get the signature message (gas-fakes test/testsheets.js "Range.copyTo")', () => {
    const { app, sheet, src } = source();
    const values = src.getValues();
    src.copyTo(sheet.getRange('D1:E2'));
    expect([sheet.getRange('D1:E2').getValues(), formats(sheet.getRange('D1:E2'))]).toEqual([values, ['#ff0000', '#0000ff', 'bold']]);
    src.copyTo(sheet.getRange('G1'));
    expect(sheet.getRange('G1:H2').getValues()).toEqual(values);
    src.copyTo(sheet.getRange('J1:L4'));
    expect(sheet.getRange('J1:K4').getValues()).toEqual([...values, ...values]);
    expect([sheet.getRange('L1').getValue(), sheet.getRange('L1').getBackground(), formats(sheet.getRange('J3:K4'))]).toEqual([
      '',
      '#ffffff',
      ['#ff0000', '#0000ff', 'bold'],
    ]);
    sheet.getRange('D5:E6').setBackground('#cccccc');
    src.copyTo(sheet.getRange('D5:E6'), { contentsOnly: true });
    expect([sheet.getRange('D5:E6').getValues(), sheet.getRange('D5').getBackground()]).toEqual([values, '#cccccc']);
    expect(thrown(() => (src.copyTo as any)())).toMatch(/don't match the method signature/);
    expect(thrown(() => src.copyTo('not a range' as never))).toMatch(/don't match the method signature/);
    expect(thrown(() => src.copyTo(sheet.getRange('D1'), app.CopyPasteType.PASTE_NORMAL, 'not a boolean' as never))).toMatch(
      /don't match the method signature/,
    );
  });

  test('copyTo moves relative references; PASTE_VALUES pastes results only (Google reference: Range.copyTo, CopyPasteType)', () => {
    const { app, sheet } = makeEnv();
    sheet.getRange('A1:A2').setValues([[2], [3]]);
    sheet.getRange('B1').setFormula('=A1*10');
    sheet.getRange('B1').copyTo(sheet.getRange('B2'));
    expect([sheet.getRange('B2').getFormula(), sheet.getRange('B2').getValue()]).toEqual(['=A2*10', 30]);
    sheet.getRange('B1').copyTo(sheet.getRange('C1'), app.CopyPasteType.PASTE_VALUES, false);
    expect([sheet.getRange('C1').getFormula(), sheet.getRange('C1').getValue()]).toEqual(['', 20]);
  });

  test('moveTo moves values and formats and clears what is left of the source, also when they overlap (gas-fakes test/testsheets.js "Range.moveTo")', () => {
    const { sheet, src } = source();
    src.moveTo(sheet.getRange('D1'));
    expect([sheet.getRange('D1:E2').getValues(), sheet.getRange('D1:E2').getBackground(), sheet.getRange('D1:E2').getFontWeight()]).toEqual(
      [
        [
          ['V1', 'V2'],
          ['V3', 'V4'],
        ],
        '#ff0000',
        'bold',
      ],
    );
    expect([
      sheet.getRange('A1:B2').getValues().flat(),
      sheet.getRange('A1:B2').getBackground(),
      sheet.getRange('A1:B2').getFontWeight(),
    ]).toEqual([['', '', '', ''], '#ffffff', 'normal']);
    const again = sheet.getRange('A1:B2');
    again.setValues([
      ['A1', 'B1'],
      ['A2', 'B2'],
    ]);
    again.setBackground('#ff0000');
    again.moveTo(sheet.getRange('B1'));
    expect(sheet.getRange('A1:C2').getValues()).toEqual([
      ['', 'A1', 'B1'],
      ['', 'A2', 'B2'],
    ]);
    expect([sheet.getRange('B1:C2').getBackground(), sheet.getRange('A1').getBackground()]).toEqual(['#ff0000', '#ffffff']);
  });
});
