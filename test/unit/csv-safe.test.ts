import { csvField, parseCsv, toCsv } from '../../src/scan/csv';
import { isFormulaLike, needsTextGuard, safeBlock, safeCellValue, safeText } from '../../src/sheet/safe';

describe('CSV (RFC 4180)', () => {
  test('plain fields are not quoted; records end with CRLF', () => {
    expect(
      toCsv([
        ['UPC', 'Cost'],
        ['012345678905', '12.50'],
      ]),
    ).toBe('UPC,Cost\r\n012345678905,12.50\r\n');
  });
  test('commas, quotes, CR and LF are quoted, quotes doubled', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('12" ruler')).toBe('"12"" ruler"');
    expect(csvField('line1\nline2')).toBe('"line1\nline2"');
    expect(csvField('line1\r\nline2')).toBe('"line1\r\nline2"');
    expect(csvField(' padded ')).toBe('" padded "');
    expect(csvField('')).toBe('');
  });
  test('round trip of awkward supplier text', () => {
    const rows = [
      ['UPC', 'Title', 'Notes', ''],
      ['012345678905', 'Widget, large', 'He said "fine"', ''],
      ['4006381333931', 'Multi\nline\r\ntitle', '=SUM(A1)', ' x '],
      ['', '', '', ''],
      ['"', '""', ',', '\r'],
    ];
    expect(parseCsv(toCsv(rows))).toEqual(rows);
  });
  test('parser accepts LF-only files and a missing final line end', () => {
    expect(parseCsv('a,b\nc,d')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(parseCsv('a,\n')).toEqual([['a', '']]);
  });
  test('parser refuses broken quoting instead of guessing', () => {
    expect(() => parseCsv('"abc')).toThrow(/unterminated/);
    expect(() => parseCsv('ab"c')).toThrow(/quote inside/);
    expect(() => parseCsv('"ab"c')).toThrow(/after a closing quote/);
  });
});

describe('formula guard', () => {
  test.each(['=HYPERLINK("http://evil","click")', '+1+1', '-2+3', '@SUM(A1)', '  =1+1', '\t+1'])(
    '%p would be a formula and is written as text',
    (s) => {
      expect(isFormulaLike(s)).toBe(true);
      expect(safeText(s)).toBe("'" + s);
    },
  );
  test('text Sheets would turn into a number, date, boolean or error keeps its form', () => {
    expect(safeText('007')).toBe("'007");
    expect(safeText('012345678905')).toBe("'012345678905");
    expect(safeText('1/2')).toBe("'1/2");
    expect(safeText('$2.99')).toBe("'$2.99");
    expect(safeText('10%')).toBe("'10%");
    expect(safeText('TRUE')).toBe("'TRUE");
    expect(safeText('false')).toBe("'false");
    expect(safeText('#N/A')).toBe("'#N/A");
    expect(safeText("'quoted")).toBe("''quoted");
  });
  test('ordinary words are left alone', () => {
    expect(safeText('Blue widget')).toBe('Blue widget');
    expect(needsTextGuard('')).toBe(false);
    expect(safeText('Truest')).toBe('Truest');
  });
  test('numbers, booleans and dates stay as they are; nothing becomes an error', () => {
    const d = new Date(2024, 0, 2);
    expect(safeCellValue(-5)).toBe(-5);
    expect(safeCellValue(12.5)).toBe(12.5);
    expect(safeCellValue(true)).toBe(true);
    expect(safeCellValue(d)).toBe(d);
    expect(safeCellValue(null)).toBe('');
    expect(safeCellValue(undefined)).toBe('');
    expect(safeCellValue(NaN)).toBe('');
    expect(safeCellValue(Infinity)).toBe('');
  });
  test('whole blocks are guarded without changing the input', () => {
    const input = [
      ['=1', 2, 'ok'],
      ['-x', null, false],
    ];
    expect(safeBlock(input)).toEqual([
      ["'=1", 2, 'ok'],
      ["'-x", '', false],
    ]);
    expect(input[0][0]).toBe('=1');
  });
});
