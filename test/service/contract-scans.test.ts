/**
 * Answers of the scan and conversion endpoints conform to the API description (the add-on's types
 * are generated from it): each JSON response body is validated against the documented schema of
 * its status, for successes and for the client mistakes the description lists.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { RunningService } from '../../emulator/service/server';
import { loadApiDocument } from '../../contract/openapi';
import { attrs, Client, csv, KEY_A, P, startTestService, type Answer } from './scans-fixtures';

const doc = loadApiDocument() as any;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

function schemaOf(method: string, template: string, status: number): object {
  const op = doc.paths[template]?.[method.toLowerCase()];
  if (!op) throw new Error(`${method} ${template} is not described`);
  let resp = op.responses[String(status)];
  if (!resp) throw new Error(`${method} ${template} does not describe status ${status}`);
  if (resp.$ref) resp = doc.components.responses[resp.$ref.split('/').pop()];
  const schema = resp.content?.['application/json']?.schema;
  if (!schema) throw new Error(`${method} ${template} ${status} describes no JSON body`);
  return schema;
}

function expectConforms(method: string, template: string, res: Answer) {
  const validate = ajv.compile({ ...schemaOf(method, template, res.status), components: doc.components });
  const ok = validate(res.body);
  expect({ op: `${method} ${template}`, status: res.status, errors: ok ? [] : ajv.errorsText(validate.errors) }).toEqual({
    op: `${method} ${template}`,
    status: res.status,
    errors: [],
  });
}

let svc: RunningService;
let a: Client;
beforeAll(async () => {
  svc = await startTestService();
  a = new Client(svc.url, KEY_A);
});
afterAll(() => svc.stop());

test('scan answers conform: upload, record, results (products and errors), list, JSON download, export, cancel, delete', async () => {
  const list = csv([
    [P.plain.upc, '5.00'],
    [P.multipack.upc, '3.10'],
    [P.hazmat.upc, '7'],
    ['not-an-id', '1'],
  ]);
  const up = await a.upload(list, attrs({ name: 'Conform' }));
  expectConforms('POST', '/api/v3/scans', up);
  const id = up.body.id;
  await a.waitFor(id);
  expectConforms('GET', '/api/v3/scans/{scan_id}', await a.get(`/api/v3/scans/${id}`));
  expectConforms('POST', '/api/v3/scans/{scan_id}', await a.results(id, { sort: '-profit' }));
  expectConforms('POST', '/api/v3/scans/{scan_id}', await a.results(id, { tableType: 'errors' }));
  expectConforms('GET', '/api/v3/scans', await a.get('/api/v3/scans'));
  expectConforms('POST', '/api/v3/scans/{scan_id}/download', await a.post(`/api/v3/scans/${id}/download?type=json`));
  expectConforms('POST', '/api/v3/scans/{scan_id}/export', await a.post(`/api/v3/scans/${id}/export`));
  expectConforms('GET', '/api/v3/scans/{scan_id}/cancel', await a.get(`/api/v3/scans/${id}/cancel`)); // 409: finished
  expectConforms('DELETE', '/api/v3/scans/{scan_id}', await a.del(`/api/v3/scans/${id}`));
  expectConforms('GET', '/api/v3/scans/{scan_id}', await a.get(`/api/v3/scans/${id}`)); // 404
});

test('scan client mistakes conform: bad attributes, bad results body, bad download type', async () => {
  expectConforms('POST', '/api/v3/scans', await a.upload(csv([[P.plain.upc, '5']]), { mapping: { id: 0 }, options: { name: 'x' } }));
  const id = (await a.upload(csv([[P.plain.upc, '5']]), attrs())).body.id;
  await a.waitFor(id);
  expectConforms('POST', '/api/v3/scans/{scan_id}', await a.results(id, { per_page: 101 }));
  expectConforms('POST', '/api/v3/scans/{scan_id}', await a.results(id, { filter: [{ name: 'nope', operator: '>', value: 1 }] }));
  expectConforms('POST', '/api/v3/scans/{scan_id}/download', await a.post(`/api/v3/scans/${id}/download?type=pdf`));
});

test('conversion answers conform', async () => {
  expectConforms(
    'POST',
    '/api/v3/convert',
    await a.post('/api/v3/convert', { marketplace: 'US', ids: [P.sharedA.upc, P.plain.upc, '000000000000'] }),
  );
  expectConforms('POST', '/api/v3/convert', await a.post('/api/v3/convert', { marketplace: 'US', ids: [] }));
  expectConforms(
    'POST',
    '/api/v3/asin-convert',
    await a.post('/api/v3/asin-convert', { marketplace: 'US', asins: [P.plain.asin, 'B0NOTHERE0'] }),
  );
  expectConforms('POST', '/api/v3/asin-convert', await a.post('/api/v3/asin-convert', { marketplace: 'XX', asins: [P.plain.asin] }));
});
