/**
 * While a scan runs, on the BUILT add-on in the local runtime against the local Scan Service at a
 * slow speed (so progress and cancel can be seen), behind a fault-injecting proxy: progress,
 * cancel, reopening finds the scan, per-user records, and 401/422/429/5xx/time-out behaviour with
 * nothing half-written.
 */
import { connect, listWorkbook, runtime, scanRequest, thrown, useServiceBehindProxy } from './scanflow-helpers';
import { RUNNING_KEY } from '../../src/store/keys';

const OWNER = 'owner@example.com';
const EDITOR = 'editor@example.com';
const KEY_A = 'key-a-0123456789abcdef';
const KEY_B = 'key-b-0123456789abcdef';

// 120 lines per minute: a 40-line scan takes 20 s, so it is seen running.
const env = useServiceBehindProxy({ SCAN_SERVICE_SPEED: '120', SCAN_SERVICE_API_KEYS: `${KEY_A},${KEY_B}` });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function request(rt: ReturnType<typeof runtime>, name = 'Progress test', user?: string) {
  return scanRequest(rt.scriptRun('getScanSetup', [], user ? { user } : {}), { marketplace: 'US', name });
}

function setUp(n = 40, key = KEY_A, url = env.proxy.url, opts: Parameters<typeof runtime>[1] = {}) {
  const wb = listWorkbook(n, OWNER);
  const rt = runtime(wb, opts);
  connect(rt, url, key);
  return { wb, rt };
}

async function forwardedUploads(): Promise<number> {
  return (await env.proxy.seen()).filter((s) => s.method === 'POST' && s.path === '/api/v3/scans' && !s.injected).length;
}

describe('progress and cancel', () => {
  test('progress while running (rows done of lines, speed, time left), cancel, and a second cancel answers the same', async () => {
    const { rt } = setUp(40);
    const started = rt.scriptRun('startScan', [request(rt)]) as any;
    const id = started.progress.scanId;
    expect(started.progress).toEqual(
      expect.objectContaining({ lines: 40, done: 0, status: 'queued', secondsLeft: null, completedAt: null }),
    );
    // At 120 lines a minute the second line is done after about 1 s; wait for it (bounded).
    let p: any;
    for (let waited = 0; waited < 10_000; waited += 500) {
      await sleep(500);
      p = rt.scriptRun('getScanProgress', [id]);
      if (p.done >= 2) break;
    }
    expect(p.status).toBe('running');
    expect(p.done).toBeGreaterThan(0);
    expect(p.done).toBeLessThan(40);
    // speed is products per minute; half the lines give none, so the lines rate is speed * done / products.
    expect(p.products).toBeGreaterThan(0);
    expect(p.products).toBeLessThan(p.done);
    expect(p.speed).toBeGreaterThan(0);
    expect(p.secondsLeft).toBe(Math.ceil(((40 - p.done) * p.products * 60) / (p.speed * p.done)));
    expect(p.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/);

    const c = rt.scriptRun('cancelScan', [id]) as any;
    expect(c).toEqual(expect.objectContaining({ scanId: id, status: 'cancelled', secondsLeft: 0 }));
    expect(c.done).toBeLessThan(40);
    expect(c.completedAt).toMatch(/Z$/);
    // Cancelling a finished scan (the service answers 409) answers its progress.
    const again = rt.scriptRun('cancelScan', [id]) as any;
    expect(again).toEqual(expect.objectContaining({ scanId: id, status: 'cancelled', done: c.done }));
    await rt.stop();
  });

  test('reopening the sidebar finds the running scan; another editor (another key) does not see it; a deleted scan is forgotten', async () => {
    const { rt } = setUp(40);
    const started = rt.scriptRun('startScan', [request(rt)]) as any;
    const id = started.progress.scanId;
    // "Reopening": new executions, nothing kept in the sidebar.
    const running = rt.scriptRun('getRunningScans') as any[];
    expect(running.map((s) => s.scanId)).toEqual([id]);
    const setup = rt.scriptRun('getScanSetup') as any;
    expect(setup.running.map((s: any) => [s.scanId, s.name])).toEqual([[id, 'Progress test']]);

    connect(rt, env.proxy.url, KEY_B, EDITOR);
    expect(rt.scriptRun('getRunningScans', [], { user: EDITOR })).toEqual([]);

    const del = await fetch(`${env.svc.url}/api/v3/scans/${id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${KEY_A}` } });
    expect(del.status).toBe(200);
    expect(rt.scriptRun('getRunningScans')).toEqual([]);
    expect(rt.properties.document!.get(RUNNING_KEY)).toBeNull();
    await rt.stop();
  });
});

