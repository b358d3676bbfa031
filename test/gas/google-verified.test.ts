/**
 * Issue 20: the local runtime held to behaviour observed on Google. Each test names where the
 * behaviour was recorded: a gas-fakes test (github.com/brucemcpherson/gas-fakes, whose tests run
 * against real Apps Script), a Google reference page, or issue 20's report of what Sheets did.
 */
import { evalIn, fixtureRuntime, thrown } from './helpers';
import { makeEnv, thrown as thrownHere } from './spreadsheet/env';
import { SIGNATURES } from '../../emulator/gas/spreadsheet/signatures';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

describe('LockService and CacheService', () => {
  const rt = fixtureRuntime();
  afterAll(() => rt.close());

  test('a negative time-out never takes a lock: tryLock(-100) is false, waitLock(-100) throws "Lock timeout" (gas-fakes test/testlock.js "Lock timeout failures")', () => {
    expect(
      evalIn(
        rt,
        'var l = LockService.getScriptLock(); var a = l.tryLock(-100); var h = l.hasLock(); var z = l.tryLock(0); l.releaseLock(); return [a, h, z];',
      ),
    ).toEqual([false, false, true]);
    expect(thrown(() => evalIn(rt, 'LockService.getDocumentLock().waitLock(-100)'))).toMatch(/^Lock timeout/);
    expect(evalIn(rt, 'var l = LockService.getScriptLock(); try { l.waitLock(-100); } catch (e) {} return l.hasLock();')).toBe(false);
    expect(evalIn(rt, 'var l = LockService.getScriptLock(); l.waitLock(0); return l.hasLock();')).toBe(true);
  });

  test('Cache.put and Cache.remove answer null (gas-fakes test/teststores.js, cache section: t.is(cache.put(k, v), null))', () => {
    expect(
      evalIn(
        rt,
        "var c = CacheService.getScriptCache(); var p = c.put('k', 'v'); var g = c.get('k'); var r = c.remove('k'); var p2 = c.put('k', 'ex', 2); return [p, g, r, p2];",
      ),
    ).toEqual([null, 'v', null, null]);
  });
});

