/** Notes (document 2.6, 4.5) and tags (2.5, 4.4), over HTTP. */
import { call, start, KEY_A, KEY_B, KEY_US_ONLY, TestClock } from './helpers';
import type { RunningService } from '../../emulator/service/server';

let svc: RunningService;
const clock = new TestClock();
beforeAll(async () => {
  svc = await start({}, { now: clock.now });
});
afterAll(() => svc.stop());
const req = (method: string, path: string, json?: unknown, key = KEY_A) => call(svc.url, method, path, { json, key });

describe('notes', () => {
  test('create answers the note with a numeric marketplace_id and YYYY-MM-DD HH:MM:SS times', async () => {
    const res = await req('POST', '/api/v3/public/notes', { asin: 'B0NOTE0001', marketplace_id: 'UK', note: 'Check the case pack' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      asin: 'B0NOTE0001',
      marketplace_id: 4,
      note: 'Check the case pack',
      created_at: '2026-01-15 12:00:00',
      updated_at: '2026-01-15 12:00:00',
    });
  });

  test('update changes only the text and moves updated_at; other members answer 422', async () => {
    const created = (await req('POST', '/api/v3/public/notes', { asin: 'B0NOTE0002', marketplace_id: 'US', note: 'v1' })).body;
    clock.advance(65_000);
    const res = await req('PATCH', `/api/v3/public/notes/${created.id}`, { note: 'v2' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...created, note: 'v2', updated_at: '2026-01-15 12:01:05' });
    const other = await req('PATCH', `/api/v3/public/notes/${created.id}`, { note: 'v3', asin: 'B0OTHER001' });
    expect(other.status).toBe(422);
    expect(other.body.message).toMatch(/asin is not allowed/);
  });

  test('list filters by marketplace and ASIN, newest first', async () => {
    await req('POST', '/api/v3/public/notes', { asin: 'B0NOTE0003', marketplace_id: 'JP', note: 'first' });
    await req('POST', '/api/v3/public/notes', { asin: 'B0NOTE0003', marketplace_id: 'JP', note: 'second' });
    await req('POST', '/api/v3/public/notes', { asin: 'B0NOTE0004', marketplace_id: 'JP', note: 'other asin' });
    const res = await req('GET', '/api/v3/public/notes?marketplace_id=JP&asin=B0NOTE0003');
    expect(res.body.map((n: any) => n.note)).toEqual(['second', 'first']);
    expect((await req('GET', '/api/v3/public/notes?marketplace_id=JP')).body).toHaveLength(3);
  });

  test("another account's note is a 404 for read-modify and delete, and is not listed", async () => {
    const mine = (await req('POST', '/api/v3/public/notes', { asin: 'B0NOTE0005', marketplace_id: 'US', note: 'private' })).body;
    expect((await req('PATCH', `/api/v3/public/notes/${mine.id}`, { note: 'hacked' }, KEY_B)).status).toBe(404);
    expect((await req('DELETE', `/api/v3/public/notes/${mine.id}`, undefined, KEY_B)).status).toBe(404);
    expect((await req('GET', '/api/v3/public/notes', undefined, KEY_B)).body).toEqual([]);
    const del = await req('DELETE', `/api/v3/public/notes/${mine.id}`);
    expect(del.body).toEqual({ deleted: true });
    expect((await req('DELETE', `/api/v3/public/notes/${mine.id}`)).status).toBe(404);
  });

  test('bad input: unknown marketplace, numeric marketplace, blank note, short ASIN, missing member, bad id', async () => {
    const unknown = await req('POST', '/api/v3/public/notes', { asin: 'B0NOTE0009', marketplace_id: 'ZZ', note: 'x' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toMatch(/Unknown marketplace "ZZ"/);
    expect((await req('POST', '/api/v3/public/notes', { asin: 'B0NOTE0009', marketplace_id: 1, note: 'x' })).status).toBe(422);
    expect((await req('POST', '/api/v3/public/notes', { asin: 'B0NOTE0009', marketplace_id: 'US', note: '   ' })).body.message).toMatch(
      /note must not be empty/,
    );
    expect((await req('POST', '/api/v3/public/notes', { asin: 'B0', marketplace_id: 'US', note: 'x' })).body.message).toMatch(
      /asin must be 10 to 25/,
    );
    const missing = await req('POST', '/api/v3/public/notes', { marketplace_id: 'US' });
    expect(missing.status).toBe(422);
    expect(missing.body.message).toMatch(/asin is required; note is required/);
    expect((await req('PATCH', '/api/v3/public/notes/abc', { note: 'x' })).status).toBe(404);
    expect((await req('POST', '/api/v3/public/notes', { asin: 'B0NOTE0009', marketplace_id: 'DE', note: 'x' }, KEY_US_ONLY)).status).toBe(
      403,
    );
  });
});

describe('tags', () => {
  test('upsert creates missing tags with hex colours, skips existing assignments', async () => {
    const res = await req('PUT', '/api/v3/public/tags', {
      marketplace_id: 'US',
      tags: { B0TAG00001: ['keep', 'review'], B0TAG00002: ['keep'] },
    });
    expect(res.status).toBe(200);
    expect(res.body.assignments_added).toBe(3);
    expect(res.body.tags_created).toEqual([
      { id: expect.any(Number), name: 'keep', color: expect.stringMatching(/^#[0-9a-f]{6}$/) },
      { id: expect.any(Number), name: 'review', color: expect.stringMatching(/^#[0-9a-f]{6}$/) },
    ]);
    const again = await req('PUT', '/api/v3/public/tags', {
      marketplace_id: 'US',
      tags: { B0TAG00001: ['keep', ' review '], B0TAG00003: ['keep'] },
    });
    expect(again.body).toEqual({ tags_created: [], assignments_added: 1 });
    expect((await req('GET', '/api/v3/public/tags?marketplace_id=US')).body).toEqual({
      B0TAG00001: ['keep', 'review'],
      B0TAG00002: ['keep'],
      B0TAG00003: ['keep'],
    });
  });

  test('delete removes assignments and deletes tags left without any', async () => {
    await req('PUT', '/api/v3/public/tags', { marketplace_id: 'CA', tags: { B0TAG00011: ['a', 'b'], B0TAG00012: ['a'] } });
    const res = await req('DELETE', '/api/v3/public/tags', {
      marketplace_id: 'CA',
      tags: { B0TAG00011: ['a', 'b', 'never'], B0TAG00012: [] },
    });
    expect(res.body).toEqual({ assignments_removed: 2, tags_deleted: 1 });
    expect((await req('GET', '/api/v3/public/tags?marketplace_id=CA')).body).toEqual({ B0TAG00012: ['a'] });
    // Tag "b" is gone: assigning it again creates it anew.
    expect((await req('PUT', '/api/v3/public/tags', { marketplace_id: 'CA', tags: { B0TAG00012: ['b'] } })).body.tags_created).toHaveLength(
      1,
    );
  });

  test('tags are per account and marketplace, names case-sensitive', async () => {
    await req('PUT', '/api/v3/public/tags', { marketplace_id: 'DE', tags: { B0TAG00021: ['Promo'] } });
    const other = await req('PUT', '/api/v3/public/tags', { marketplace_id: 'DE', tags: { B0TAG00021: ['promo'] } });
    expect(other.body.tags_created.map((t: any) => t.name)).toEqual(['promo']);
    expect((await req('GET', '/api/v3/public/tags?marketplace_id=DE', undefined, KEY_B)).body).toEqual({});
    expect((await req('GET', '/api/v3/public/tags?marketplace_id=FR')).body).toEqual({});
  });

  test('bad input answers 422 and writes nothing', async () => {
    const res = await req('PUT', '/api/v3/public/tags', {
      marketplace_id: 'IT',
      tags: { B0TAG00031: ['ok'], SHORT: ['x'], B0TAG00032: [''] },
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/SHORT.*10 to 25.*B0TAG00032.*empty/);
    expect((await req('GET', '/api/v3/public/tags?marketplace_id=IT')).body).toEqual({});
    expect((await req('GET', '/api/v3/public/tags')).status).toBe(422);
    expect((await req('PUT', '/api/v3/public/tags', { marketplace_id: 'IT', tags: { B0TAG00031: 'ok' } })).status).toBe(422);
  });
});
