import { csvField, parseCsv, toCsv } from '../../../../src/domain/price-list/csv';
import {
  CELL_MAX_CHARS,
  cutText,
  fitCell,
  isFormulaLike,
  needsTextGuard,
  safeBlock,
  safeCellValue,
  safeText,
  textOf,
} from '../../../../src/domain/sheet/safe';

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

describe('oversized and object text (issue 26): held within a cell, cut visibly, never inside a character', () => {
  const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
  test('text of up to 50,000 characters is written whole; longer is cut to fit with its length named', () => {
    expect(safeText('x'.repeat(50000))).toBe('x'.repeat(50000));
    // a text needing the apostrophe has one character less of room
    expect(safeText('1'.repeat(49999))).toBe("'" + '1'.repeat(49999));
    const cut = safeText('x'.repeat(60000));
    expect(cut.length).toBeLessThanOrEqual(CELL_MAX_CHARS);
    expect(cut).toMatch(/^'x+ … \[cut: 60,000 characters\]$/);
    expect(fitCell('short')).toBe('short');
  });
  test('the cut never leaves half of a surrogate pair, and counts characters, not UTF-16 units', () => {
    for (const pad of [0, 1, 2, 3]) {
      const t = fitCell('a'.repeat(pad) + '😀'.repeat(40000));
      expect(t.length).toBeLessThanOrEqual(CELL_MAX_CHARS);
      expect(LONE.test(t)).toBe(false);
      expect(t).toContain(`[cut: ${(40000 + pad).toLocaleString('en-US')} characters]`);
    }
    expect(cutText('ab😀', 3)).toBe('ab');
    expect(cutText('ab😀', 4)).toBe('ab😀');
  });
  test('objects where text was declared: name/value/text member, else JSON; never "[object Object]"', () => {
    expect(textOf({ name: 'Tools', id: 3 })).toBe('Tools');
    expect(textOf({ value: 12 })).toBe('12');
    expect(textOf({ id: 7 })).toBe('{"id":7}');
    expect(textOf(['a', { name: 'b' }, null])).toBe('a, b');
    expect(textOf(Infinity)).toBe('');
    expect(safeCellValue({ name: '=1+1' })).toBe("'=1+1");
    expect(safeCellValue({ x: 1 })).toBe('\'{"x":1}');
  });
});
