/** The upload's multipart body reaches the scan handler with its parts readable; limits answer 4xx. */
import { readMultipart } from '../../emulator/service/shared/multipart';
import { call, start } from './helpers';
import type { RunningService } from '../../emulator/service/server';
import { loadApiDocument } from '../../contract/openapi';

let svc: RunningService;
let svcDocument: Record<string, any>;
const seen: any[] = [];

beforeAll(async () => {
  const doc = loadApiDocument();
  // The scans area describes the upload; the handler is replaced here to see what a handler receives.
  doc.paths['/api/v3/scans'] ??= {
    post: {
      operationId: 'uploadScan',
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file', 'attributes'],
              properties: { file: { type: 'string', format: 'binary' }, attributes: { type: 'string' } },
            },
          },
        },
      },
      responses: { '201': { description: 'created' } },
    },
  };
  svcDocument = doc;
  svc = await start(
    { maxUploadBytes: 1000 },
    {
      document: doc,
      handlers: {
        uploadScan: async (req, reply) => {
          const form = await readMultipart(req);
          seen.push(form);
          reply.code(201);
          return {
            file: form.files.file?.filename,
            size: form.files.file?.data.length,
            attributes: JSON.parse(form.fields.attributes ?? 'null'),
          };
        },
      },
    },
  );
});
afterAll(() => svc.stop());

function form(fileBytes: number, attributes = { mapping: { id: 0, cost: 1 }, options: { marketplace_id: 'US', name: 'x' } }) {
  const fd = new FormData();
  fd.append('file', new Blob(['a'.repeat(fileBytes)], { type: 'text/csv' }), 'list.csv');
  fd.append('attributes', JSON.stringify(attributes));
  return fd;
}

test('a multipart upload reaches the handler with the file and attributes parts', async () => {
  const res = await call(svc.url, 'POST', '/api/v3/scans', { body: form(10) });
  expect(res.status).toBe(201);
  expect(res.body).toEqual({
    file: 'list.csv',
    size: 10,
    attributes: { mapping: { id: 0, cost: 1 }, options: { marketplace_id: 'US', name: 'x' } },
  });
  expect(seen.at(-1).files.file.mimetype).toBe('text/csv');
});

test('attributes sent as a JSON blob part are readable as a field too', async () => {
  const fd = new FormData();
  fd.append('file', new Blob(['id,cost'], { type: 'text/csv' }), 'a.csv');
  fd.append('attributes', new Blob(['{"a":1}'], { type: 'application/json' }), 'attributes.json');
  const res = await call(svc.url, 'POST', '/api/v3/scans', { body: fd });
  expect(res.status).toBe(201);
  expect(res.body.attributes).toEqual({ a: 1 });
});

test('counts tells how many parts came under each name (a repeated name is visible to the handler)', async () => {
  const fd = form(3);
  fd.append('attributes', '{"again":true}');
  const res = await call(svc.url, 'POST', '/api/v3/scans', { body: fd });
  expect(res.status).toBe(201);
  expect(seen.at(-1).counts).toEqual({ file: 1, attributes: 2 });
});

test('a file over the upload limit answers 413 with a message and never reaches the handler', async () => {
  const before = seen.length;
  const res = await call(svc.url, 'POST', '/api/v3/scans', { body: form(5000) });
  expect(res.status).toBe(413);
  expect(res.body.message).toMatch(/too large/);
  expect(seen.length).toBe(before);
});

test('uploads are limited by maxUploadBytes, not by the 16 MiB JSON body limit', async () => {
  const big = await start(
    { maxUploadBytes: 20 * 1024 * 1024 },
    { document: svcDocument, handlers: { uploadScan: async (req) => ({ size: (await readMultipart(req)).files.file?.data.length }) } },
  );
  try {
    const res = await call(big.url, 'POST', '/api/v3/scans', { body: form(18 * 1024 * 1024) });
    expect(res.status).toBe(200);
    expect(res.body.size).toBe(18 * 1024 * 1024);
  } finally {
    await big.stop();
  }
});

test('a JSON body on the upload answers 400 with a message', async () => {
  const res = await call(svc.url, 'POST', '/api/v3/scans', { json: { file: 'x' } });
  expect(res.status).toBe(400);
  expect(res.body.message).toMatch(/multipart\/form-data/);
});

test('the upload needs a key like every API path', async () => {
  const res = await call(svc.url, 'POST', '/api/v3/scans', { key: null, body: form(10) });
  expect(res.status).toBe(401);
  expect(res.body.message).toMatch(/API key/);
});
