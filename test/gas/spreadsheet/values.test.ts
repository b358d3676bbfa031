import { makeEnv, thrown } from './env';

describe('values: typed input, apostrophes, plain text, 15 digits', () => {
  test('a string starting with "=" written by setValue, setValues or appendRow becomes a formula', () => {
    const { sheet } = makeEnv();
    sheet.getRange('A1').setValue('=SUM(B1:B2)');
    sheet.getRange('A2:B2').setValues([['=B1', 'x']]);
    sheet.appendRow(['=A1']);
    expect(sheet.getRange('A1').getFormula()).toBe('=SUM(B1:B2)');
    expect(sheet.getRange('A2').getFormula()).toBe('=B1');
    expect(sheet.getRange('A3').getFormula()).toBe('=A1');
    expect(sheet.getRange('B2').getFormula()).toBe('');
  });

  // Issue 8 changed this (built-in formulas were kept as text with an empty value): they are computed.
  test('a string starting with = written by setValue is a built-in formula, computed', () => {
    const { sheet } = makeEnv();
    sheet.getRange('B1:B2').setValues([[2], [3]]);
    sheet.getRange('A1').setValue('=SUM(B1:B2)');
    expect(sheet.getRange('A1').getValue()).toBe(5);
    expect(sheet.getRange('A1').getFormula()).toBe('=SUM(B1:B2)');
  });

  test('strings are parsed like typed input: "007" is 7, "TRUE" is true, "1,234.5" is 1234.5', () => {
    const { sheet } = makeEnv();
    sheet.getRange('A1:D1').setValues([['007', 'TRUE', '1,234.5', 'false']]);
    expect(sheet.getRange('A1:D1').getValues()).toEqual([[7, true, 1234.5, false]]);
  });

  test('"$2.99" becomes 2.99 with a currency number format', () => {
    const { sheet } = makeEnv();
    sheet.getRange('A1').setValue('$2.99');
    expect(sheet.getRange('A1').getValue()).toBe(2.99);
    expect(sheet.getRange('A1').getNumberFormat()).toBe('"$"#,##0.00');
    expect(sheet.getRange('A1').getDisplayValue()).toBe('$2.99');
  });

  test('"10%" becomes 0.1 with a percent number format', () => {
    const { sheet } = makeEnv();
    sheet.getRange('A1').setValue('10%');
    expect(sheet.getRange('A1').getValue()).toBe(0.1);
    expect(sheet.getRange('A1').getNumberFormat()).toBe('0%');
    expect(sheet.getRange('A1').getDisplayValue()).toBe('10%');
  });

  test('ISO-like and US dates become Dates (in the spreadsheet time zone)', () => {
    const { sheet } = makeEnv();
    sheet.getRange('A1:B1').setValues([['2024-01-15', '3/4/2024']]);
    const [[a, b]] = sheet.getRange('A1:B1').getValues() as Date[][];
    expect(Object.prototype.toString.call(a)).toBe('[object Date]');
    expect(a.toISOString()).toBe('2024-01-15T00:00:00.000Z');
    expect(b.toISOString()).toBe('2024-03-04T00:00:00.000Z');
    expect(sheet.getRange('B1').getDisplayValue()).toBe('3/4/2024');
  });

  describe('more typed input (en_US), as Sheets reads it', () => {
    /** An env whose virtual clock reads 2020-06-01 (so "the current year" is not this machine's). */
    function in2020() {
      const env = makeEnv();
      env.state.clock.rewindTo(Date.UTC(2020, 5, 1, 12));
      return env;
    }
    const iso = (v: unknown) => (v as Date).toISOString();

    test('"12/5" is December 5 of the current year (virtual clock); "1/2/3" is M/d/y: January 2, 2003 (display formats M/d and M/d/yyyy chosen)', () => {
      const { sheet } = in2020();
      sheet.getRange('A1:B1').setValues([['12/5', '1/2/3']]);
      const [[a, b]] = sheet.getRange('A1:B1').getValues();
      expect(iso(a)).toBe('2020-12-05T00:00:00.000Z');
      expect(iso(b)).toBe('2003-01-02T00:00:00.000Z');
      expect(sheet.getRange('A1:B1').getDisplayValues()).toEqual([['12/5', '1/2/2003']]);
      expect(sheet.getRange('A1:B1').getNumberFormats()).toEqual([['M/d', 'M/d/yyyy']]);
    });

    test('"12/5" takes the year of the spreadsheet\'s time zone: at 2020-12-31 23:00 UTC it is already 2021 in Tokyo', () => {
      const { Workbook } = require('../../../emulator/gas/spreadsheet');
      const env = makeEnv({ wb: new Workbook({ timeZone: 'Asia/Tokyo' }) });
      env.state.clock.rewindTo(Date.UTC(2020, 11, 31, 23));
      env.sheet.getRange('A1').setValue('12/5');
      expect(iso(env.sheet.getRange('A1').getValue())).toBe('2021-12-04T15:00:00.000Z');
    });

    test('"13/5", "2/30" and "Foo 5" stay text (no such month or day)', () => {
      const { sheet } = in2020();
      sheet.getRange('A1:C1').setValues([['13/5', '2/30', 'Foo 5']]);
      expect(sheet.getRange('A1:C1').getValues()).toEqual([['13/5', '2/30', 'Foo 5']]);
    });

    test('month names: "Jan 5", "5 Jan 2024", "January 5, 2024" are dates, shown as typed (formats chosen: mmm d, d mmm yyyy, mmmm d, yyyy)', () => {
      const { sheet } = in2020();
      sheet.getRange('A1:D1').setValues([['Jan 5', '5 Jan 2024', 'January 5, 2024', 'sep 30']]);
      expect(sheet.getRange('A1:D1').getValues()[0].map(iso)).toEqual([
        '2020-01-05T00:00:00.000Z',
        '2024-01-05T00:00:00.000Z',
        '2024-01-05T00:00:00.000Z',
        '2020-09-30T00:00:00.000Z',
      ]);
      expect(sheet.getRange('A1:D1').getDisplayValues()).toEqual([['Jan 5', '5 Jan 2024', 'January 5, 2024', 'Sep 30']]);
      expect(sheet.getRange('A1:D1').getNumberFormats()).toEqual([['mmm d', 'd mmm yyyy', 'mmmm d, yyyy', 'mmm d']]);
    });

    test('"1.5e3" is 1500 with a scientific number format, shown 1.50E+03 (format 0.00E+00 chosen)', () => {
      const { sheet } = in2020();
      sheet.getRange('A1').setValue('1.5e3');
      expect(sheet.getRange('A1').getValue()).toBe(1500);
      expect(sheet.getRange('A1').getNumberFormat()).toBe('0.00E+00');
      expect(sheet.getRange('A1').getDisplayValue()).toBe('1.50E+03');
    });

    test('accounting negatives (chosen, unconfirmed for Sheets): "(1,234)" is -1234 shown -1,234; "(12.5)" is -12.5; "(-5)" stays text', () => {
      const { sheet } = in2020();
      sheet.getRange('A1:C1').setValues([['(1,234)', '(12.5)', '(-5)']]);
      expect(sheet.getRange('A1:C1').getValues()).toEqual([[-1234, -12.5, '(-5)']]);
      expect(sheet.getRange('A1:C1').getDisplayValues()).toEqual([['-1,234', '-12.5', '(-5)']]);
    });

    test('in a plain-text (@) cell or after an apostrophe these stay text', () => {
      const { sheet } = in2020();
      sheet
        .getRange('A1:C1')
        .setNumberFormat('@')
        .setValues([['12/5', 'Jan 5', '1.5e3']]);
      sheet.getRange('A2').setValue("'(1,234)");
      expect(sheet.getRange('A1:C2').getValues()).toEqual([
        ['12/5', 'Jan 5', '1.5e3'],
        ['(1,234)', '', ''],
      ]);
    });
  });

  test('dates are wall-clock dates of the spreadsheet time zone', () => {
    const { Workbook } = require('../../../emulator/gas/spreadsheet');
    const { sheet } = makeEnv({ wb: new Workbook({ timeZone: 'America/New_York' }) });
    sheet.getRange('A1').setValue('2024-07-01');
    expect((sheet.getRange('A1').getValue() as Date).toISOString()).toBe('2024-07-01T04:00:00.000Z');
    sheet.getRange('A2').setValue(new Date('2024-01-10T15:30:00Z'));
    expect(sheet.getRange('A2').getDisplayValue()).toBe('1/10/2024 10:30:00');
  });

  test('a leading apostrophe keeps the text and is not part of the value', () => {
    const { sheet } = makeEnv();
    sheet.getRange('A1:B1').setValues([["'007", "'=1+1"]]);
    expect(sheet.getRange('A1:B1').getValues()).toEqual([['007', '=1+1']]);
    expect(sheet.getRange('A1').getDisplayValue()).toBe('007');
    expect(sheet.getRange('B1').getFormula()).toBe('');
  });

  test('in a plain-text (@) cell strings stay text', () => {
    const { sheet } = makeEnv();
    const r = sheet.getRange('A1:C1');
    r.setNumberFormat('@');
    r.setValues([['0012345678905', '10%', 'TRUE']]);
    expect(r.getValues()).toEqual([['0012345678905', '10%', 'TRUE']]);
    expect(r.getNumberFormats()).toEqual([['@', '@', '@']]);
  });

  // Issue 20 changed the number case (A2): a number given to setValue keeps its double; typed text is still cut.
  test('typed numbers keep only 15 significant digits: 12345678901234567 stores 12345678901234500', () => {
    const { sheet } = makeEnv();
    sheet.getRange('A1').setValue('12345678901234567');
    expect(sheet.getRange('A1').getValue()).toBe(12345678901234500);
  });

  test('a number given to setValue(s) keeps every digit of its double (gas-fakes test/testsheetsvalues.js "sorting and randomizing": Math.random() values read back deepEqual on Google)', () => {
    const { sheet } = makeEnv();
    sheet.getRange('A1:A3').setValues([[0.9829461476765573], [Math.PI], [12345678901234567]]);
    sheet.getRange('A4').setValue(-0.12345678901234568);
    expect(sheet.getRange('A1:A4').getValues()).toEqual([[0.9829461476765573], [Math.PI], [12345678901234567], [-0.12345678901234568]]);
  });

  test('a UPC typed as a number loses its leading zero', () => {
    const { sheet } = makeEnv();
    sheet.getRange('A1').setValue('012345678905');
    expect(sheet.getRange('A1').getValue()).toBe(12345678905);
  });

  test('getValues returns numbers, booleans, Dates and strings, with "" for empty cells', () => {
    const { sheet } = makeEnv();
    sheet.getRange('A1:D1').setValues([[1.5, false, new Date('2024-02-03T00:00:00Z'), 'text']]);
    const v = sheet.getRange('A1:E2').getValues();
    expect(v[0].slice(0, 2)).toEqual([1.5, false]);
    expect((v[0][2] as Date).toISOString()).toBe('2024-02-03T00:00:00.000Z');
    expect(v[0][3]).toBe('text');
    expect(v[0][4]).toBe('');
    expect(v[1]).toEqual(['', '', '', '', '']);
  });

  test('setValue(null) and setValue("") empty the cell', () => {
    const { sheet } = makeEnv();
    sheet.getRange('A1:B1').setValues([[1, 2]]);
    sheet.getRange('A1').setValue(null);
    sheet.getRange('B1').setValue('');
    expect(sheet.getRange('A1:B1').getValues()).toEqual([['', '']]);
    expect(sheet.getLastRow()).toBe(0);
  });

  test('text that is not a number, date or boolean stays a string', () => {
    const { sheet } = makeEnv();
    sheet.getRange('A1:D1').setValues([['B00ABC1234', '12-34', ' hello ', '1.2.3']]);
    expect(sheet.getRange('A1:D1').getValues()).toEqual([['B00ABC1234', '12-34', ' hello ', '1.2.3']]);
  });

  test("setValues with the wrong number of columns throws Google's message", () => {
    const { sheet } = makeEnv();
    const msg = thrown(() => sheet.getRange(1, 1, 1, 24).setValues([[1, 2, 3, 4, 5]]));
    expect(msg).toBe(
      'The number of columns in the data does not match the number of columns in the range. The data has 5 but the range has 24.',
    );
  });

  test("setValues with the wrong number of rows throws Google's message, rows checked first", () => {
    const { sheet } = makeEnv();
    const msg = thrown(() => sheet.getRange(1, 1, 3, 2).setValues([[1, 2, 3]]));
    expect(msg).toBe('The number of rows in the data does not match the number of rows in the range. The data has 1 but the range has 3.');
  });

  test('a failed setValues writes nothing', () => {
    const { sheet } = makeEnv();
    expect(() => sheet.getRange('A1:B2').setValues([[1, 2], [3]])).toThrow();
    expect(sheet.getLastRow()).toBe(0);
  });

  test("a cell holds at most 50,000 characters (Google Drive Help, 'Files you can store in Google Drive', answer 37603): longer input throws Google's message and writes nothing", () => {
    const { app, sheet } = makeEnv();
    const long = 'x'.repeat(50001);
    const msg = 'Your input contains more than the maximum of 50000 characters in a single cell.';
    expect(thrown(() => sheet.getRange('A1:B1').setValues([['ok', long]]))).toBe(msg);
    expect(thrown(() => sheet.appendRow([long]))).toBe(msg);
    expect(thrown(() => sheet.getRange('A1').setRichTextValue(app.newRichTextValue().setText(long).build()))).toBe(msg);
    expect(sheet.getLastRow()).toBe(0);
    sheet.getRange('A1').setValue('x'.repeat(50000));
    expect((sheet.getRange('A1').getValue() as string).length).toBe(50000);
  });

  test('setValue on a multi-cell range fills every cell', () => {
    const { sheet } = makeEnv();
    sheet.getRange('A1:B2').setValue('x');
    expect(sheet.getRange('A1:B2').getValues()).toEqual([
      ['x', 'x'],
      ['x', 'x'],
    ]);
  });
});

describe('values cross into the script realm', () => {
  test("arrays, Dates and errors handed to the script are the script realm's own (instanceof holds inside the vm)", () => {
    const vm = require('node:vm');
    const ctx = vm.createContext({});
    const realm = vm.runInContext('({ Object, Array, Date, Error })', ctx);
    const { state, sheet, wb } = makeEnv();
    state.realm = realm;
    wb.hooks!.createDate = (ms: number) => new realm.Date(ms);
    sheet.getRange('A1:B1').setValues([['2024-01-15', 'x']]);
    const v = sheet.getRange('A1:B1').getValues();
    expect(v instanceof realm.Array && v[0] instanceof realm.Array).toBe(true);
    expect(v[0][0] instanceof realm.Date).toBe(true);
    let err: unknown;
    try {
      sheet.getRange(0, 1);
    } catch (e) {
      err = e;
    }
    expect(err instanceof realm.Error).toBe(true);
    expect(String(err)).toBe('Exception: The starting row of the range is too small.');
  });
});
