/**
 * The webhook endpoints (document 4.3, under /api/v4/), typed from the generated description
 * (contract/schema.ts), sent through the client's `send`, each taking the ApiContext (same retries, redaction and problems as
 * every other call). Answers are read tolerantly (read.ts's rules): a `data` envelope, numeric
 * strings and unknown members are accepted; what cannot be read is a `bad-response` problem.
 *
 * The secret of create/regenerate is handed to the caller and kept nowhere here: the client's log
 * lines carry method, path and status only.
 */
import type { components, operations } from '../../contract/schema';
import { send, type ApiCall, type ApiContext } from './client';
import { problemError, requestJson } from './exceptions';
import { unreadable } from './problems';
import { unwrapData } from './read';
import { DEFAULT_RETRY_POLICY } from './retry';

type JsonBody<T> = T extends { content: { 'application/json': infer B } } ? B : never;

export type Webhook = components['schemas']['Webhook'];
export type WebhookWithSecret = components['schemas']['WebhookWithSecret'];
export type WebhookEvent = components['schemas']['WebhookEvents'][number];
export type CreateWebhookRequest = JsonBody<operations['createWebhook']['requestBody']>;
export type UpdateWebhookRequest = JsonBody<operations['updateWebhook']['requestBody']>;

export const WEBHOOKS_PATH = '/api/v4/webhooks';
/** The events a webhook may subscribe to (document section 6: only scan.complete). */
export const WEBHOOK_EVENTS: readonly WebhookEvent[] = ['scan.complete'];
/**
 * Webhooks per account (document 4.3 rule 5 and section 8). The description says it in prose
 * only, so test/unit/api/webhooks.test.ts holds it equal to the local service's limit.
 */
export const MAX_WEBHOOKS = 10;

export const webhookCalls = {
  list: (): ApiCall => ({ method: 'get', path: WEBHOOKS_PATH }),
  create: (body: CreateWebhookRequest): ApiCall => ({ method: 'post', path: WEBHOOKS_PATH, body }),
  update: (id: number, body: UpdateWebhookRequest): ApiCall => ({
    method: 'patch',
    path: WEBHOOKS_PATH + '/' + id,
    body,
    subject: 'webhook ' + id,
  }),
  remove: (id: number): ApiCall => ({ method: 'delete', path: WEBHOOKS_PATH + '/' + id, subject: 'webhook ' + id }),
  regenerate: (id: number): ApiCall => ({
    method: 'post',
    path: WEBHOOKS_PATH + '/' + id + '/regenerate-secret',
    subject: 'webhook ' + id,
  }),
};

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

/** One webhook from an answer, or undefined when it has no usable id. */
export function readWebhook(v: unknown): Webhook | undefined {
  const o = unwrapData(v);
  if (!isObject(o)) return undefined;
  const id = typeof o.id === 'number' ? o.id : typeof o.id === 'string' && /^\d+$/.test(o.id) ? Number(o.id) : NaN;
  if (!(id > 0)) return undefined;
  const events = Array.isArray(o.events)
    ? o.events.filter((e): e is string => typeof e === 'string')
    : typeof o.events === 'string'
      ? [o.events]
      : [];
  const active = o.is_active;
  return {
    id,
    account_id: Number(o.account_id) || 0,
    user_id: Number(o.user_id) || 0,
    name: text(o.name),
    url: text(o.url),
    events,
    // 1/0 and "true"/"false" seen in other APIs of the vendor; anything else counts as on.
    is_active: !(active === false || active === 0 || active === '0' || active === 'false'),
    created_at: text(o.created_at),
    updated_at: text(o.updated_at),
  };
}

/** The webhook list (a bare array or a `data` envelope). */
export function readWebhookList(v: unknown): Webhook[] {
  const list = unwrapData(v);
  if (!Array.isArray(list)) throw problemError(unreadable(200, 'the webhook list is not a list'));
  const out: Webhook[] = [];
  for (const item of list) {
    const w = readWebhook(item);
    if (w) out.push(w);
  }
  return out;
}

/** The webhook and its new secret (create, regenerate). */
export function readWebhookWithSecret(v: unknown): WebhookWithSecret {
  const w = readWebhook(v);
  const o = unwrapData(v);
  const secret = isObject(o) && typeof o.secret === 'string' ? o.secret : '';
  if (!w || !secret) throw problemError(unreadable(200, w ? 'no secret in the answer' : 'no webhook in the answer'));
  return { ...w, secret };
}

/** Every attempt of a create or regenerate is its only one. */
const ONCE = { policy: { ...DEFAULT_RETRY_POLICY, maxAttempts: 1 } };

/** GET /api/v4/webhooks: the account's webhooks (oldest first at the local service), without secrets. */
export function fetchWebhooks(ctx: ApiContext): Webhook[] {
  return readWebhookList(requestJson(ctx, webhookCalls.list()));
}

/**
 * POST /api/v4/webhooks. Not retried: a create whose answer was lost (time-out, 5xx after the
 * insert) would otherwise make a second webhook and the secret of the first would be lost.
 */
export function createWebhookAt(ctx: ApiContext, request: CreateWebhookRequest): WebhookWithSecret {
  return readWebhookWithSecret(requestJson(ctx, webhookCalls.create(request), ONCE));
}

/**
 * PATCH /api/v4/webhooks/{id}. The document does not show the answer; the local service answers
 * the webhook. Undefined when the answer is not one (the caller lists again).
 */
export function updateWebhookAt(ctx: ApiContext, id: number, request: UpdateWebhookRequest): Webhook | undefined {
  return readWebhook(requestJson(ctx, webhookCalls.update(id, request)));
}

/** DELETE /api/v4/webhooks/{id}: true when deleted, false when the service no longer knows it (404). */
export function deleteWebhookAt(ctx: ApiContext, id: number): boolean {
  const r = send(ctx, webhookCalls.remove(id));
  if (r.ok) return true;
  if (r.problem.kind === 'not-found') return false;
  throw problemError(r.problem);
}

/**
 * POST /api/v4/webhooks/{id}/regenerate-secret. Not retried either: a regenerate whose answer was
 * lost has already replaced the secret, and a second one would replace it again.
 */
export function regenerateWebhookSecretAt(ctx: ApiContext, id: number): WebhookWithSecret {
  return readWebhookWithSecret(requestJson(ctx, webhookCalls.regenerate(id), ONCE));
}
