/** Reading supplier cells: identifiers, amounts, discounts, counts. */
import {
  gtinCheckDigit,
  isValidGtin,
  isValidIsbn10,
  isbn10To13,
  keyOf,
  kindOf,
  parseIdentifier,
  upcEToA,
} from '../../../emulator/service/engine/ident';
import { parseBasisPoints, parseCount, parseMoney } from '../../../emulator/service/engine/money';

const ok = <T>(v: { ok: true; value: T } | { ok: false; reason: string }) => (v.ok ? v.value : `error: ${v.reason}`);

describe('identifiers', () => {
  it('computes GS1 and ISBN-10 check digits', () => {
    expect(gtinCheckDigit('03600029145')).toBe(2); // UPC 036000291452
    expect(isValidGtin('036000291452')).toBe(true);
    expect(isValidGtin('036000291453')).toBe(false);
    expect(isValidGtin('4006381333931')).toBe(true); // EAN-13
    expect(isValidGtin('96385074')).toBe(true); // EAN-8
    expect(isValidIsbn10('0306406152')).toBe(true);
    expect(isValidIsbn10('080442957X')).toBe(true);
    expect(isbn10To13('0306406152')).toBe('9780306406157');
  });
  it('UPC-A, its EAN-13 and GTIN-14 forms and the lost-zero form share one key', () => {
    const keys = ['036000291452', '0036000291452', '00036000291452', '36000291452', '0 36000 29145 2', '0-36000-29145-2'].map((s) =>
      parseIdentifier(s),
    );
    for (const k of keys) expect(k).toEqual({ ok: true, kind: 'code', keys: ['00036000291452'] });
  });
  it('expands a UPC-E to its UPC-A; an 8-digit code can be both EAN-8 and UPC-E', () => {
    expect(upcEToA('04252614')).toBe('042100005264');
    expect(upcEToA('01234565')).toBe('012345000065');
    expect(upcEToA('04252615')).toBeUndefined(); // check digit does not fit
    expect(upcEToA('24252614')).toBeUndefined(); // number system 2 has no UPC-E
    expect(parseIdentifier('04252614')).toEqual({ ok: true, kind: 'code', keys: ['00042100005264'] });
    expect(parseIdentifier('96385074')).toEqual({ ok: true, kind: 'code', keys: ['00000096385074'] }); // EAN-8 only
  });
  it('an ISBN-10 is an ASIN candidate and a code (ISBN-13 key); an ISBN-13 is a code', () => {
    expect(parseIdentifier('0306406152')).toEqual({ ok: true, kind: 'asin', asin: '0306406152', keys: ['09780306406157'] });
    expect(parseIdentifier('080442957x')).toEqual({ ok: true, kind: 'asin', asin: '080442957X', keys: ['09780804429573'] });
    expect(parseIdentifier('978-0-306-40615-7')).toEqual({ ok: true, kind: 'code', keys: ['09780306406157'] });
  });
  it('ASINs are B and 9 letters/digits, upper-cased', () => {
    expect(parseIdentifier(' b0abc12345 ')).toEqual({ ok: true, kind: 'asin', asin: 'B0ABC12345', keys: [] });
  });
  it('refuses scientific notation, bad check digits, wrong lengths and other text with a reason', () => {
    const r = (s: string) => {
      const p = parseIdentifier(s);
      return p.ok ? 'ok' : p.reason;
    };
    expect(r('5.01234E+12')).toMatch(/scientific notation/);
    expect(r('036000291453')).toMatch(/wrong check digit/);
    expect(r('1234567')).toMatch(/7 digits/);
    expect(r('123456789012345')).toMatch(/15 digits/);
    expect(r('hello world')).toMatch(/not a UPC, EAN, ISBN, GTIN or ASIN/);
    expect(r('   ')).toMatch(/empty/);
    expect(r('HELLOWORLD')).toMatch(/not a UPC/); // ASINs other than ISBN-10s start with B
    expect(r('B0ABC 12345')).toMatch(/not a UPC/);
  });
  it('tells catalog identifier kinds apart by shape and canonicalises them', () => {
    expect(['036000291452', '4006381333931', '9780306406157', '4901234567894', '10036000291459', '0306406152'].map(kindOf)).toEqual([
      'upc',
      'ean',
      'isbn',
      'jan',
      'gtin',
      'isbn',
    ]);
    expect(keyOf('036000291452')).toBe('00036000291452');
    expect(keyOf('0306406152')).toBe('09780306406157');
    expect(keyOf('036000291453')).toBeUndefined();
  });
});

describe('amounts (cost, MAP)', () => {
  it.each([
    ['12.50', 1250],
    ['12.5', 1250],
    ['12', 1200],
    [' 7.00 ', 700],
    ['$12.50', 1250],
    ['$1,299.00', 129900],
    ['1.299,00 €', 129900],
    ['12,50', 1250],
    ['1 299,00', 129900],
    ['USD 24.00', 2400],
    ['€ 3,5', 350],
    ['£0.99', 99],
    ['1,299', 129900],
    ['1.299.000', 129900000],
    ['2.345', 235],
    ['2.344', 234],
    ['0.125', 13],
    ['.5', 50],
    ['1,234,567.89', 123456789],
  ])('%s -> %i cents', (s, cents) => expect(ok(parseMoney(s))).toBe(cents));
  it.each([
    ['call', /not an amount/],
    ['', /empty/],
    ['N/A', /not an amount/],
    ['-3.00', /negative/],
    ['(4.00)', /negative/],
    ['1,2,3', /not an amount/],
    ['1.234,56.78', /not an amount/],
    ['12..5', /not an amount/],
  ])('%s is refused', (s, re) => expect(String(ok(parseMoney(s)))).toMatch(re));
});

describe('discounts and counts', () => {
  it('reads basis points or percentages, refuses more than 100% and text', () => {
    expect(['500', '5%', '5.5 %', '0', '100%', '12.345%'].map((s) => ok(parseBasisPoints(s)))).toEqual([500, 500, 550, 0, 10000, 1235]);
    expect(String(ok(parseBasisPoints('101%')))).toMatch(/more than 100%/);
    expect(String(ok(parseBasisPoints('ten')))).toMatch(/not a discount/);
  });
  it('reads whole counts with thousands separators', () => {
    expect(['12', '1,200', '12.0', '0'].map((s) => ok(parseCount(s)))).toEqual([12, 1200, 12, 0]);
    expect(String(ok(parseCount('1.5')))).toMatch(/not a whole number/);
    expect(String(ok(parseCount('')))).toMatch(/empty/);
  });
});
