/**
 * The paced client of the bulk areas with fakes: a fake service that enforces 30 requests per
 * sliding minute on the fake clock, so "never provokes a 429" is checked against the rule itself.
 */
import { BulkPacer } from '../../../src/api/bulk-pacer';
import { listAllPages, sendPaced, writeRows, type PacedContext } from '../../../src/api/bulk';
import { OutOfTimeError } from '../../../src/api/exceptions';
import { FakeClock, FakeFetcher, type FakeAnswer } from './fakes';
import { sendAll } from '../../../src/api/client';

const settings = { baseUrl: 'https://svc.test', apiKey: 'k-123456789012' };

/** A service keeping the 30-per-minute rule on the fake clock; `rows` entries listed in pages. */
function limitedService(clock: FakeClock, rows = 0, extra?: (path: string, n: number) => FakeAnswer | undefined) {
  const hits: number[] = [];
  let n = 0;
  const seen: string[] = [];
  const fetcher = new FakeFetcher((req) => {
    n++;
    const path = req.url.replace('https://svc.test', '');
    seen.push(req.method + ' ' + path);
    const injected = extra?.(path, n);
    if (injected) return injected;
    const now = clock.t;
    const recent = hits.filter((t) => t > now - 60_000);
    if (recent.length >= 30)
      return {
        status: 429,
        body: { message: 'slow down' },
        headers: { 'Retry-After': String(Math.ceil((recent[0] + 60_000 - now) / 1000)) },
      };
    hits.splice(0, hits.length, ...recent, now);
    if (req.method === 'get') {
      const page = Number(/page=(\d+)/.exec(path)![1]);
      const data = Array.from({ length: Math.max(0, Math.min(1000, rows - (page - 1) * 1000)) }, (_, i) => ({
        id: (page - 1) * 1000 + i,
        name: 'b' + ((page - 1) * 1000 + i),
      }));
      return { status: 200, body: { data, page, per_page: 1000, total: rows } };
    }
    return { status: 200, body: { created: JSON.parse(req.payload!).brands.length, updated: 0, unchanged: 0, deleted: 0 } };
  }, clock);
  return { fetcher, seen, hits };
}

function context(clock: FakeClock, fetcher: FakeFetcher, deadlineMs = 600_000): PacedContext {
  const deps = { fetcher, sleep: clock.sleep, now: clock.now, random: () => 0.5 };
  return {
    settings,
    deps,
    pacer: new BulkPacer(clock.now, clock.sleep, null),
    deadline: clock.t + deadlineMs,
    stats: { requests: 0, rateLimited: 0 },
  };
}

test('95 pages are read at the floor, in waves the window allows, without one 429', () => {
  const clock = new FakeClock();
  const svc = limitedService(clock, 94_500);
  const ctx = context(clock, svc.fetcher);
  const rows = listAllPages<{ name: string }>(ctx, '/api/v3/brand-blocklist', {});
  expect(rows.length).toBe(94_500);
  expect(svc.seen.length).toBe(95);
  expect(ctx.stats).toEqual({ requests: 95, rateLimited: 0 });
  // 1 + 29, then 30, 30, 5 after the window moved: about three minutes of waiting
  expect(svc.fetcher.waves.map((w) => w.length)).toEqual([1, 29, 30, 30, 5]);
  expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBeGreaterThan(3 * 60_000);
});

test('a pacer that remembers requests of an earlier execution waits for them too', () => {
  const clock = new FakeClock();
  const svc = limitedService(clock, 0);
  let stored: number[] = [];
  const store = { load: () => stored, save: (t: number[]) => (stored = t.slice()) };
  const a = new BulkPacer(clock.now, clock.sleep, store);
  a.record(30, clock.t);
  clock.t += 10_000;
  const ctx = { ...context(clock, svc.fetcher), pacer: new BulkPacer(clock.now, clock.sleep, store) };
  writeRows(ctx, 'post', '/api/v3/brand-blocklist', 'US', 'brands', ['Acme']);
  expect(clock.sleeps).toEqual([51_000]);
});

test('writes go 10,000 rows a request, counts summed', () => {
  const clock = new FakeClock();
  const svc = limitedService(clock);
  const counts = writeRows(
    context(clock, svc.fetcher),
    'post',
    '/api/v3/brand-blocklist',
    'US',
    'brands',
    Array.from({ length: 25_001 }, (_, i) => 'b' + i),
  );
  expect(svc.fetcher.requests.map((r) => JSON.parse(r.payload!).brands.length)).toEqual([10_000, 10_000, 5_001]);
  expect(counts).toEqual({ created: 25_001, updated: 0, unchanged: 0, deleted: 0 });
});

