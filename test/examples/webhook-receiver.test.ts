/**
 * The example receiver (examples/webhook-receiver/) end to end: run as people run it (node
 * server.js, configured by environment), fed by the local Scan Service (spawned with its
 * development flag letting webhooks point at loopback) after real scans finish. Also what it
 * refuses when sent directly.
 */
import { SAMPLE_EVENT } from '../../src/app/webhooks/help';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { spawnService, type SpawnedService } from '../../emulator/service/spawn';
import {
  api,
  post,
  RECEIVER,
  runScan,
  sign,
  startReceiver,
  startRelay,
  waitFor,
  type RelayAction,
  type RunningReceiver,
} from './receiver-helpers';

jest.setTimeout(45_000);

const KEYS = [
  'rcv-real-0123456789',
  'rcv-tamper-0123456789',
  'rcv-stale-0123456789',
  'rcv-retry-0123456789',
  'rcv-lost-0123456789',
  'rcv-sample-0123456789',
];
const [REAL, TAMPER, STALE, RETRY, LOST, SAMPLE] = KEYS;
let svc: SpawnedService;
let dir: string;
const stops: Array<() => Promise<void>> = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'webhook-receiver-'));
  svc = await spawnService({
    SCAN_SERVICE_API_KEYS: KEYS.join(','),
    SCAN_SERVICE_SPEED: '600000',
    SCAN_SERVICE_ALLOW_LOOPBACK_WEBHOOKS: '1',
    SCAN_SERVICE_WEBHOOK_RETRY_DELAYS_MS: '200,400,800',
  });
});
afterAll(async () => {
  for (const s of stops) await s();
  await svc?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function receiver(env: Record<string, string>): Promise<RunningReceiver> {
  const r = await startReceiver(env);
  stops.push(r.stop);
  return r;
}

async function createHook(key: string, url: string): Promise<{ id: number; secret: string }> {
  const r = await api(svc.url, key, 'POST', '/api/v4/webhooks', { name: 'receiver', url });
  expect(r.status).toBe(201);
  return r.body;
}

/**
 * A webhook of the account `key`, pointed through a relay (acting by `plan`) at a receiver started
 * with the webhook's secret and `env`: the secret exists once the webhook does, so the receiver
 * starts with it and then the webhook is pointed at it. `pointed` is the service's answer to that.
 */
async function hookThroughRelay(key: string, plan: (n: number) => RelayAction, env: Record<string, string> = {}) {
  const hook = await createHook(key, 'http://127.0.0.1:9/placeholder');
  const rcv = await receiver({ WEBHOOK_SECRET: hook.secret, ...env });
  const relay = await startRelay(rcv.url, plan);
  stops.push(relay.stop);
  const pointed = await api(svc.url, key, 'PATCH', `/api/v4/webhooks/${hook.id}`, { url: relay.url });
  return { hook, rcv, relay, pointed };
}

/**
 * A scan.complete delivery's body, stamped `at` (to the second): a finished
 * scan, `scan`'s fields over these; `envelope` over the event's own fields.
 */
function delivery(
  { id, ...scan }: { id: number } & Record<string, unknown>,
  at = Date.now(),
  envelope: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    event: 'scan.complete',
    timestamp: new Date(at).toISOString().replace(/\.\d+Z$/, 'Z'),
    scan: {
      id,
      name: 'n',
      status: 'success',
      marketplace_id: 1,
      products: 3,
      errors: 1,
      speed: 60,
      lines: 4,
      created_at: '2026-11-25T10:00:00',
      completed_at: '2026-11-25T10:01:00Z',
      ...scan,
    },
    ...envelope,
  });
}

/** The headers of a delivery of `event` with its body signed by `secret`. */
const signedWith = (raw: string, secret: string, event = 'scan.complete') => ({
  'content-type': 'application/json',
  'x-service-event': event,
  'x-service-signature': sign(raw, secret),
});

const csvRows = (file: string) => readFileSync(file, 'utf8').split('\r\n').filter(Boolean);

