/**
 * Client mistakes answer 4xx naming the problem (issue 14, items 2 and 6): broken multipart forms,
 * and `Content-Type: application/json` with an empty body, which is no body.
 */
import net from 'node:net';
import { call, KEY_A, start } from './helpers';
import type { RunningService } from '../../emulator/service/server';

let svc: RunningService;
beforeAll(async () => {
  svc = await start();
});
afterAll(() => svc.stop());

/** One raw HTTP/1.1 request (Content-Length as given, so a body can be cut short); answers status and JSON body. */
function raw(head: string, body: string, contentLength = Buffer.byteLength(body)): Promise<{ status: number; body: any }> {
  const u = new URL(svc.url);
  return new Promise((resolve, reject) => {
    const s = net.connect(Number(u.port), u.hostname, () => {
      s.write(
        `${head}\r\nHost: local\r\nAuthorization: Bearer ${KEY_A}\r\nContent-Length: ${contentLength}\r\nConnection: close\r\n\r\n${body}`,
      );
      // A body shorter than announced: the client stops sending (half-close), as a dropped upload does.
      s.end();
    });
    let out = '';
    s.on('data', (d) => (out += d));
    s.on('error', reject);
    s.on('close', () => {
      const [headText, bodyText = ''] = out.split('\r\n\r\n');
      resolve({ status: Number(headText.split(' ')[1]), body: bodyText ? JSON.parse(bodyText) : undefined });
    });
  });
}

const form = (boundary: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\nUPC,Cost\n036000291452,3\r\n` +
  `--${boundary}\r\nContent-Disposition: form-data; name="attributes"\r\n\r\n{"mapping":{"id":0,"cost":1},"options":{"marketplace_id":"US","name":"x","header":true}}\r\n--${boundary}--\r\n`;

test('multipart without a boundary answers 400 saying the boundary is missing', async () => {
  const res = await raw('POST /api/v3/scans HTTP/1.1\r\nContent-Type: multipart/form-data', form('XYZ'));
  expect(res.status).toBe(400);
  expect(res.body.message).toMatch(/no boundary parameter/);
});

test('multipart whose body uses another boundary than Content-Type names answers 400', async () => {
  const res = await raw('POST /api/v3/scans HTTP/1.1\r\nContent-Type: multipart/form-data; boundary=ABC', form('XYZ'));
  expect(res.status).toBe(400);
  expect(res.body.message).toMatch(/closing boundary .*cut short, or its boundary is not the one named in Content-Type/);
});

test('a multipart body cut short answers 400 (not 500)', async () => {
  const body = form('XYZ');
  const res = await raw('POST /api/v3/scans HTTP/1.1\r\nContent-Type: multipart/form-data; boundary=XYZ', body.slice(0, 120), 120);
  expect(res.status).toBe(400);
  expect(res.body.message).toMatch(/multipart\/form-data body could not be read/);
});

test('a multipart body sent to a JSON endpoint answers 4xx, not 500', async () => {
  const res = await raw('POST /api/v3/brand-blocklist HTTP/1.1\r\nContent-Type: multipart/form-data; boundary=ABC', form('XYZ'));
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(typeof res.body.message).toBe('string');
});

test('Content-Type: application/json with an empty body is no body: a scan delete succeeds', async () => {
  // A finished scan to delete: the upload answers 201, then delete with the vendor client's headers.
  const fd = new FormData();
  fd.append('file', new Blob(['UPC,Cost\n036000291452,3\n'], { type: 'text/csv' }), 'a.csv');
  fd.append('attributes', JSON.stringify({ mapping: { id: 0, cost: 1 }, options: { marketplace_id: 'US', name: 'x', header: true } }));
  const up = await call(svc.url, 'POST', '/api/v3/scans', { body: fd });
  expect(up.status).toBe(201);
  // The results body is optional: empty reads as the defaults (first page of products).
  const results = await call(svc.url, 'POST', `/api/v3/scans/${up.body.id}`, { body: '', headers: { 'content-type': 'application/json' } });
  expect([results.status, results.body.page, results.body.per_page]).toEqual([200, 1, 50]);
  const del = await call(svc.url, 'DELETE', `/api/v3/scans/${up.body.id}`, { body: '', headers: { 'content-type': 'application/json' } });
  expect([del.status, del.body]).toEqual([200, { deleted: true }]);
  const webhookDelete = await call(svc.url, 'DELETE', '/api/v4/webhooks/999', {
    body: '',
    headers: { 'content-type': 'application/json' },
  });
  expect(webhookDelete.status).toBe(404);
});

test('an empty JSON body where a body is required answers 422 "required", as with no body at all', async () => {
  const none = await call(svc.url, 'POST', '/api/v3/public/notes');
  const empty = await call(svc.url, 'POST', '/api/v3/public/notes', { body: '', headers: { 'content-type': 'application/json' } });
  expect(empty.status).toBe(422);
  expect(empty.body).toEqual(none.body);
  const bulk = await call(svc.url, 'POST', '/api/v3/brand-blocklist', { body: '', headers: { 'content-type': 'application/json' } });
  expect([bulk.status, bulk.body.errors]).toEqual([422, []]);
  expect(bulk.body.message).toMatch(/JSON body is required/);
});
