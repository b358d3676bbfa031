/**
 * Webhooks (document 2.4, 4.3): HTTPS URLs that are not internal, at most 10 per account, the
 * secret shown only on create and regenerate, regenerate invalidating the old secret at once.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { ServiceContext } from '../context';
import { ApiError, notFound } from '../shared/errors';
import { localIsoTime } from '../shared/time';
import { urlProblem } from './urlPolicy';
import type { WebhookRow } from './store';

export const MAX_WEBHOOKS = 10;
export const SUPPORTED_EVENTS = ['scan.complete'];

export function webhookJson(r: WebhookRow, withSecret: boolean) {
  const out: Record<string, unknown> = {
    id: r.id,
    account_id: r.account_id,
    user_id: r.user_id,
    name: r.name,
    url: r.url,
    events: JSON.parse(r.events),
    is_active: r.is_active === 1,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
  if (withSecret) out.secret = r.secret;
  return out;
}

const newSecret = () => randomBytes(32).toString('hex');

function checkName(name: string): string {
  const n = name.trim();
  if (!n) throw new ApiError(422, 'name must not be empty.');
  return n;
}
function checkUrl(ctx: ServiceContext, url: string): string {
  const problem = urlProblem(url.trim(), ctx.config.allowLoopbackWebhooks);
  if (problem) throw new ApiError(422, `Invalid webhook URL: ${problem}.`);
  return url.trim();
}
function checkEvents(events: string[]): string[] {
  if (events.length === 0) throw new ApiError(422, 'events must list at least one event (scan.complete).');
  const bad = events.filter((e) => !SUPPORTED_EVENTS.includes(e));
  if (bad.length)
    throw new ApiError(422, `Unsupported event ${bad.map((e) => JSON.stringify(e)).join(', ')}: only scan.complete is supported.`);
  return [...new Set(events)];
}

export function webhookHandlers(ctx: ServiceContext) {
  const { db } = ctx;
  const byId = db.prepare<[number, number], WebhookRow>('SELECT * FROM webhooks WHERE id = ? AND account_id = ?');
  const owned = (req: FastifyRequest): WebhookRow => {
    const row = byId.get(Number((req.params as { id: number }).id), req.account.id);
    if (!row) throw notFound('Webhook');
    return row;
  };
  const create = db.transaction((accountId: number, userId: number, name: string, url: string, events: string[], now: string): number => {
    const n = (db.prepare('SELECT COUNT(*) AS n FROM webhooks WHERE account_id = ?').get(accountId) as { n: number }).n;
    if (n >= MAX_WEBHOOKS) throw new ApiError(422, `An account may have at most ${MAX_WEBHOOKS} webhooks; delete one first.`);
    return db
      .prepare(
        'INSERT INTO webhooks (account_id, user_id, name, url, secret, events, is_active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?)',
      )
      .run(accountId, userId, name, url, newSecret(), JSON.stringify(events), now, now).lastInsertRowid as number;
  });

  return {
    listWebhooks: async (req: FastifyRequest) =>
      (db.prepare('SELECT * FROM webhooks WHERE account_id = ? ORDER BY id').all(req.account.id) as WebhookRow[]).map((r) =>
        webhookJson(r, false),
      ),
    getWebhook: async (req: FastifyRequest) => webhookJson(owned(req), false),
    createWebhook: async (req: FastifyRequest, reply: FastifyReply) => {
      const b = req.body as { name: string; url: string; events?: string[] };
      const name = checkName(b.name);
      const url = checkUrl(ctx, b.url);
      const events = checkEvents(b.events ?? ['scan.complete']);
      const id = create(req.account.id, req.account.userId, name, url, events, localIsoTime(ctx.now()));
      reply.code(201);
      return webhookJson(byId.get(id, req.account.id)!, true);
    },
    updateWebhook: async (req: FastifyRequest) => {
      const row = owned(req);
      const b = req.body as { name?: string; url?: string; events?: string[]; is_active?: boolean };
      const next = {
        name: b.name !== undefined ? checkName(b.name) : row.name,
        url: b.url !== undefined ? checkUrl(ctx, b.url) : row.url,
        events: b.events !== undefined ? JSON.stringify(checkEvents(b.events)) : row.events,
        is_active: b.is_active !== undefined ? (b.is_active ? 1 : 0) : row.is_active,
      };
      const changed = next.name !== row.name || next.url !== row.url || next.events !== row.events || next.is_active !== row.is_active;
      if (changed) {
        db.prepare('UPDATE webhooks SET name = ?, url = ?, events = ?, is_active = ?, updated_at = ? WHERE id = ?').run(
          next.name,
          next.url,
          next.events,
          next.is_active,
          localIsoTime(ctx.now()),
          row.id,
        );
      }
      return webhookJson(byId.get(row.id, req.account.id)!, false);
    },
    deleteWebhook: async (req: FastifyRequest) => {
      const row = owned(req);
      db.prepare('DELETE FROM webhooks WHERE id = ?').run(row.id);
      return { deleted: true };
    },
    regenerateWebhookSecret: async (req: FastifyRequest) => {
      const row = owned(req);
      db.prepare('UPDATE webhooks SET secret = ?, updated_at = ? WHERE id = ?').run(newSecret(), localIsoTime(ctx.now()), row.id);
      return webhookJson(byId.get(row.id, req.account.id)!, true);
    },
  };
}
