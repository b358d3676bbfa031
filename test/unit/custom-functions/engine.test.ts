import {
  asinFromIds,
  asinsOf,
  identifiersFromAsins,
  identifiersOf,
  idsFromAsins,
  type RunStats,
} from '../../../src/custom-functions/engine';
import { NO_KEY_MESSAGE, NOT_FOUND } from '../../../src/custom-functions/messages';
import { FOUND_TTL_S, NOT_FOUND_TTL_S } from '../../../src/custom-functions/cache';
import { upc } from '../api/fakes';
import { conversionService, KEY, world } from './helpers';

const U1 = upc('01234567890'); // 012345678905
const U2 = upc('03600029145'); // 036000291452
const U3 = upc('07330000000');

describe('ASIN_FROM_UPC over a range', () => {
  test('same shape out; blanks stay blank; duplicates asked once; invalid marked without a call; unmatched says not found', () => {
    const svc = conversionService({ convert: { [U1]: ['B000000001', '0' + U1], [U2]: ['B000000002'] } });
    const w = world(svc);
    const input = [[U1], [''], [U2], [U1], ['12345'], ['01234567890X'], [U3], [null as any]];
    const out = asinFromIds('UPC', input, 'US', undefined, w.deps());
    expect(out).toEqual([
      ['B000000001'],
      [''],
      ['B000000002'],
      ['B000000001'],
      ['invalid UPC: wrong length'],
      ['invalid UPC: letters in a barcode'],
      [NOT_FOUND],
      [''],
    ]);
    expect(w.fetcher.requests.length).toBe(1);
    expect(JSON.parse(w.fetcher.requests[0].payload!)).toEqual({ marketplace: 'US', ids: [U1, U2, U3] });
    expect(w.fetcher.requests[0].headers.Authorization).toBe('Bearer ' + KEY);
  });

  test('a bad check digit is marked and never sent', () => {
    const w = world(conversionService());
    const bad = U1.slice(0, 11) + String((Number(U1[11]) + 1) % 10);
    expect(asinFromIds('UPC', [[bad]], 'US', 'first', w.deps())).toEqual([['invalid UPC: bad check digit']]);
    expect(w.fetcher.requests.length).toBe(0);
  });

  test('a number that lost its leading zero is repaired and counts as the same id as its text', () => {
    const w = world(conversionService({ convert: { [U1]: ['B000000001'] } }));
    const out = asinFromIds('UPC', [[Number(U1)], [U1]], 'US', undefined, w.deps());
    expect(out).toEqual([['B000000001'], ['B000000001']]);
    expect(JSON.parse(w.fetcher.requests[0].payload!).ids).toEqual([U1]);
  });

  test('a single cell gives a single value', () => {
    const w = world(conversionService({ convert: { [U1]: ['B000000001'] } }));
    expect(asinFromIds('UPC', U1, undefined, undefined, w.deps())).toBe('B000000001');
    expect(asinFromIds('UPC', '', undefined, undefined, w.deps())).toBe('');
  });

  test('marketplace: default from settings, a code or id argument, an unknown one is an argument error', () => {
    const w = world(conversionService(), {
      settings: { ok: true, service: { baseUrl: 'https://svc.example.com', apiKey: KEY }, defaultMarketplace: 'DE' },
    });
    asinFromIds('UPC', U1, undefined, undefined, w.deps());
    asinFromIds('UPC', U2, 'gb', undefined, w.deps());
    asinFromIds('UPC', U3, 15, undefined, w.deps());
    expect(w.fetcher.requests.map((r) => JSON.parse(r.payload!).marketplace)).toEqual(['DE', 'UK', 'JP']);
    expect(() => asinFromIds('UPC', U1, 'XX', undefined, w.deps())).toThrow('Unknown marketplace "XX"');
    expect(() => asinFromIds('UPC', U1, 'US', 'most', w.deps())).toThrow(/matches must be "first", "all" or "spill"/);
  });
});

