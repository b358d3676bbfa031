/** scan.complete deliveries (document section 6), to a real local receiver. */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { call, start, KEY_A, KEY_B } from './helpers';
import type { RunningService } from '../../emulator/service/server';
import { deliveryLog, notifyScanComplete, webhookDns, type ScanCompleteInfo } from '../../emulator/service/webhooks/notify';

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  raw: string;
  at: number;
}
let svc: RunningService;
let receiver: Server;
let base: string;
const received: Received[] = [];
/** Status to answer per path, in order of arrival (default 200). */
const plans = new Map<string, Array<number | 'hang'>>();

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      received.push({ path: req.url!, headers: req.headers, raw, at: Date.now() });
      const next = plans.get(req.url!)?.shift() ?? 200;
      if (next === 'hang') return; // never answers: the service's time-out must fire
      if (next >= 300 && next < 400) res.setHeader('Location', `${base}/redirected`);
      res.statusCode = next;
      res.end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  svc = await start({ allowLoopbackWebhooks: true, webhookRetryDelaysMs: [20, 40, 80], webhookTimeoutMs: 300 });
});
afterAll(async () => {
  await svc.stop();
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
});

const accountId = (key: string) => (svc.ctx.db.prepare('SELECT id FROM accounts WHERE api_key = ?').get(key) as { id: number }).id;
const scan = (id: number): ScanCompleteInfo => ({
  id,
  name: `Scan ${id}`,
  status: 'success',
  marketplace_id: 1,
  products: 10,
  errors: 2,
  speed: 600,
  lines: 12,
  created_at: '2026-01-15T12:00:00',
  completed_at: '2026-01-15T12:01:00Z',
});
async function hook(path: string, extra: Record<string, unknown> = {}, key = KEY_A) {
  const res = await call(svc.url, 'POST', '/api/v4/webhooks', { key, json: { name: path, url: base + path, ...extra } });
  expect(res.status).toBe(201);
  return res.body as { id: number; secret: string };
}
const at = (path: string) => received.filter((r) => r.path === path);
async function waitFor(cond: () => boolean, ms = 3000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

test('a delivery carries the headers, the sha256 HMAC of the raw body and the payload with its time formats', async () => {
  const w = await hook('/ok');
  notifyScanComplete(svc.ctx, accountId(KEY_A), scan(101));
  await waitFor(() => at('/ok').length === 1);
  const r = at('/ok')[0];
  expect(r.headers['content-type']).toBe('application/json');
  expect(r.headers['x-service-event']).toBe('scan.complete');
  expect(r.headers['x-service-signature']).toBe('sha256=' + createHmac('sha256', w.secret).update(r.raw).digest('hex'));
  const payload = JSON.parse(r.raw);
  expect(payload).toEqual({
    event: 'scan.complete',
    timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    scan: scan(101),
  });
  expect(payload.scan.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  expect(payload.scan.completed_at).toMatch(/Z$/);
});

test('non-2xx answers are retried 3 times with growing delays, then given up', async () => {
  plans.set('/fail', [500, 503, 500, 500, 500]);
  await hook('/fail');
  notifyScanComplete(svc.ctx, accountId(KEY_A), scan(102));
  await waitFor(() => at('/fail').length === 4);
  await new Promise((r) => setTimeout(r, 250));
  const times = at('/fail').map((r) => r.at);
  expect(times).toHaveLength(4);
  const gaps = times.slice(1).map((t, i) => t - times[i]);
  expect(gaps[0]).toBeGreaterThanOrEqual(18);
  expect(gaps[1]).toBeGreaterThanOrEqual(38);
  expect(gaps[2]).toBeGreaterThanOrEqual(78);
});

test('a retry stops once the receiver answers 2xx', async () => {
  plans.set('/flaky', [502, 200]);
  await hook('/flaky');
  notifyScanComplete(svc.ctx, accountId(KEY_A), scan(103));
  await waitFor(() => at('/flaky').length === 2);
  await new Promise((r) => setTimeout(r, 200));
  expect(at('/flaky')).toHaveLength(2);
});

test('redirects are not followed: a 3xx is a failure and is retried', async () => {
  plans.set('/moved', [302, 301, 200]);
  await hook('/moved');
  notifyScanComplete(svc.ctx, accountId(KEY_A), scan(104));
  await waitFor(() => at('/moved').length === 3);
  expect(at('/redirected')).toHaveLength(0);
});

test('a receiver that does not answer in time counts as a failure and is retried', async () => {
  plans.set('/slow', ['hang', 200]);
  const w = await hook('/slow');
  notifyScanComplete(svc.ctx, accountId(KEY_A), scan(105));
  await waitFor(() => at('/slow').length === 2, 4000);
  const first = deliveryLog(svc.ctx).find((a) => a.webhookId === w.id && a.attempt === 0)!;
  expect(first.ok).toBe(false);
  expect(first.error).toMatch(/timed out after 300 ms/);
});

test("only active webhooks subscribed to scan.complete of the scan's account receive it", async () => {
  const off = await hook('/inactive');
  await call(svc.url, 'PATCH', `/api/v4/webhooks/${off.id}`, { json: { is_active: false } });
  await hook('/other-account', {}, KEY_B);
  await hook('/active-2');
  notifyScanComplete(svc.ctx, accountId(KEY_A), scan(106));
  await waitFor(() => at('/active-2').some((r) => JSON.parse(r.raw).scan.id === 106));
  await new Promise((r) => setTimeout(r, 100));
  expect(at('/inactive')).toHaveLength(0);
  expect(at('/other-account')).toHaveLength(0);
});

test('a regenerated secret signs the next attempt at once', async () => {
  // The first attempt hangs until the time-out, long enough to regenerate meanwhile.
  plans.set('/regen', ['hang', 200]);
  const w = await hook('/regen');
  notifyScanComplete(svc.ctx, accountId(KEY_A), scan(107));
  await waitFor(() => at('/regen').length === 1);
  const fresh = (await call(svc.url, 'POST', `/api/v4/webhooks/${w.id}/regenerate-secret`)).body.secret as string;
  await waitFor(() => at('/regen').length === 2);
  const second = at('/regen')[1];
  expect(second.headers['x-service-signature']).toBe('sha256=' + createHmac('sha256', fresh).update(second.raw).digest('hex'));
  expect(second.headers['x-service-signature']).not.toBe('sha256=' + createHmac('sha256', w.secret).update(second.raw).digest('hex'));
});

test('the name is resolved again at delivery: an internal address is refused without connecting', async () => {
  const w = await hook('/ignored');
  // Point the webhook at a public-looking name that resolves to a private address.
  svc.ctx.db.prepare('UPDATE webhooks SET url = ? WHERE id = ?').run(`http://hooks.example.com:${new URL(base).port}/rebind`, w.id);
  const real = webhookDns.lookup;
  webhookDns.lookup = (host, cb) => (host === 'hooks.example.com' ? cb(null, [{ address: '10.0.0.7', family: 4 }]) : real(host, cb));
  try {
    notifyScanComplete(svc.ctx, accountId(KEY_A), scan(108));
    await waitFor(() => deliveryLog(svc.ctx).some((a) => a.webhookId === w.id));
    const first = deliveryLog(svc.ctx).find((a) => a.webhookId === w.id)!;
    expect(first.ok).toBe(false);
    expect(first.error).toMatch(/resolves to the internal address 10\.0\.0\.7/);
    expect(at('/rebind')).toHaveLength(0);
  } finally {
    webhookDns.lookup = real;
  }
});

test('at delivery, a name resolving to an IPv6 form that carries an internal IPv4 is refused without connecting', async () => {
  const w = await hook('/ignored-6to4');
  svc.ctx.db.prepare('UPDATE webhooks SET url = ? WHERE id = ?').run(`http://hooks6.example.com:${new URL(base).port}/rebind6`, w.id);
  const real = webhookDns.lookup;
  // 2002:a00:7:: is 6to4 of 10.0.0.7; 2001:0:5db8:d822::80ff:fffe is Teredo whose client is 127.0.0.1.
  const answers: Record<string, string> = { 'hooks6.example.com': '2002:a00:7::1' };
  webhookDns.lookup = (host, cb) => (answers[host] ? cb(null, [{ address: answers[host], family: 6 }]) : real(host, cb));
  try {
    notifyScanComplete(svc.ctx, accountId(KEY_A), scan(109));
    await waitFor(() => deliveryLog(svc.ctx).some((a) => a.webhookId === w.id));
    const first = deliveryLog(svc.ctx).find((a) => a.webhookId === w.id)!;
    expect(first.ok).toBe(false);
    expect(first.error).toMatch(/resolves to the internal address 2002:a00:7::1/);
    answers['hooks6.example.com'] = '2001:0:5db8:d822::80ff:fffe';
    notifyScanComplete(svc.ctx, accountId(KEY_A), scan(110));
    await waitFor(() => deliveryLog(svc.ctx).some((a) => a.webhookId === w.id && a.scanId === 110));
    expect(deliveryLog(svc.ctx).find((a) => a.webhookId === w.id && a.scanId === 110)!.error).toMatch(
      /internal address 2001:0:5db8:d822::80ff:fffe/,
    );
    expect(at('/rebind6')).toHaveLength(0);
  } finally {
    webhookDns.lookup = real;
    await call(svc.url, 'DELETE', `/api/v4/webhooks/${w.id}`);
  }
});

test('notifying never throws and does not wait for the receiver', async () => {
  plans.set('/block', ['hang']);
  await hook('/block');
  const t0 = Date.now();
  expect(() => notifyScanComplete(svc.ctx, accountId(KEY_A), scan(109))).not.toThrow();
  expect(Date.now() - t0).toBeLessThan(50);
});
