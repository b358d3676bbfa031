import { Workbook } from '../../../emulator/gas/spreadsheet';
import { makeEnv, thrown } from './env';

describe('Spreadsheet and Sheet', () => {
  test('spreadsheet identity: id, name, url, owner, time zone, locale', () => {
    const { ss } = makeEnv({ wb: new Workbook({ id: 'abc123', name: 'Prices', owner: 'boss@example.com', timeZone: 'Europe/Berlin' }) });
    expect(ss.getId()).toBe('abc123');
    expect(ss.getName()).toBe('Prices');
    expect(ss.getUrl()).toBe('https://docs.google.com/spreadsheets/d/abc123/edit');
    expect(ss.getOwner()!.getEmail()).toBe('boss@example.com');
    expect(ss.getSpreadsheetTimeZone()).toBe('Europe/Berlin');
    expect(ss.getSpreadsheetLocale()).toBe('en_US');
  });

  test('getActive, getActiveSpreadsheet, getActiveSheet, getActiveRange and getSelection', () => {
    const { app, ss } = makeEnv();
    expect(app.getActive().getId()).toBe(app.getActiveSpreadsheet().getId());
    expect(app.getActiveSheet().getName()).toBe('Sheet1');
    expect(app.getActiveRange()!.getA1Notation()).toBe('A1');
    ss.getActiveSheet().getRange('B2:C3').activate();
    expect(app.getActiveRange()!.getA1Notation()).toBe('B2:C3');
    expect(app.getSelection().getActiveRange()!.getA1Notation()).toBe('B2:C3');
    expect(app.getSelection().getActiveSheet().getName()).toBe('Sheet1');
    const s2 = ss.insertSheet('Two');
    expect(app.getActiveSheet().getName()).toBe('Two');
    ss.setActiveSheet(ss.getSheetByName('Sheet1')!);
    expect(app.getActiveSheet().getName()).toBe('Sheet1');
    s2.activate();
    expect(ss.getActiveSheet().getName()).toBe('Two');
  });

  test('insertSheet(name?, index?) names, places and activates the new sheet; after the active sheet by default (chosen)', () => {
    const { ss } = makeEnv();
    const b = ss.insertSheet('B');
    ss.insertSheet('First', 0);
    expect(ss.getSheets().map((s) => s.getName())).toEqual(['First', 'Sheet1', 'B']);
    ss.setActiveSheet(ss.getSheetByName('Sheet1')!);
    const auto = ss.insertSheet();
    expect(auto.getName()).toBe('Sheet4');
    expect(ss.getSheets().map((s) => s.getName())).toEqual(['First', 'Sheet1', 'Sheet4', 'B']);
    expect(b.getIndex()).toBe(4);
    expect(ss.getActiveSheet().getName()).toBe('Sheet4');
    expect(ss.getSheetByName('nope')).toBeNull();
    expect(ss.getSheetById(b.getSheetId())!.getName()).toBe('B');
    expect(ss.getSheetByName('Sheet1')!.getSheetId()).toBe(0);
  });

  test("duplicate sheet names (any case) throw Google's message, on insert and on rename", () => {
    const { ss, sheet } = makeEnv();
    ss.insertSheet('Results');
    expect(thrown(() => ss.insertSheet('results'))).toBe('A sheet with the name "results" already exists. Please enter another name.');
    expect(thrown(() => sheet.setName('Results'))).toBe('A sheet with the name "Results" already exists. Please enter another name.');
    sheet.setName('Input');
    expect(sheet.getName()).toBe('Input');
    expect(ss.getSheetByName('Input')).not.toBeNull();
    sheet.setName('Input'); // renaming to its own name is fine
  });

  test('sheet names longer than 100 characters are refused on insert and on rename, changing nothing (wording chosen)', () => {
    const { ss, sheet } = makeEnv();
    const msg = 'The sheet name cannot be longer than 100 characters.';
    expect(thrown(() => ss.insertSheet('x'.repeat(101)))).toBe(msg);
    expect(thrown(() => ss.insertSheet('y'.repeat(101), 0))).toBe(msg);
    expect(ss.getSheets().map((s) => s.getName())).toEqual(['Sheet1']);
    expect(thrown(() => sheet.setName('z'.repeat(101)))).toBe(msg);
    expect(sheet.getName()).toBe('Sheet1');
    expect(ss.insertSheet('a'.repeat(100)).getName()).toHaveLength(100);
    sheet.setName('b'.repeat(100));
    expect(sheet.getName()).toBe('b'.repeat(100));
  });

  test('deleteSheet removes the sheet and its named ranges; the last sheet cannot be removed (chosen wording)', () => {
    const { ss, sheet } = makeEnv();
    const two = ss.insertSheet('Two');
    ss.setNamedRange('OnTwo', two.getRange('A1'));
    ss.deleteSheet(two);
    expect(ss.getSheets().map((s) => s.getName())).toEqual(['Sheet1']);
    expect(ss.getRangeByName('OnTwo')).toBeNull();
    expect(ss.getActiveSheet().getName()).toBe('Sheet1');
    expect(thrown(() => ss.deleteSheet(sheet))).toBe("You can't remove all the sheets in a document.");
  });

  test('hideSheet, showSheet and isSheetHidden; the only visible sheet cannot be hidden (chosen wording)', () => {
    const { ss, sheet } = makeEnv();
    const t = ss.insertSheet('Tech');
    t.hideSheet();
    expect(t.isSheetHidden()).toBe(true);
    expect(ss.getActiveSheet().getName()).toBe('Sheet1');
    expect(thrown(() => sheet.hideSheet())).toBe("You can't hide all the sheets in a document.");
    t.showSheet();
    expect(t.isSheetHidden()).toBe(false);
  });

  test('frozen rows and columns', () => {
    const { sheet } = makeEnv();
    sheet.setFrozenRows(1);
    sheet.setFrozenColumns(2);
    expect([sheet.getFrozenRows(), sheet.getFrozenColumns()]).toEqual([1, 2]);
    expect(thrown(() => sheet.setFrozenRows(1001))).toBe('Those rows are out of bounds.');
  });

  test('column widths: default 100, setColumnWidth(s), autoResizeColumns fits the longest display value (chosen formula)', () => {
    const { sheet } = makeEnv();
    expect(sheet.getColumnWidth(1)).toBe(100);
    sheet.setColumnWidth(1, 250);
    sheet.setColumnWidths(2, 2, 40);
    expect([sheet.getColumnWidth(1), sheet.getColumnWidth(2), sheet.getColumnWidth(3), sheet.getColumnWidth(4)]).toEqual([
      250, 40, 40, 100,
    ]);
    sheet.getRange('D1:D2').setValues([['abc'], ['a much longer text']]);
    sheet.autoResizeColumns(4, 1);
    expect(sheet.getColumnWidth(4)).toBe(18 * 7 + 10);
  });

  test('toast records a UI event with message, title and seconds', () => {
    const { ss, state } = makeEnv();
    ss.toast('Scan started', 'Scanner', 3);
    ss.toast('Done');
    expect(state.uiEvents).toEqual([
      { kind: 'toast', message: 'Scan started', title: 'Scanner', timeoutSeconds: 3 },
      { kind: 'toast', message: 'Done', title: '', timeoutSeconds: 5 },
    ]);
  });

  test('flush is accepted and changes are visible at once', () => {
    const { app, sheet } = makeEnv();
    sheet.getRange('A1').setValue(1);
    app.flush();
    expect(sheet.getRange('A1').getValue()).toBe(1);
  });

  test('openById opens this spreadsheet in a normal execution', () => {
    const { app } = makeEnv();
    expect(app.openById('test-id').getId()).toBe('test-id');
    expect(app.openByUrl('https://docs.google.com/spreadsheets/d/test-id/edit').getName()).toBe('Test');
  });

  test('in AuthMode.NONE the document cannot be opened, but menus can be added (chosen)', () => {
    const { app, run, state } = makeEnv();
    const msg = run('simple-trigger', () => thrown(() => app.getActiveSpreadsheet()), 'NONE');
    expect(msg).toBe(
      'You do not have permission to call SpreadsheetApp.getActiveSpreadsheet. Required permissions: https://www.googleapis.com/auth/spreadsheets.currentonly',
    );
    run('simple-trigger', () => app.getUi().createAddonMenu().addItem('Start', 'start').addToUi(), 'NONE');
    expect(state.uiEvents[0]).toEqual({ kind: 'menu', name: 'Add-on', items: [{ caption: 'Start', functionName: 'start' }] });
  });
});

