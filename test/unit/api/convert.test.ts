import { chunk, convertAsins, convertIds } from '../../../src/api/convert';
import { conversionService, FakeClock, FakeFetcher } from './fakes';

const settings = { baseUrl: 'http://localhost:9', apiKey: 'test-key-0123456789abcdef' };

function deps(handler: any) {
  const clock = new FakeClock();
  const fetcher = new FakeFetcher(handler, clock);
  return { clock, fetcher, d: { fetcher, sleep: clock.sleep, now: clock.now, random: () => 0 } };
}

test('chunk', () => {
  expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
});

test('convertIds: batches of 20 distinct ids, found / not-found per id', () => {
  const ids = Array.from({ length: 45 }, (_x, i) => 'id' + i);
  const svc = conversionService({ convert: { id0: ['B000000000'], id44: ['B000000044', '123'] } });
  const { d, clock, fetcher } = deps(svc);
  const out = convertIds({ settings, deps: d, deadline: clock.t + 25000 }, 'US', ids.concat(ids));
  expect(fetcher.requests.map((r) => JSON.parse(r.payload!).ids.length)).toEqual([20, 20, 5]);
  expect(out.get('id0')).toEqual({ status: 'found', value: ['B000000000'] });
  expect(out.get('id44')).toEqual({ status: 'found', value: ['B000000044', '123'] });
  expect(out.get('id1')).toEqual({ status: 'not-found' });
  expect(out.size).toBe(45);
});

test('convertAsins: batches of 1,000', () => {
  const asins = Array.from({ length: 2500 }, (_x, i) => 'B' + String(i).padStart(9, '0'));
  const svc = conversionService({ asinConvert: { B000000007: { upc: ['012345678905'] } } });
  const { d, clock, fetcher } = deps(svc);
  const out = convertAsins({ settings, deps: d, deadline: clock.t + 25000 }, 'UK', asins);
  expect(fetcher.requests.map((r) => JSON.parse(r.payload!).asins.length)).toEqual([1000, 1000, 500]);
  expect(JSON.parse(fetcher.requests[0].payload!).marketplace).toBe('UK');
  expect(out.get('B000000007')).toEqual({ status: 'found', value: { upc: ['012345678905'] } });
});

test('a 422 naming rows fails those ids only and converts the rest of the batch', () => {
  let first = true;
  const svc = conversionService({
    convert: { a: ['B00000000A'], c: ['B00000000C'] },
    override: (_n, req) => {
      if (first) {
        first = false;
        return {
          status: 422,
          body: { message: 'The given data was invalid.', errors: [{ index: 1, field: 'ids.1', message: 'Unknown identifier format.' }] },
        };
      }
      expect(JSON.parse(req.payload!).ids).toEqual(['a', 'c']);
      return undefined;
    },
  });
  const { d, clock } = deps(svc);
  const out = convertIds({ settings, deps: d, deadline: clock.t + 25000 }, 'US', ['a', 'b', 'c']);
  expect(out.get('a')).toEqual({ status: 'found', value: ['B00000000A'] });
  expect(out.get('c')).toEqual({ status: 'found', value: ['B00000000C'] });
  expect(out.get('b')).toMatchObject({
    status: 'failed',
    problem: { kind: 'validation', message: 'Refused by the Scan Service: Unknown identifier format.' },
  });
});

test('one failing batch does not spoil the others', () => {
  const svc = conversionService({
    convert: { x0: ['B0000000X0'], x25: ['B000000X25'] },
    override: (n) => (n === 1 ? { status: 403, body: { message: 'no' } } : undefined),
  });
  const { d, clock } = deps(svc);
  const ids = Array.from({ length: 30 }, (_x, i) => 'x' + i);
  const out = convertIds({ settings, deps: d, deadline: clock.t + 25000 }, 'US', ids);
  expect(out.get('x0')).toMatchObject({ status: 'failed', problem: { kind: 'forbidden' } });
  expect(out.get('x25')).toEqual({ status: 'found', value: ['B000000X25'] });
});