test('a 429 storm with Retry-After is waited out (more often than the retry policy allows other failures)', () => {
  const clock = new FakeClock();
  const svc = limitedService(clock, 0, (_p, n) => (n <= 8 ? { status: 429, body: {}, headers: { 'Retry-After': '7' } } : undefined));
  const ctx = context(clock, svc.fetcher);
  writeRows(ctx, 'post', '/api/v3/brand-blocklist', 'US', 'brands', ['Acme']);
  expect(ctx.stats).toEqual({ requests: 9, rateLimited: 8 });
  expect(clock.sleeps.every((ms) => ms >= 7000)).toBe(true);
});

test("5xx backs off and gives up after the policy's attempts with the service's problem", () => {
  const clock = new FakeClock();
  const svc = limitedService(clock, 0, () => ({ status: 503, body: { message: 'down' } }));
  expect(() => writeRows(context(clock, svc.fetcher), 'post', '/api/v3/brand-blocklist', 'US', 'brands', ['Acme'])).toThrow(
    'The Scan Service had a problem (error 503). Try again later.',
  );
  expect(svc.seen.length).toBe(6);
});

test('when the window would open after the deadline, the caller gets OutOfTimeError (and checkpoints)', () => {
  const clock = new FakeClock();
  const svc = limitedService(clock, 40_000);
  expect(() =>
    sendPaced(
      context(clock, svc.fetcher, 30_000),
      Array.from({ length: 40 }, (_, i) => ({ method: 'get' as const, path: '/api/v3/brand-blocklist', query: { page: i + 1 } })),
    ),
  ).toThrow(OutOfTimeError);
  expect(svc.seen.length).toBe(30);
});

test('a paced run out of time answers every call instead of throwing: what went through, then out-of-time for the rest', () => {
  const clock = new FakeClock();
  const svc = limitedService(clock, 40_000);
  const calls = Array.from({ length: 40 }, (_, i) => ({ method: 'get' as const, path: '/api/v3/brand-blocklist', query: { page: i + 1 } }));
  const results = sendAll(context(clock, svc.fetcher, 30_000), calls, { paced: true });
  expect(svc.seen.length).toBe(30);
  expect(results.length).toBe(40);
  expect(results.slice(0, 30).every((r) => r.ok)).toBe(true);
  expect(results.slice(30).map((r) => (r.ok ? 'ok' : r.problem.kind + ': ' + r.problem.message))).toEqual(
    Array(10).fill('out-of-time: The time for this run is used up; the sync continues on the next run.'),
  );
});

test('a paced run ended by a failure for good sends nothing more; every call it did not settle carries that failure', () => {
  const refusing = (clock: FakeClock) =>
    limitedService(clock, 40_000, (path) =>
      /page=3\b/.test(path) ? { status: 422, body: { message: 'bad page', errors: [] } } : undefined,
    );
  const clock = new FakeClock();
  const svc = refusing(clock);
  const calls = Array.from({ length: 40 }, (_, i) => ({ method: 'get' as const, path: '/api/v3/brand-blocklist', query: { page: i + 1 } }));
  const ctx = context(clock, svc.fetcher);
  const results = sendAll(ctx, calls, { paced: true });
  // One wave of 30 went out (the window's share); the run stopped at its third answer, before a second wave.
  expect(svc.seen.length).toBe(30);
  expect(ctx.stats!.requests).toBe(3);
  expect(results.map((r) => (r.ok ? 'ok' : r.problem.kind))).toEqual(['ok', 'ok', ...Array(38).fill('validation')]);
  // Its caller that cannot go on without the answers gets that failure, as before.
  const again = new FakeClock();
  expect(() => sendPaced(context(again, refusing(again).fetcher), calls)).toThrow('The Scan Service refused the request: bad page');
});

test('a Retry-After longer than Utilities.sleep allows (5 minutes a call) is slept in steps, by sendAll and by the paced client', () => {
  for (const paced of [false, true]) {
    const clock = new FakeClock();
    let n = 0;
    const fetcher = new FakeFetcher(
      () =>
        ++n === 1
          ? { status: 429, body: {}, headers: { 'Retry-After': '400' } }
          : { status: 200, body: { created: 1, updated: 0, unchanged: 0, deleted: 0 } },
      clock,
    );
    const deps = { fetcher, sleep: clock.sleep, now: clock.now, random: () => 0 };
    const call = { method: 'post' as const, path: '/api/v3/brand-blocklist', body: { marketplace_id: 'US', brands: ['a'] } };
    if (paced) sendPaced({ settings, deps, pacer: new BulkPacer(clock.now, clock.sleep, null), deadline: clock.t + 3600_000 }, [call]);
    else expect(sendAll({ settings, deps, deadline: clock.t + 3600_000 }, [call])[0].ok).toBe(true);
    expect(Math.max(...clock.sleeps)).toBeLessThanOrEqual(300_000);
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(400_000);
  }
});
