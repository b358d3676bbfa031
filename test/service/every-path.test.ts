/**
 * Acceptance of the local Scan Service as `npm run service` starts it (main.ts in its own process):
 * it serves the whole API description and its reference page, the description covers every
 * operation of the contract (shared/reference/scan-service-api.md), and a valid request to every
 * one of them succeeds.
 */
import { loadApiDocument } from '../../contract/openapi';
import { spawnService, type SpawnedService } from '../../emulator/service/spawn';

/** Every operation of the contract, as the document lists them (section 4). */
const CONTRACT: string[] = [
  'GET /api/v3/scans',
  'POST /api/v3/scans',
  'POST /api/v3/scans/{}',
  'DELETE /api/v3/scans/{}',
  'POST /api/v3/scans/{}/download',
  'GET /api/v3/scans/{}/cancel',
  'POST /api/v3/scans/{}/export',
  'POST /api/v3/convert',
  'POST /api/v3/asin-convert',
  'GET /api/v4/webhooks',
  'POST /api/v4/webhooks',
  'GET /api/v4/webhooks/{}',
  'PATCH /api/v4/webhooks/{}',
  'DELETE /api/v4/webhooks/{}',
  'POST /api/v4/webhooks/{}/regenerate-secret',
  'GET /api/v3/public/tags',
  'PUT /api/v3/public/tags',
  'DELETE /api/v3/public/tags',
  'GET /api/v3/public/notes',
  'POST /api/v3/public/notes',
  'PATCH /api/v3/public/notes/{}',
  'DELETE /api/v3/public/notes/{}',
  ...['listing-matches', 'brand-blocklist', 'asin-blocklist', 'multipack-corrections'].flatMap((a) =>
    ['GET', 'POST', 'DELETE'].map((m) => `${m} /api/v3/${a}`),
  ),
];
/** Decided where the contract is silent (marked x-decision in the description). */
const DECIDED_EXTRAS = ['GET /api/v3/scans/{}', 'GET /exports/{}'];

function describedOperations(): string[] {
  const doc = loadApiDocument();
  const ops: string[] = [];
  for (const [path, item] of Object.entries<Record<string, unknown>>(doc.paths)) {
    for (const m of ['get', 'post', 'put', 'patch', 'delete'])
      if (item[m]) ops.push(`${m.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`);
  }
  return ops.sort();
}

let svc: SpawnedService;
beforeAll(async () => {
  // Slow enough that a scan is still running when it is cancelled.
  svc = await spawnService({ SCAN_SERVICE_SPEED: '60' });
}, 60_000);
afterAll(async () => svc?.stop());