describe('named ranges', () => {
  test('setNamedRange, getRangeByName (null if none), getNamedRanges, removeNamedRange', () => {
    const { ss, sheet } = makeEnv();
    ss.setNamedRange('Prices', sheet.getRange('B2:B10'));
    expect(ss.getRangeByName('Prices')!.getA1Notation()).toBe('B2:B10');
    expect(ss.getRangeByName('Missing')).toBeNull();
    expect(ss.getNamedRanges().map((n) => n.getName())).toEqual(['Prices']);
    ss.setNamedRange('Prices', sheet.getRange('C1')); // same name moves it
    expect(ss.getRangeByName('Prices')!.getA1Notation()).toBe('C1');
    ss.removeNamedRange('Prices');
    expect(ss.getRangeByName('Prices')).toBeNull();
  });

  test('NamedRange getName, getRange, setRange, setName and remove', () => {
    const { ss, sheet } = makeEnv();
    ss.setNamedRange('Keys', sheet.getRange('A1:A5'));
    const nr = ss.getNamedRanges()[0];
    expect(nr.getRange().getA1Notation()).toBe('A1:A5');
    nr.setRange(sheet.getRange('B1:B2'));
    expect(ss.getRangeByName('Keys')!.getA1Notation()).toBe('B1:B2');
    nr.setName('Keys2');
    expect(ss.getRangeByName('Keys')).toBeNull();
    expect(ss.getRangeByName('Keys2')!.getA1Notation()).toBe('B1:B2');
    nr.remove();
    expect(ss.getNamedRanges()).toEqual([]);
  });

  test("range names follow Google's rules: letters, digits, underscores, 1-250 chars, not starting with a digit or true/false, not A1/R1C1-like", () => {
    const { ss, sheet } = makeEnv();
    const r = sheet.getRange('A1');
    for (const ok of ['Prices', '_x', 'ASIN_list_2', 'a'.repeat(250), 'Résumé']) {
      ss.setNamedRange(ok, r);
      expect(ss.getRangeByName(ok)).not.toBeNull();
    }
    for (const bad of ['', '1abc', 'true', 'FALSE', 'trueish', 'A1', 'xfd100', 'R1C1', 'r2c', 'has space', 'dash-name', 'a'.repeat(251)]) {
      expect(thrown(() => ss.setNamedRange(bad, r))).toMatch(/^Invalid range name/);
    }
  });
});

