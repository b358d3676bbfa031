/** The four bulk areas (document 4.6, 7, 8), over HTTP. */
import { call, start, KEY_A, KEY_B, KEY_US_ONLY, TestClock } from './helpers';
import type { RunningService } from '../../emulator/service/server';
import { loadAccountRules } from '../../emulator/service/scans/rules';

let svc: RunningService;
const clock = new TestClock();
beforeAll(async () => {
  svc = await start({}, { now: clock.now });
});
afterAll(() => svc.stop());
// Each test starts with a fresh rate-limit window.
beforeEach(() => clock.advance(120_000));

const post = (path: string, json: unknown, key = KEY_A) => call(svc.url, 'POST', path, { json, key });
const del = (path: string, json: unknown, key = KEY_A) => call(svc.url, 'DELETE', path, { json, key });
const get = (path: string, key = KEY_A) => call(svc.url, 'GET', path, { key });
/** One upsert naming the multipack correction of `asin` twice: with quantity `first`, then `last`. */
const correctionNamedTwice = (marketplace_id: string, asin: string, first: number, last: number) =>
  post('/api/v3/multipack-corrections', {
    marketplace_id,
    corrections: [
      { asin, quantity: first },
      { asin, quantity: last },
    ],
  });

test('listing matches: upsert reports counts; repeating the payload reports every row unchanged', async () => {
  const body = {
    marketplace_id: 'US',
    matches: [
      { identifier: '012345678905', asin: 'B0LM000001', is_match: true },
      { identifier: '012345678905', asin: 'B0LM000002', is_match: false },
    ],
  };
  expect((await post('/api/v3/listing-matches', body)).body).toEqual({ created: 2, updated: 0, unchanged: 0, deleted: 0 });
  expect((await post('/api/v3/listing-matches', body)).body).toEqual({ created: 0, updated: 0, unchanged: 2, deleted: 0 });
  body.matches[1].is_match = true;
  expect((await post('/api/v3/listing-matches', body)).body).toEqual({ created: 0, updated: 1, unchanged: 1, deleted: 0 });
  const list = await get('/api/v3/listing-matches?identifier=012345678905');
  expect(list.status).toBe(200);
  expect(list.body.total).toBe(2);
  expect(list.body.data[0]).toEqual({
    id: expect.any(Number),
    marketplace_id: 1,
    identifier: '012345678905',
    asin: 'B0LM000002',
    is_match: true,
    created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
  });
});

test('422 lists every bad row with index, field and message, and nothing is written', async () => {
  const res = await post('/api/v3/multipack-corrections', {
    marketplace_id: 'US',
    corrections: [
      { asin: 'B0MP000001', quantity: 2 },
      { asin: '', quantity: 2 },
      { asin: 'B0MP000003', quantity: 0 },
      { asin: 'SHORT', quantity: 'two' },
      { asin: 'B0MP000005', quantity: 3 },
      { asin: 'X'.repeat(26), quantity: 1 },
    ],
  });
  expect(res.status).toBe(422);
  expect(typeof res.body.message).toBe('string');
  expect(res.body.errors.map((e: any) => [e.index, e.field])).toEqual([
    [1, 'asin'],
    [2, 'quantity'],
    [3, 'asin'],
    [3, 'quantity'],
    [5, 'asin'],
  ]);
  for (const e of res.body.errors) expect(e.message.length).toBeGreaterThan(5);
  expect((await get('/api/v3/multipack-corrections?asin=B0MP000001')).body.total).toBe(0);
  expect((await get('/api/v3/multipack-corrections?asin=B0MP000005')).body.total).toBe(0);
});

test('the documented 422 conditions: empty identifier, ASIN outside 10-25, brand over 255 characters', async () => {
  const lm = await post('/api/v3/listing-matches', {
    marketplace_id: 'US',
    matches: [{ identifier: '  ', asin: 'B0LM000009', is_match: true }],
  });
  expect(lm.status).toBe(422);
  expect(lm.body.errors).toEqual([{ index: 0, field: 'identifier', message: expect.stringMatching(/empty/) }]);
  const asins = await post('/api/v3/asin-blocklist', {
    marketplace_id: 'US',
    asins: ['B0AB00001', 'B0AB000001', 'B'.repeat(25), 'B'.repeat(26)],
  });
  expect(asins.status).toBe(422);
  expect(asins.body.errors.map((e: any) => e.index)).toEqual([0, 3]);
  const brands = await post('/api/v3/brand-blocklist', { marketplace_id: 'US', brands: ['b'.repeat(255), 'b'.repeat(256)] });
  expect(brands.status).toBe(422);
  expect(brands.body.errors).toEqual([{ index: 1, field: 'brand', message: expect.stringMatching(/255.*not shortened/) }]);
  expect((await get('/api/v3/brand-blocklist')).body.total).toBe(0);
});

