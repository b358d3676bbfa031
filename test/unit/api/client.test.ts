import { buildRequest, sendAll, type ApiCall } from '../../../src/api/client';
import { requestJson } from '../../../src/api/exceptions';
import { FakeClock, FakeFetcher, type Handler } from './fakes';

const KEY = 'sk_live_SECRET_0123456789';
const settings = { baseUrl: 'https://svc.example.com/', apiKey: KEY };
const call = (n: number): ApiCall => ({
  method: 'post',
  path: '/api/v3/convert',
  body: { marketplace: 'US', ids: [String(n)] },
  subject: 'marketplace US',
});

function setup(handler: Handler, waveMs = 400) {
  const clock = new FakeClock();
  const fetcher = new FakeFetcher(handler, clock, waveMs);
  const log: string[] = [];
  const deps = { fetcher, sleep: clock.sleep, now: clock.now, random: () => 0.5, log: (l: string) => log.push(l) };
  return { clock, fetcher, log, deps };
}

describe('buildRequest', () => {
  test('bearer key, JSON string payload, muteHttpExceptions always, no redirects followed', () => {
    const r = buildRequest(settings, {
      method: 'post',
      path: '/api/v3/convert',
      body: { marketplace: 'US', ids: ['1'] },
      query: { page: 2, x: undefined },
    });
    expect(r).toEqual({
      url: 'https://svc.example.com/api/v3/convert?page=2',
      method: 'post',
      headers: { Authorization: 'Bearer ' + KEY, Accept: 'application/json' },
      contentType: 'application/json',
      payload: '{"marketplace":"US","ids":["1"]}',
      muteHttpExceptions: true,
      followRedirects: false,
    });
    const g = buildRequest(settings, { method: 'get', path: '/api/v3/scans/5/cancel' });
    expect(g.payload).toBeUndefined();
    expect(g.contentType).toBeUndefined();
    expect(g.muteHttpExceptions).toBe(true);
  });

  test('a form body (the upload) is the payload object itself, so UrlFetchApp sends multipart/form-data; no JSON content type', () => {
    const form = { file: { blob: 'csv' }, attributes: '{"options":{}}' };
    const r = buildRequest(settings, { method: 'post', path: '/api/v3/scans', form });
    expect((r as { payload?: unknown }).payload).toBe(form);
    expect(r.contentType).toBeUndefined();
    expect(r.headers.Authorization).toBe('Bearer ' + KEY);
  });
});

describe('a file call (downloads)', () => {
  test("a 2xx answer is handed over as it came, never read as text or JSON; a failed one is read as the service's problem", () => {
    let reads = 0;
    const file = { getResponseCode: () => 200, getHeaders: () => ({}), getContentText: () => (reads++, 'PK\u0003\u0004 not JSON') };
    const refused = { getResponseCode: () => 409, getHeaders: () => ({}), getContentText: () => '{"message":"Scan not finished."}' };
    const clock = new FakeClock();
    const answers = [file, refused];
    const deps = { fetcher: { fetchAll: (rs: unknown[]) => rs.map(() => answers.shift()!) }, sleep: clock.sleep, now: clock.now };
    const get = { method: 'post' as const, path: '/api/v3/scans/3/download', file: true };
    const ok = sendAll({ settings, deps, deadline: clock.t + 30000 }, [get])[0];
    expect(ok).toEqual({ ok: true, status: 200, body: undefined, attempts: 1, response: file });
    expect(reads).toBe(0);
    const no = sendAll({ settings, deps, deadline: clock.t + 30000 }, [get])[0];
    expect(no).toMatchObject({ ok: false, problem: { status: 409, serviceMessage: 'Scan not finished.' } });
  });
});

