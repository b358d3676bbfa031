import { expandUpcE, gs1CheckDigit, isbn10CheckChar, isbn10To13, isValidGs1, isValidIsbn10 } from '../../../src/domain/ids/checkDigits';
import { identify, IdResult } from '../../../src/domain/ids/identify';
import { quoteCell, shortCell } from '../../../src/domain/ids/quote';
import { cutText } from '../../../src/domain/sheet/safe';

function ok(r: IdResult) {
  if (!r.ok) throw new Error('expected ok, got ' + r.reason + ': ' + r.message);
  return r;
}
function bad(r: IdResult) {
  if (r.ok) throw new Error('expected a failure, got ' + r.kind + ' ' + r.value);
  return r;
}

describe('check digits (published examples)', () => {
  test('GS1 check digits of well-known codes', () => {
    expect(gs1CheckDigit('03600029145')).toBe(2); // UPC-A 036000291452
    expect(gs1CheckDigit('400638133393')).toBe(1); // EAN-13 4006381333931
    expect(gs1CheckDigit('978030640615')).toBe(7); // ISBN-13 9780306406157
    expect(gs1CheckDigit('1001234567890')).toBe(2); // GTIN-14 10012345678902
    expect(gs1CheckDigit('9638507')).toBe(4); // EAN-8 96385074
    expect(isValidGs1('036000291452')).toBe(true);
    expect(isValidGs1('036000291453')).toBe(false);
  });
  test('leading zeros never change a GS1 check digit', () => {
    expect(isValidGs1('0012345678905')).toBe(true);
    expect(isValidGs1('00012345678905')).toBe(true);
  });
  test('ISBN-10 with digit and X check characters', () => {
    expect(isValidIsbn10('0306406152')).toBe(true);
    expect(isbn10CheckChar('080442957')).toBe('X');
    expect(isValidIsbn10('080442957X')).toBe(true);
    expect(isValidIsbn10('0306406153')).toBe(false);
    expect(isbn10To13('0306406152')).toBe('9780306406157');
  });
  test('UPC-E expands to UPC-A by the zero-suppression rules', () => {
    expect(expandUpcE('04252614')).toBe('042100005264');
    expect(expandUpcE('01234565')).toBe('012345000065');
    expect(expandUpcE('01234133')).toBe('012300000413');
    expect(expandUpcE('21234565')).toBeNull();
  });
});

describe('identify: kinds', () => {
  test.each([
    ['036000291452', 'UPC'],
    ['4006381333931', 'EAN'],
    ['4901234567894', 'JAN'],
    ['9780306406157', 'ISBN-13'],
    ['10012345678902', 'GTIN-14'],
    ['96385074', 'EAN-8'],
    ['0306406152', 'ISBN-10'],
    ['080442957X', 'ISBN-10'],
    ['B00EXAMPLE', 'ASIN'],
    ['B0C1234XYZ', 'ASIN'],
  ])('%s is a %s and is sent unchanged', (text, kind) => {
    const r = ok(identify(text));
    expect(r.kind).toBe(kind);
    expect(r.value).toBe(text);
    expect(r.repaired).toBeUndefined();
  });

  test('a UPC-E is sent as its UPC-A', () => {
    const r = ok(identify('04252614'));
    expect(r).toMatchObject({ kind: 'UPC-E', value: '042100005264', repaired: 'upc-e-expanded' });
  });

  test('ISBN-10 counts as an ASIN when ASINs are expected', () => {
    expect(ok(identify('0306406152', 'asin')).kind).toBe('ASIN');
  });

  test('spaces, hyphens and lower case are cleaned and reported', () => {
    expect(ok(identify(' 978-0-306-40615-7 '))).toMatchObject({ kind: 'ISBN-13', value: '9780306406157', repaired: 'cleaned' });
    expect(ok(identify('0 36000 29145 2'))).toMatchObject({ value: '036000291452', repaired: 'cleaned' });
    expect(ok(identify('b00example'))).toMatchObject({ kind: 'ASIN', value: 'B00EXAMPLE', repaired: 'cleaned' });
    expect(ok(identify('036000291452.0'))).toMatchObject({ kind: 'UPC', value: '036000291452', repaired: 'cleaned' });
    expect(ok(identify('080442957x'))).toMatchObject({ kind: 'ISBN-10', value: '080442957X', repaired: 'cleaned' });
  });
});

