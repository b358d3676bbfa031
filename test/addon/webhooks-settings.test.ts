/**
 * Settings > Webhooks on the BUILT add-on in the local runtime against the local Scan Service
 * (spawned with its development flag allowing loopback receivers, which the tests register at the
 * service directly: the add-on follows the contract and refuses them), through the fault proxy so
 * what was sent can be seen:
 * every server function, the once-only secret (nowhere in the runtime's stores afterwards), the
 * 10-webhook limit said before the service refuses, refused addresses, the service's refusal in
 * plain words, and a regenerated secret invalidating the old one at the example receiver.
 */
import { webhookHelp } from '../../src/app/webhooks/help';
import { Workbook } from '../../emulator/gas/spreadsheet';
import type { Runtime } from '../../emulator/gas';
import { spawnService, type SpawnedService } from '../../emulator/service/spawn';
import type { WebhookList, WebhookSecret, WebhookView } from '../../src/app/protocol';
import { connect, everythingOutsideUserProperties, runtime, startFaultProxy, thrown, type FaultProxy } from './scanflow-helpers';
import { api, post, runScan, sign, startReceiver, startRelay, waitFor } from '../examples/receiver-helpers';
import { SETTINGS_KEY } from '../../src/store/keys';

jest.setTimeout(60_000);

const KEY = 'webhooks-key-0123456789abcdef';
const LIMIT_KEY = 'webhooks-limit-0123456789abcd';
const REGEN_KEY = 'webhooks-regen-0123456789abcd';
const OWNER = 'owner@example.com';
let svc: SpawnedService;
let proxy: FaultProxy;
const stops: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  svc = await spawnService({
    SCAN_SERVICE_API_KEYS: [KEY, LIMIT_KEY, REGEN_KEY].join(','),
    SCAN_SERVICE_SPEED: '600000',
    SCAN_SERVICE_ALLOW_LOOPBACK_WEBHOOKS: '1',
    SCAN_SERVICE_WEBHOOK_RETRY_DELAYS_MS: '200,400,800',
  });
  proxy = await startFaultProxy(svc.url);
});
afterAll(async () => {
  for (const s of stops) await s();
  await proxy?.stop();
  await svc?.stop();
});

function fresh(key = KEY): { wb: Workbook; rt: Runtime } {
  const wb = new Workbook({ name: 'Prices', owner: OWNER });
  wb.type('Sheet1', 'A1', 'UPC');
  const rt = runtime(wb);
  connect(rt, proxy.url, key, OWNER);
  return { wb, rt };
}

const run = <T>(rt: Runtime, fn: string, ...args: unknown[]) => rt.scriptRun(fn, args) as T;

/** Every place the runtime keeps text: properties of every kind and user, every cache, logs, UI events, cells. */
function everything(rt: Runtime, wb: Workbook): string {
  const caches = [rt.caches.script, rt.caches.document, rt.caches.user(OWNER)].filter((c): c is NonNullable<typeof c> => !!c);
  return [
    everythingOutsideUserProperties(rt, wb),
    JSON.stringify(rt.properties.user(OWNER).toObject()),
    ...caches.flatMap((c) => c.keys().map((k) => k + '=' + c.get(k))),
    JSON.stringify(rt.executions),
  ].join('\n');
}

const webhookPosts = async () => (await proxy.seen()).filter((s) => s.method === 'POST' && s.path === '/api/v4/webhooks' && !s.injected);

