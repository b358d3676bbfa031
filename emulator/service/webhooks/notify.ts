/**
 * scan.complete deliveries (document section 6): a POST per active subscribed webhook with
 * `X-Service-Event` and `X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw body>`;
 * redirects are not followed (a 3xx is a failure); a non-2xx answer or a time-out
 * (config.webhookTimeoutMs, default 10 s, for the whole attempt up to the response status) is
 * retried after 2, 4 and 8 s (config.webhookRetryDelaysMs). Every attempt re-reads the webhook, so
 * a regenerated secret signs at once and a deleted or disabled webhook gets no more attempts.
 * The host name is resolved at each attempt and every address it resolves to is checked
 * (webhooks/urlPolicy.ts); the connection goes to the checked address. Deliveries run in the
 * background: they never block or fail the scan.
 *
 * Outbox: every delivery still due is a row of `webhook_outbox` (webhook, scan payload, the next
 * attempt's number and due time). An attempt is marked started in the database before it is sent
 * and its row is moved on (next attempt, or deleted) when it ends, so a service restarted after a
 * stop or a kill -9 resumes each pending delivery at its due time, and no attempt goes out twice:
 * an attempt that was under way when the process stopped counts as made (its answer unknown) and
 * the next one is due after its usual delay.
 */
import { createHmac } from 'node:crypto';
import dns, { type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { ServiceContext } from '../context';
import { zuluTime } from '../shared/time';
import { addressAllowed } from './urlPolicy';
import { subscribedWebhooks, webhookOf, type WebhookRow } from './store';

/** The `scan` member of a scan.complete payload (document section 6). */
export interface ScanCompleteInfo {
  id: number;
  name: string;
  status: 'success' | 'error' | 'cancelled';
  marketplace_id: number;
  products: number;
  errors: number;
  speed: number;
  lines: number;
  created_at: string;
  completed_at: string;
}

/** Name resolution used by deliveries; tests replace `lookup` to make a name resolve elsewhere. */
export const webhookDns: { lookup: (host: string, cb: (err: Error | null, addrs: LookupAddress[]) => void) => void } = {
  lookup: (host, cb) => dns.lookup(host, { all: true }, (err, addrs) => cb(err, addrs ?? [])),
};

export interface DeliveryAttempt {
  webhookId: number;
  scanId: number;
  attempt: number;
  /** HTTP status, when one came back. */
  status?: number;
  ok: boolean;
  error?: string;
}

interface State {
  timers: Set<NodeJS.Timeout>;
  requests: Set<http.ClientRequest>;
  log: DeliveryAttempt[];
  stopped: boolean;
}
const states = new WeakMap<ServiceContext, State>();
function state(ctx: ServiceContext): State {
  let s = states.get(ctx);
  if (!s) states.set(ctx, (s = { timers: new Set(), requests: new Set(), log: [], stopped: false }));
  return s;
}

/** Attempts made so far (newest last, at most 1000): what the service tried, for tests and debugging. */
export function deliveryLog(ctx: ServiceContext): DeliveryAttempt[] {
  return [...state(ctx).log];
}

interface OutboxRow {
  id: number;
  webhook_id: number;
  account_id: number;
  scan: string;
  attempt: number;
  due_at: number;
  started_at: number | null;
}

/** Queues scan.complete deliveries to the account's active subscribed webhooks; never throws. */
export function notifyScanComplete(ctx: ServiceContext, accountId: number, scan: ScanCompleteInfo): void {
  try {
    const hooks = subscribedWebhooks(ctx.db, accountId, 'scan.complete');
    const insert = ctx.db.prepare('INSERT INTO webhook_outbox (webhook_id, account_id, scan, attempt, due_at) VALUES (?, ?, ?, 0, ?)');
    const now = Date.now();
    for (const h of hooks) {
      const id = Number(insert.run(h.id, accountId, JSON.stringify(scan), now).lastInsertRowid);
      schedule(ctx, id, 0);
    }
  } catch (e) {
    console.error('scan service: could not queue webhook deliveries', e);
  }
}

/**
 * At start: resumes the outbox. An attempt that was under way when the service stopped counts as
 * made: its delivery moves on to the next attempt after the usual delay (or ends after the last).
 */
export function resumeDeliveries(ctx: ServiceContext): void {
  const rows = ctx.db.prepare('SELECT * FROM webhook_outbox ORDER BY due_at, id').all() as OutboxRow[];
  const delays = ctx.config.webhookRetryDelaysMs;
  for (const r of rows) {
    if (r.started_at !== null) {
      if (r.attempt >= delays.length) {
        ctx.db.prepare('DELETE FROM webhook_outbox WHERE id = ?').run(r.id);
        continue;
      }
      r.due_at = r.started_at + delays[r.attempt];
      r.attempt += 1;
      ctx.db.prepare('UPDATE webhook_outbox SET attempt = ?, due_at = ?, started_at = NULL WHERE id = ?').run(r.attempt, r.due_at, r.id);
    }
    schedule(ctx, r.id, Math.max(0, r.due_at - Date.now()));
  }
}

/** Cancels pending retries and open requests (service shutdown). */
export function stopDeliveries(ctx: ServiceContext): void {
  const s = state(ctx);
  s.stopped = true;
  for (const t of s.timers) clearTimeout(t);
  for (const r of s.requests) r.destroy();
  s.timers.clear();
  s.requests.clear();
}

function schedule(ctx: ServiceContext, outboxId: number, delayMs: number): void {
  const s = state(ctx);
  if (s.stopped) return;
  const t = setTimeout(() => {
    s.timers.delete(t);
    void attemptOnce(ctx, outboxId);
  }, delayMs);
  s.timers.add(t);
}

async function attemptOnce(ctx: ServiceContext, outboxId: number): Promise<void> {
  const s = state(ctx);
  if (s.stopped) return;
  const { db } = ctx;
  let row: OutboxRow | undefined;
  let hook: WebhookRow | undefined;
  try {
    row = db.prepare('SELECT * FROM webhook_outbox WHERE id = ? AND started_at IS NULL').get(outboxId) as OutboxRow | undefined;
    if (!row) return;
    hook = webhookOf(db, row.webhook_id, row.account_id);
    if (!hook || hook.is_active !== 1 || !(JSON.parse(hook.events) as string[]).includes('scan.complete')) {
      db.prepare('DELETE FROM webhook_outbox WHERE id = ?').run(outboxId);
      return;
    }
    // Claimed before sending (only if no one else did): after a crash this attempt counts as made, never sent again.
    if (db.prepare('UPDATE webhook_outbox SET started_at = ? WHERE id = ? AND started_at IS NULL').run(Date.now(), outboxId).changes !== 1)
      return;
  } catch {
    return; // database closed: the service is shutting down
  }
  const scan = JSON.parse(row.scan) as ScanCompleteInfo;
  const attempt = row.attempt;
  const body = JSON.stringify({ event: 'scan.complete', timestamp: zuluTime(ctx.now()), scan });
  const signature = 'sha256=' + createHmac('sha256', hook.secret).update(body, 'utf8').digest('hex');
  const result = await post(ctx, hook.url, body, { 'X-Service-Event': 'scan.complete', 'X-Service-Signature': signature });
  if (s.stopped) return; // the row stays started: the restarted service moves on to the next attempt
  const ok = result.status !== undefined && result.status >= 200 && result.status < 300;
  s.log.push({ webhookId: hook.id, scanId: scan.id, attempt, status: result.status, ok, error: result.error });
  if (s.log.length > 1000) s.log.splice(0, s.log.length - 1000);
  const delays = ctx.config.webhookRetryDelaysMs;
  try {
    if (!ok && attempt < delays.length) {
      db.prepare('UPDATE webhook_outbox SET attempt = ?, due_at = ?, started_at = NULL WHERE id = ?').run(
        attempt + 1,
        Date.now() + delays[attempt],
        outboxId,
      );
      schedule(ctx, outboxId, delays[attempt]);
    } else db.prepare('DELETE FROM webhook_outbox WHERE id = ?').run(outboxId);
  } catch {
    // database closed meanwhile: the service is shutting down
  }
}

function post(ctx: ServiceContext, url: string, body: string, extra: Record<string, string>): Promise<{ status?: number; error?: string }> {
  const allowLoopback = ctx.config.allowLoopbackWebhooks;
  return new Promise((resolve) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      resolve({ error: 'invalid URL' });
      return;
    }
    const host = u.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !addressAllowed(host, allowLoopback)) {
      resolve({ error: `refused: ${host} is an internal address` });
      return;
    }
    const lookup = (hostname: string, options: any, cb: (...args: any[]) => void) => {
      webhookDns.lookup(hostname, (err, addrs) => {
        if (err) return cb(err);
        if (addrs.length === 0) return cb(new Error(`${hostname} did not resolve`));
        const bad = addrs.find((a) => !addressAllowed(a.address, allowLoopback));
        if (bad) return cb(new Error(`refused: ${hostname} resolves to the internal address ${bad.address}`));
        if (options?.all) cb(null, addrs);
        else cb(null, addrs[0].address, addrs[0].family);
      });
    };
    const lib = u.protocol === 'https:' ? https : http;
    const s = state(ctx);
    let settled = false;
    const done = (r: { status?: number; error?: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      s.requests.delete(req);
      resolve(r);
    };
    const req = lib.request(
      u,
      {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'User-Agent': 'scan-service-local/1',
          ...extra,
        },
        lookup: lookup as any,
        agent: false,
      },
      (res) => {
        res.resume();
        done({ status: res.statusCode });
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`timed out after ${ctx.config.webhookTimeoutMs} ms`));
    }, ctx.config.webhookTimeoutMs);
    s.requests.add(req);
    req.on('error', (e) => done({ error: e.message }));
    req.end(body);
  });
}
