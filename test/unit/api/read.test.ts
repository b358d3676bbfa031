import { readAsinConvertResponse, readConvertResponse, readErrorBody, splitConvertAnswer } from '../../../src/api/read';

describe('readConvertResponse (tolerant)', () => {
  const ids = ['012345678905', '036000291452', '9780306406157'];

  test('the documented shape: keyed by input, unmatched omitted, unknown members ignored', () => {
    const m = readConvertResponse({ '012345678905': ['B000000001', '0012345678905'], '036000291452': ['B000000002'] }, ids)!;
    expect(Object.fromEntries(m)).toEqual({ '012345678905': ['B000000001', '0012345678905'], '036000291452': ['B000000002'] });
  });

  test('a data envelope, a single string, and keys written differently (leading zeros, case)', () => {
    const m = readConvertResponse({ data: { '12345678905': 'B000000001', '0036000291452': ['B000000002', 7] }, meta: { took: 3 } }, ids)!;
    expect(m.get('012345678905')).toEqual(['B000000001']);
    expect(m.get('036000291452')).toEqual(['B000000002', '7']);
  });

  test('a list of rows, and candidate objects', () => {
    const m = readConvertResponse(
      [
        { id: '9780306406157', asins: ['0306406152'] },
        { input: '012345678905', result: [{ asin: 'B000000009' }] },
      ],
      ids,
    )!;
    expect(m.get('9780306406157')).toEqual(['0306406152']);
    expect(m.get('012345678905')).toEqual(['B000000009']);
    const m2 = readConvertResponse({ '012345678905': [{ asin: 'B000000009', title: 'x' }, { asin: 'B00000000A' }] }, ids)!;
    expect(m2.get('012345678905')).toEqual(['B000000009', 'B00000000A']);
  });

  test('several ASINs (x-decision: every ASIN first, best-ranked first): kept in order; two keys for one input merge ASINs before identifiers', () => {
    const m = readConvertResponse({ '012345678905': ['B000000001', 'B000000002', '0012345678905'] }, ids)!;
    expect(splitConvertAnswer(m.get('012345678905')!)).toEqual({ asins: ['B000000001', 'B000000002'], others: ['0012345678905'] });
    const merged = readConvertResponse(
      { '012345678905': ['B000000001', '0012345678905'], '12345678905': ['B000000003', '012345678905'] },
      ids,
    )!;
    expect(merged.get('012345678905')).toEqual(['B000000001', 'B000000003', '0012345678905', '012345678905']);
  });

  test('splitConvertAnswer: the first element always; ASIN-shaped ones only before the first other identifier', () => {
    expect(splitConvertAnswer([' b000000001 ', 'B000000002', '0012345678905', 'B000000009'])).toEqual({
      asins: ['B000000001', 'B000000002'],
      others: ['0012345678905', 'B000000009'],
    });
    expect(splitConvertAnswer(['0306406152', '0306406152'])).toEqual({ asins: ['0306406152'], others: ['0306406152'] });
    expect(splitConvertAnswer([])).toEqual({ asins: [], others: [] });
  });

  test('keys that are none of our inputs are ignored; non-JSON shapes are unreadable', () => {
    expect(readConvertResponse({ '999': ['B1'] }, ids)!.size).toBe(0);
    expect(readConvertResponse('nope', ids)).toBeUndefined();
  });
});

describe('readAsinConvertResponse (tolerant)', () => {
  test('documented shape, upper-case kinds, single strings, data envelope', () => {
    const m = readAsinConvertResponse({ data: { B000000001: { UPC: '012345678905', ean: ['0012345678905'], extra: { nested: 1 } } } }, [
      'B000000001',
    ])!;
    expect(m.get('B000000001')).toEqual({ upc: ['012345678905'], ean: ['0012345678905'] });
  });
  test('lower-case ASIN keys match our upper-case input; rows list', () => {
    expect(readAsinConvertResponse({ b000000001: { upc: ['1'] } }, ['B000000001'])!.get('B000000001')).toEqual({ upc: ['1'] });
    expect(readAsinConvertResponse([{ asin: 'B000000001', isbn: ['x'] }], ['B000000001'])!.get('B000000001')).toEqual({ isbn: ['x'] });
  });
});

test('readErrorBody accepts message/error and both error row forms', () => {
  expect(readErrorBody('{"error":"Too many"}')).toEqual({ message: 'Too many', errors: undefined });
  expect(readErrorBody('not json')).toEqual({});
  expect(readErrorBody('{"message":"m","errors":["x"]}').errors).toEqual([{ index: -1, field: '', message: 'x' }]);
});
