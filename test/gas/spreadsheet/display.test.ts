import { makeEnv } from './env';

function shown(value: unknown, format?: string): string {
  const { sheet } = makeEnv();
  const r = sheet.getRange('A1');
  if (format !== undefined) r.setNumberFormat(format);
  r.setValue(value);
  return r.getDisplayValue();
}

describe('display values follow the number format', () => {
  test('Automatic: integers, decimals, booleans, text', () => {
    expect(shown(42)).toBe('42');
    expect(shown(-3.25)).toBe('-3.25');
    expect(shown(1 / 3)).toBe('0.3333333333');
    expect(shown(true)).toBe('TRUE');
    expect(shown('abc')).toBe('abc');
  });

  test('Automatic: numbers of 12+ integer digits show in scientific notation like 5.01235E+12 (chosen)', () => {
    expect(shown(5012345678901)).toBe('5.01235E+12');
    expect(shown('5012345678901')).toBe('5.01235E+12');
    expect(shown(12345678905)).toBe('12345678905');
    expect(shown(100000000000)).toBe('1E+11');
  });

  test('a fresh cell reports the Automatic format as 0.###############', () => {
    const { sheet } = makeEnv();
    expect(sheet.getRange('A1').getNumberFormat()).toBe('0.###############');
  });

  test('fixed decimals and thousands separators: 0, 0.00, #,##0, #,##0.00', () => {
    expect(shown(2.5, '0')).toBe('3');
    expect(shown(2.5, '0.00')).toBe('2.50');
    expect(shown(1234567.891, '#,##0')).toBe('1,234,568');
    expect(shown(1234567.891, '#,##0.00')).toBe('1,234,567.89');
    expect(shown(-1234.5, '#,##0.00')).toBe('-1,234.50');
    expect(shown(0.5, '#,##0.00')).toBe('0.50');
  });

  test('currency formats with quoted symbols before and after', () => {
    expect(shown(2.99, '"$"#,##0.00')).toBe('$2.99');
    expect(shown(1234.5, '#,##0.00" €"')).toBe('1,234.50 €');
    expect(shown(-5, '"$"#,##0.00')).toBe('-$5.00');
    expect(shown(7, '[$€]#,##0.00')).toBe('€7.00');
  });

  test('percent formats 0% and 0.00%', () => {
    expect(shown(0.256, '0%')).toBe('26%');
    expect(shown(0.256, '0.00%')).toBe('25.60%');
  });

  test('plain text format shows numbers as they are and text unchanged', () => {
    expect(shown('00123', '@')).toBe('00123');
    expect(shown(42, '@')).toBe('42');
  });

  test('date and time formats', () => {
    const d = new Date('2024-03-05T14:07:09Z');
    expect(shown(d, 'yyyy-mm-dd')).toBe('2024-03-05');
    expect(shown(d, 'M/d/yyyy')).toBe('3/5/2024');
    expect(shown(d, 'dd.mm.yyyy hh:mm')).toBe('05.03.2024 14:07');
    expect(shown(d, 'mmm d, yyyy h:mm AM/PM')).toBe('Mar 5, 2024 2:07 PM');
    expect(shown(d, 'dddd, mmmm d')).toBe('Tuesday, March 5');
    expect(shown(d, 'HH:mm:ss')).toBe('14:07:09');
  });

  test('a Date written to an Automatic cell shows as date and time', () => {
    const { sheet } = makeEnv();
    sheet.getRange('A1').setValue(new Date('2024-03-05T14:07:09Z'));
    expect(sheet.getRange('A1').getNumberFormat()).toBe('M/d/yyyy H:mm:ss');
    expect(sheet.getRange('A1').getDisplayValue()).toBe('3/5/2024 14:07:09');
  });

  test('a number under a date format reads back as a Date', () => {
    const { sheet } = makeEnv();
    const r = sheet.getRange('A1');
    r.setValue(45000);
    r.setNumberFormat('yyyy-mm-dd');
    expect((r.getValue() as Date).toISOString()).toBe('2023-03-15T00:00:00.000Z');
    expect(r.getDisplayValue()).toBe('2023-03-15');
  });

  test('getDisplayValues returns strings for the whole range', () => {
    const { sheet } = makeEnv();
    const r = sheet.getRange('A1:C1');
    r.setValues([[1, '$3', '']]);
    expect(r.getDisplayValues()).toEqual([['1', '$3.00', '']]);
  });
});