test('a real scan.complete from the local service is verified, logged with its counts and link, and written to the CSV', async () => {
  const csv = join(dir, 'scans.csv');
  const { rcv, relay, pointed } = await hookThroughRelay(REAL, () => 'forward', {
    WEBHOOK_CSV: csv,
    SCAN_LINK_TEMPLATE: 'https://scans.example.com/scans/{id}',
  });
  expect(pointed.status).toBe(200);

  const scan = await runScan(svc.url, REAL, 'Price List, "Q4" =1+1');
  await waitFor(() => rcv.handled().length === 1 && relay.answered() === 1, 'the delivery');
  expect(relay.deliveries.map((d) => [d.receiverStatus, d.status])).toEqual([[200, 200]]);
  expect(relay.deliveries[0].headers['x-service-event']).toBe('scan.complete');
  expect(scan.lines).toBe(4);
  expect(rcv.handled()[0]).toMatch(
    new RegExp(
      `scan ${scan.id} "Price List, \\\\"Q4\\\\" =1\\+1" ${scan.status}: 4 lines, ${scan.products} products, ${scan.errors} errors \\(\\d+ products/min\\) https://scans\\.example\\.com/scans/${scan.id}$`,
    ),
  );
  const rows = csvRows(csv);
  expect(rows).toHaveLength(2);
  expect(rows[0]).toBe('received_at,scan_id,name,status,marketplace_id,lines,products,errors,speed,created_at,completed_at,link');
  const payload = JSON.parse(relay.deliveries[0].raw.toString());
  const receivedAt = rows[1].slice(0, rows[1].indexOf(','));
  expect(receivedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  // The name quoted (comma, quotes); the counts as the scan record says.
  expect(rows[1]).toBe(
    [
      receivedAt,
      scan.id,
      '"Price List, ""Q4"" =1+1"',
      scan.status,
      1,
      4,
      scan.products,
      scan.errors,
      payload.scan.speed,
      payload.scan.created_at,
      payload.scan.completed_at,
      `https://scans.example.com/scans/${scan.id}`,
    ].join(','),
  );
  expect(rcv.stderr()).toBe('');
});

test('a scan name that starts like a formula is written to the CSV with a leading apostrophe', async () => {
  const csv = join(dir, 'formula.csv');
  const rcv = await receiver({ WEBHOOK_SECRET: 'formula-secret', WEBHOOK_CSV: csv });
  const raw = delivery({ id: 77, name: '=HYPERLINK("http://evil","x")', products: 1, errors: 0, lines: 1 });
  const r = await post(rcv.url, raw, signedWith(raw, 'formula-secret'));
  expect(r.status).toBe(200);
  expect(csvRows(csv)[1].split(',').slice(1, 3)).toEqual(['77', `"'=HYPERLINK(""http://evil""`]);
});

test('a tampered body is refused with 401 at every attempt and never handled', async () => {
  const csv = join(dir, 'tampered.csv');
  // Webhook first (for its secret), then the receiver, then the relay that tampers on the way.
  const { hook, rcv, relay } = await hookThroughRelay(TAMPER, () => 'tamper', { WEBHOOK_CSV: csv });
  await runScan(svc.url, TAMPER, 'tampered');
  // The first attempt and its 3 retries.
  await waitFor(() => relay.answered() === 4, 'four attempts');
  expect(relay.deliveries.map((d) => [d.receiverStatus, d.receiverBody])).toEqual(
    Array(4).fill([401, '{"error":"signature does not match"}']),
  );
  // The service's signature was right for what it sent: only the tampering broke it.
  for (const d of relay.deliveries) expect(d.headers['x-service-signature']).toBe(sign(d.raw, hook.secret));
  // The receiver logs a refusal after answering it: wait for the line, not for the answer.
  await waitFor(
    () => (rcv.stderr().match(/refused POST \/scan-complete: 401 signature does not match/g) ?? []).length === 4,
    'four refusals logged',
  );
  expect(rcv.handled()).toEqual([]);
  expect(existsSync(csv)).toBe(false);
});

test('after the secret is regenerated, a receiver still holding the old one refuses every delivery', async () => {
  const { hook, rcv, relay } = await hookThroughRelay(STALE, () => 'forward');
  const fresh = await api(svc.url, STALE, 'POST', `/api/v4/webhooks/${hook.id}/regenerate-secret`);
  expect(fresh.body.secret).not.toBe(hook.secret);
  await runScan(svc.url, STALE, 'stale secret');
  await waitFor(() => relay.answered() === 4, 'four attempts');
  expect(relay.deliveries.map((d) => d.receiverStatus)).toEqual([401, 401, 401, 401]);
  for (const d of relay.deliveries) expect(d.headers['x-service-signature']).toBe(sign(d.raw, fresh.body.secret));
  expect(rcv.handled()).toEqual([]);
  // The same delivery is accepted by a receiver given the new secret (the refusal was the secret's).
  const updated = await receiver({ WEBHOOK_SECRETS: `${fresh.body.secret},${hook.secret}` });
  const last = relay.deliveries[3];
  expect((await post(updated.url, last.raw, last.headers)).status).toBe(200);
  // Its stdout line may reach this process after the HTTP answer: wait for what is read.
  await waitFor(() => updated.handled().length > 0, 'the handled line');
  expect(updated.handled()).toHaveLength(1);
});

test('a delivery answered 500 is retried by the service, and the retry is handled', async () => {
  const csv = join(dir, 'retry.csv');
  const { rcv, relay } = await hookThroughRelay(RETRY, (n) => (n === 0 ? 'fail' : 'forward'), { WEBHOOK_CSV: csv });
  const scan = await runScan(svc.url, RETRY, 'retried');
  await waitFor(() => rcv.handled().length === 1 && relay.answered() === 2, 'the retried delivery');
  await new Promise((r) => setTimeout(r, 1000)); // nothing more comes once it was acknowledged
  expect(relay.deliveries.map((d) => [d.status, d.receiverStatus])).toEqual([
    [500, undefined],
    [200, 200],
  ]);
  expect(relay.deliveries[1].at - relay.deliveries[0].at).toBeGreaterThanOrEqual(190);
  // Each attempt is signed afresh with its own timestamp; the scan is the same.
  const [a, b] = relay.deliveries.map((d) => JSON.parse(d.raw.toString()));
  expect(b.scan).toEqual(a.scan);
  expect(rcv.handled()[0]).toContain(`scan ${scan.id} "retried"`);
  expect(csvRows(csv)).toHaveLength(2);
});

test('a retry after a lost answer is acknowledged as a duplicate, not handled twice', async () => {
  const csv = join(dir, 'lost.csv');
  const { rcv, relay } = await hookThroughRelay(LOST, (n) => (n === 0 ? 'forward-then-fail' : 'forward'), { WEBHOOK_CSV: csv });
  await runScan(svc.url, LOST, 'lost answer');
  await waitFor(() => relay.answered() === 2, 'the retry');
  expect(relay.deliveries.map((d) => [d.receiverStatus, d.receiverBody, d.status])).toEqual([
    [200, '{"ok":true,"note":"ok"}', 500],
    [200, '{"ok":true,"note":"duplicate"}', 200],
  ]);
  // The duplicate's log line comes after the first handling's on the same stream.
  await waitFor(() => /duplicate delivery acknowledged/.test(rcv.stdout()), 'the duplicate logged');
  expect(rcv.handled()).toHaveLength(1);
  expect(csvRows(csv)).toHaveLength(2);
});

describe('sent directly', () => {
  const SECRET = 'direct-secret';
  let rcv: RunningReceiver;
  beforeAll(async () => {
    rcv = await receiver({ WEBHOOK_SECRET: SECRET, WEBHOOK_TOLERANCE_SECONDS: '300' });
  });
  let nextId = 100;
  // A new scan each time (a repeated one would be a duplicate).
  const body = (envelope: Record<string, unknown> = {}, at = Date.now()) => delivery({ id: nextId++ }, at, envelope);
  const signed = (raw: string, secret = SECRET, event = 'scan.complete') => signedWith(raw, secret, event);

  test('no signature, a malformed one, or one made with another secret: 401', async () => {
    const raw = body();
    expect(await post(rcv.url, raw, { 'content-type': 'application/json', 'x-service-event': 'scan.complete' })).toEqual({
      status: 401,
      body: '{"error":"missing X-Service-Signature"}',
    });
    expect((await post(rcv.url, raw, { ...signed(raw), 'x-service-signature': 'sha1=abc' })).status).toBe(401);
    expect((await post(rcv.url, raw, { ...signed(raw), 'x-service-signature': sign(raw, SECRET).slice(0, 40) })).status).toBe(401);
    expect((await post(rcv.url, raw, signed(raw, 'another-secret'))).status).toBe(401);
    // The signature is over the raw bytes: the same JSON re-serialised with other spacing fails.
    const respaced = JSON.stringify(JSON.parse(raw), null, 1);
    expect((await post(rcv.url, respaced, { ...signed(raw) })).status).toBe(401);
    expect(rcv.handled()).toEqual([]);
  });

  test('an unknown event, even correctly signed, is refused with 400', async () => {
    const other = body({ event: 'scan.deleted' });
    expect(await post(rcv.url, other, signed(other, SECRET, 'scan.deleted'))).toEqual({
      status: 400,
      body: '{"error":"unknown event \\"scan.deleted\\""}',
    });
    const mismatch = body();
    expect((await post(rcv.url, mismatch, signed(mismatch, SECRET, 'scan.started'))).status).toBe(400);
    const notJson = 'event=scan.complete';
    expect((await post(rcv.url, notJson, signed(notJson))).status).toBe(400);
    expect(rcv.handled()).toEqual([]);
  });

  test('a signed delivery whose timestamp is too old or in the future is refused as a replay (401)', async () => {
    const old = body({}, Date.now() - 301_000);
    const r = await post(rcv.url, old, signed(old));
    expect(r.status).toBe(401);
    expect(r.body).toMatch(/is more than 300 s from now \(replayed\?\)/);
    const future = body({}, Date.now() + 301_000);
    expect((await post(rcv.url, future, signed(future))).status).toBe(401);
    const fresh = body({}, Date.now() - 60_000);
    expect((await post(rcv.url, fresh, signed(fresh))).status).toBe(200);
  });

  test('the same delivery replayed within the tolerance is acknowledged but handled once', async () => {
    const raw = delivery({
      id: 6,
      name: 'once',
      products: 1,
      errors: 0,
      speed: 1,
      lines: 1,
      created_at: 'x',
      completed_at: '2026-11-25T11:00:00Z',
    });
    const once = () => rcv.handled().filter((l) => l.includes('scan 6 "once"')).length;
    expect((await post(rcv.url, raw, signed(raw))).body).toBe('{"ok":true,"note":"ok"}');
    expect((await post(rcv.url, raw, signed(raw))).body).toBe('{"ok":true,"note":"duplicate"}');
    await waitFor(() => /duplicate delivery acknowledged/.test(rcv.stdout()), 'the duplicate logged');
    expect(once()).toBe(1);
  });

  test('other paths, methods and oversized bodies are refused; GET answers that it runs', async () => {
    expect((await fetch(rcv.url)).status).toBe(200);
    expect((await post(rcv.url.replace('/scan-complete', '/elsewhere'), '{}', {})).status).toBe(404);
    const put = await fetch(rcv.url, { method: 'PUT', body: '{}' });
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'POST']);
    const big = 'x'.repeat(70 * 1024);
    expect((await post(rcv.url, big, signed(big))).status).toBe(413);
  });
});