describe('filter', () => {
  test('createFilter, getFilter (sheet and range), getRange, setColumnFilterCriteria and remove', () => {
    const { sheet } = makeEnv();
    expect(sheet.getFilter()).toBeNull();
    const f = sheet.getRange('A1:C20').createFilter();
    expect(f.getRange().getA1Notation()).toBe('A1:C20');
    expect(sheet.getRange('B5').getFilter()!.getRange().getA1Notation()).toBe('A1:C20');
    expect(thrown(() => sheet.getRange('A1:B2').createFilter())).toBe("You can't create a filter in a sheet that already has a filter.");
    const criteria = { hidden: ['x'] } as unknown as GoogleAppsScript.Spreadsheet.FilterCriteria;
    f.setColumnFilterCriteria(2, criteria);
    expect(f.getColumnFilterCriteria(2)).toBe(criteria);
    f.remove();
    expect(sheet.getFilter()).toBeNull();
  });
});

describe('conditional format rules', () => {
  test('builder conditions and formats read back through the rule getters', () => {
    const { app, sheet } = makeEnv();
    const range = sheet.getRange('D2:D100');
    const rules = [
      app.newConditionalFormatRule().whenNumberGreaterThan(10).setBackground('#b7e1cd').setRanges([range]).build(),
      app.newConditionalFormatRule().whenNumberGreaterThanOrEqualTo(1).setFontColor('#ff0000').setRanges([range]).build(),
      app.newConditionalFormatRule().whenNumberLessThan(0).setBackground('#f4c7c3').setRanges([range]).build(),
      app.newConditionalFormatRule().whenNumberLessThanOrEqualTo(5).setBackground('#fff').setRanges([range]).build(),
      app.newConditionalFormatRule().whenNumberBetween(1, 9).setBackground('#eee').setRanges([range]).build(),
      app.newConditionalFormatRule().whenTextContains('ERR').setFontColor('#cc0000').setRanges([range]).build(),
    ];
    sheet.setConditionalFormatRules(rules);
    const back = sheet.getConditionalFormatRules();
    expect(back.map((r) => String(r.getBooleanCondition()!.getCriteriaType()))).toEqual([
      'NUMBER_GREATER_THAN',
      'NUMBER_GREATER_THAN_OR_EQUAL_TO',
      'NUMBER_LESS_THAN',
      'NUMBER_LESS_THAN_OR_EQUAL_TO',
      'NUMBER_BETWEEN',
      'TEXT_CONTAINS',
    ]);
    expect(back[4].getBooleanCondition()!.getCriteriaValues()).toEqual([1, 9]);
    expect(back[0].getBooleanCondition()!.getBackground()).toBe('#b7e1cd');
    expect(back[5].getBooleanCondition()!.getFontColor()).toBe('#cc0000');
    expect(back[0].getRanges()[0].getA1Notation()).toBe('D2:D100');
    expect(String(app.BooleanCriteria.TEXT_CONTAINS)).toBe('TEXT_CONTAINS');
    sheet.setConditionalFormatRules([]);
    expect(sheet.getConditionalFormatRules()).toEqual([]);
  });

  test('a rule without a condition cannot be built (chosen wording)', () => {
    const { app } = makeEnv();
    expect(thrown(() => app.newConditionalFormatRule().setBackground('#fff').build())).toBe(
      'Conditional format rule must have a condition.',
    );
  });
});