describe('identify: lost leading zeros', () => {
  test('a UPC stored as a number is restored to 12 digits by its check digit', () => {
    const r = ok(identify(12345678905));
    expect(r).toMatchObject({ kind: 'UPC', value: '012345678905', repaired: 'leading-zeros', original: '12345678905' });
    expect(ok(identify(36000291452)).value).toBe('036000291452');
  });
  test('two or three lost zeros are restored too', () => {
    expect(ok(identify(1234567895)).value).toBe('001234567895'); // 10 digits, not an ISBN-10
  });
  test('a 12-digit number is a UPC as it is', () => {
    expect(ok(identify(400638133393 * 10 + 1))).toMatchObject({ kind: 'EAN', value: '4006381333931' });
  });
  test('restores to 13 digits when the column holds EANs', () => {
    expect(ok(identify(12345678905, 'ean'))).toMatchObject({ kind: 'EAN', value: '0012345678905', repaired: 'leading-zeros' });
  });
  test('an ISBN-10 that lost its leading zero is restored', () => {
    expect(ok(identify(306406152))).toMatchObject({ kind: 'ISBN-10', value: '0306406152', repaired: 'leading-zeros' });
  });
  test('an 11-digit number whose restored check digit fails is refused, not guessed', () => {
    const r = bad(identify(12345678901));
    expect(r.reason).toBe('bad-check-digit');
    expect(r.message).toContain('12345678901');
  });
  test('a number that is both a valid ISBN-10 and a valid zero-stripped UPC is ambiguous', () => {
    const r = bad(identify(1000000052));
    expect(r.reason).toBe('ambiguous');
    expect(r.candidates).toEqual([
      { kind: 'ISBN-10', value: '1000000052' },
      { kind: 'UPC', value: '001000000052' },
    ]);
    expect(r.message).toMatch(/ISBN-10 1000000052 or the UPC 001000000052/);
    // The column's kind settles it.
    expect(ok(identify(1000000052, 'upc')).value).toBe('001000000052');
    expect(ok(identify(1000000052, 'isbn')).value).toBe('1000000052');
  });
  test('nine digits that read both ways are ambiguous', () => {
    const r = bad(identify(100000061));
    expect(r.reason).toBe('ambiguous');
    expect(r.candidates!.map((c) => c.value)).toEqual(['0100000061', '000100000061']);
  });
  test('text keeps its own zeros: an exact ISBN-10 in text is not ambiguous', () => {
    expect(ok(identify('1000000052'))).toMatchObject({ kind: 'ISBN-10', value: '1000000052' });
  });
  test('a text UPC that lost its zero in an earlier export is restored too', () => {
    expect(ok(identify('12345678905'))).toMatchObject({ value: '012345678905', repaired: 'leading-zeros' });
  });
  test('a UPC-E that lost its leading zero is restored and expanded', () => {
    expect(ok(identify(4252614)).value).toBe('042100005264');
  });
});

