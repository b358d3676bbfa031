/** POST /api/v3/convert and /api/v3/asin-convert (document 4.2, 8), over HTTP. */
import type { RunningService } from '../../emulator/service/server';
import { CHEAP_EAN, Client, FILLER, KEY_A, KEY_CA, P, fillerAsin, startTestService, upc } from './scans-fixtures';

let svc: RunningService;
let a: Client;
beforeAll(async () => {
  svc = await startTestService();
  a = new Client(svc.url, KEY_A);
});
afterAll(async () => {
  await svc.stop();
});

test('convert answers matched ids with the ASIN first, then its other identifiers; unmatched ids are omitted', async () => {
  const r = await a.post('/api/v3/convert', { marketplace: 'US', ids: [P.plain.upc, P.cheap.upc, upc(999999), 'junk'] });
  expect(r.status).toBe(200);
  expect(Object.keys(r.body).sort()).toEqual([P.plain.upc, P.cheap.upc].sort());
  expect(r.body[P.plain.upc]).toEqual([P.plain.asin]);
  // The other identifier of the product (its EAN) follows the ASIN.
  expect(r.body[P.cheap.upc]).toEqual([P.cheap.asin, CHEAP_EAN]);
  // An EAN finds the same product.
  const byEan = await a.post('/api/v3/convert', { marketplace: 'US', ids: [CHEAP_EAN] });
  expect(byEan.body).toEqual({ [CHEAP_EAN]: [P.cheap.asin, P.cheap.upc] });
});

test('an id on several ASINs answers every ASIN, best-ranked first, before the other identifiers (x-decision)', async () => {
  const r = await a.post('/api/v3/convert', { marketplace: 'US', ids: [P.sharedA.upc] });
  // sharedA has rank 100, sharedB rank 200: the best-ranked ASIN stays the first element.
  expect(r.body).toEqual({ [P.sharedA.upc]: [P.sharedA.asin, P.sharedB.asin] });
  // The UPC that lost a leading zero (11 digits): both ASINs, then the full UPC (an identifier of both, listed once).
  const short = P.sharedA.upc.slice(1);
  const r2 = await a.post('/api/v3/convert', { marketplace: 'US', ids: [short, P.plain.upc] });
  expect(r2.body).toEqual({ [short]: [P.sharedA.asin, P.sharedB.asin, P.sharedA.upc], [P.plain.upc]: [P.plain.asin] });
});

test('convert looks ids up in the named marketplace only', async () => {
  const us = await a.post('/api/v3/convert', { marketplace: 'US', ids: [P.canada.upc] });
  expect(us.body).toEqual({});
  const ca = await a.post('/api/v3/convert', { marketplace: 'CA', ids: [P.canada.upc] });
  expect(ca.body).toEqual({ [P.canada.upc]: [P.canada.asin] });
});

test('convert takes 1 to 20 ids: 0 or 21 answer 422 with a clear message', async () => {
  const twenty = Array.from({ length: 20 }, (_, i) => upc(2000 + i));
  const ok = await a.post('/api/v3/convert', { marketplace: 'US', ids: twenty });
  expect(ok.status).toBe(200);
  expect(Object.keys(ok.body)).toHaveLength(20);
  const tooMany = await a.post('/api/v3/convert', { marketplace: 'US', ids: [...twenty, upc(2020)] });
  expect(tooMany.status).toBe(422);
  expect(tooMany.body.message).toMatch(/ids/);
  expect(tooMany.body.message).toMatch(/20/);
  const none = await a.post('/api/v3/convert', { marketplace: 'US', ids: [] });
  expect(none.status).toBe(422);
  expect(none.body.message).toMatch(/ids/);
});

test('asin-convert answers identifiers by kind; unknown ASINs are omitted', async () => {
  const r = await a.post('/api/v3/asin-convert', { marketplace: 'US', asins: [P.cheap.asin, P.plain.asin, 'B0NOTHERE1'] });
  expect(r.status).toBe(200);
  expect(r.body).toEqual({
    [P.cheap.asin]: { upc: [P.cheap.upc], ean: [CHEAP_EAN] },
    [P.plain.asin]: { upc: [P.plain.upc] },
  });
});

test('asin-convert takes 1 to 1,000 ASINs: 1,001 answer 422', async () => {
  const asins = Array.from({ length: 1000 }, (_, i) => fillerAsin(i % FILLER));
  const ok = await a.post('/api/v3/asin-convert', { marketplace: 'US', asins });
  expect(ok.status).toBe(200);
  expect(Object.keys(ok.body)).toHaveLength(FILLER);
  const tooMany = await a.post('/api/v3/asin-convert', { marketplace: 'US', asins: [...asins, P.plain.asin] });
  expect(tooMany.status).toBe(422);
  expect(tooMany.body.message).toMatch(/asins/);
  expect(tooMany.body.message).toMatch(/1000/);
  expect((await a.post('/api/v3/asin-convert', { marketplace: 'US', asins: [] })).status).toBe(422);
});

test('bad bodies answer 4xx with a message, never 500', async () => {
  const cases: Array<[string, unknown, number, RegExp]> = [
    ['/api/v3/convert', { ids: [P.plain.upc] }, 422, /marketplace/],
    ['/api/v3/convert', { marketplace: 'XX', ids: [P.plain.upc] }, 422, /Unknown marketplace "XX"/],
    ['/api/v3/convert', { marketplace: 1, ids: [P.plain.upc] }, 422, /marketplace/],
    ['/api/v3/convert', { marketplace: 'US' }, 422, /ids/],
    ['/api/v3/convert', { marketplace: 'US', ids: P.plain.upc }, 422, /ids/],
    ['/api/v3/convert', { marketplace: 'US', ids: [123456789012] }, 422, /ids/],
    ['/api/v3/convert', { marketplace: 'US', ids: ['  '] }, 422, /non-empty/],
    ['/api/v3/asin-convert', { marketplace: 'US', asins: [null] }, 422, /asins/],
    ['/api/v3/asin-convert', [1, 2], 422, /body|object/],
  ];
  for (const [path, body, status, message] of cases) {
    const r = await a.post(path, body);
    expect([path, JSON.stringify(body), r.status]).toEqual([path, JSON.stringify(body), status]);
    expect(r.body.message).toMatch(message);
  }
  const malformed = await a.request('POST', '/api/v3/convert', '{"marketplace":', { 'content-type': 'application/json' });
  expect(malformed.status).toBe(400);
});

test('a marketplace the key has no access to answers 403; no key answers 401', async () => {
  const ca = new Client(svc.url, KEY_CA);
  const r = await ca.post('/api/v3/convert', { marketplace: 'US', ids: [P.plain.upc] });
  expect(r.status).toBe(403);
  expect((await ca.post('/api/v3/asin-convert', { marketplace: 'US', asins: [P.plain.asin] })).status).toBe(403);
  expect((await ca.post('/api/v3/convert', { marketplace: 'CA', ids: [P.canada.upc] })).status).toBe(200);
  const anon = await fetch(svc.url + '/api/v3/convert', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ marketplace: 'US', ids: [P.plain.upc] }),
  });
  expect(anon.status).toBe(401);
});