describe('several ASINs for one input, in each matches mode', () => {
  // The decided answer (convert.yaml x-decision): every ASIN first, best-ranked first, then other identifiers.
  const svc = () => conversionService({ convert: { [U1]: ['B000000001', 'B000000011', 'B000000111', '0' + U1], [U2]: ['B000000002'] } });
  const input = [[U1], [U2], [''], [U3]];

  test('first (default)', () => {
    expect(asinFromIds('UPC', input, 'US', 'first', world(svc()).deps())).toEqual([['B000000001'], ['B000000002'], [''], [NOT_FOUND]]);
  });
  test('all: joined with ", " (other identifiers in the answer are not ASINs)', () => {
    expect(asinFromIds('UPC', input, 'US', 'ALL', world(svc()).deps())).toEqual([
      ['B000000001, B000000011, B000000111'],
      ['B000000002'],
      [''],
      [NOT_FOUND],
    ]);
  });
  test('spill: across columns, ragged rows padded with ""', () => {
    expect(asinFromIds('UPC', input, 'US', 'spill', world(svc()).deps())).toEqual([
      ['B000000001', 'B000000011', 'B000000111'],
      ['B000000002', '', ''],
      ['', '', ''],
      [NOT_FOUND, '', ''],
    ]);
    expect(asinFromIds('UPC', U1, 'US', 'spill', world(svc()).deps())).toEqual([['B000000001', 'B000000011', 'B000000111']]);
  });
  test('spill of a two-column range keeps each input column its own block', () => {
    expect(asinFromIds('UPC', [[U1, U2]], 'US', 'spill', world(svc()).deps())).toEqual([
      ['B000000001', 'B000000011', 'B000000111', 'B000000002', '', ''],
    ]);
  });
});

test('asinsOf: the first entry always, then the ASIN-shaped entries before the first other identifier', () => {
  expect(asinsOf(['B000000001', 'b000000003', '0012345678905', 'B000000004'])).toEqual(['B000000001', 'B000000003']);
  // A book: its ASIN is its ISBN-10; a later 10-digit entry is taken for the ISBN-10, not a second ASIN.
  expect(asinsOf(['0306406152', '0306406152', '9780306406157'])).toEqual(['0306406152']);
  expect(asinsOf(['0306406152', 'B000000003', '9780306406157'])).toEqual(['0306406152', 'B000000003']);
});

