/**
 * The webhook client (src/api/webhooks.ts): paths and bodies as the description says, tolerant
 * reading of answers, no retry of create/regenerate (a lost answer must not make a second webhook or
 * replace a secret twice), deletes of unknown ids; and the limit equal to the local service's.
 */
import { MAX_WEBHOOKS as SERVICE_MAX, SUPPORTED_EVENTS } from '../../../emulator/service/webhooks/routes';
import {
  createWebhookAt,
  deleteWebhookAt,
  fetchWebhooks,
  MAX_WEBHOOKS,
  readWebhook,
  regenerateWebhookSecretAt,
  updateWebhookAt,
  WEBHOOK_EVENTS,
} from '../../../src/api/webhooks';
import { FakeClock, FakeFetcher, type Handler } from './fakes';

const settings = { baseUrl: 'https://scan.example.com/', apiKey: 'key-0123456789abcdef' };
const wire = {
  id: 3,
  account_id: 1,
  user_id: 1,
  name: 'Chat',
  url: 'https://h.example.com/',
  events: ['scan.complete'],
  is_active: true,
  created_at: '2026-11-25T10:00:00',
  updated_at: '2026-11-25T10:00:00',
};

function client(handler: Handler) {
  const clock = new FakeClock();
  const fetcher = new FakeFetcher(handler, clock);
  const deps = { fetcher, sleep: clock.sleep, now: clock.now, random: () => 0 };
  return { fetcher, deps, ctx: { settings, deps, deadline: clock.now() + 60_000 } };
}

test("the limit and events are the local service's", () => {
  expect(MAX_WEBHOOKS).toBe(SERVICE_MAX);
  expect([...WEBHOOK_EVENTS]).toEqual(SUPPORTED_EVENTS);
});

test('each operation: method, path under /api/v4, JSON body, bearer key', () => {
  const { fetcher, ctx } = client((req) => {
    if (req.method === 'get') return { status: 200, body: [wire] };
    if (req.method === 'delete') return { status: 200, body: { deleted: true } };
    if (/regenerate/.test(req.url)) return { status: 200, body: { ...wire, secret: 'b'.repeat(64) } };
    if (req.method === 'patch') return { status: 200, body: { ...wire, name: 'New' } };
    return { status: 201, body: { ...wire, secret: 'a'.repeat(64) } };
  });
  expect(fetchWebhooks(ctx)).toEqual([wire]);
  expect(createWebhookAt(ctx, { name: 'Chat', url: 'https://h.example.com/', events: ['scan.complete'] })).toEqual({
    ...wire,
    secret: 'a'.repeat(64),
  });
  expect(updateWebhookAt(ctx, 3, { name: 'New' })).toEqual({ ...wire, name: 'New' });
  expect(regenerateWebhookSecretAt(ctx, 3).secret).toBe('b'.repeat(64));
  expect(deleteWebhookAt(ctx, 3)).toBe(true);
  expect(fetcher.requests.map((r) => [r.method, r.url, r.payload ?? null, r.headers.Authorization])).toEqual([
    ['get', 'https://scan.example.com/api/v4/webhooks', null, 'Bearer key-0123456789abcdef'],
    [
      'post',
      'https://scan.example.com/api/v4/webhooks',
      '{"name":"Chat","url":"https://h.example.com/","events":["scan.complete"]}',
      'Bearer key-0123456789abcdef',
    ],
    ['patch', 'https://scan.example.com/api/v4/webhooks/3', '{"name":"New"}', 'Bearer key-0123456789abcdef'],
    ['post', 'https://scan.example.com/api/v4/webhooks/3/regenerate-secret', null, 'Bearer key-0123456789abcdef'],
    ['delete', 'https://scan.example.com/api/v4/webhooks/3', null, 'Bearer key-0123456789abcdef'],
  ]);
});

test('create and regenerate are sent once even when the answer is a 5xx; a list is retried', () => {
  const { fetcher, ctx } = client(() => ({ status: 503, body: { message: 'busy' } }));
  expect(() => createWebhookAt(ctx, { name: 'a', url: 'https://h.example.com/' })).toThrow(/error 503/);
  expect(() => regenerateWebhookSecretAt(ctx, 3)).toThrow(/error 503/);
  expect(fetcher.requests).toHaveLength(2);
  expect(() => fetchWebhooks(ctx)).toThrow(/error 503/);
  expect(fetcher.requests.length).toBeGreaterThan(3);
});

test('answers read tolerantly: a data envelope, string ids, 0/1 activity; unreadable ones are a plain problem', () => {
  expect(readWebhook({ data: { ...wire, id: '3', is_active: 0 } })).toEqual({ ...wire, is_active: false });
  expect(readWebhook({ ...wire, events: 'scan.complete', extra: 1 })).toEqual(wire);
  expect(readWebhook({ name: 'no id' })).toBeUndefined();
  const { ctx } = client((req) =>
    req.method === 'get' ? { status: 200, body: { data: [wire, { junk: true }] } } : { status: 201, body: wire },
  );
  expect(fetchWebhooks(ctx)).toEqual([wire]);
  expect(() => createWebhookAt(ctx, { name: 'a', url: 'https://h.example.com/' })).toThrow(
    'The Scan Service sent an answer the add-on cannot read (no secret in the answer).',
  );
});

test('a delete of a webhook the service no longer knows is false, not an error', () => {
  const { ctx } = client(() => ({ status: 404, body: { message: 'Webhook not found.' } }));
  expect(deleteWebhookAt(ctx, 9)).toBe(false);
});
