import { makeEnv } from './env';

/** Behaviours Google does not document; each is a choice marked in the code. */
describe('chosen behaviours', () => {
  test('in a plain-text (@) cell a string starting with "=" stays text (chosen)', () => {
    const { sheet } = makeEnv();
    sheet.getRange('A1').setNumberFormat('@').setValue('=1+1');
    expect(sheet.getRange('A1').getValue()).toBe('=1+1');
    expect(sheet.getRange('A1').getFormula()).toBe('');
  });

  test('NaN and Infinity written become #NUM! (chosen)', () => {
    const { sheet } = makeEnv();
    sheet.getRange('A1:B1').setValues([[NaN, Infinity]]);
    expect(sheet.getRange('A1:B1').getValues()).toEqual([['#NUM!', '#NUM!']]);
  });

  test('Range.clear() keeps notes; clear({commentsOnly: true}) removes them (chosen)', () => {
    const { sheet } = makeEnv();
    const r = sheet.getRange('A1');
    r.setValue(1).setNote('why');
    r.clear();
    expect(r.getNote()).toBe('why');
    r.clear({ commentsOnly: true });
    expect(r.getNote()).toBe('');
  });

  test('removeNamedRange of an unknown name does nothing (chosen)', () => {
    const { ss } = makeEnv();
    expect(() => ss.removeNamedRange('NoSuchName')).not.toThrow();
  });

  test('setFormula without a leading "=" adds one (chosen)', () => {
    const { sheet } = makeEnv();
    sheet.getRange('A1').setFormula('SUM(B1:B3)');
    expect(sheet.getRange('A1').getFormula()).toBe('=SUM(B1:B3)');
  });

  test('typed thousands separators give #,##0 or #,##0.00 (chosen)', () => {
    const { sheet } = makeEnv();
    sheet.getRange('A1:B1').setValues([['1,234', '1,234.5']]);
    expect(sheet.getRange('A1:B1').getNumberFormats()).toEqual([['#,##0', '#,##0.00']]);
    expect(sheet.getRange('A1:B1').getDisplayValues()).toEqual([['1,234', '1,234.50']]);
  });

  test('a new workbook is in Etc/UTC with locale en_US (chosen)', () => {
    const { ss } = makeEnv();
    expect([ss.getSpreadsheetTimeZone(), ss.getSpreadsheetLocale()]).toEqual(['Etc/UTC', 'en_US']);
  });

  test('toast defaults: title "" and 5 seconds (chosen)', () => {
    const { ss, state } = makeEnv();
    ss.toast('hi');
    expect(state.uiEvents[0]).toEqual({ kind: 'toast', message: 'hi', title: '', timeoutSeconds: 5 });
  });

  test('getRichTextValue of an empty cell is empty text; of a number it is null (chosen / Google)', () => {
    const { sheet } = makeEnv();
    expect(sheet.getRange('A1').getRichTextValue()!.getText()).toBe('');
    sheet.getRange('A2').setValue(3);
    expect(sheet.getRange('A2').getRichTextValue()).toBeNull();
  });
});