describe('faults', () => {
  test('401: the message says the key was refused and carries the open-settings marker; nothing is recorded', async () => {
    const { rt } = setUp(5, 'not-a-valid-key-000000');
    const req = request(rt);
    expect(thrown(() => rt.scriptRun('startScan', [req]))).toBe(
      '[open-settings] The API key was refused by the Scan Service. Open Extensions > Settings and paste the key from Integrations > API Access.',
    );
    expect(rt.properties.document!.get(RUNNING_KEY)).toBeNull();
    expect(thrown(() => rt.scriptRun('getScanProgress', [1]))).toMatch(/^\[open-settings\] The API key was refused/);
    expect(thrown(() => rt.scriptRun('cancelScan', [1]))).toMatch(/^\[open-settings\] The API key was refused/);
    await rt.stop();
  });

  test('422: shows what the service refused, with its rows; nothing is recorded', async () => {
    const { rt } = setUp(5);
    const req = request(rt, 'N'.repeat(300));
    const msg = thrown(() => rt.scriptRun('startScan', [req]));
    expect(msg).toMatch(/^The Scan Service refused the request: /);
    expect(msg).toMatch(/options\.name/);
    expect(rt.properties.document!.get(RUNNING_KEY)).toBeNull();
    expect(await forwardedUploads()).toBe(1);
    await rt.stop();
  });

  test('429 on the upload: waits as Retry-After says, then sends once more and succeeds', async () => {
    const { rt } = setUp(5);
    await env.proxy.faults([{ method: 'POST', path: '^/api/v3/scans$', status: 429, times: 1, headers: { 'Retry-After': '7' } }]);
    const req = request(rt);
    const started = rt.scriptRun('startScan', [req]) as any;
    expect(started.progress.scanId).toBeGreaterThan(0);
    const exec = rt.executions[rt.executions.length - 1];
    expect(exec.durationMs).toBeGreaterThanOrEqual(7000);
    expect(exec.durationMs).toBeLessThan(7000 * 1.1 + 5000);
    const ups = (await env.proxy.seen()).filter((s) => s.path === '/api/v3/scans');
    expect(ups.map((s) => s.status)).toEqual([429, 201]);
    expect(Object.keys(JSON.parse(rt.properties.document!.get(RUNNING_KEY)!))).toEqual([String(started.progress.scanId)]);
    await rt.stop();
  });

  test('5xx on the upload: retried with backoff and succeeds; when it persists, a clear message and no scan, no record', async () => {
    const { rt } = setUp(5);
    await env.proxy.faults([{ method: 'POST', path: '^/api/v3/scans$', status: 503, times: 2 }]);
    const ok = rt.scriptRun('startScan', [request(rt)]) as any;
    expect(ok.progress.scanId).toBeGreaterThan(0);
    expect((await env.proxy.seen()).filter((s) => s.path === '/api/v3/scans').map((s) => s.status)).toEqual([503, 503, 201]);

    await env.proxy.reset();
    rt.scriptRun('cancelScan', [ok.progress.scanId]);
    const recordBefore = rt.properties.document!.get(RUNNING_KEY);
    await env.proxy.faults([{ method: 'POST', path: '^/api/v3/scans$', status: 500, times: 100 }]);
    const req = request(rt, 'Never');
    expect(thrown(() => rt.scriptRun('startScan', [req]))).toBe(
      'The Scan Service had a problem (error 500). Try again later. The scan was not started (tried 6 times).',
    );
    const seen = (await env.proxy.seen()).filter((s) => s.path === '/api/v3/scans');
    expect(seen).toHaveLength(6);
    expect(seen.every((s) => s.injected)).toBe(true);
    // Backoff waits were taken (1+2+4+8+16 s at least half each, on the modelled clock).
    expect(rt.executions[rt.executions.length - 1].durationMs).toBeGreaterThan(15_500);
    expect(rt.properties.document!.get(RUNNING_KEY)).toBe(recordBefore);
    await rt.stop();
  });

  test('a time-out on the upload is not retried (the scan may exist): the message says to look in the history', async () => {
    const { rt } = setUp(5, KEY_A, env.proxy.url, { urlFetchTimeoutMs: 1500 });
    await env.proxy.faults([{ method: 'POST', path: '^/api/v3/scans$', status: 201, times: 1, delayMs: 3000 }]);
    const req = request(rt);
    expect(thrown(() => rt.scriptRun('startScan', [req]))).toBe(
      'The Scan Service did not answer the upload in time. It may still have received it: look in Scans (history) before starting the scan again.',
    );
    expect((await env.proxy.seen()).filter((s) => s.path === '/api/v3/scans')).toHaveLength(1);
    expect(rt.properties.document!.get(RUNNING_KEY)).toBeNull();
    await rt.stop();
  });

  test('progress: 429 and 503 and a time-out are retried; the sidebar gets the progress', async () => {
    const { rt } = setUp(5, KEY_A, env.proxy.url, { urlFetchTimeoutMs: 1500 });
    const id = (rt.scriptRun('startScan', [request(rt)]) as any).progress.scanId;
    await env.proxy.reset();
    await env.proxy.faults([
      { method: 'GET', path: '^/api/v3/scans/\\d+$', status: 429, times: 1, headers: { 'Retry-After': '3' } },
      { method: 'GET', path: '^/api/v3/scans/\\d+$', status: 503, times: 1 },
      { method: 'GET', path: '^/api/v3/scans/\\d+$', status: 200, times: 1, delayMs: 2500 },
    ]);
    const p = rt.scriptRun('getScanProgress', [id]) as any;
    expect(p.scanId).toBe(id);
    expect((await env.proxy.seen()).map((s) => s.injected)).toEqual([true, true, true, false]);
    rt.scriptRun('cancelScan', [id]);
    await rt.stop();
  });

  test('progress when the service keeps failing (502): a clear message after the retries, the record is kept', async () => {
    const { rt } = setUp(5);
    const id = (rt.scriptRun('startScan', [request(rt)]) as any).progress.scanId;
    rt.scriptRun('cancelScan', [id]);
    await env.proxy.faults([{ method: 'GET', path: '^/api/v3/scans/\\d+$', status: 502, times: 100 }]);
    expect(thrown(() => rt.scriptRun('getScanProgress', [id]))).toBe('The Scan Service had a problem (error 502). Try again later.');
    expect(Object.keys(JSON.parse(rt.properties.document!.get(RUNNING_KEY)!))).toEqual([String(id)]);
    await rt.stop();
  });

  test('when the record cannot be written (document lock held elsewhere), the started scan is still answered, not started twice', async () => {
    const { rt } = setUp(3);
    const req = request(rt);
    rt.locks.hold('document', { forMs: 60_000 });
    const started = rt.scriptRun('startScan', [req]) as any;
    expect(started.progress.scanId).toBeGreaterThan(0);
    expect(await forwardedUploads()).toBe(1);
    expect(rt.properties.document!.get(RUNNING_KEY)).toBeNull();
    expect(rt.logs.join('\n')).toContain(`scan ${started.progress.scanId} started but not recorded: Lock timeout`);
    rt.scriptRun('cancelScan', [started.progress.scanId]);
    await rt.stop();
  });

  test('a scan number that is not one is refused without a call', async () => {
    const { rt } = setUp(2);
    expect(thrown(() => rt.scriptRun('getScanProgress', ['12; DROP']))).toBe('Not a scan number: 12; DROP.');
    await rt.stop();
  });
});