test('values are trimmed and matched case-sensitively', async () => {
  // Issue 14 item 7: entries are counted, not rows ('  Acme  ' and 'Acme' are one entry; was unchanged: 1).
  expect((await post('/api/v3/brand-blocklist', { marketplace_id: 'US', brands: ['  Acme  ', 'acme', 'Acme'] })).body).toEqual({
    created: 2,
    updated: 0,
    unchanged: 0,
    deleted: 0,
  });
  const list = await get('/api/v3/brand-blocklist?name=Acme');
  expect(list.body.data.map((b: any) => b.name)).toEqual(['Acme']);
  expect((await get('/api/v3/brand-blocklist?name=ACME')).body.total).toBe(0);
  expect((await del('/api/v3/brand-blocklist', { marketplace_id: 'US', brands: ['Acme ', 'acme', 'ACME'] })).body).toEqual({
    created: 0,
    updated: 0,
    unchanged: 0,
    deleted: 2,
  });
});

test('the last entry wins when a key repeats in one upsert', async () => {
  const res = await correctionNamedTwice('CA', 'B0MPLAST01', 2, 6);
  // Issue 14 item 7: one entry, created once (was updated: 1 for its second row).
  expect(res.body).toEqual({ created: 1, updated: 0, unchanged: 0, deleted: 0 });
  const list = await get('/api/v3/multipack-corrections?marketplace_id=CA&asin=B0MPLAST01');
  expect(list.body.data).toEqual([expect.objectContaining({ asin: 'B0MPLAST01', quantity: 6, marketplace_id: 2 })]);
});

test('deleting entries that do not exist is not an error and is not counted', async () => {
  await post('/api/v3/asin-blocklist', { marketplace_id: 'US', asins: ['B0DEL00001'] });
  const res = await del('/api/v3/asin-blocklist', { marketplace_id: 'US', asins: ['B0DEL00001', 'B0DEL00002', 'B0DEL00001'] });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ created: 0, updated: 0, unchanged: 0, deleted: 1 });
});

test('listing matches are deleted by identifier and ASIN, multipack corrections by ASIN', async () => {
  await post('/api/v3/listing-matches', {
    marketplace_id: 'US',
    matches: [
      { identifier: 'ID-DEL', asin: 'B0LMDEL001', is_match: true },
      { identifier: 'ID-DEL', asin: 'B0LMDEL002', is_match: true },
    ],
  });
  expect(
    (await del('/api/v3/listing-matches', { marketplace_id: 'US', matches: [{ identifier: 'ID-DEL', asin: 'B0LMDEL001' }] })).body.deleted,
  ).toBe(1);
  expect((await get('/api/v3/listing-matches?identifier=ID-DEL')).body.data.map((m: any) => m.asin)).toEqual(['B0LMDEL002']);
  await post('/api/v3/multipack-corrections', { marketplace_id: 'US', corrections: [{ asin: 'B0MPDEL001', quantity: 3 }] });
  expect((await del('/api/v3/multipack-corrections', { marketplace_id: 'US', asins: ['B0MPDEL001'] })).body.deleted).toBe(1);
});

test('marketplace_id takes a code or a numeric id on writes; responses carry the numeric id', async () => {
  expect((await post('/api/v3/asin-blocklist', { marketplace_id: 5, asins: ['B0DE000001'] })).body.created).toBe(1);
  expect((await post('/api/v3/asin-blocklist', { marketplace_id: 'DE', asins: ['B0DE000001'] })).body.unchanged).toBe(1);
  const list = await get('/api/v3/asin-blocklist?marketplace_id=5');
  expect(list.body.data).toEqual([expect.objectContaining({ asin: 'B0DE000001', marketplace_id: 5 })]);
  expect((await get('/api/v3/asin-blocklist?marketplace_id=DE')).body.total).toBe(1);
});

test('an unknown or missing marketplace answers 422 with a clear message and an empty errors list', async () => {
  const res = await post('/api/v3/asin-blocklist', { marketplace_id: 'XX', asins: ['B0XX000001'] });
  expect(res.status).toBe(422);
  expect(res.body.message).toMatch(/Unknown marketplace "XX".*US, CA/);
  expect(res.body.errors).toEqual([]);
  const missing = await post('/api/v3/asin-blocklist', { asins: ['B0XX000001'] });
  expect(missing.status).toBe(422);
  expect(missing.body.message).toMatch(/marketplace_id is required/);
  expect((await get('/api/v3/asin-blocklist?marketplace_id=99')).status).toBe(422);
});

