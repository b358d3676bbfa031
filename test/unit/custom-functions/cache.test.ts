import { cacheChunks, CHUNK_MAX, chunkKeys, readCache, writeCache, MAX_VALUE_BYTES } from '../../../src/custom-functions/cache';
import { utf8Length } from '../../../src/domain/sheet/safe';
import { FakeCache, FakeClock, upc } from '../api/fakes';

const ids = Array.from({ length: 3000 }, (_x, i) => upc(String(50000000000 + i * 11)));
const scope = { endpoint: 'convert' as const, marketplace: 'US', baseUrl: 'https://svc.example.com' };

describe('content-defined chunks', () => {
  test('cover every distinct id once, sorted, none over CHUNK_MAX, about 32 on average', () => {
    const chunks = cacheChunks(ids.concat(ids.slice(0, 100)));
    expect(chunks.flat()).toEqual(Array.from(new Set(ids)).sort());
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThanOrEqual(CHUNK_MAX);
    expect(chunks.length).toBeGreaterThan(3000 / 64);
    expect(chunks.length).toBeLessThan(3000 / 16);
  });

  test('adding one id changes at most the chunk it falls in (split in two at worst)', () => {
    const before = new Set(cacheChunks(ids).map((c) => c.join(',')));
    const after = cacheChunks(ids.concat([upc('09999999999')]));
    const changed = after.filter((c) => !before.has(c.join(',')));
    expect(changed.length).toBeGreaterThanOrEqual(1);
    expect(changed.length).toBeLessThanOrEqual(2);
  });

  test('keys are short and differ by marketplace, endpoint, service address and content', () => {
    const k = chunkKeys(scope, ['a', 'b']);
    expect(k.found.length).toBeLessThanOrEqual(250);
    expect(k.found).not.toBe(k.notFound);
    expect(chunkKeys({ ...scope, marketplace: 'UK' }, ['a', 'b']).found).not.toBe(k.found);
    expect(chunkKeys({ ...scope, endpoint: 'asin-convert' }, ['a', 'b']).found).not.toBe(k.found);
    expect(chunkKeys({ ...scope, baseUrl: 'http://localhost:3000' }, ['a', 'b']).found).not.toBe(k.found);
    expect(chunkKeys(scope, ['a', 'c']).found).not.toBe(k.found);
  });
});

describe('read / write', () => {
  test('one getAll, two putAll; only answered ids count as cached; failures are not written', () => {
    const clock = new FakeClock();
    const cache = new FakeCache(clock);
    const first = readCache<string[]>(cache, scope, ids.slice(0, 200));
    expect(first.hits.size).toBe(0);
    const learned = new Map<string, any>();
    ids.slice(0, 150).forEach((id, i) => learned.set(id, i % 2 ? { found: true, value: ['B' + i] } : { found: false }));
    writeCache(cache, first, learned);
    expect(cache.putAllCalls).toBe(2);
    const second = readCache<string[]>(cache, scope, ids.slice(0, 200));
    expect(cache.getAllCalls).toBe(2);
    expect(second.hits.size).toBe(150);
    expect(second.hits.get(ids[1])).toEqual({ found: true, value: ['B1'] });
    expect(second.hits.get(ids[0])).toEqual({ found: false });
    expect(second.hits.has(ids[160])).toBe(false);
  });

  test('a value that would pass 100 KB is not written (the cache would refuse it)', () => {
    const clock = new FakeClock();
    const cache = new FakeCache(clock);
    const some = ids.slice(0, 50);
    const l = readCache<string[]>(cache, scope, some);
    const big = 'x'.repeat(5000);
    writeCache(cache, l, new Map(some.map((id) => [id, { found: true, value: [big] }])));
    for (const v of cache.values()) expect(utf8Length(v)).toBeLessThanOrEqual(MAX_VALUE_BYTES);
  });

  test('a cache that throws costs calls, never the answer', () => {
    const broken = {
      getAll: () => {
        throw new Error('Service invoked too many times');
      },
      putAll: () => {
        throw new Error('x');
      },
    };
    const l = readCache(broken, scope, ids.slice(0, 3));
    expect(l.hits.size).toBe(0);
    expect(writeCache(broken, l, new Map([[ids[0], { found: false }]]))).toBe(0);
  });

  test('utf8Length counts bytes', () => {
    expect(utf8Length('aé€😀')).toBe(1 + 2 + 3 + 4);
  });
});
