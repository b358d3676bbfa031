/**
 * Pure rules of Settings > Webhooks: what the user typed becomes a request (or a message saying
 * what to fix), the account limit, the view of a webhook, and the service's refusals in plain words.
 */
import {
  MAX_WEBHOOKS,
  WEBHOOK_EVENTS,
  type CreateWebhookRequest,
  type UpdateWebhookRequest,
  type Webhook,
  type WebhookEvent,
} from '../../api/webhooks';
import { problemError } from '../../api/exceptions';
import type { Problem } from '../../api/problems';
import { checkWebhookUrl } from './address';
import type { WebhookChange, WebhookInput, WebhookView } from './protocol';

/** Longest webhook name the add-on sends (the service sets none; a name is a label in a list). */
export const MAX_WEBHOOK_NAME = 100;

export function toView(w: Webhook): WebhookView {
  return {
    id: w.id,
    name: w.name,
    url: w.url,
    events: w.events.slice(),
    active: w.is_active,
    createdAt: w.created_at,
    updatedAt: w.updated_at,
  };
}

/** A webhook id from the sidebar: a positive whole number. */
export function checkWebhookId(id: unknown): number {
  const n = typeof id === 'number' ? id : typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : NaN;
  if (!(n > 0) || Math.floor(n) !== n) throw new Error('That is not a webhook of this account (id ' + String(id).slice(0, 20) + ').');
  return n;
}

function checkName(name: unknown, problems: string[]): string | undefined {
  const n = typeof name === 'string' ? name.trim() : '';
  if (!n) problems.push('Give the webhook a name (it is only a label for you).');
  else if (n.length > MAX_WEBHOOK_NAME) problems.push('The name is longer than ' + MAX_WEBHOOK_NAME + ' characters.');
  else return n;
  return undefined;
}

function checkEvents(events: unknown, problems: string[]): WebhookEvent[] | undefined {
  if (!Array.isArray(events) || events.length === 0) {
    problems.push('Choose at least one event (' + WEBHOOK_EVENTS.join(', ') + ').');
    return undefined;
  }
  const out: WebhookEvent[] = [];
  for (const e of events) {
    const known = WEBHOOK_EVENTS.filter((k) => k === e)[0];
    if (!known) {
      problems.push('Unknown event "' + String(e).slice(0, 40) + '": the Scan Service sends only ' + WEBHOOK_EVENTS.join(', ') + '.');
      return undefined;
    }
    if (out.indexOf(known) < 0) out.push(known);
  }
  return out;
}

function checkUrl(url: unknown, problems: string[]): string | undefined {
  const c = checkWebhookUrl(url);
  if (c.ok) return c.url;
  problems.push(c.message);
  return undefined;
}

/** The create request, or an Error naming everything to fix (nothing is sent then). */
export function createRequest(input: WebhookInput): CreateWebhookRequest {
  const problems: string[] = [];
  const i = input || ({} as WebhookInput);
  const name = checkName(i.name, problems);
  const url = checkUrl(i.url, problems);
  const events = i.events === undefined || i.events === null ? WEBHOOK_EVENTS.slice() : checkEvents(i.events, problems);
  if (problems.length || name === undefined || url === undefined || events === undefined) throw new Error(problems.join(' '));
  return { name, url, events };
}

/** The update request (only what changes), or an Error naming everything to fix. */
export function updateRequest(change: WebhookChange): UpdateWebhookRequest {
  const problems: string[] = [];
  const c = change || {};
  const out: UpdateWebhookRequest = {};
  if (c.name !== undefined) out.name = checkName(c.name, problems);
  if (c.url !== undefined) out.url = checkUrl(c.url, problems);
  if (c.events !== undefined) out.events = checkEvents(c.events, problems);
  if (c.active !== undefined) {
    if (typeof c.active !== 'boolean') problems.push('"active" must be on or off.');
    else out.is_active = c.active;
  }
  if (problems.length) throw new Error(problems.join(' '));
  if (Object.keys(out).length === 0) throw new Error('Nothing to change: give a new name, address, events, or on/off.');
  return out;
}

/** What to say when the account has reached the limit; null below it. */
export function limitMessage(count: number): string | null {
  if (count < MAX_WEBHOOKS) return null;
  return 'This account has ' + count + ' webhooks, the most the Scan Service allows (' + MAX_WEBHOOKS + '). Delete one to add another.';
}

/**
 * The service's refusal in plain words. A 422 is the service's own reason (it may differ from the
 * add-on's checks, e.g. a name that resolves to an internal address); a 404 means the webhook is
 * gone. Others (key refused, unreachable, busy) keep their problem, so a refused key still opens
 * Settings.
 */
export function refusal(problem: Problem, what: string): Error {
  if (problem.kind === 'validation') {
    const why = problem.serviceMessage || (problem.rows && problem.rows[0] && problem.rows[0].message) || 'it gave no reason';
    return new Error('The Scan Service did not accept ' + what + ': ' + why);
  }
  if (problem.kind === 'not-found')
    return new Error('This webhook no longer exists at the Scan Service (deleted from somewhere else?). The list has been reloaded.');
  return problemError(problem);
}