test('each operation: create (secret once), list, rename, change address, events, off and on, regenerate, delete', async () => {
  const { wb, rt } = fresh();
  expect(run<WebhookList>(rt, 'listWebhooks')).toEqual({
    webhooks: [],
    limit: 10,
    atLimit: false,
    limitMessage: null,
    events: ['scan.complete'],
    help: webhookHelp(),
  });

  const made = run<WebhookSecret>(rt, 'createWebhook', { name: '  Zapier  ', url: 'https://hooks.example.com/catch/1' });
  expect(made.secret).toMatch(/^[0-9a-f]{64}$/);
  expect(made.webhook).toEqual({
    id: expect.any(Number),
    name: 'Zapier',
    url: 'https://hooks.example.com/catch/1',
    events: ['scan.complete'],
    active: true,
    createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
    updatedAt: made.webhook.createdAt,
  });
  const id = made.webhook.id;

  const listed = run<WebhookList>(rt, 'listWebhooks');
  expect(listed.webhooks).toEqual([made.webhook]);
  expect(JSON.stringify(listed)).not.toContain(made.secret);

  const renamed = run<WebhookView>(rt, 'updateWebhook', id, { name: 'Chat' });
  expect(renamed).toEqual({ ...made.webhook, name: 'Chat', updatedAt: expect.any(String) });
  const moved = run<WebhookView>(rt, 'updateWebhook', id, { url: 'https://other.example.com/hook' });
  expect(moved.url).toBe('https://other.example.com/hook');
  expect(run<WebhookView>(rt, 'updateWebhook', id, { events: ['scan.complete', 'scan.complete'] }).events).toEqual(['scan.complete']);
  expect(run<WebhookView>(rt, 'updateWebhook', id, { active: false }).active).toBe(false);
  expect(run<WebhookList>(rt, 'listWebhooks').webhooks[0]).toEqual(
    expect.objectContaining({ id, name: 'Chat', url: 'https://other.example.com/hook', active: false }),
  );
  expect(run<WebhookView>(rt, 'updateWebhook', id, { active: true }).active).toBe(true);
  // The service agrees.
  expect((await api(svc.url, KEY, 'GET', `/api/v4/webhooks/${id}`)).body).toEqual(
    expect.objectContaining({ name: 'Chat', url: 'https://other.example.com/hook', is_active: true }),
  );

  const again = run<WebhookSecret>(rt, 'regenerateWebhookSecret', id);
  expect(again.secret).toMatch(/^[0-9a-f]{64}$/);
  expect(again.secret).not.toBe(made.secret);
  expect(again.webhook.id).toBe(id);

  expect(run(rt, 'deleteWebhook', id)).toEqual({ deleted: true });
  expect(run<WebhookList>(rt, 'listWebhooks').webhooks).toEqual([]);
  // Already gone (e.g. deleted in another sidebar): not an error.
  expect(run(rt, 'deleteWebhook', id)).toEqual({ deleted: false });
  expect(thrown(() => run(rt, 'updateWebhook', id, { name: 'x' }))).toBe(
    'This webhook no longer exists at the Scan Service (deleted from somewhere else?). The list has been reloaded.',
  );
  expect(thrown(() => run(rt, 'regenerateWebhookSecret', id))).toMatch(/^This webhook no longer exists/);

  // Neither secret is anywhere in the runtime: properties, caches, logs, UI, cells, executions.
  const all = everything(rt, wb);
  expect(all).toContain('scan-service: POST /api/v4/webhooks -> 201');
  for (const s of [made.secret, again.secret]) {
    expect(all).not.toContain(s);
    expect(all).not.toContain(s.slice(0, 16));
  }
  expect(Object.keys(rt.properties.user(OWNER).toObject())).toEqual([SETTINGS_KEY]);
  await rt.stop();
});

test('input is checked before anything is sent: name, events, nothing to change, ids', async () => {
  const { rt } = fresh();
  await proxy.reset();
  expect(thrown(() => run(rt, 'createWebhook', { name: ' ', url: 'https://hooks.example.com/' }))).toBe(
    'Give the webhook a name (it is only a label for you).',
  );
  expect(thrown(() => run(rt, 'createWebhook', { name: 'x'.repeat(101), url: 'https://hooks.example.com/' }))).toBe(
    'The name is longer than 100 characters.',
  );
  expect(thrown(() => run(rt, 'createWebhook', { name: 'a', url: 'https://hooks.example.com/', events: ['scan.started'] }))).toBe(
    'Unknown event "scan.started": the Scan Service sends only scan.complete.',
  );
  expect(thrown(() => run(rt, 'createWebhook', { name: 'a', url: 'https://hooks.example.com/', events: [] }))).toBe(
    'Choose at least one event (scan.complete).',
  );
  expect(thrown(() => run(rt, 'updateWebhook', 1, {}))).toBe('Nothing to change: give a new name, address, events, or on/off.');
  expect(thrown(() => run(rt, 'updateWebhook', 1, { active: 'yes' }))).toBe('"active" must be on or off.');
  expect(thrown(() => run(rt, 'deleteWebhook', -3))).toBe('That is not a webhook of this account (id -3).');
  expect(thrown(() => run(rt, 'deleteWebhook', 1.5))).toMatch(/^That is not a webhook/);
  expect((await proxy.seen()).filter((s) => s.path.startsWith('/api/v4/'))).toEqual([]);
  await rt.stop();
});

