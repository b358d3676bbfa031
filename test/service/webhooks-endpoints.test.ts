/** Webhooks (document 2.4, 4.3): URL rules, limits, secrets, activity, ownership. */
import { call, start, KEY_A, KEY_B, TestClock } from './helpers';
import type { RunningService } from '../../emulator/service/server';
import { urlProblem } from '../../emulator/service/webhooks/urlPolicy';

let svc: RunningService;
let loop: RunningService;
const clock = new TestClock();
beforeAll(async () => {
  svc = await start({}, { now: clock.now });
  loop = await start({ allowLoopbackWebhooks: true });
});
afterAll(async () => {
  await svc.stop();
  await loop.stop();
});
const req = (method: string, path: string, json?: unknown, key = KEY_A, base = svc.url) => call(base, method, path, { json, key });
const LOCAL_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/;

test('create answers the webhook with its secret, active, subscribed to scan.complete by default', async () => {
  const res = await req('POST', '/api/v4/webhooks', { name: 'Done', url: 'https://hooks.example.com/scan' });
  expect(res.status).toBe(201);
  expect(res.body).toEqual({
    id: expect.any(Number),
    account_id: expect.any(Number),
    user_id: expect.any(Number),
    name: 'Done',
    url: 'https://hooks.example.com/scan',
    secret: expect.stringMatching(/^[0-9a-f]{64}$/),
    events: ['scan.complete'],
    is_active: true,
    created_at: '2026-01-15T12:00:00',
    updated_at: '2026-01-15T12:00:00',
  });
  expect(res.body.created_at).toMatch(LOCAL_TIME);
});

test('the secret never appears in list or get responses', async () => {
  const { id } = (await req('POST', '/api/v4/webhooks', { name: 'NoLeak', url: 'https://hooks.example.com/x' })).body;
  const one = await req('GET', `/api/v4/webhooks/${id}`);
  expect(one.status).toBe(200);
  expect(one.body).not.toHaveProperty('secret');
  const list = await req('GET', '/api/v4/webhooks');
  expect(list.body.length).toBeGreaterThan(0);
  for (const w of list.body) expect(w).not.toHaveProperty('secret');
});

test('only HTTPS URLs', async () => {
  const res = await req('POST', '/api/v4/webhooks', { name: 'Plain', url: 'http://hooks.example.com/scan' });
  expect(res.status).toBe(422);
  expect(res.body.message).toMatch(/HTTPS/);
  expect((await req('POST', '/api/v4/webhooks', { name: 'Junk', url: 'not a url' })).status).toBe(422);
});

test.each([
  'https://127.0.0.1/x',
  'https://10.1.2.3/x',
  'https://172.16.0.1/x',
  'https://192.168.1.1/x',
  'https://169.254.169.254/latest',
  'https://[::1]/x',
  'https://[fe80::1]/x',
  'https://[fd00::1]/x',
  'https://[::ffff:10.0.0.1]/x',
  'https://0.0.0.0/x',
  'https://2130706433/x',
  // IPv4-compatible IPv6: URL parsing rewrites [::127.0.0.1] to [::7f00:1], which must still be read as 127.0.0.1.
  'https://[::127.0.0.1]/x',
  'https://[::10.0.0.1]/x',
  'https://localhost/x',
  'https://api.localhost/x',
  'https://printer.local/x',
  'https://svc.internal/x',
  'https://intranet/x',
])('private, loopback, link-local and internal targets are refused: %s', async (url) => {
  const res = await req('POST', '/api/v4/webhooks', { name: 'Internal', url });
  expect(res.status).toBe(422);
  expect(res.body.message).toMatch(/must not point to/);
});

// Issue 14 item 3: an IPv6 form that carries an internal IPv4 address is that address.
test.each([
  ['6to4 of 127.0.0.1', 'https://[2002:7f00:1::]/x'],
  ['6to4 of 10.0.0.1', 'https://[2002:a00:1:5::9]/x'],
  ['NAT64 of 10.0.0.1', 'https://[64:ff9b::10.0.0.1]/x'],
  ['NAT64 of 169.254.169.254', 'https://[64:ff9b::a9fe:a9fe]/x'],
  ['NAT64 local-use', 'https://[64:ff9b:1::a00:1]/x'],
  ['NAT64 local-use of a public address', 'https://[64:ff9b:1::5db8:d822]/x'],
  ['IPv4-translated of 10.0.0.1', 'https://[::ffff:0:10.0.0.1]/x'],
  ['IPv4-mapped in hex of 127.0.0.1', 'https://[::ffff:7f00:1]/x'],
  ['IPv4-compatible of 192.168.1.1', 'https://[::c0a8:101]/x'],
  ['Teredo whose client is 127.0.0.1 (stored inverted)', 'https://[2001:0:5db8:d822:0:0:80ff:fffe]/x'],
  ['Teredo whose server is 10.0.0.1', 'https://[2001:0:a00:1::7f00:1]/x'],
])('embedded internal IPv4 is refused at registration: %s', async (_what, url) => {
  const res = await req('POST', '/api/v4/webhooks', { name: 'Embedded', url });
  expect(res.status).toBe(422);
  expect(res.body.message).toMatch(/must not point to a private, loopback, link-local or internal address/);
});