describe('sendAll', () => {
  test('sends in waves of maxParallel with fetchAll and keeps the order of answers', () => {
    const { fetcher, deps, clock } = setup((_r, p) => ({ status: 200, body: { echo: p.ids[0] } }));
    const res = sendAll(
      { settings, deps, deadline: clock.t + 30000 },
      Array.from({ length: 60 }, (_x, i) => call(i)),
      { maxParallel: 25 },
    );
    expect(fetcher.waves.map((w) => w.length)).toEqual([25, 25, 10]);
    expect(res.map((r) => (r.ok ? (r.body as any).echo : null))).toEqual(Array.from({ length: 60 }, (_x, i) => String(i)));
  });

  test('429 waits as Retry-After says, holding every pending call, then succeeds', () => {
    let n = 0;
    const { fetcher, deps, clock } = setup(() =>
      ++n <= 2 ? { status: 429, headers: { 'Retry-After': '3' }, body: { message: 'Too Many Attempts.' } } : { status: 200, body: {} },
    );
    const t0 = clock.t;
    const res = sendAll({ settings, deps: deps, deadline: t0 + 30000 }, [call(1), call(2)]);
    expect(res.every((r) => r.ok)).toBe(true);
    expect(fetcher.waves.length).toBe(2);
    // The retry went out no earlier than 3 s after the 429 came back.
    expect(clock.sleeps.length).toBe(1);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(3000);
    expect(res[0].ok && res[0].attempts).toBe(2);
  });

  test('5xx is retried with growing backoff until it succeeds', () => {
    let n = 0;
    const { deps, clock } = setup(() => (++n <= 3 ? { status: 502, body: 'Bad gateway' } : { status: 200, body: { ok: 1 } }));
    const res = sendAll({ settings, deps: deps, deadline: clock.t + 60000 }, [call(1)]);
    expect(res[0]).toMatchObject({ ok: true, attempts: 4 });
    expect(clock.sleeps).toEqual([750, 1500, 3000]); // random 0.5: 3/4 of 1 s, 2 s, 4 s
  });

  test('a wave that throws (unreachable) is retried, then gives up with a clear message', () => {
    const { deps, clock, fetcher } = setup(() => new Error('Address unavailable: https://svc.example.com'));
    const t0 = clock.t;
    const res = sendAll({ settings, deps: deps, deadline: t0 + 20000 }, [call(1), call(2)]);
    expect(res.every((r) => !r.ok && r.problem.kind === 'unreachable')).toBe(true);
    expect(fetcher.waves.length).toBeGreaterThan(1);
    expect(clock.t).toBeLessThanOrEqual(t0 + 20000);
    expect(!res[0].ok && res[0].problem.message).toMatch(/could not be reached/);
  });

  test('never runs past the deadline: a long Retry-After is not waited for', () => {
    const { deps, clock, fetcher } = setup(() => ({ status: 429, headers: { 'retry-after': '60' } }));
    const t0 = clock.t;
    const res = sendAll({ settings, deps: deps, deadline: t0 + 25000 }, [call(1)]);
    expect(res[0]).toMatchObject({ ok: false, problem: { kind: 'rate-limited' }, attempts: 1 });
    expect(fetcher.waves.length).toBe(1);
    expect(clock.t - t0).toBeLessThan(25000);
  });

  test('a 429 storm: retries while time allows, ends before the deadline', () => {
    const { deps, clock, fetcher } = setup(() => ({ status: 429, headers: { 'retry-after': '4' } }));
    const t0 = clock.t;
    const res = sendAll({ settings, deps: deps, deadline: t0 + 25000 }, [call(1), call(2), call(3)]);
    expect(res.every((r) => !r.ok && r.problem.kind === 'rate-limited')).toBe(true);
    expect(fetcher.waves.length).toBeGreaterThanOrEqual(3);
    expect(clock.t).toBeLessThanOrEqual(t0 + 25000);
    for (const s of clock.sleeps) expect(s).toBeGreaterThanOrEqual(4000);
  });

  test('401 is not retried and asks for Settings', () => {
    const { deps, clock, fetcher } = setup(() => ({ status: 401, body: { message: 'Unauthenticated.' } }));
    const res = sendAll({ settings, deps: deps, deadline: clock.t + 25000 }, [call(1)]);
    expect(fetcher.waves.length).toBe(1);
    expect(res[0]).toMatchObject({ ok: false, problem: { kind: 'auth', openSettings: true } });
  });

  test('a 2xx that is not JSON is a readable problem, not a crash', () => {
    const { deps, clock } = setup(() => ({ status: 200, body: '<html>login</html>' }));
    expect(sendAll({ settings, deps: deps, deadline: clock.t + 25000 }, [call(1)])[0]).toMatchObject({
      ok: false,
      problem: { kind: 'bad-response' },
    });
  });

  test('the key appears in no problem and no log line, whatever happens', () => {
    const answers: Array<ReturnType<Handler>> = [
      { status: 401, body: { message: 'bad key ' + KEY } },
      { status: 500, body: { message: 'Authorization: Bearer ' + KEY } },
      new Error('Exception: Request failed for https://svc.example.com ' + KEY),
      { status: 422, body: { message: KEY, errors: [{ index: 0, field: 'ids', message: KEY }] } },
    ];
    for (const a of answers) {
      const { deps, clock, log } = setup(() => a);
      const res = sendAll({ settings, deps: deps, deadline: clock.t + 10000 }, [call(1)]);
      expect(JSON.stringify(res)).not.toContain(KEY);
      expect(log.join('\n')).not.toContain(KEY);
      expect(log.length).toBeGreaterThan(0);
    }
  });
});

describe('requestJson', () => {
  test('answers the body, or throws the plain-language problem without the key', () => {
    const ok = setup(() => ({ status: 200, body: { data: [1] } }));
    expect(requestJson({ settings, deps: ok.deps, deadline: ok.clock.t + 10000 }, call(1))).toEqual({ data: [1] });
    const bad = setup(() => ({ status: 401, body: { message: 'no ' + KEY } }));
    let caught: any;
    try {
      requestJson({ settings, deps: bad.deps, deadline: bad.clock.t + 10000 }, call(1));
    } catch (e) {
      caught = e;
    }
    expect(caught.message).toMatch(/^The API key was refused/);
    expect(caught.problem.openSettings).toBe(true);
    expect(JSON.stringify({ m: caught.message, p: caught.problem })).not.toContain(KEY);
  });
});

test('the execution time limit is not mistaken for an unreachable service', () => {
  const { deps, clock } = setup(() => new Error('Exceeded maximum execution time'));
  expect(() => sendAll({ settings, deps: deps, deadline: clock.t + 20000 }, [call(1)])).toThrow('Exceeded maximum execution time');
});