test('refused addresses: not HTTPS, private, loopback, link-local or internal in any form — refused before sending', async () => {
  const { rt } = fresh();
  await proxy.reset();
  const refused: Array<[string, RegExp]> = [
    ['http://hooks.example.com/', /must start with https:\/\/: the Scan Service delivers only over HTTPS\./],
    ['https://10.0.0.8/hook', /points to a private, loopback or other internal address \(10\.0\.0\.8\)/],
    ['https://169.254.169.254/latest/meta-data/', /internal address \(169\.254\.169\.254\)/],
    ['https://3232235521/', /internal address \(192\.168\.0\.1\)/],
    ['https://[::ffff:c0a8:1]/', /internal address \(IPv6 carrying 192\.168\.0\.1\)/],
    ['https://[fd12::1]/', /private, loopback or other internal address\./],
    ['https://metadata.google.internal/', /internal host name \(metadata\.google\.internal\)/],
    ['https://intranet/', /internal host name \(intranet\)/],
    ['https://user:pw@hooks.example.com/', /must not contain a user name or password/],
    ['hooks.example.com', /is not a web address: it must start with https:\/\//],
  ];
  for (const [url, why] of refused) {
    expect(thrown(() => run(rt, 'createWebhook', { name: 'n', url }))).toMatch(why);
  }
  // Also when changing an address.
  expect(thrown(() => run(rt, 'updateWebhook', 1, { url: 'https://192.168.1.20/' }))).toMatch(/internal address \(192\.168\.1\.20\)/);
  expect((await proxy.seen()).filter((s) => s.path.startsWith('/api/v4/'))).toEqual([]);
  await rt.stop();
});

test('loopback receivers are refused on a local service too: the hint and the check say what the contract says (document 4.3 rule 1), nothing is sent', async () => {
  const { rt } = fresh();
  await proxy.reset();
  expect(run<WebhookList>(rt, 'listWebhooks').help.address).toMatch(
    /^HTTPS on the public internet: no http:\/\/, no private or local addresses/,
  );
  expect(thrown(() => run(rt, 'createWebhook', { name: 'n', url: 'http://localhost:8080/scan-complete' }))).toMatch(
    /must start with https:\/\/: the Scan Service delivers only over HTTPS/,
  );
  expect(thrown(() => run(rt, 'createWebhook', { name: 'n', url: 'https://127.0.0.1:8080/scan-complete' }))).toMatch(
    /points to a private, loopback or other internal address \(127\.0\.0\.1\)/,
  );
  expect(await webhookPosts()).toEqual([]);
  await rt.stop();
});

test('loopback receivers are refused when the service address is not a local one', async () => {
  const wb = new Workbook({ name: 'Prices', owner: OWNER });
  const rt = runtime(wb);
  // A real service address (nothing listens there: the refusal must come before any call).
  connect(rt, 'https://scan.example.com', KEY, OWNER);
  expect(thrown(() => run(rt, 'createWebhook', { name: 'n', url: 'http://127.0.0.1:8080/scan-complete' }))).toMatch(
    /must start with https:\/\//,
  );
  expect(thrown(() => run(rt, 'createWebhook', { name: 'n', url: 'https://localhost:8080/scan-complete' }))).toMatch(
    /internal host name \(localhost\)/,
  );
  expect(rt.logs.filter((l) => /api\/v4/.test(l))).toEqual([]);
  await rt.stop();
});

test("the service's own refusal is shown in plain words (here: a name resolving to an internal address)", async () => {
  const { rt } = fresh();
  await proxy.faults([
    {
      method: 'POST',
      path: '^/api/v4/webhooks$',
      status: 422,
      times: 1,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Invalid webhook URL: hooks.example.com resolves to the internal address 10.1.1.1.' }),
    },
  ]);
  expect(thrown(() => run(rt, 'createWebhook', { name: 'n', url: 'https://hooks.example.com/x' }))).toBe(
    'The Scan Service did not accept this webhook: Invalid webhook URL: hooks.example.com resolves to the internal address 10.1.1.1.',
  );
  await proxy.reset();
  await rt.stop();
});

test('a refused key opens Settings, as everywhere', async () => {
  const { rt } = fresh('not-a-known-key-000000');
  expect(thrown(() => run(rt, 'listWebhooks'))).toMatch(/^\[open-settings\] The API key was refused/);
  expect(thrown(() => run(rt, 'createWebhook', { name: 'n', url: 'https://hooks.example.com/' }))).toMatch(/^\[open-settings\] /);
  await rt.stop();
});

test('10 webhooks per account: the list says so, and the 11th is refused by the add-on before the service is asked', async () => {
  const { wb, rt } = fresh(LIMIT_KEY);
  await proxy.reset();
  const secrets: string[] = [];
  for (let i = 1; i <= 10; i++)
    secrets.push(run<WebhookSecret>(rt, 'createWebhook', { name: `Hook ${i}`, url: `https://hooks.example.com/${i}` }).secret);
  const list = run<WebhookList>(rt, 'listWebhooks');
  expect(list.webhooks.map((w) => w.name)).toEqual(Array.from({ length: 10 }, (_x, i) => `Hook ${i + 1}`));
  expect(list.atLimit).toBe(true);
  expect(list.limitMessage).toBe('This account has 10 webhooks, the most the Scan Service allows (10). Delete one to add another.');
  expect(thrown(() => run(rt, 'createWebhook', { name: 'Hook 11', url: 'https://hooks.example.com/11' }))).toBe(list.limitMessage);
  expect(await webhookPosts()).toHaveLength(10);
  expect((await api(svc.url, LIMIT_KEY, 'GET', '/api/v4/webhooks')).body).toHaveLength(10);
  // One fewer, and there is room again.
  run(rt, 'deleteWebhook', list.webhooks[0].id);
  expect(run<WebhookList>(rt, 'listWebhooks')).toEqual(expect.objectContaining({ atLimit: false, limitMessage: null }));
  secrets.push(run<WebhookSecret>(rt, 'createWebhook', { name: 'Hook 11', url: 'https://hooks.example.com/11' }).secret);
  const all = everything(rt, wb);
  for (const s of secrets) expect(all).not.toContain(s);
  await rt.stop();
});

test('regenerating invalidates the old secret at once: the receiver refuses what is signed with it', async () => {
  const { rt } = fresh(REGEN_KEY);
  // A loopback receiver is registered at the service directly (its development flag): the add-on refuses it.
  const created = await api(svc.url, REGEN_KEY, 'POST', '/api/v4/webhooks', { name: 'Receiver', url: 'http://127.0.0.1:9/placeholder' });
  const made = { webhook: { id: created.body.id as number }, secret: created.body.secret as string };
  const pointTo = (url: string) => api(svc.url, REGEN_KEY, 'PATCH', `/api/v4/webhooks/${made.webhook.id}`, { url });
  const first = await startReceiver({ WEBHOOK_SECRET: made.secret });
  stops.push(first.stop);
  const relay = await startRelay(first.url, () => 'forward');
  stops.push(relay.stop);
  await pointTo(relay.url);
  await runScan(svc.url, REGEN_KEY, 'before');
  await waitFor(() => relay.answered() === 1, 'the first delivery');
  expect(relay.deliveries[0].receiverStatus).toBe(200);
  const old = relay.deliveries[0];

  const again = run<WebhookSecret>(rt, 'regenerateWebhookSecret', made.webhook.id);
  // The receiver is restarted with the new secret, as its README says.
  await first.stop();
  const second = await startReceiver({ WEBHOOK_SECRET: again.secret });
  stops.push(second.stop);
  // A delivery signed with the old secret — the recorded one, and a new body signed with it — is refused.
  expect((await post(second.url, old.raw, old.headers)).status).toBe(401);
  const forged = JSON.stringify({ ...JSON.parse(old.raw.toString()), timestamp: new Date().toISOString() });
  expect((await post(second.url, forged, { ...old.headers, 'x-service-signature': sign(forged, made.secret) })).status).toBe(401);
  // The service signs with the new one at once.
  const relay2 = await startRelay(second.url, () => 'forward');
  stops.push(relay2.stop);
  await pointTo(relay2.url);
  const scan = await runScan(svc.url, REGEN_KEY, 'after');
  await waitFor(() => relay2.answered() === 1, 'the delivery signed with the new secret');
  expect(relay2.deliveries.map((d) => d.receiverStatus)).toEqual([200]);
  expect(relay2.deliveries[0].headers['x-service-signature']).toBe(sign(relay2.deliveries[0].raw, again.secret));
  // The receiver's stdout line may reach this process after its HTTP answer: wait for the line.
  await waitFor(() => second.handled().length > 0, 'the handled line');
  expect(second.handled()[0]).toContain(`scan ${scan.id} "after"`);
  await rt.stop();
});