test('embedded internal IPv4 is refused on update too; public ones carried the same ways are accepted', async () => {
  const w = await req('POST', '/api/v4/webhooks', { name: 'Public', url: 'https://[2002:5db8:d822::1]/x' }); // 6to4 of 93.184.216.34
  expect(w.status).toBe(201);
  const patch = await req('PATCH', `/api/v4/webhooks/${w.body.id}`, { url: 'https://[2002:c0a8:1::1]/x' }); // 6to4 of 192.168.0.1
  expect(patch.status).toBe(422);
  expect((await req('GET', `/api/v4/webhooks/${w.body.id}`)).body.url).toBe('https://[2002:5db8:d822::1]/x');
  for (const url of ['https://[64:ff9b::5db8:d822]/x', 'https://[2001:0:5db8:d822::a247:27dd]/x', 'https://[::ffff:93.184.216.34]/x'])
    expect([url, urlProblem(url, false)]).toEqual([url, undefined]);
  await req('DELETE', `/api/v4/webhooks/${w.body.id}`);
});

test('public literal addresses are accepted', () => {
  expect(urlProblem('https://93.184.216.34/hook', false)).toBeUndefined();
  expect(urlProblem('https://[2606:4700::1111]/hook', false)).toBeUndefined();
});

test('allowLoopbackWebhooks admits loopback (http too) and nothing else internal', async () => {
  for (const url of ['http://127.0.0.1:9/x', 'http://localhost:9/x', 'http://[::1]:9/x', 'https://127.0.0.1/x']) {
    expect((await req('POST', '/api/v4/webhooks', { name: 'Loop', url }, KEY_B, loop.url)).status).toBe(201);
  }
  for (const url of ['http://10.0.0.1/x', 'https://192.168.0.1/x', 'http://hooks.example.com/x']) {
    expect((await req('POST', '/api/v4/webhooks', { name: 'Loop', url }, KEY_B, loop.url)).status).toBe(422);
  }
});

test('at most 10 webhooks per account', async () => {
  const list = (await req('GET', '/api/v4/webhooks', undefined, KEY_B)).body as unknown[];
  for (let i = list.length; i < 10; i++)
    expect((await req('POST', '/api/v4/webhooks', { name: `w${i}`, url: 'https://hooks.example.com/n' }, KEY_B)).status).toBe(201);
  const res = await req('POST', '/api/v4/webhooks', { name: 'eleventh', url: 'https://hooks.example.com/n' }, KEY_B);
  expect(res.status).toBe(422);
  expect(res.body.message).toMatch(/at most 10 webhooks/);
  expect((await req('GET', '/api/v4/webhooks', undefined, KEY_B)).body).toHaveLength(10);
});

test('regenerate returns a new secret once; get still hides it', async () => {
  const created = (await req('POST', '/api/v4/webhooks', { name: 'Regen', url: 'https://hooks.example.com/r' })).body;
  const res = await req('POST', `/api/v4/webhooks/${created.id}/regenerate-secret`);
  expect(res.status).toBe(200);
  expect(res.body.secret).toMatch(/^[0-9a-f]{64}$/);
  expect(res.body.secret).not.toBe(created.secret);
  expect(res.body.id).toBe(created.id);
  expect((await req('GET', `/api/v4/webhooks/${created.id}`)).body).not.toHaveProperty('secret');
});

