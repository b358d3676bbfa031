/** The service as a whole: keys, description, reference page, error shapes, persistence, child process. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, start, KEY_A, KEY_B } from './helpers';
import type { RunningService } from '../../emulator/service/server';
import { loadApiDocument } from '../../contract/openapi';
import { operationHandlers } from '../../emulator/service/areas';
import { configFromEnv, DEMO_API_KEY } from '../../emulator/service/config';
import { spawnService } from '../../emulator/service/spawn';

let svc: RunningService;
beforeAll(async () => {
  svc = await start();
});
afterAll(() => svc.stop());

test('a missing, malformed or unknown key answers 401 with a message, before validation', async () => {
  const none = await call(svc.url, 'GET', '/api/v4/webhooks', { key: null });
  expect(none.status).toBe(401);
  expect(none.body.message).toMatch(/Missing API key/);
  expect(none.headers.get('www-authenticate')).toBe('Bearer');
  const unknown = await call(svc.url, 'POST', '/api/v3/public/notes', { key: 'nope', json: { bad: true } });
  expect(unknown.status).toBe(401);
  expect(unknown.body.message).toBe('Invalid API key.');
  const basic = await call(svc.url, 'GET', '/api/v4/webhooks', { key: null, headers: { authorization: `Basic ${KEY_A}` } });
  expect(basic.status).toBe(401);
  expect(basic.body.message).toMatch(/Bearer/);
});

test('each key is its own account', async () => {
  await call(svc.url, 'POST', '/api/v3/public/notes', { json: { asin: 'B0ACCT0001', marketplace_id: 'US', note: 'a' } });
  expect((await call(svc.url, 'GET', '/api/v3/public/notes?asin=B0ACCT0001')).body).toHaveLength(1);
  expect((await call(svc.url, 'GET', '/api/v3/public/notes?asin=B0ACCT0001', { key: KEY_B })).body).toHaveLength(0);
});

test('the description is served at /openapi.json and the reference page at /docs, without a key', async () => {
  const doc = await call(svc.url, 'GET', '/openapi.json', { key: null });
  expect(doc.status).toBe(200);
  expect(doc.body.openapi).toBe('3.1.0');
  expect(Object.keys(doc.body.paths)).toEqual(
    expect.arrayContaining(['/api/v3/listing-matches', '/api/v4/webhooks/{id}/regenerate-secret', '/api/v3/public/tags']),
  );
  const page = await call(svc.url, 'GET', '/docs/', { key: null });
  expect(page.status).toBe(200);
  expect(page.text).toMatch(/swagger-ui/);
  const asset = await fetch(`${svc.url}/docs/static/swagger-ui-bundle.js`);
  expect(asset.status).toBe(200);
  // Read to the end: an unread 1 MB body holds the connection, and the service's close() waits for it.
  expect(asset.headers.get('content-type')).toMatch(/javascript/);
  expect((await asset.text()).length).toBeGreaterThan(100_000);
  const served = await call(svc.url, 'GET', '/docs/json', { key: null });
  expect(served.body.info.title).toBe(doc.body.info.title);
});

test('every operation of the description has a handler', () => {
  const doc = loadApiDocument();
  const ids = Object.values(doc.paths).flatMap((item: any) =>
    Object.values(item)
      .map((op: any) => op?.operationId)
      .filter(Boolean),
  );
  const handlers = operationHandlers(svc.ctx, {} as any);
  expect(ids.filter((id) => !(id in handlers))).toEqual([]);
  expect(new Set(ids).size).toBe(ids.length);
});

test('the description kept as JSON (node_modules/.cache) is the one parsed from the YAML files; a damaged copy is parsed afresh', () => {
  const cacheDir = join(__dirname, '..', '..', 'node_modules', '.cache', 'scan-service', 'openapi');
  const fresh = (): Record<string, any> => {
    let doc: Record<string, any> = {};
    jest.isolateModules(() => {
      doc = require('../../contract/openapi').loadApiDocument();
    });
    return doc;
  };
  const entries = () => readdirSync(cacheDir).filter((f) => f.endsWith('.json'));
  rmSync(cacheDir, { recursive: true, force: true });
  const parsed = fresh(); // from the YAML
  expect(entries()).toHaveLength(1);
  const entry = join(cacheDir, entries()[0]);
  expect(JSON.parse(readFileSync(entry, 'utf8'))).toEqual(parsed);
  const kept = fresh(); // from the JSON
  expect(JSON.stringify(kept)).toBe(JSON.stringify(parsed)); // member order too: /openapi.json and the routes follow it
  writeFileSync(entry, '{"openapi": "3.1.0", "paths": {'); // cut short
  expect(JSON.stringify(fresh())).toBe(JSON.stringify(parsed));
  expect(JSON.parse(readFileSync(entry, 'utf8'))).toEqual(parsed);
});

test('every "not shown" decision is marked in the description', () => {
  const text = JSON.stringify(loadApiDocument());
  expect((text.match(/"x-decision"/g) ?? []).length).toBeGreaterThanOrEqual(20);
});

test('each "not shown" of the contract has its x-decision where a reader of that part looks', () => {
  const doc = loadApiDocument() as any;
  const at = (path: string[]) => path.reduce((o, k) => (o == null ? undefined : o[k]), doc);
  // Contract section -> where the decision is written.
  const places: Array<[string, string[]]> = [
    ['2.2 operators and filterable fields', ['components', 'schemas', 'ScanFilter']],
    ['2.3 element shape of images', ['components', 'schemas', 'ScanProduct', 'properties', 'images']],
    ['2.3 element shape of errors', ['components', 'schemas', 'ScanProduct', 'properties', 'errors']],
    ['2.3 element shape of flags', ['components', 'schemas', 'ScanProduct', 'properties', 'flags']],
    ['2.8 stored fields of a blocked brand', ['components', 'schemas', 'BlockedBrand']],
    ['2.8 stored fields of a blocked ASIN', ['components', 'schemas', 'BlockedAsin']],
    ['2.8 stored fields of a multipack correction', ['components', 'schemas', 'MultipackCorrection']],
    ['2.8 fields of a scan record', ['components', 'schemas', 'Scan']],
    ['3 other scan statuses and transitions', ['components', 'schemas', 'ScanStatus']],
    ['4.1 list scans body', ['paths', '/api/v3/scans', 'get']],
    ['4.1 upload body, 8 upload size', ['paths', '/api/v3/scans', 'post']],
    ['4.1 results body', ['paths', '/api/v3/scans/{scan_id}', 'post']],
    ['4.1 delete body', ['paths', '/api/v3/scans/{scan_id}', 'delete']],
    ['4.1 download body and layouts', ['paths', '/api/v3/scans/{scan_id}/download', 'post']],
    ['4.1 cancel body', ['paths', '/api/v3/scans/{scan_id}/cancel', 'get']],
    ['4.1 export bodies', ['paths', '/api/v3/scans/{scan_id}/export', 'post']],
    ['4.2 identifier kinds', ['paths', '/api/v3/convert', 'post']],
    ['4.3 PATCH webhook body', ['paths', '/api/v4/webhooks/{id}', 'patch']],
    ['4.3 regenerate body', ['paths', '/api/v4/webhooks/{id}/regenerate-secret', 'post']],
    ['4.6 brand list body', ['paths', '/api/v3/brand-blocklist', 'get']],
    ['4.6 ASIN list body', ['paths', '/api/v3/asin-blocklist', 'get']],
    ['4.6 corrections list body', ['paths', '/api/v3/multipack-corrections', 'get']],
    ['5.4 missing or invalid key', ['components', 'responses', 'Unauthorized']],
    ['5.5 sub-user permissions', ['components', 'securitySchemes', 'bearerAuth']],
    ['6 delivery time-out', ['webhooks', 'scan.complete', 'post']],
    ['7 other status codes and bodies', ['components', 'schemas', 'Error']],
    ['8 limit exceeded: rate', ['components', 'responses', 'TooManyRequests']],
    ['8 limit exceeded: rows', ['components', 'responses', 'BulkCounts']],
    ['8 other rate limits, 9 deprecation', ['info']],
  ];
  const missing = places
    .filter(([, path]) => typeof at(path)?.['x-decision'] !== 'string' || at(path)['x-decision'].trim() === '')
    .map(([what]) => what);
  expect(missing).toEqual([]);
  expect(at(['paths', '/api/v3/scans', 'post'])['x-decision']).toMatch(/413/);
  expect(at(['webhooks', 'scan.complete', 'post'])['x-decision']).toMatch(/10 s/);
});

test('client mistakes answer 4xx {message}: unknown path, wrong content type, empty JSON body', async () => {
  const nowhere = await call(svc.url, 'GET', '/api/v3/nowhere');
  expect(nowhere.status).toBe(404);
  expect(nowhere.body.message).toMatch(/No such endpoint/);
  const text = await call(svc.url, 'POST', '/api/v3/public/notes', { body: 'note=hi', headers: { 'content-type': 'text/plain' } });
  expect(text.status).toBe(415);
  expect(text.body.message).toMatch(/application\/json/);
  const empty = await call(svc.url, 'POST', '/api/v3/public/notes', { body: '', headers: { 'content-type': 'application/json' } });
  // Issue 14 item 6: an empty JSON body is no body (was 400); notes need one, so 422.
  expect(empty.status).toBe(422);
  expect(typeof empty.body.message).toBe('string');
  const wrongType = await call(svc.url, 'POST', '/api/v4/webhooks', { json: { name: 5, url: 'https://hooks.example.com/x' } });
  expect(wrongType.status).toBe(422);
  expect(wrongType.body.message).toMatch(/name must be a string/);
});

test('a page number too large to address answers 422 on every paginated list, not 500', async () => {
  for (const path of [
    '/api/v3/scans',
    '/api/v3/listing-matches',
    '/api/v3/brand-blocklist',
    '/api/v3/asin-blocklist',
    '/api/v3/multipack-corrections',
  ]) {
    const res = await call(svc.url, 'GET', `${path}?page=99999999999999999999`);
    expect([path, res.status]).toEqual([path, 422]);
    expect(res.body.message).toMatch(/page/);
    // The largest page the description allows still answers (an empty page).
    const last = await call(svc.url, 'GET', `${path}?page=9007199254740991&per_page=${path === '/api/v3/scans' ? 100 : 1000}`);
    expect([path, last.status, last.body.data]).toEqual([path, 200, []]);
  }
});

test('data survives a restart with a file database (WAL), account ids included', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'scan-service-'));
  const dbPath = join(dir, 'service.sqlite');
  try {
    const first = await start({ dbPath });
    const note = (
      await call(first.url, 'POST', '/api/v3/public/notes', { json: { asin: 'B0KEEP0001', marketplace_id: 'US', note: 'kept' } })
    ).body;
    await call(first.url, 'POST', '/api/v3/brand-blocklist', { json: { marketplace_id: 'US', brands: ['Kept'] } });
    const hook = (await call(first.url, 'POST', '/api/v4/webhooks', { json: { name: 'kept', url: 'https://hooks.example.com/k' } })).body;
    expect(first.ctx.db.pragma('journal_mode', { simple: true })).toBe('wal');
    await first.stop();
    // Keys in another order: accounts are found by key, not position.
    const second = await start({ dbPath, apiKeys: [KEY_B, KEY_A] });
    try {
      expect((await call(second.url, 'GET', '/api/v3/public/notes?asin=B0KEEP0001')).body).toEqual([note]);
      expect((await call(second.url, 'GET', '/api/v3/brand-blocklist?name=Kept')).body.total).toBe(1);
      expect((await call(second.url, 'GET', `/api/v4/webhooks/${hook.id}`)).body.account_id).toBe(hook.account_id);
      expect((await call(second.url, 'GET', `/api/v4/webhooks/${hook.id}`, { key: KEY_B })).status).toBe(404);
    } finally {
      await second.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a key later limited to other marketplaces cannot change the notes it wrote there (403)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'scan-service-'));
  const dbPath = join(dir, 'service.sqlite');
  try {
    const first = await start({ dbPath, apiKeys: [KEY_A] });
    const note = (await call(first.url, 'POST', '/api/v3/public/notes', { json: { asin: 'B0PERM0001', marketplace_id: 'DE', note: 'de' } }))
      .body;
    await first.stop();
    const second = await start({ dbPath, apiKeys: [`${KEY_A}:US`] });
    try {
      const res = await call(second.url, 'PATCH', `/api/v3/public/notes/${note.id}`, { json: { note: 'changed' } });
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/no access to marketplace DE/);
      expect((await call(second.url, 'DELETE', `/api/v3/public/notes/${note.id}`)).status).toBe(403);
      expect((await call(second.url, 'GET', '/api/v3/public/notes')).body).toEqual([]);
    } finally {
      await second.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('settings come from SCAN_SERVICE_* variables with documented defaults', () => {
  const d = configFromEnv({});
  expect(d).toMatchObject({
    port: 8787,
    apiKeys: [DEMO_API_KEY],
    allowLoopbackWebhooks: false,
    bulkRateLimitPerMinute: 30,
    webhookRetryDelaysMs: [2000, 4000, 8000],
    webhookTimeoutMs: 10000,
  });
  expect(d.dbPath).toMatch(/\.data[/\\]scan-service\.sqlite$/);
  const c = configFromEnv({
    SCAN_SERVICE_PORT: '0',
    SCAN_SERVICE_DB: ':memory:',
    SCAN_SERVICE_API_KEYS: 'k1, k2:US:CA',
    SCAN_SERVICE_ALLOW_LOOPBACK_WEBHOOKS: '1',
    SCAN_SERVICE_SPEED: '6000',
    SCAN_SERVICE_CATALOG: '/tmp/other.jsonl',
    SCAN_SERVICE_MAX_UPLOAD_BYTES: '1000',
    SCAN_SERVICE_WEBHOOK_TIMEOUT_MS: '500',
    SCAN_SERVICE_WEBHOOK_RETRY_DELAYS_MS: '1,2,3',
    SCAN_SERVICE_BULK_RATE_LIMIT: '5',
    SCAN_SERVICE_EXPORT_INTEGRATION: '0',
  });
  expect(c).toMatchObject({
    port: 0,
    dbPath: ':memory:',
    apiKeys: ['k1', 'k2:US:CA'],
    allowLoopbackWebhooks: true,
    scanSpeedPerMinute: 6000,
    catalogPath: '/tmp/other.jsonl',
    maxUploadBytes: 1000,
    webhookTimeoutMs: 500,
    webhookRetryDelaysMs: [1, 2, 3],
    bulkRateLimitPerMinute: 5,
    exportIntegration: false,
  });
  expect(() => configFromEnv({ SCAN_SERVICE_PORT: 'eighty' })).toThrow(/SCAN_SERVICE_PORT/);
});

test('spawnService runs the service in a child process that prints its address; stop() ends it', async () => {
  const child = await spawnService({ SCAN_SERVICE_API_KEYS: 'spawned-key' });
  try {
    expect(child.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(child.output()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
    const res = await call(child.url, 'GET', '/api/v4/webhooks', { key: child.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  } finally {
    await child.stop();
  }
  await expect(fetch(`${child.url}/openapi.json`)).rejects.toThrow();
}, 60_000);
