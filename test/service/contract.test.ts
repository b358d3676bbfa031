/**
 * Answers of the core areas conform to the API description (the generated client types rely on
 * it): each response body is validated against the documented schema of its status.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { call, start, KEY_A, TestClock } from './helpers';
import type { RunningService } from '../../emulator/service/server';
import { loadApiDocument } from '../../contract/openapi';

const doc = loadApiDocument();
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

function documented(method: string, template: string, status: number): object {
  const op = doc.paths[template]?.[method.toLowerCase()];
  if (!op) throw new Error(`${method} ${template} is not described`);
  let resp = op.responses[String(status)];
  if (!resp) throw new Error(`${method} ${template} does not describe status ${status}`);
  if (resp.$ref) resp = doc.components.responses[resp.$ref.split('/').pop()];
  return resp.content['application/json'].schema;
}

function expectConforms(method: string, template: string, res: { status: number; body: unknown }) {
  const validate = ajv.compile({ ...documented(method, template, res.status), components: doc.components });
  const ok = validate(res.body);
  expect({ status: res.status, errors: ok ? [] : ajv.errorsText(validate.errors) }).toEqual({ status: res.status, errors: [] });
}

let svc: RunningService;
const clock = new TestClock();
beforeAll(async () => {
  svc = await start({}, { now: clock.now });
});
afterAll(() => svc.stop());
const req = (method: string, path: string, json?: unknown, key: string | null = KEY_A) => call(svc.url, method, path, { json, key });

test('webhook answers conform', async () => {
  const created = await req('POST', '/api/v4/webhooks', { name: 'C', url: 'https://hooks.example.com/c' });
  expectConforms('POST', '/api/v4/webhooks', created);
  const id = created.body.id;
  expectConforms('GET', '/api/v4/webhooks', await req('GET', '/api/v4/webhooks'));
  expectConforms('GET', '/api/v4/webhooks/{id}', await req('GET', `/api/v4/webhooks/${id}`));
  expectConforms('PATCH', '/api/v4/webhooks/{id}', await req('PATCH', `/api/v4/webhooks/${id}`, { is_active: false }));
  expectConforms('POST', '/api/v4/webhooks/{id}/regenerate-secret', await req('POST', `/api/v4/webhooks/${id}/regenerate-secret`));
  expectConforms('DELETE', '/api/v4/webhooks/{id}', await req('DELETE', `/api/v4/webhooks/${id}`));
  expectConforms('GET', '/api/v4/webhooks/{id}', await req('GET', `/api/v4/webhooks/${id}`));
  expectConforms('POST', '/api/v4/webhooks', await req('POST', '/api/v4/webhooks', { name: 'C', url: 'https://10.0.0.1/c' }));
  expectConforms('GET', '/api/v4/webhooks', await req('GET', '/api/v4/webhooks', undefined, null));
});

test('note and tag answers conform', async () => {
  const note = await req('POST', '/api/v3/public/notes', { asin: 'B0CONTR001', marketplace_id: 'US', note: 'n' });
  expectConforms('POST', '/api/v3/public/notes', note);
  expectConforms('GET', '/api/v3/public/notes', await req('GET', '/api/v3/public/notes'));
  expectConforms('PATCH', '/api/v3/public/notes/{id}', await req('PATCH', `/api/v3/public/notes/${note.body.id}`, { note: 'm' }));
  expectConforms('DELETE', '/api/v3/public/notes/{id}', await req('DELETE', `/api/v3/public/notes/${note.body.id}`));
  expectConforms('PATCH', '/api/v3/public/notes/{id}', await req('PATCH', `/api/v3/public/notes/${note.body.id}`, { note: 'm' }));
  expectConforms(
    'PUT',
    '/api/v3/public/tags',
    await req('PUT', '/api/v3/public/tags', { marketplace_id: 'US', tags: { B0CONTR001: ['t'] } }),
  );
  expectConforms('GET', '/api/v3/public/tags', await req('GET', '/api/v3/public/tags?marketplace_id=US'));
  expectConforms(
    'DELETE',
    '/api/v3/public/tags',
    await req('DELETE', '/api/v3/public/tags', { marketplace_id: 'US', tags: { B0CONTR001: ['t'] } }),
  );
  expectConforms('GET', '/api/v3/public/tags', await req('GET', '/api/v3/public/tags?marketplace_id=XX'));
});

test.each([
  [
    '/api/v3/listing-matches',
    { matches: [{ identifier: 'I1', asin: 'B0CONTR001', is_match: true }] },
    { matches: [{ identifier: 'I1', asin: 'B0CONTR001' }] },
  ],
  ['/api/v3/brand-blocklist', { brands: ['B'] }, { brands: ['B'] }],
  ['/api/v3/asin-blocklist', { asins: ['B0CONTR001'] }, { asins: ['B0CONTR001'] }],
  ['/api/v3/multipack-corrections', { corrections: [{ asin: 'B0CONTR001', quantity: 2 }] }, { asins: ['B0CONTR001'] }],
])('bulk answers conform: %s', async (path, up, down) => {
  clock.advance(120_000);
  expectConforms('POST', path, await req('POST', path, { marketplace_id: 'US', ...up }));
  expectConforms('GET', path, await req('GET', path));
  expectConforms('DELETE', path, await req('DELETE', path, { marketplace_id: 'US', ...down }));
  expectConforms('POST', path, await req('POST', path, { marketplace_id: 'US', [Object.keys(up)[0]]: [{}] }));
  for (let i = 0; i < 30; i++) await req('GET', path);
  const limited = await req('GET', path);
  expect(limited.status).toBe(429);
  expectConforms('GET', path, limited);
});