test('PATCH toggles is_active and changes fields; answers the webhook without secret', async () => {
  const created = (await req('POST', '/api/v4/webhooks', { name: 'Toggle', url: 'https://hooks.example.com/t' })).body;
  clock.advance(5000);
  const off = await req('PATCH', `/api/v4/webhooks/${created.id}`, { is_active: false });
  expect(off.status).toBe(200);
  expect(off.body).toEqual({ ...created, secret: undefined, is_active: false, updated_at: '2026-01-15T12:00:05' });
  expect(off.body).not.toHaveProperty('secret');
  expect((await req('PATCH', `/api/v4/webhooks/${created.id}`, { is_active: true, name: 'Renamed' })).body).toMatchObject({
    is_active: true,
    name: 'Renamed',
  });
  const badUrl = await req('PATCH', `/api/v4/webhooks/${created.id}`, { url: 'https://10.0.0.1/x' });
  expect(badUrl.status).toBe(422);
  expect((await req('GET', `/api/v4/webhooks/${created.id}`)).body.url).toBe('https://hooks.example.com/t');
  expect((await req('PATCH', `/api/v4/webhooks/${created.id}`, { events: ['scan.started'] })).status).toBe(422);
  expect((await req('PATCH', `/api/v4/webhooks/${created.id}`, { is_active: 'no' })).status).toBe(422);
});

test('PATCH refuses members it does not know (422, naming them) and changes nothing, also alongside a valid member', async () => {
  const created = (await req('POST', '/api/v4/webhooks', { name: 'Strict', url: 'https://hooks.example.com/s' })).body;
  clock.advance(1000);
  for (const body of [{ secret: 'abc' }, { name: 'Changed', secret: 'abc' }, { active: false }, { id: 99 }]) {
    const res = await req('PATCH', `/api/v4/webhooks/${created.id}`, body);
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(new RegExp(`${Object.keys(body).find((k) => k !== 'name')} is not allowed`));
  }
  expect((await req('GET', `/api/v4/webhooks/${created.id}`)).body).toEqual({ ...created, secret: undefined });
  // The secret did not change either: regenerate is the only way (its answer differs from the created one).
  expect((await req('POST', `/api/v4/webhooks/${created.id}/regenerate-secret`)).body.secret).not.toBe('abc');
});

test('PATCH with an empty object answers 200 with the webhook unchanged (updated_at too)', async () => {
  const created = (await req('POST', '/api/v4/webhooks', { name: 'Empty', url: 'https://hooks.example.com/e0' })).body;
  clock.advance(1000);
  const res = await req('PATCH', `/api/v4/webhooks/${created.id}`, {});
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ ...created, secret: undefined });
});

test('create refuses members it does not know (422) and creates nothing: no secret or is_active chosen by the client', async () => {
  const before = (await req('GET', '/api/v4/webhooks')).body.length;
  for (const extra of [{ secret: 'mine' }, { is_active: false }, { event: 'scan.complete' }]) {
    const res = await req('POST', '/api/v4/webhooks', { name: 'Extra', url: 'https://hooks.example.com/x2', ...extra });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(new RegExp(`${Object.keys(extra)[0]} is not allowed`));
  }
  expect((await req('GET', '/api/v4/webhooks')).body).toHaveLength(before);
});

test('DELETE answers {deleted: true}; the webhook is gone', async () => {
  const created = (await req('POST', '/api/v4/webhooks', { name: 'Gone', url: 'https://hooks.example.com/g' })).body;
  expect((await req('DELETE', `/api/v4/webhooks/${created.id}`)).body).toEqual({ deleted: true });
  expect((await req('GET', `/api/v4/webhooks/${created.id}`)).status).toBe(404);
  expect((await req('DELETE', `/api/v4/webhooks/${created.id}`)).status).toBe(404);
});

test("another account's webhook is a 404 for get, update, delete and regenerate", async () => {
  const created = (await req('POST', '/api/v4/webhooks', { name: 'Mine', url: 'https://hooks.example.com/m' })).body;
  for (const [m, p] of [
    ['GET', ''],
    ['PATCH', ''],
    ['DELETE', ''],
    ['POST', '/regenerate-secret'],
  ]) {
    const res = await req(m, `/api/v4/webhooks/${created.id}${p}`, m === 'PATCH' ? { name: 'x' } : undefined, KEY_B);
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/not found/);
  }
  expect((await req('GET', `/api/v4/webhooks/${created.id}`)).body.name).toBe('Mine');
});

test('unsupported events and missing members answer 422', async () => {
  const ev = await req('POST', '/api/v4/webhooks', {
    name: 'Ev',
    url: 'https://hooks.example.com/e',
    events: ['scan.complete', 'scan.started'],
  });
  expect(ev.status).toBe(422);
  expect(ev.body.message).toMatch(/scan\.complete/);
  const missing = await req('POST', '/api/v4/webhooks', { name: 'NoUrl' });
  expect(missing.status).toBe(422);
  expect(missing.body.message).toMatch(/url is required/);
});