describe('identify: digits already lost (scientific notation)', () => {
  test('the text "5.01234E+12" is flagged', () => {
    const r = bad(identify('5.01234E+12'));
    expect(r.reason).toBe('scientific-notation');
    expect(r.message).toContain('5.01234E+12');
  });
  test('the number 5.01234E+12 (trailing zeros) is flagged and shown as Sheets shows it', () => {
    const r = bad(identify(5.01234e12));
    expect(r.reason).toBe('scientific-notation');
    expect(r.message).toContain('5.01234E+12');
  });
  test('European text "5,01234E+12" is flagged too', () => {
    expect(bad(identify('5,01234E+12')).reason).toBe('scientific-notation');
  });
  test('numbers above 2^53 or with more than 15 digits are flagged', () => {
    expect(bad(identify(2 ** 53 + 2)).reason).toBe('scientific-notation');
    expect(bad(identify(1234567890123456)).reason).toBe('scientific-notation');
  });
  test('two trailing zeros with a failing check digit mean lost digits', () => {
    expect(bad(identify(5012345678800)).reason).toBe('scientific-notation');
  });
  test('a real EAN ending in zeros with a valid check digit is accepted', () => {
    // 501234567890 + check digit 0
    expect(ok(identify(5012345678900)).value).toBe('5012345678900');
  });
});

describe('identify: refusals with reasons', () => {
  test.each([
    ['', 'blank'],
    ['   ', 'blank'],
    [null, 'blank'],
    ['036000291453', 'bad-check-digit'],
    ['4006381333932', 'bad-check-digit'],
    ['96385075', 'bad-check-digit'],
    ['0306406153', 'bad-check-digit'],
    ['03600029145O', 'not-numeric'],
    ['12345', 'wrong-length'],
    ['1234567890123456', 'wrong-length'],
    ['call for code', 'not-an-identifier'],
    [true, 'not-an-identifier'],
    [12.5, 'not-an-identifier'],
    [-36000291452, 'not-an-identifier'],
  ])('%p -> %s', (value, reason) => {
    const r = bad(identify(value));
    expect(r.reason).toBe(reason);
    expect(r.message.length).toBeGreaterThan(5);
  });
  test('a date (what Sheets makes of some codes) is refused as a date', () => {
    const r = bad(identify(new Date(2024, 2, 5)));
    expect(r.reason).toBe('not-an-identifier');
    expect(r.message).toContain('2024-03-05');
  });
  test('letters in a UPC are named in the message', () => {
    expect(bad(identify('03600029145O')).message).toContain('O');
  });
  test('a wrong length message says the lengths that are right', () => {
    expect(bad(identify('12345')).message).toMatch(/5 digits; a UPC has 12, an EAN 13, a GTIN 14/);
  });
  test('an expected kind refuses other kinds', () => {
    expect(bad(identify('B00EXAMPLE', 'upc'))).toMatchObject({ reason: 'unexpected-kind' });
    expect(bad(identify('036000291452', 'asin'))).toMatchObject({ reason: 'unexpected-kind' });
    expect(bad(identify('4006381333931', 'isbn'))).toMatchObject({ reason: 'unexpected-kind' });
    expect(ok(identify('4006381333931', 'upc')).kind).toBe('EAN'); // UPC columns hold EANs too
  });
});

describe('cell text quoted in messages (issue 26.10)', () => {
  test('short text whole; long text cut to a marked excerpt with its length; never half an emoji', () => {
    expect(quoteCell('036000291452')).toBe('"036000291452"');
    expect(quoteCell('x'.repeat(50_063))).toBe('"' + 'x'.repeat(60) + '…" (50,063 characters)');
    // 59 units of "a" then emoji (2 units each): the 60th unit is the first half of an emoji, so it goes.
    const s = 'a'.repeat(59) + '😀'.repeat(10);
    expect(cutText(s, 60)).toBe('a'.repeat(59));
    expect(cutText(s, 61)).toBe('a'.repeat(59) + '😀');
    expect(shortCell(s)).toBe('a'.repeat(59) + '… (79 characters)');
  });

  test('"Blue widget" is words, not the ASIN BLUEWIDGET; a real ASIN still is one', () => {
    expect(identify('Blue widget')).toEqual(expect.objectContaining({ ok: false, reason: 'not-an-identifier' }));
    expect(identify(' b033m82fjb ')).toEqual(expect.objectContaining({ ok: true, kind: 'ASIN', value: 'B033M82FJB' }));
  });
});