describe('SpreadsheetApp', () => {
  test('setFormula on a 2x2 range moves relative references per cell: =A1 gives =A1,=B1 / =A2,=B2 (gas-fakes test/testsheets.js "quick text on autincrement")', () => {
    const { sheet } = makeEnv();
    const r = sheet.getRange('D5:E6');
    r.setFormula('=A1');
    expect(r.getFormulas()).toEqual([
      ['=A1', '=B1'],
      ['=A2', '=B2'],
    ]);
    // absolute parts stay; text in quotes is not a reference; a single cell is written as given
    sheet.getRange('G1:H2').setFormula('=SUM($A$1:B$2)&"A1"&C3');
    expect(sheet.getRange('G1:H2').getFormulas()).toEqual([
      ['=SUM($A$1:B$2)&"A1"&C3', '=SUM($A$1:C$2)&"A1"&D3'],
      ['=SUM($A$1:B$2)&"A1"&C4', '=SUM($A$1:C$2)&"A1"&D4'],
    ]);
    sheet.getRange('A1:B2').setValues([
      [1, 2],
      [3, 4],
    ]);
    expect(r.getValues()).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  test('a conditional format rule with criteria and no format is accepted (gas-fakes test/testconditionalformat.js "ConditionalFormatRule varied criteria")', () => {
    const { app, sheet } = makeEnv();
    const range = sheet.getRange('A1:B10');
    const rules = [
      app.newConditionalFormatRule().whenTextContains('hello').setRanges([range]).build(),
      app.newConditionalFormatRule().whenNumberBetween(10, 20).setRanges([range]).build(),
    ];
    sheet.setConditionalFormatRules(rules);
    const back = sheet.getConditionalFormatRules();
    expect(back.map((r) => [r.getBooleanCondition()!.getCriteriaType(), r.getBooleanCondition()!.getCriteriaValues()])).toEqual([
      ['TEXT_CONTAINS', ['hello']],
      ['NUMBER_BETWEEN', [10, 20]],
    ]);
    expect(thrownHere(() => app.newConditionalFormatRule().setBackground('#ff0000').build())).toBe(
      'Conditional format rule must have a condition.',
    );
  });

  test('merged cells: merge keeps the top-left value and blanks the others; getMergedRanges, isPartOfMerge, mergeAcross, mergeVertically, breakApart (gas-fakes test/testsheets.js "Range Merging Methods")', () => {
    const { sheet } = makeEnv();
    sheet.getRange('A1:F10').setValues(Array.from({ length: 10 }, (_, r) => Array.from({ length: 6 }, (_, c) => `R${r + 1}C${c + 1}`)));
    const m = sheet.getRange('A1:B2');
    m.merge();
    expect([
      sheet.getRange('A1').isPartOfMerge(),
      sheet.getRange('B2').isPartOfMerge(),
      m.isPartOfMerge(),
      sheet.getRange('C3').isPartOfMerge(),
    ]).toEqual([true, true, true, false]);
    expect(m.getDisplayValue()).toBe('R1C1');
    expect(m.getValues()).toEqual([
      ['R1C1', ''],
      ['', ''],
    ]);
    expect(
      sheet
        .getRange('A1:C3')
        .getMergedRanges()
        .map((r) => r.getA1Notation()),
    ).toEqual(['A1:B2']);
    m.breakApart();
    expect(sheet.getRange('A1').isPartOfMerge()).toBe(false);
    expect(sheet.getDataRange().getMergedRanges()).toHaveLength(0);
    expect(sheet.getRange('B1').getValue()).toBe('');
    const across = sheet.getRange('D1:F2');
    across.mergeAcross();
    expect(
      sheet
        .getDataRange()
        .getMergedRanges()
        .map((r) => r.getA1Notation())
        .sort(),
    ).toEqual(['D1:F1', 'D2:F2']);
    expect([sheet.getRange('D1').getDisplayValue(), sheet.getRange('D2').getDisplayValue()]).toEqual(['R1C4', 'R2C4']);
    across.breakApart();
    sheet.getRange('A5:B7').mergeVertically();
    expect(
      sheet
        .getDataRange()
        .getMergedRanges()
        .map((r) => r.getA1Notation())
        .sort(),
    ).toEqual(['A5:A7', 'B5:B7']);
    expect([sheet.getRange('A5').getDisplayValue(), sheet.getRange('B5').getDisplayValue()]).toEqual(['R5C1', 'R5C2']);
    // a merge moves with inserted rows; one may not cut through another (chosen wording, the Sheets UI's)
    sheet.insertRowsBefore(1, 2);
    expect(
      sheet
        .getDataRange()
        .getMergedRanges()
        .map((r) => r.getA1Notation())
        .sort(),
    ).toEqual(['A7:A9', 'B7:B9']);
    expect(thrownHere(() => sheet.getRange('A8:C8').merge())).toBe('You must select all cells in a merged cell to merge or unmerge them.');
  });

  test('a merged heading in an .xlsx price list loads into its top-left cell only, the merge kept (a Sheets upload: merged cells as in gas-fakes "Range Merging Methods")', async () => {
    const { wb, sheet } = makeEnv();
    sheet.getRange('A1').setValue('Kitchen');
    sheet.getRange('A1:C1').merge();
    sheet.getRange('A2:C2').setValues([['UPC', 'Title', 'Cost']]);
    const { Workbook } = await import('../../emulator/gas/spreadsheet');
    const back = await Workbook.fromXlsx(await wb.toXlsx());
    expect(back.values('Sheet1').slice(0, 2)).toEqual([
      ['Kitchen', '', ''],
      ['UPC', 'Title', 'Cost'],
    ]);
    const env = makeEnv({ wb: back });
    expect(
      env.sheet
        .getRange('A1:C2')
        .getMergedRanges()
        .map((r) => r.getA1Notation()),
    ).toEqual(['A1:C1']);
  });

  test('a named range on a deleted sheet is kept and reads #REF! (issue 20 report of Google Sheets); getRangeByName answers null for it (chosen)', () => {
    const { ss, sheet } = makeEnv();
    const prices = ss.insertSheet('Prices');
    prices.getRange('A1:A2').setValues([[2], [3]]);
    ss.setNamedRange('Costs', prices.getRange('A1:A2'));
    sheet.getRange('B1').setFormula('=SUM(Costs)');
    expect(sheet.getRange('B1').getValue()).toBe(5);
    ss.deleteSheet(prices);
    expect(sheet.getRange('B1').getDisplayValue()).toBe('#REF!');
    expect(ss.getRangeByName('Costs')).toBeNull();
    expect(ss.getNamedRanges().map((n) => n.getName())).toEqual([]);
    // a sheet of that name made later does not bring the name back; naming a new range replaces it
    const again = ss.insertSheet('Prices');
    expect(ss.getRangeByName('Costs')).toBeNull();
    again.getRange('A1').setValue(7);
    ss.setNamedRange('Costs', again.getRange('A1'));
    expect(sheet.getRange('B1').getValue()).toBe(7);
  });

  test('wrong argument types or counts throw "The parameters (…) don\'t match the method signature for …" (gas-fakes test/testsheets.js: range.setNotes("foo"), range.copyTo())', () => {
    const { ss, sheet } = makeEnv();
    const r = sheet.getRange('A1:B2');
    const cases: Array<[() => unknown, string]> = [
      [() => r.setNotes('foo' as never), "The parameters (String) don't match the method signature for SpreadsheetApp.Range.setNotes."],
      [
        () => r.setValues([1, 2] as never),
        "The parameters (number[]) don't match the method signature for SpreadsheetApp.Range.setValues.",
      ],
      [
        () => (r.getValue as (x: number) => unknown)(1),
        "The parameters (number) don't match the method signature for SpreadsheetApp.Range.getValue.",
      ],
      [() => (r.setValue as () => unknown)(), "The parameters () don't match the method signature for SpreadsheetApp.Range.setValue."],
      [() => sheet.getRange(1 as never), "The parameters (number) don't match the method signature for SpreadsheetApp.Sheet.getRange."],
      [
        () => sheet.getRange('1' as never, 1),
        "The parameters (String,number) don't match the method signature for SpreadsheetApp.Sheet.getRange.",
      ],
      [() => sheet.setName(5 as never), "The parameters (number) don't match the method signature for SpreadsheetApp.Sheet.setName."],
      [
        () => ss.getSheetByName(1 as never),
        "The parameters (number) don't match the method signature for SpreadsheetApp.Spreadsheet.getSheetByName.",
      ],
      [
        () => ss.setNamedRange('X', 'A1' as never),
        "The parameters (String,String) don't match the method signature for SpreadsheetApp.Spreadsheet.setNamedRange.",
      ],
      [() => sheet.appendRow('x' as never), "The parameters (String) don't match the method signature for SpreadsheetApp.Sheet.appendRow."],
      [
        () => r.setFontWeight(true as never),
        "The parameters (Boolean) don't match the method signature for SpreadsheetApp.Range.setFontWeight.",
      ],
    ];
    for (const [call, message] of cases) expect(thrownHere(call)).toBe(message);
    // documented forms still work: null resets, optional arguments, every getRange overload
    r.setBackground(null)
      .setFontWeight(null)
      .setNote(null as never);
    expect([
      sheet.getRange(1, 1).getA1Notation(),
      sheet.getRange(1, 1, 2).getA1Notation(),
      sheet.getRange(1, 1, 2, 2).getA1Notation(),
    ]).toEqual(['A1', 'A1:A2', 'A1:B2']);
    ss.toast('done');
    ss.toast('done', 'Scan', 5);
  });

  test('appendRow, hide/show, insert and delete rows and columns move cells as on Google (gas-fakes test/testsheetstext.js "insert sheets,rows,columns")', () => {
    const { ss } = makeEnv();
    const sheet = ss.insertSheet('temp');
    const data = ['sample1', 'sample2', 'sample3'];
    sheet.appendRow(data);
    expect([sheet.getLastRow(), sheet.getLastColumn()]).toEqual([1, 3]);
    expect(sheet.getRange(1, 1, 1, 3).getValues()).toEqual([data]);
    sheet.hideSheet();
    expect(sheet.isSheetHidden()).toBe(true);
    sheet.showSheet();
    expect(sheet.isSheetHidden()).toBe(false);
    let cb = sheet.getLastColumn();
    sheet.insertColumnAfter(2);
    expect(sheet.getLastColumn()).toBe(cb + 1);
    expect(sheet.getDataRange().offset(0, 2, 1, 1).getValue()).toBe('');
    sheet.insertColumnBefore(2);
    expect(sheet.getLastColumn()).toBe(cb + 2);
    sheet.insertColumns(2, 2);
    sheet.insertColumnsAfter(2, 2);
    sheet.insertColumnsBefore(2, 2);
    expect(sheet.getLastColumn()).toBe(cb + 8);
    let cr = sheet.getLastRow();
    sheet.insertRowAfter(2);
    sheet.insertRowBefore(2);
    sheet.insertRows(2, 2);
    sheet.insertRowsAfter(2, 2);
    sheet.insertRowsBefore(2, 2);
    expect(sheet.getLastRow()).toBe(cr);
    cb = sheet.getLastColumn();
    cr = sheet.getLastRow();
    sheet.deleteColumn(2);
    expect(sheet.getLastColumn()).toBe(cb - 1);
    sheet.deleteColumns(2, 2);
    expect(sheet.getLastColumn()).toBe(cb - 3);
    sheet.deleteRow(2);
    sheet.deleteRows(2, 2);
    expect(sheet.getLastRow()).toBe(cr);
    expect(sheet.getDataRange().getValues().slice(-1)).toEqual([['sample1', '', '', '', '', 'sample2', '', 'sample3']]);
  });

  test('inserted rows and columns take the formats of their neighbour: the one before for the After forms, the one after for the others; values and notes stay behind (Sheets API page, InsertDimensionRequest.inheritFromBefore: "the two new rows will be red"; gas-fakes src/services/spreadsheetapp/fakesheet.js maps insertRowsAfter to inheritFromBefore true, insertRowsBefore/insertRows to false)', () => {
    const { ss } = makeEnv();
    const sheet = ss.insertSheet('inherit');
    sheet
      .getRange('A1:B1')
      .setValues([['Header', 'H2']])
      .setFontWeight('bold')
      .setNote('a note');
    sheet
      .getRange('A2:B2')
      .setValues([[1.5, 2]])
      .setNumberFormat('$#,##0.00')
      .setBackground('#ff0000');
    sheet.setRowHeight(2, 60);
    sheet.insertRowsAfter(2, 3);
    const added = sheet.getRange('A3:B5');
    expect(added.getNumberFormats()).toEqual(Array(3).fill(['$#,##0.00', '$#,##0.00']));
    expect(added.getBackgrounds()).toEqual(Array(3).fill(['#ff0000', '#ff0000']));
    expect(added.getValues()).toEqual(Array(3).fill(['', '']));
    expect([sheet.getRowHeight(3), sheet.getRowHeight(5)]).toEqual([60, 60]);
    expect(sheet.getLastRow()).toBe(2);
    // Before row 2: from the row after (row 2), not the bold header.
    sheet.insertRowsBefore(2, 1);
    expect(sheet.getRange('A2').getFontWeight()).toBe('normal');
    expect(sheet.getRange('A2').getNumberFormat()).toBe('$#,##0.00');
    // After the header: the header's bold, without its value or note.
    sheet.insertRowAfter(1);
    expect([sheet.getRange('A2').getFontWeight(), sheet.getRange('A2').getValue(), sheet.getRange('A2').getNote()]).toEqual([
      'bold',
      '',
      '',
    ]);
    sheet.insertColumnsAfter(1, 1);
    expect(sheet.getRange('B4').getNumberFormat()).toBe('$#,##0.00');
    expect(sheet.getRange('B4').getValue()).toBe('');
  });

  test('createFilter/getFilter: null without one, any range of the sheet answers the one filter, a second is refused, remove then create again (gas-fakes test/testsheetssets.js "Range.createFilter and getFilter")', () => {
    const { sheet } = makeEnv();
    sheet.getRange('A1:C5').setValues([
      ['Header 1', 'Header 2', 'Header 3'],
      ['A', 1, 'X'],
      ['B', 2, 'Y'],
      ['C', 1, 'Z'],
      ['D', 3, 'X'],
    ]);
    expect(sheet.getFilter()).toBeNull();
    expect(sheet.getRange('A1:C5').getFilter()).toBeNull();
    const filter = sheet.getRange('A1:C5').createFilter();
    expect(filter.getRange().getA1Notation()).toBe('A1:C5');
    expect(sheet.getFilter()!.getRange().getA1Notation()).toBe('A1:C5');
    expect(sheet.getRange('B2:C4').getFilter()!.getRange().getA1Notation()).toBe('A1:C5');
    expect(sheet.getRange('F1:F5').getFilter()!.getRange().getA1Notation()).toBe('A1:C5');
    expect(thrownHere(() => sheet.getRange('A1:B2').createFilter())).toBe(
      "You can't create a filter in a sheet that already has a filter.",
    );
    filter.remove();
    expect(sheet.getFilter()).toBeNull();
    expect(sheet.getRange('B2:C4').createFilter().getRange().getA1Notation()).toBe('B2:C4');
  });

  test('every Range, Sheet and Spreadsheet method the add-on calls has its overloads checked (the table covers src/)', () => {
    const words = new Set<string>();
    const walk = (dir: string) => {
      for (const f of readdirSync(dir)) {
        const p = join(dir, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith('.ts')) for (const m of readFileSync(p, 'utf8').matchAll(/\.([a-zA-Z]\w*)\(/g)) words.add(m[1]);
      }
    };
    walk(join(__dirname, '..', '..', 'src'));
    // Apps Script's own method names (the runtime's private helpers and array methods are not calls on Sheets objects).
    const gas = readFileSync(
      join(__dirname, '..', '..', 'node_modules', '@types', 'google-apps-script', 'google-apps-script.spreadsheet.d.ts'),
      'utf8',
    );
    const { sheet, ss } = makeEnv();
    const missing: string[] = [];
    for (const [label, obj] of [
      ['Range', sheet.getRange('A1')],
      ['Sheet', sheet],
      ['Spreadsheet', ss],
    ] as const) {
      const table = SIGNATURES[label];
      let proto = Object.getPrototypeOf(obj);
      const names = new Set<string>();
      while (proto && proto !== Object.prototype) {
        for (const n of Object.getOwnPropertyNames(proto)) if (n !== 'constructor' && !n.startsWith('_')) names.add(n);
        proto = Object.getPrototypeOf(proto);
      }
      for (const n of names)
        if (words.has(n) && gas.includes(` ${n}(`) && typeof (obj as any)[n] === 'function' && !(n in table)) missing.push(`${label}.${n}`);
    }
    expect(missing).toEqual([]);
  });
});