test('a key limited to some marketplaces gets 403 for the others', async () => {
  const res = await post('/api/v3/brand-blocklist', { marketplace_id: 'DE', brands: ['X'] }, KEY_US_ONLY);
  expect(res.status).toBe(403);
  expect(res.body.message).toMatch(/no access to marketplace DE/);
  expect((await post('/api/v3/brand-blocklist', { marketplace_id: 'US', brands: ['X'] }, KEY_US_ONLY)).status).toBe(200);
});

test('more than 10000 rows answers 422 and writes nothing; exactly 10000 is accepted', async () => {
  const rows = (n: number, p: string) => Array.from({ length: n }, (_, i) => `${p}${String(i).padStart(8, '0')}`);
  const over = await post('/api/v3/asin-blocklist', { marketplace_id: 'IT', asins: rows(10_001, 'BO') });
  expect(over.status).toBe(422);
  expect(over.body.message).toMatch(/At most 10000 rows/);
  expect((await get('/api/v3/asin-blocklist?marketplace_id=IT')).body.total).toBe(0);
  const ok = await post('/api/v3/asin-blocklist', { marketplace_id: 'IT', asins: rows(10_000, 'BK') });
  expect(ok.body.created).toBe(10_000);
});

test('lists are newest first and paginated (default 100, max 1000)', async () => {
  const asins = Array.from({ length: 150 }, (_, i) => `B0PG${String(i).padStart(6, '0')}`);
  for (const a of asins.slice(0, 3)) {
    await post('/api/v3/asin-blocklist', { marketplace_id: 'ES', asins: [a] });
    clock.advance(1000);
  }
  await post('/api/v3/asin-blocklist', { marketplace_id: 'ES', asins: asins.slice(3) });
  const first = await get('/api/v3/asin-blocklist?marketplace_id=ES');
  expect(first.body).toMatchObject({ page: 1, per_page: 100, total: 150 });
  expect(first.body.data).toHaveLength(100);
  expect(first.body.data[0].asin).toBe(asins[149]);
  const last = await get('/api/v3/asin-blocklist?marketplace_id=ES&page=2&per_page=100');
  expect(last.body.data.slice(-3).map((r: any) => r.asin)).toEqual([asins[2], asins[1], asins[0]]);
  expect((await get('/api/v3/asin-blocklist?marketplace_id=ES&per_page=1000')).body.data).toHaveLength(150);
  const tooMany = await get('/api/v3/asin-blocklist?per_page=1001');
  expect(tooMany.status).toBe(422);
  expect(tooMany.body.message).toMatch(/per_page/);
  expect((await get('/api/v3/asin-blocklist?page=0')).status).toBe(422);
});

test('30 requests per minute per account over the four areas; 429 with Retry-After writes nothing', async () => {
  for (let i = 0; i < 30; i++) {
    const path = ['/api/v3/listing-matches', '/api/v3/brand-blocklist', '/api/v3/asin-blocklist', '/api/v3/multipack-corrections'][i % 4];
    expect((await get(path)).status).toBe(200);
    clock.advance(1000);
  }
  const refused = await post('/api/v3/brand-blocklist', { marketplace_id: 'US', brands: ['RateLimited'] });
  expect(refused.status).toBe(429);
  expect(refused.headers.get('retry-after')).toBe('30');
  expect(refused.body.message).toMatch(/30 per minute/);
  // Another account has its own budget.
  expect((await get('/api/v3/brand-blocklist?name=RateLimited', KEY_B)).body.total).toBe(0);
  clock.advance(30_000);
  const list = await get('/api/v3/brand-blocklist?name=RateLimited');
  expect(list.status).toBe(200);
  expect(list.body.total).toBe(0);
});

test('accounts are isolated: another account sees none of the entries', async () => {
  await post('/api/v3/asin-blocklist', { marketplace_id: 'FR', asins: ['B0ISO00001'] });
  expect((await get('/api/v3/asin-blocklist?marketplace_id=FR', KEY_B)).body.total).toBe(0);
  expect((await del('/api/v3/asin-blocklist', { marketplace_id: 'FR', asins: ['B0ISO00001'] }, KEY_B)).body.deleted).toBe(0);
  expect((await get('/api/v3/asin-blocklist?marketplace_id=FR')).body.total).toBe(1);
});