describe('calls at the API floor, and the cache', () => {
  const distinct = Array.from({ length: 2000 }, (_x, i) => upc(String(20000000000 + i * 7)));
  const catalog: Record<string, string[]> = {};
  distinct.forEach((u, i) => {
    if (i % 4 !== 0) catalog[u] = ['B' + String(i).padStart(9, '0')];
  });
  const column = Array.from({ length: 5000 }, (_x, i) => [distinct[(i * 13) % 2000]]);

  test('5,000 UPCs with 2,000 distinct: exactly 100 convert calls, well within 30 s; a recalculation makes 0 calls', () => {
    const w = world(conversionService({ convert: catalog }));
    const stats: RunStats = { distinct: 0, cached: 0, fetched: 0 };
    const t0 = w.clock.t;
    const out = asinFromIds('UPC', column, 'US', undefined, w.deps(), stats) as string[][];
    expect(stats.distinct).toBe(2000);
    expect(w.fetcher.requests.length).toBe(100);
    expect(w.fetcher.requests.every((r) => JSON.parse(r.payload!).ids.length === 20)).toBe(true);
    expect(w.fetcher.waves.length).toBe(4); // 25 per fetchAll
    expect(w.clock.t - t0).toBeLessThan(30000);
    expect(out.length).toBe(5000);
    expect(out[0][0]).toBe(catalog[column[0][0]] ? catalog[column[0][0]][0] : NOT_FOUND);
    expect(out.filter((r) => r[0] === NOT_FOUND).length).toBe(column.filter((r) => !catalog[r[0]]).length);
    // CacheService limits: few items (1,000 max), short keys.
    expect(w.cache.size).toBeLessThan(300);
    expect(Math.max(...w.cache.keys().map((k) => k.length))).toBeLessThanOrEqual(250);
    expect(w.cache.putAllCalls).toBe(2);

    const again = asinFromIds('UPC', column, 'US', undefined, w.deps(), stats);
    expect(w.fetcher.requests.length).toBe(100);
    expect(stats.cached).toBe(2000);
    expect(again).toEqual(out);
  });

  test('not-found answers expire sooner than found ones; after 6 hours everything is asked again', () => {
    const w = world(conversionService({ convert: catalog }));
    asinFromIds('UPC', column, 'US', undefined, w.deps());
    w.clock.t += NOT_FOUND_TTL_S * 1000 + 1;
    const stats: RunStats = { distinct: 0, cached: 0, fetched: 0 };
    asinFromIds('UPC', column, 'US', undefined, w.deps(), stats);
    expect(stats.fetched).toBe(500); // the not-found quarter
    expect(w.fetcher.requests.length).toBe(100 + 25);
    w.clock.t += FOUND_TTL_S * 1000 + 1;
    asinFromIds('UPC', column, 'US', undefined, w.deps(), stats);
    expect(stats.fetched).toBe(2000);
    expect(w.fetcher.requests.length).toBe(225);
  });

  test('one changed id re-fetches only its cache chunk, not the column', () => {
    const w = world(conversionService({ convert: catalog }));
    asinFromIds('UPC', column, 'US', undefined, w.deps());
    const edited = column.map((r) => r.slice());
    edited[10] = [upc('09999999999')];
    const stats: RunStats = { distinct: 0, cached: 0, fetched: 0 };
    asinFromIds('UPC', edited, 'US', undefined, w.deps(), stats);
    expect(stats.fetched).toBeLessThanOrEqual(2 * 128 + 1);
    expect(stats.fetched).toBeGreaterThan(0);
  });

  test('the cache is per marketplace', () => {
    const w = world(conversionService({ convert: { [U1]: ['B000000001'] } }));
    asinFromIds('UPC', U1, 'US', undefined, w.deps());
    asinFromIds('UPC', U1, 'UK', undefined, w.deps());
    asinFromIds('UPC', U1, 'US', undefined, w.deps());
    expect(w.fetcher.requests.map((r) => JSON.parse(r.payload!).marketplace)).toEqual(['US', 'UK']);
  });
});