async function api(method: string, path: string, body?: unknown, form?: FormData) {
  const headers: Record<string, string> = { authorization: `Bearer ${svc.apiKey}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(svc.url + path, { method, headers, body: form ?? (body === undefined ? undefined : JSON.stringify(body)) });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text, type: res.headers.get('content-type') ?? '' };
}

test('the description covers every operation of the contract, plus only the decided extras', () => {
  expect(describedOperations()).toEqual([...CONTRACT, ...DECIDED_EXTRAS].sort());
});

test('the running service serves its whole description and the API reference page', async () => {
  const doc = await fetch(svc.url + '/openapi.json').then((r) => r.json());
  expect(doc).toEqual(JSON.parse(JSON.stringify(loadApiDocument())));
  const page = await fetch(svc.url + '/docs/');
  expect(page.status).toBe(200);
  expect(await page.text()).toMatch(/<html/i);
});

test('a valid request to every operation of the contract succeeds', async () => {
  const ok: string[] = [];
  const expectOk = (op: string, r: { status: number; text: string }) => {
    if (r.status < 200 || r.status > 299) throw new Error(`${op} answered ${r.status}: ${r.text.slice(0, 300)}`);
    ok.push(op);
  };
  const mk = 'US';

  // Conversion (an identifier of the sample catalog, found by asking for its ASIN's identifiers).
  expectOk('POST /api/v3/convert', await api('POST', '/api/v3/convert', { marketplace: mk, ids: ['012345678905'] }));
  expectOk('POST /api/v3/asin-convert', await api('POST', '/api/v3/asin-convert', { marketplace: mk, asins: ['B000000001'] }));

  // Scans: upload, read while running, cancel, then everything a finished scan offers, then delete.
  const form = new FormData();
  form.append('file', new Blob(['UPC,Cost\n012345678905,4.50\n036000291452,3.10\n'], { type: 'text/csv' }), 'list.csv');
  form.append(
    'attributes',
    JSON.stringify({ mapping: { id: 0, cost: 1, custom_columns: [] }, options: { marketplace_id: mk, name: 'every path', header: true } }),
  );
  const up = await api('POST', '/api/v3/scans', undefined, form);
  expectOk('POST /api/v3/scans', up);
  const id = up.json.id;
  expectOk('GET /api/v3/scans/{}', await api('GET', `/api/v3/scans/${id}`));
  expectOk('GET /api/v3/scans/{}/cancel', await api('GET', `/api/v3/scans/${id}/cancel`));
  expectOk('GET /api/v3/scans', await api('GET', '/api/v3/scans?page=1'));
  expectOk(
    'POST /api/v3/scans/{}',
    await api('POST', `/api/v3/scans/${id}`, { per_page: 10, page: 1, tableType: 'products', sort: '-profit' }),
  );
  for (const type of ['csv', 'xlsx', 'json']) {
    expectOk('POST /api/v3/scans/{}/download', await api('POST', `/api/v3/scans/${id}/download?type=${type}`, {}));
  }
  const exp = await api('POST', `/api/v3/scans/${id}/export`, {});
  expectOk('POST /api/v3/scans/{}/export', exp);
  const link = await fetch(new URL(exp.json.url, svc.url));
  expect(link.status).toBe(200);
  expectOk('DELETE /api/v3/scans/{}', await api('DELETE', `/api/v3/scans/${id}`));

  // Webhooks.
  const hook = await api('POST', '/api/v4/webhooks', { name: 'done', url: 'https://hooks.example.com/scan' });
  expectOk('POST /api/v4/webhooks', hook);
  expectOk('GET /api/v4/webhooks', await api('GET', '/api/v4/webhooks'));
  expectOk('GET /api/v4/webhooks/{}', await api('GET', `/api/v4/webhooks/${hook.json.id}`));
  expectOk('PATCH /api/v4/webhooks/{}', await api('PATCH', `/api/v4/webhooks/${hook.json.id}`, { is_active: false }));
  expectOk('POST /api/v4/webhooks/{}/regenerate-secret', await api('POST', `/api/v4/webhooks/${hook.json.id}/regenerate-secret`));
  expectOk('DELETE /api/v4/webhooks/{}', await api('DELETE', `/api/v4/webhooks/${hook.json.id}`));

  // Tags and notes.
  expectOk('PUT /api/v3/public/tags', await api('PUT', '/api/v3/public/tags', { marketplace_id: mk, tags: { B000000001: ['keep'] } }));
  expectOk('GET /api/v3/public/tags', await api('GET', `/api/v3/public/tags?marketplace_id=${mk}`));
  expectOk(
    'DELETE /api/v3/public/tags',
    await api('DELETE', '/api/v3/public/tags', { marketplace_id: mk, tags: { B000000001: ['keep'] } }),
  );
  const note = await api('POST', '/api/v3/public/notes', { asin: 'B000000001', marketplace_id: mk, note: 'ask supplier' });
  expectOk('POST /api/v3/public/notes', note);
  expectOk('GET /api/v3/public/notes', await api('GET', '/api/v3/public/notes'));
  expectOk('PATCH /api/v3/public/notes/{}', await api('PATCH', `/api/v3/public/notes/${note.json.id}`, { note: 'asked' }));
  expectOk('DELETE /api/v3/public/notes/{}', await api('DELETE', `/api/v3/public/notes/${note.json.id}`));

  // The four bulk areas.
  const bodies: Record<string, [unknown, unknown]> = {
    'listing-matches': [
      { matches: [{ identifier: '012345678905', asin: 'B000000001', is_match: true }] },
      { matches: [{ identifier: '012345678905', asin: 'B000000001' }] },
    ],
    'brand-blocklist': [{ brands: ['Acme'] }, { brands: ['Acme'] }],
    'asin-blocklist': [{ asins: ['B000000001'] }, { asins: ['B000000001'] }],
    'multipack-corrections': [{ corrections: [{ asin: 'B000000001', quantity: 2 }] }, { asins: ['B000000001'] }],
  };
  for (const [area, [add, del]] of Object.entries(bodies)) {
    expectOk(`POST /api/v3/${area}`, await api('POST', `/api/v3/${area}`, { marketplace_id: mk, ...(add as object) }));
    expectOk(`GET /api/v3/${area}`, await api('GET', `/api/v3/${area}?marketplace_id=${mk}`));
    expectOk(`DELETE /api/v3/${area}`, await api('DELETE', `/api/v3/${area}`, { marketplace_id: mk, ...(del as object) }));
  }

  expect([...new Set(ok)].sort()).toEqual([...CONTRACT, 'GET /api/v3/scans/{}'].sort());
}, 60_000);
