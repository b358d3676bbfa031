/**
 * Settings > Webhooks, the sidebar's server functions: listWebhooks, createWebhook, updateWebhook,
 * deleteWebhook, regenerateWebhookSecret (names and shapes in protocol.ts).
 *
 * The secret: create and regenerate hand it to the sidebar in their answer and nowhere else. It is
 * not stored (no property, cache, cell) and not logged (the client logs method, path and status).
 *
 * Limit: create lists the account's webhooks first and refuses the 11th itself, with a plain
 * message, before the service would.
 */
import { problemOf } from '../../api/exceptions';
import { WEBHOOK_CALL_BUDGET_MS } from '../../domain/time-budgets';
import { webhookHelp } from './help';
import type { ApiContext, ServiceSettings } from '../../api/client';
import {
  createWebhookAt,
  deleteWebhookAt,
  fetchWebhooks,
  MAX_WEBHOOKS,
  regenerateWebhookSecretAt,
  updateWebhookAt,
  WEBHOOK_EVENTS,
} from '../../api/webhooks';
import { apiContext, asSidebarCall, loadSettings, serviceSettings } from '../context';
import type { WebhookChange, WebhookInput, WebhookList, WebhookSecret, WebhookView } from './protocol';
import { checkWebhookId, createRequest, limitMessage, refusal, toView, updateRequest } from './rules';

/** Each call gets its own budget. */
function api(service: ServiceSettings): ApiContext {
  return apiContext(Date.now() + WEBHOOK_CALL_BUDGET_MS, service);
}

/** Runs a call whose problems are the service's refusals in plain words. */
function refusing<T>(what: string, body: () => T): T {
  try {
    return body();
  } catch (e) {
    const problem = problemOf(e);
    if (problem) throw refusal(problem, what);
    throw e;
  }
}

function current() {
  return { service: serviceSettings(loadSettings()) };
}

/** Sidebar: the account's webhooks and the limit. */
export function listWebhooks(): WebhookList {
  return asSidebarCall(() => {
    const { service } = current();
    const webhooks = fetchWebhooks(api(service)).map(toView);
    const message = limitMessage(webhooks.length);
    return {
      webhooks,
      limit: MAX_WEBHOOKS,
      atLimit: message !== null,
      limitMessage: message,
      events: WEBHOOK_EVENTS.slice(),
      help: webhookHelp(),
    };
  });
}

/** Sidebar: creates a webhook; the answer carries its secret, shown once. */
export function createWebhook(input: WebhookInput): WebhookSecret {
  return asSidebarCall(() => {
    const { service } = current();
    const request = createRequest(input);
    const existing = fetchWebhooks(api(service));
    const full = limitMessage(existing.length);
    if (full) throw new Error(full);
    const made = refusing('this webhook', () => createWebhookAt(api(service), request));
    return { webhook: toView(made), secret: made.secret };
  });
}

/** Sidebar: renames, changes the address or events, or turns a webhook on or off. */
export function updateWebhook(id: number, change: WebhookChange): WebhookView {
  return asSidebarCall(() => {
    const wid = checkWebhookId(id);
    const { service } = current();
    const request = updateRequest(change);
    const answered = refusing('this change', () => updateWebhookAt(api(service), wid, request));
    if (answered) return toView(answered);
    // The document does not show PATCH's answer: read the webhook from the list then.
    const listed = fetchWebhooks(api(service)).filter((w) => w.id === wid)[0];
    if (!listed) throw refusal({ kind: 'not-found', message: '' }, 'this change');
    return toView(listed);
  });
}

/** Sidebar: deletes a webhook (the sidebar confirms first). deleted:false when it was already gone. */
export function deleteWebhook(id: number): { deleted: boolean } {
  return asSidebarCall(() => {
    const wid = checkWebhookId(id);
    return { deleted: deleteWebhookAt(api(current().service), wid) };
  });
}

/** Sidebar: a new secret (the sidebar confirms first: the old one stops working at once). */
export function regenerateWebhookSecret(id: number): WebhookSecret {
  return asSidebarCall(() => {
    const wid = checkWebhookId(id);
    const made = refusing('a new secret', () => regenerateWebhookSecretAt(api(current().service), wid));
    return { webhook: toView(made), secret: made.secret };
  });
}