describe('faults land in the cells they concern', () => {
  const ids = Array.from({ length: 60 }, (_x, i) => upc(String(30000000000 + i)));
  const catalog = Object.fromEntries(ids.map((u, i) => [u, ['B' + String(i).padStart(9, '0')]]));

  test("a 429 storm on one batch: Retry-After honoured, gives up in time, message in that batch's cells only", () => {
    const svc = conversionService({
      convert: catalog,
      override: (_n, req) =>
        JSON.parse(req.payload!).ids.includes(ids[25])
          ? { status: 429, headers: { 'Retry-After': '5' }, body: { message: 'Too Many Attempts.' } }
          : undefined,
    });
    const w = world(svc);
    const t0 = w.clock.t;
    const out = asinFromIds(
      'UPC',
      ids.map((u) => [u]),
      'US',
      undefined,
      w.deps(),
    ) as string[][];
    expect(w.clock.t - t0).toBeLessThan(25000);
    expect(w.clock.sleeps.length).toBeGreaterThan(0);
    for (const s of w.clock.sleeps) expect(s).toBeGreaterThanOrEqual(5000);
    const busy = out
      .map((r, i) => [i, r[0]] as const)
      .filter(([, v]) => /service busy/.test(v))
      .map(([i]) => i);
    expect(busy).toEqual(Array.from({ length: 20 }, (_x, i) => 20 + i)); // the 2nd batch of 20, sorted input order
    expect(out[0][0]).toBe('B000000000');
    expect(out[59][0]).toBe('B000000059');
    // Not cached: a later recalculation asks again for those only.
    const svc2Calls = w.fetcher.requests.length;
    asinFromIds(
      'UPC',
      ids.map((u) => [u]),
      'US',
      undefined,
      w.deps(),
    );
    expect(w.fetcher.requests.length - svc2Calls).toBeGreaterThanOrEqual(1);
    expect(w.fetcher.requests.slice(svc2Calls).every((r) => JSON.parse(r.payload!).ids.includes(ids[25]))).toBe(true);
  });

  test('5xx is retried with backoff and then converts', () => {
    const svc = conversionService({
      convert: catalog,
      override: (n) => (n <= 3 ? { status: 503, body: 'Service Unavailable' } : undefined),
    });
    const w = world(svc);
    const out = asinFromIds(
      'UPC',
      ids.map((u) => [u]),
      'US',
      'first',
      w.deps(),
    ) as string[][];
    expect(out.map((r) => r[0])).toEqual(ids.map((_u, i) => 'B' + String(i).padStart(9, '0')));
    expect(w.clock.sleeps.length).toBeGreaterThan(0);
  });

  test('a service that stays down: each cell says so, within the 30 s', () => {
    const w = world(conversionService({ override: () => ({ status: 500, body: { message: 'Server Error' } }) }));
    const t0 = w.clock.t;
    const out = asinFromIds('UPC', [[U1], [''], ['1']], 'US', undefined, w.deps());
    expect(out).toEqual([['not converted: service error 500; recalculate later'], [''], ['invalid UPC: wrong length']]);
    expect(w.clock.t - t0).toBeLessThan(30000);
  });

  test('too many distinct ids for the time left: what was not reached says so', () => {
    const many = Array.from({ length: 4000 }, (_x, i) => [upc(String(40000000000 + i))]);
    const w = world(conversionService(), { waveMs: 9000 });
    const out = asinFromIds('UPC', many, 'US', undefined, w.deps()) as string[][];
    const timeOut = out.filter((r) => /time ran out/.test(r[0])).length;
    expect(timeOut).toBeGreaterThan(0);
    expect(out.filter((r) => r[0] === NOT_FOUND).length).toBe(4000 - timeOut);
  });
});

describe('whose key', () => {
  test('an editor without a shared key: the cells to convert say what to do, no call is made; blanks and invalid stay as they are', () => {
    const w = world(conversionService(), { settings: { ok: false, message: NO_KEY_MESSAGE, defaultMarketplace: undefined } });
    const out = asinFromIds('UPC', [[U1], [''], ['123']], undefined, undefined, w.deps());
    expect(out).toEqual([[NO_KEY_MESSAGE], [''], ['invalid UPC: wrong length']]);
    // The cell names where its owner turns formulas on (issue 27 item 4) and what the editor can do instead.
    expect(NO_KEY_MESSAGE).toMatch(/Its owner turns them on in Extensions > .+ > Settings/);
    expect(NO_KEY_MESSAGE).toMatch(/Convert selected column/);
    expect(w.fetcher.requests.length).toBe(0);
  });

  test('a refused shared key: the message tells who fixes it, and never shows the key', () => {
    const w = world(conversionService({ override: () => ({ status: 401, body: { message: 'Invalid key ' + KEY } }) }));
    const out = asinFromIds('UPC', [[U1], [U2]], 'US', undefined, w.deps()) as string[][];
    expect(out[0][0]).toMatch(/shared for formulas.*refused.*owner/);
    expect(JSON.stringify(out)).not.toContain(KEY);
  });

  test('the key never appears in any cell, whatever the service echoes', () => {
    for (const status of [403, 404, 422, 429, 500]) {
      const w = world(
        conversionService({
          override: () => ({
            status,
            headers: { 'retry-after': '60' },
            body: { message: 'key ' + KEY, errors: [{ index: 0, field: KEY, message: KEY }] },
          }),
        }),
      );
      expect(JSON.stringify(asinFromIds('UPC', [[U1], [U2]], 'US', 'all', w.deps()))).not.toContain(KEY);
    }
  });
});