test("rules for scans: loadAccountRules reads the account's entries of one marketplace", async () => {
  await post('/api/v3/brand-blocklist', { marketplace_id: 'MX', brands: ['Blocked Co'] });
  await post('/api/v3/asin-blocklist', { marketplace_id: 'MX', asins: ['B0RULE0001'] });
  await post('/api/v3/multipack-corrections', { marketplace_id: 'MX', corrections: [{ asin: 'B0RULE0002', quantity: 4 }] });
  await post('/api/v3/listing-matches', { marketplace_id: 'MX', matches: [{ identifier: '0001', asin: 'B0RULE0003', is_match: false }] });
  const accountId = (svc.ctx.db.prepare('SELECT id FROM accounts WHERE api_key = ?').get(KEY_A) as { id: number }).id;
  const rules = loadAccountRules(svc.ctx.db, accountId, 3);
  expect([...rules.blockedBrands]).toEqual(['Blocked Co']);
  expect([...rules.blockedAsins]).toEqual(['B0RULE0001']);
  expect([...rules.multipackCorrections]).toEqual([['B0RULE0002', 4]]);
  expect([...rules.listingMatches]).toEqual([['0001\u0000B0RULE0003', false]]);
  expect(loadAccountRules(svc.ctx.db, accountId, 1).blockedBrands.has('Blocked Co')).toBe(false);
});

test('wrong types answer 422 per row; malformed JSON answers 400', async () => {
  const res = await post('/api/v3/listing-matches', {
    marketplace_id: 'US',
    matches: [{ identifier: 5, asin: 'B0TYPE0001', is_match: 'yes' }, 'nope'],
  });
  expect(res.status).toBe(422);
  expect(res.body.errors.map((e: any) => [e.index, e.field])).toEqual([
    [0, 'identifier'],
    [0, 'is_match'],
    [1, 'value'],
  ]);
  const bad = await call(svc.url, 'POST', '/api/v3/listing-matches', {
    body: '{"marketplace_id": "US", matches: [',
    headers: { 'content-type': 'application/json' },
  });
  expect(bad.status).toBe(400);
  expect(bad.body.message).toMatch(/not valid JSON/);
});

describe('counts are of entries, not rows (issue 14 item 7)', () => {
  test('an existing multipack correction named twice is one update', async () => {
    await post('/api/v3/multipack-corrections', { marketplace_id: 'US', corrections: [{ asin: 'B0ENTRY001', quantity: 2 }] });
    const res = await correctionNamedTwice('US', 'B0ENTRY001', 6, 3);
    expect(res.body).toEqual({ created: 0, updated: 1, unchanged: 0, deleted: 0 });
    expect((await get('/api/v3/multipack-corrections?marketplace_id=US&asin=B0ENTRY001')).body.data[0].quantity).toBe(3);
    // Named twice, ending at the stored value: the entry is unchanged.
    const back = await correctionNamedTwice('US', 'B0ENTRY001', 9, 3);
    expect(back.body).toEqual({ created: 0, updated: 0, unchanged: 1, deleted: 0 });
  });
  test('listing matches, brands and ASINs named twice count once', async () => {
    await post('/api/v3/listing-matches', {
      marketplace_id: 'US',
      matches: [{ identifier: 'ID-TWICE', asin: 'B0TWICE001', is_match: true }],
    });
    const lm = await post('/api/v3/listing-matches', {
      marketplace_id: 'US',
      matches: [
        { identifier: 'ID-TWICE', asin: 'B0TWICE001', is_match: false },
        { identifier: 'ID-TWICE', asin: 'B0TWICE001', is_match: false },
        { identifier: 'ID-NEW', asin: 'B0TWICE001', is_match: true },
      ],
    });
    expect(lm.body).toEqual({ created: 1, updated: 1, unchanged: 0, deleted: 0 });
    expect((await post('/api/v3/brand-blocklist', { marketplace_id: 'US', brands: ['Twice', ' Twice', 'Twice '] })).body).toEqual({
      created: 1,
      updated: 0,
      unchanged: 0,
      deleted: 0,
    });
    expect((await post('/api/v3/asin-blocklist', { marketplace_id: 'US', asins: ['B0TWICE009', 'B0TWICE009'] })).body).toEqual({
      created: 1,
      updated: 0,
      unchanged: 0,
      deleted: 0,
    });
    expect((await post('/api/v3/asin-blocklist', { marketplace_id: 'US', asins: ['B0TWICE009', 'B0TWICE009'] })).body).toEqual({
      created: 0,
      updated: 0,
      unchanged: 1,
      deleted: 0,
    });
  });
});