test('a row that cannot be written answers 500 (so the service delivers again) and is not remembered as handled', async () => {
  // A folder where the CSV file should be: every append fails.
  const rcv = await receiver({ WEBHOOK_SECRET: 'csv-secret', WEBHOOK_CSV: dir });
  const raw = delivery({ id: 9, products: 1, errors: 0, speed: 1, lines: 1, created_at: 'x' });
  const headers = signedWith(raw, 'csv-secret');
  expect(await post(rcv.url, raw, headers)).toEqual({ status: 500, body: '{"error":"could not record the scan"}' });
  expect(await post(rcv.url, raw, headers)).toEqual({ status: 500, body: '{"error":"could not record the scan"}' });
  await waitFor(() => (rcv.stderr().match(/scan 9: could not be recorded: EISDIR/g) ?? []).length === 2, 'both failures logged');
});

test('without a secret it does not start, and says what to set', () => {
  const r = spawnSync(process.execPath, [RECEIVER], { env: { PATH: process.env.PATH ?? '' }, encoding: 'utf8', timeout: 10_000 });
  expect(r.status).toBe(2);
  expect(r.stderr).toMatch(/^Set WEBHOOK_SECRET to the secret the add-on showed/);
});

test("the add-on's sample event (Settings > Webhooks, for Zapier or Make) has the shape of a real delivery; the example receiver takes it, stamped and signed, like one", async () => {
  const { hook, rcv, relay } = await hookThroughRelay(SAMPLE, () => 'forward');
  await runScan(svc.url, SAMPLE, 'Sample shape');
  await waitFor(() => relay.answered() === 1, 'the delivery');
  const real = JSON.parse(relay.deliveries[0].raw.toString());
  const shape = (o: Record<string, unknown>): unknown =>
    Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v && typeof v === 'object' ? shape(v as Record<string, unknown>) : typeof v]));
  expect(shape(SAMPLE_EVENT)).toEqual(shape(real));
  const raw = JSON.stringify({ ...SAMPLE_EVENT, timestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z') });
  const res = await post(rcv.url, raw, signedWith(raw, hook.secret));
  expect(res.status).toBe(200);
  await waitFor(() => rcv.handled().length === 2, 'the sample');
  expect(rcv.handled()[1]).toMatch(/ scan 12345 "Sample price list 2026-01-05" success: 36 lines, 36 products, 0 errors /);
});