describe('ASIN to identifiers', () => {
  const table = {
    B000000001: { upc: ['012345678905'], ean: ['0012345678905', '4901234567894'] },
    B000000002: { ean: ['0036000291452'] },
    '0306406152': { isbn: ['9780306406157'], ean: ['9780306406157'] },
  };

  test('UPC_FROM_ASIN with blanks, invalid ASINs (no call), unmatched, and the EAN-13 "0"+UPC equivalence', () => {
    const w = world(conversionService({ asinConvert: table }));
    const out = idsFromAsins('UPC', [['B000000001'], ['b000000002'], [''], ['B0000'], ['B00000000Z']], 'US', undefined, w.deps());
    expect(out).toEqual([['012345678905'], ['036000291452'], [''], ['invalid ASIN: not an identifier'], [NOT_FOUND]]);
    expect(JSON.parse(w.fetcher.requests[0].payload!)).toEqual({ marketplace: 'US', asins: ['B000000001', 'B000000002', 'B00000000Z'] });
  });

  test('EAN_FROM_ASIN all / spill, GTIN and JAN', () => {
    const w = world(conversionService({ asinConvert: table }));
    expect(idsFromAsins('EAN', 'B000000001', 'US', 'all', w.deps())).toBe('0012345678905, 4901234567894');
    expect(idsFromAsins('EAN', [['B000000001'], ['B000000002']], 'US', 'spill', w.deps())).toEqual([
      ['0012345678905', '4901234567894'],
      ['0036000291452', ''],
    ]);
    expect(idsFromAsins('GTIN', 'B000000002', 'US', undefined, w.deps())).toBe('00036000291452');
    expect(idsFromAsins('JAN', 'B000000001', 'JP', undefined, w.deps())).toBe('4901234567894');
    expect(idsFromAsins('JAN', 'B000000002', 'JP', undefined, w.deps())).toBe(NOT_FOUND);
  });

  test('identifiersOf prefers the kind the service lists', () => {
    expect(identifiersOf({ gtin: ['10012345678902'], upc: ['012345678905'] }, 'GTIN')).toEqual(['10012345678902']);
  });

  test('IDENTIFIERS_FROM_ASIN: header row, one column per kind, one row per input', () => {
    const w = world(conversionService({ asinConvert: table }));
    const out = identifiersFromAsins([['B000000001'], [''], ['0306406152'], ['B0000000QQ'], ['x']], undefined, w.deps());
    expect(out).toEqual([
      ['UPC', 'EAN', 'ISBN', 'GTIN', 'JAN'],
      ['012345678905', '0012345678905, 4901234567894', '', '00012345678905, 04901234567894', '4901234567894'],
      ['', '', '', '', ''],
      ['', '9780306406157', '9780306406157', '09780306406157', ''],
      [NOT_FOUND, '', '', '', ''],
      ['invalid ASIN: not an identifier', '', '', '', ''],
    ]);
    expect(() => identifiersFromAsins([['B000000001', 'B000000002']], 'US', w.deps())).toThrow(/one column/);
  });

  test('1,000 ASINs per asin-convert call', () => {
    const asins = Array.from({ length: 2001 }, (_x, i) => ['B' + String(i).padStart(9, '0')]);
    const w = world(conversionService());
    idsFromAsins('UPC', asins, 'US', undefined, w.deps());
    expect(w.fetcher.requests.map((r) => JSON.parse(r.payload!).asins.length)).toEqual([1000, 1000, 1]);
  });
});
