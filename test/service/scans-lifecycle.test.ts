/**
 * A scan's life over HTTP: background progress at the configured speed, cancel, delete, the list of
 * finished scans, scan.complete webhooks, and resuming after a restart (document 3, 4.1, 6).
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningService } from '../../emulator/service/server';
import { Client, KEY_A, KEY_B, P, attrs, csv, startTestService, upc } from './scans-fixtures';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fillerRows = (n: number, from = 0) => Array.from({ length: n }, (_, i) => [upc(2000 + from + i), '5.00']);

/** A local receiver of webhook deliveries. */
async function receiver() {
  const got: Array<{ path: string; headers: http.IncomingHttpHeaders; raw: string }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      got.push({ path: req.url ?? '', headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/hook`, base: `http://127.0.0.1:${port}`, got, close: () => new Promise((r) => server.close(r)) };
}

async function until<T>(what: string, f: () => Promise<T | undefined> | T | undefined, timeoutMs = 10000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe('a slow service (600 lines a minute)', () => {
  let svc: RunningService;
  let a: Client;
  let hook: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    svc = await startTestService({ scanSpeedPerMinute: 600, allowLoopbackWebhooks: true });
    a = new Client(svc.url, KEY_A);
    hook = await receiver();
  });
  afterAll(async () => {
    await svc.stop();
    await hook.close();
  });

  test('progress is visible while the scan runs, and it keeps to the configured speed', async () => {
    const started = Date.now();
    const up = await a.upload(csv(fillerRows(60)), attrs());
    expect(up.body.status).toBe('queued');
    const running = await until('progress', async () => {
      const s = (await a.get(`/api/v3/scans/${up.body.id}`)).body;
      return s.status === 'in_progress' && s.lines_done >= 3 ? s : undefined;
    });
    const elapsed = Date.now() - started;
    expect(running.lines).toBe(60);
    expect(running.lines_done).toBeLessThan(60);
    // Never faster than 600 a minute (10 a second), allowing one batch of slack.
    expect(running.lines_done).toBeLessThanOrEqual(Math.ceil((elapsed * 600) / 60000) + 2);
    expect(running.products).toBe(running.lines_done);
    // speed: products per minute of processing; here every line gives one product, so never above the limit.
    expect(running.speed).toBeGreaterThan(0);
    expect(running.speed).toBeLessThanOrEqual(630);
    expect(running.completed_at).toBeNull();
    // Results so far are readable; a running scan is not in the list of finished scans.
    const partial = await a.results(up.body.id);
    expect(partial.body.meta.status).toBe('in_progress');
    expect(partial.body.count).toBeGreaterThanOrEqual(running.products);
    expect((await a.get('/api/v3/scans')).body.data.map((s: any) => s.id)).not.toContain(up.body.id);
    // Downloads and exports wait for the end.
    const dl = await a.post(`/api/v3/scans/${up.body.id}/download?type=json`);
    expect(dl.status).toBe(409);
    expect(dl.body.message).toMatch(/still running/);
    expect((await a.get(`/api/v3/scans/${up.body.id}/cancel`)).status).toBe(200);
  });

  test('cancel stops a running scan, keeps the rows done, sends scan.complete cancelled; a second cancel answers 409', async () => {
    const wh = await a.post('/api/v4/webhooks', { name: 'local', url: hook.url });
    expect(wh.status).toBe(201);
    const up = await a.upload(csv(fillerRows(60)), attrs({ name: 'To cancel' }));
    await until('progress', async () => ((await a.get(`/api/v3/scans/${up.body.id}`)).body.lines_done >= 2 ? true : undefined));
    const c = await a.get(`/api/v3/scans/${up.body.id}/cancel`);
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ id: up.body.id, status: 'cancelled' });
    expect(c.body.completed_at).toMatch(/Z$/);
    const doneLines = c.body.lines_done;
    expect(doneLines).toBeLessThan(60);
    await sleep(400);
    const later = (await a.get(`/api/v3/scans/${up.body.id}`)).body;
    expect(later).toMatchObject({ status: 'cancelled', lines_done: doneLines, products: c.body.products });
    expect((await a.results(up.body.id)).body.count).toBe(c.body.products);
    const again = await a.get(`/api/v3/scans/${up.body.id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/already finished \(cancelled\)/);
    const delivery = await until('webhook', () => hook.got.find((g) => JSON.parse(g.raw).scan.id === up.body.id));
    const payload = JSON.parse(delivery.raw);
    expect(payload.scan).toMatchObject({
      id: up.body.id,
      name: 'To cancel',
      status: 'cancelled',
      lines: 60,
      products: c.body.products,
      marketplace_id: 1,
    });
    await a.del(`/api/v4/webhooks/${wh.body.id}`);
  });

  test('deleting a running scan stops it; afterwards it is not found anywhere and no scan.complete is sent', async () => {
    const up = await a.upload(csv(fillerRows(60)), attrs({ name: 'To delete' }));
    await until('progress', async () => ((await a.get(`/api/v3/scans/${up.body.id}`)).body.lines_done >= 1 ? true : undefined));
    const d = await a.del(`/api/v3/scans/${up.body.id}`);
    expect(d.status).toBe(200);
    expect(d.body).toEqual({ deleted: true });
    await sleep(300);
    for (const [m, p] of [
      ['GET', ''],
      ['POST', ''],
      ['POST', '/download?type=csv'],
      ['GET', '/cancel'],
      ['DELETE', ''],
    ]) {
      expect([m, p, (await a.request(m, `/api/v3/scans/${up.body.id}${p}`)).status]).toEqual([m, p, 404]);
    }
    const left = svc.ctx.db
      .prepare('SELECT (SELECT count(*) FROM scan_products WHERE scan_id = ?) + (SELECT count(*) FROM scan_inputs WHERE scan_id = ?)')
      .pluck()
      .get(up.body.id, up.body.id);
    expect(left).toBe(0);
    expect(hook.got.some((g) => JSON.parse(g.raw).scan.id === up.body.id)).toBe(false);
  });
});

describe('a fast service', () => {
  let svc: RunningService;
  let a: Client;
  let hook: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    svc = await startTestService({ allowLoopbackWebhooks: true });
    a = new Client(svc.url, KEY_A);
    hook = await receiver();
  });
  afterAll(async () => {
    await svc.stop();
    await hook.close();
  });

  test('a finished scan fires scan.complete: headers, HMAC signature, payload fields and time formats', async () => {
    const wh = await a.post('/api/v4/webhooks', { name: 'local', url: hook.url });
    expect(wh.status).toBe(201);
    const b = new Client(svc.url, KEY_B);
    const whB = await b.post('/api/v4/webhooks', { name: 'other account', url: `${hook.base}/hook-b` });
    expect(whB.status).toBe(201);
    const done = await a.scan(
      csv([
        [P.plain.upc, '1.00'],
        [P.cheap.upc, '1.00'],
        ['junk', '1'],
      ]),
      attrs({ name: 'Hooked' }),
    );
    const delivery = await until('webhook', () => hook.got.find((g) => JSON.parse(g.raw).scan.id === done.id));
    expect(delivery.headers['content-type']).toMatch(/^application\/json/);
    expect(delivery.headers['x-service-event']).toBe('scan.complete');
    const expected = 'sha256=' + createHmac('sha256', wh.body.secret).update(delivery.raw).digest('hex');
    expect(delivery.headers['x-service-signature']).toBe(expected);
    const payload = JSON.parse(delivery.raw);
    expect(payload.event).toBe('scan.complete');
    expect(payload.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(payload.scan).toEqual({
      id: done.id,
      name: 'Hooked',
      status: 'success',
      marketplace_id: 1,
      products: 2,
      errors: 1,
      speed: done.speed,
      lines: 3,
      created_at: done.created_at,
      completed_at: done.completed_at,
    });
    expect(payload.scan.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(payload.scan.completed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(payload.scan.speed).toBeGreaterThan(0);
    expect(delivery.path).toBe('/hook');
    // Another account's webhooks hear nothing of it.
    await sleep(200);
    expect(hook.got.filter((g) => g.path === '/hook-b')).toEqual([]);
    await a.del(`/api/v4/webhooks/${wh.body.id}`);
    await b.del(`/api/v4/webhooks/${whB.body.id}`);
  });

  test('speed is products per minute of processing (contract 6), not lines: the record, the results meta and scan.complete agree', async () => {
    const wh = await a.post('/api/v4/webhooks', { name: 'speed', url: `${hook.base}/speed` });
    expect(wh.status).toBe(201);
    const processingMs = (id: number) => svc.ctx.db.prepare('SELECT processing_ms FROM scans WHERE id = ?').pluck().get(id) as number;
    // 1 product from 4 lines: lines per minute would be 4 times the products per minute.
    const mixed = await a.scan(
      csv([
        [P.plain.upc, '1.00'],
        ['junk1', '1'],
        ['junk2', '1'],
        ['junk3', '1'],
      ]),
      attrs({ name: 'Mixed' }),
    );
    expect(mixed).toMatchObject({ status: 'success', lines: 4, lines_done: 4, products: 1, errors: 3 });
    const ms = processingMs(mixed.id);
    expect(ms).toBeGreaterThan(0);
    expect(mixed.speed).toBe(Math.round(60000 / ms));
    expect((await a.results(mixed.id)).body.meta.speed).toBe(mixed.speed);
    // No product at all: 0 products per minute, though every line was processed.
    const none = await a.scan(
      csv([
        ['junk4', '1'],
        ['junk5', '1'],
      ]),
      attrs({ name: 'Nothing found' }),
    );
    expect(none).toMatchObject({ status: 'error', lines_done: 2, products: 0, errors: 2, speed: 0 });
    expect((await a.results(none.id)).body.meta.speed).toBe(0);
    const payloads = await until('both webhooks', () => {
      const got = hook.got.filter((g) => g.path === '/speed').map((g) => JSON.parse(g.raw).scan);
      return got.length >= 2 ? got : undefined;
    });
    expect(payloads.find((s) => s.id === mixed.id)).toMatchObject({ products: 1, lines: 4, speed: mixed.speed });
    expect(payloads.find((s) => s.id === none.id)).toMatchObject({ products: 0, lines: 2, speed: 0 });
    await a.del(`/api/v4/webhooks/${wh.body.id}`);
  });

  test('cancelling a queued scan finishes it as cancelled before any line is processed', async () => {
    const slow = await startTestService({ scanSpeedPerMinute: 1 });
    try {
      const c = new Client(slow.url, KEY_A);
      const up = await c.upload(csv(fillerRows(5)), attrs());
      expect((await c.get(`/api/v3/scans/${up.body.id}`)).body.status).toBe('queued');
      const r = await c.get(`/api/v3/scans/${up.body.id}/cancel`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ status: 'cancelled', lines: 5, lines_done: 0, products: 0 });
      expect((await c.results(up.body.id)).body.count).toBe(0);
    } finally {
      await slow.stop();
    }
  });

  test('a failed scan sends status error', async () => {
    const wh = await a.post('/api/v4/webhooks', { name: 'local2', url: hook.url });
    const done = await a.scan(csv([['junk', '1']]), attrs());
    expect(done.status).toBe('error');
    const delivery = await until('webhook', () => hook.got.find((g) => JSON.parse(g.raw).scan.id === done.id));
    expect(JSON.parse(delivery.raw).scan.status).toBe('error');
    await a.del(`/api/v4/webhooks/${wh.body.id}`);
  });

  test('cancelling or deleting a finished scan: cancel answers 409 and changes nothing, delete answers {deleted: true}', async () => {
    const done = await a.scan(csv([[P.plain.upc, '1.00']]), attrs());
    const c = await a.get(`/api/v3/scans/${done.id}/cancel`);
    expect(c.status).toBe(409);
    expect(c.body.message).toMatch(/already finished \(success\)/);
    expect((await a.get(`/api/v3/scans/${done.id}`)).body.status).toBe('success');
    expect((await a.del(`/api/v3/scans/${done.id}`)).body).toEqual({ deleted: true });
    expect((await a.get(`/api/v3/scans/${done.id}`)).status).toBe(404);
    expect((await a.get('/api/v3/scans?per_page=100')).body.data.map((s: any) => s.id)).not.toContain(done.id);
  });

  test('the list holds finished scans only, newest first, paginated, per account', async () => {
    const fresh = await startTestService({ scanSpeedPerMinute: 60 });
    try {
      const c = new Client(fresh.url, KEY_A);
      const ids: number[] = [];
      // Three finished scans (cancelled counts as finished), one still running.
      for (let i = 0; i < 3; i++) {
        const up = await c.upload(csv(fillerRows(30)), attrs({ name: `S${i}` }));
        await c.get(`/api/v3/scans/${up.body.id}/cancel`);
        ids.push(up.body.id);
      }
      const running = await c.upload(csv(fillerRows(30)), attrs({ name: 'running' }));
      const p1 = await c.get('/api/v3/scans?per_page=2');
      expect(p1.status).toBe(200);
      expect(p1.body).toMatchObject({ page: 1, per_page: 2, total: 3 });
      expect(p1.body.data.map((s: any) => s.id)).toEqual([ids[2], ids[1]]);
      const p2 = await c.get('/api/v3/scans?page=2&per_page=2');
      expect(p2.body.data.map((s: any) => s.id)).toEqual([ids[0]]);
      expect(p2.body.data[0]).toMatchObject({
        name: 'S0',
        status: 'cancelled',
        marketplace: 'US',
        marketplace_id: 1,
        source_type: 'Upload',
      });
      for (const k of [
        'id',
        'user_id',
        'account_id',
        'products',
        'errors',
        'speed',
        'lines',
        'options',
        'created_at',
        'updated_at',
        'deleted_at',
      ])
        expect(p2.body.data[0]).toHaveProperty(k);
      const dflt = await c.get('/api/v3/scans');
      expect(dflt.body).toMatchObject({ page: 1, per_page: 25, total: 3 });
      expect(dflt.body.data.map((s: any) => s.id)).not.toContain(running.body.id);
      expect((await c.get('/api/v3/scans?page=0')).status).toBe(422);
      expect((await c.get('/api/v3/scans?per_page=101')).status).toBe(422);
      expect((await new Client(fresh.url, KEY_B).get('/api/v3/scans')).body).toMatchObject({ total: 0, data: [] });
    } finally {
      await fresh.stop();
    }
  });
});

test('a scan running when the service stops resumes when it starts again, with no line lost or doubled', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'scan-restart-'));
  const dbPath = join(dir, 'service.sqlite');
  const first = await startTestService({ dbPath, scanSpeedPerMinute: 1200 });
  const a1 = new Client(first.url, KEY_A);
  const up = await a1.upload(csv(fillerRows(80)), attrs({ name: 'Survivor' }));
  const before = await until('progress', async () => {
    const s = (await a1.get(`/api/v3/scans/${up.body.id}`)).body;
    return s.lines_done >= 3 ? s : undefined;
  });
  await first.stop();
  expect(before.status).toBe('in_progress');
  expect(before.lines_done).toBeLessThan(80);
  const again = await startTestService({ dbPath, scanSpeedPerMinute: 0 });
  try {
    const a2 = new Client(again.url, KEY_A);
    const done = await a2.waitFor(up.body.id);
    expect(done).toMatchObject({ status: 'success', name: 'Survivor', lines: 80, lines_done: 80, products: 80, errors: 0 });
    const ids = (await a2.results(up.body.id, { per_page: 100 })).body.data.map((p: any) => p.inputs.identifier);
    expect(ids).toEqual(fillerRows(80).map((r) => r[0]));
  } finally {
    await again.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
