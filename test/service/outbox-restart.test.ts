/**
 * Webhook retries survive restarts (issue 14 item 5): the service process is really stopped
 * (kill -9, or an ordinary SIGTERM) while a delivery is due, started again on the same database
 * file, and the receiver sees each attempt exactly once, the resumed one not before its due time.
 */
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnService, type SpawnedService } from '../../emulator/service/spawn';
import { call } from './helpers';
import { writeTestCatalog } from './scans-fixtures';

const KEY = 'outbox-key-0001';
const RETRY_MS = 2500;

interface Hit {
  path: string;
  at: number;
  raw: string;
  signature: string;
}
let receiver: Server;
let base: string;
const hits: Hit[] = [];
/** Per path, what to do with each request in order of arrival (default 200). */
const plans = new Map<string, Array<number | 'hang'>>();
let dir: string;
let catalog: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'scan-outbox-'));
  catalog = writeTestCatalog();
  receiver = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      hits.push({ path: req.url!, at: Date.now(), raw, signature: String(req.headers['x-service-signature']) });
      const next = plans.get(req.url!)?.shift() ?? 200;
      if (next === 'hang') return;
      res.statusCode = next;
      res.end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const env = (db: string) => ({
  SCAN_SERVICE_DB: db,
  SCAN_SERVICE_API_KEYS: KEY,
  SCAN_SERVICE_CATALOG: catalog,
  SCAN_SERVICE_ALLOW_LOOPBACK_WEBHOOKS: '1',
  SCAN_SERVICE_SPEED: '600000',
  SCAN_SERVICE_WEBHOOK_TIMEOUT_MS: '60000',
  SCAN_SERVICE_WEBHOOK_RETRY_DELAYS_MS: `${RETRY_MS},${RETRY_MS}`,
});

async function waitFor(cond: () => boolean, ms: number, what: string) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A webhook to `path`, then a finished scan, whose completion is delivered there. */
async function hookAndScan(svc: SpawnedService, path: string): Promise<{ secret: string; scanId: number }> {
  const w = await call(svc.url, 'POST', '/api/v4/webhooks', { key: KEY, json: { name: path, url: base + path } });
  expect(w.status).toBe(201);
  const fd = new FormData();
  fd.append('file', new Blob(['UPC,Cost\n012345678905,3.00\n'], { type: 'text/csv' }), 'list.csv');
  fd.append('attributes', JSON.stringify({ mapping: { id: 0, cost: 1 }, options: { marketplace_id: 'US', name: 'Outbox', header: true } }));
  const up = await call(svc.url, 'POST', '/api/v3/scans', { key: KEY, body: fd });
  expect(up.status).toBe(201);
  return { secret: w.body.secret, scanId: up.body.id };
}

test.each([
  ['kill -9', 'kill' as const],
  ['an ordinary stop (SIGTERM)', 'stop' as const],
])(
  'after %s, the retry still due is sent once, at its due time, by the restarted service',
  async (_what, how) => {
    const path = `/after-${how}`;
    plans.set(path, [500, 200]);
    const db = join(dir, `${how}.sqlite`);
    const first = await spawnService(env(db));
    let second: SpawnedService | undefined;
    try {
      const { secret, scanId } = await hookAndScan(first, path);
      await waitFor(() => hits.some((h) => h.path === path), 15_000, 'the first attempt');
      const failedAt = hits.find((h) => h.path === path)!.at;
      await first[how]();
      second = await spawnService(env(db));
      await waitFor(() => hits.filter((h) => h.path === path).length >= 2, 15_000, 'the resumed retry');
      // Long enough for a duplicate or a further attempt to show up if there were one.
      await new Promise((r) => setTimeout(r, RETRY_MS + 500));
      const got = hits.filter((h) => h.path === path);
      expect(got).toHaveLength(2);
      expect(got[1].at - failedAt).toBeGreaterThanOrEqual(RETRY_MS - 50);
      for (const h of got) {
        expect(JSON.parse(h.raw).scan.id).toBe(scanId);
        expect(h.signature).toBe('sha256=' + createHmac('sha256', secret).update(h.raw).digest('hex'));
      }
    } finally {
      await first.kill();
      await second?.stop();
    }
  },
  60_000,
);

test('an attempt under way at kill -9 counts as made: the restarted service sends the next one after its delay, not that one again', async () => {
  const path = '/hang-then-kill';
  plans.set(path, ['hang', 200]);
  const db = join(dir, 'hang.sqlite');
  const first = await spawnService(env(db));
  let second: SpawnedService | undefined;
  try {
    await hookAndScan(first, path);
    await waitFor(() => hits.some((h) => h.path === path), 15_000, 'the first attempt');
    const startedAt = hits.find((h) => h.path === path)!.at;
    await first.kill();
    second = await spawnService(env(db));
    await waitFor(() => hits.filter((h) => h.path === path).length >= 2, 15_000, 'the next attempt');
    await new Promise((r) => setTimeout(r, RETRY_MS + 500));
    const got = hits.filter((h) => h.path === path);
    expect(got).toHaveLength(2);
    // Attempt 0 again would come at once after the restart; attempt 1 is due RETRY_MS after attempt 0 began.
    expect(got[1].at - startedAt).toBeGreaterThanOrEqual(RETRY_MS - 50);
  } finally {
    await first.kill();
    await second?.stop();
  }
}, 60_000);