describe('rich text', () => {
  test('setRichTextValue stores the text (never parsed) with its link; getRichTextValue reads text and link URL', () => {
    const { app, sheet } = makeEnv();
    const rt = app.newRichTextValue().setText('B00TEST123').setLinkUrl('https://www.amazon.com/dp/B00TEST123').build();
    sheet.getRange('A1').setRichTextValue(rt);
    const back = sheet.getRange('A1').getRichTextValue()!;
    expect(back.getText()).toBe('B00TEST123');
    expect(back.getLinkUrl()).toBe('https://www.amazon.com/dp/B00TEST123');
    expect(sheet.getRange('A1').getFormula()).toBe('');
    sheet.getRange('A2').setRichTextValue(app.newRichTextValue().setText('007').build());
    expect(sheet.getRange('A2').getValue()).toBe('007');
  });

  test('links on part of the text and setRichTextValues over a range', () => {
    const { app, sheet } = makeEnv();
    const rt = app.newRichTextValue().setText('see B0001 here').setLinkUrl(4, 9, 'https://x.test/B0001').build();
    sheet.getRange('A1:A2').setRichTextValues([[rt], [app.newRichTextValue().setText('plain').build()]]);
    const [[a], [b]] = sheet.getRange('A1:A2').getRichTextValues();
    expect(a!.getLinkUrl(4, 9)).toBe('https://x.test/B0001');
    expect(a!.getLinkUrl()).toBeNull();
    expect(a!.getRuns().map((r) => [r.getText(), r.getLinkUrl()])).toEqual([
      ['see ', null],
      ['B0001', 'https://x.test/B0001'],
      [' here', null],
    ]);
    expect(b!.getLinkUrl()).toBeNull();
  });

  test('getRichTextValue is null for a number cell; writing a value drops the link', () => {
    const { app, sheet } = makeEnv();
    sheet.getRange('A1').setValue(5);
    expect(sheet.getRange('A1').getRichTextValue()).toBeNull();
    sheet.getRange('A2').setRichTextValue(app.newRichTextValue().setText('x').setLinkUrl('https://a.test').build());
    sheet.getRange('A2').setValue('y');
    expect(sheet.getRange('A2').getRichTextValue()!.getLinkUrl()).toBeNull();
  });
});
