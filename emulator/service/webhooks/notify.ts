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
 */
import { createHmac } from 'node:crypto';
import dns, { type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { ServiceContext } from '../context';
import { zuluTime } from '../time';
import { addressAllowed } from './urlPolicy';
import type { WebhookRow } from '../routes/webhooks';

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

/** Queues scan.complete deliveries to the account's active subscribed webhooks; never throws. */
export function notifyScanComplete(ctx: ServiceContext, accountId: number, scan: ScanCompleteInfo): void {
  try {
    const hooks = ctx.db.prepare('SELECT * FROM webhooks WHERE account_id = ? AND is_active = 1 ORDER BY id').all(accountId) as WebhookRow[];
    for (const h of hooks) {
      if (!(JSON.parse(h.events) as string[]).includes('scan.complete')) continue;
      schedule(ctx, h.id, accountId, scan, 0, 0);
    }
  } catch (e) {
    console.error('scan service: could not queue webhook deliveries', e);
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

function schedule(ctx: ServiceContext, webhookId: number, accountId: number, scan: ScanCompleteInfo, attempt: number, delayMs: number): void {
  const s = state(ctx);
  if (s.stopped) return;
  const t = setTimeout(() => {
    s.timers.delete(t);
    void attemptOnce(ctx, webhookId, accountId, scan, attempt);
  }, delayMs);
  s.timers.add(t);
}

async function attemptOnce(ctx: ServiceContext, webhookId: number, accountId: number, scan: ScanCompleteInfo, attempt: number): Promise<void> {
  const s = state(ctx);
  if (s.stopped) return;
  let hook: WebhookRow | undefined;
  try {
    hook = ctx.db.prepare('SELECT * FROM webhooks WHERE id = ? AND account_id = ?').get(webhookId, accountId) as WebhookRow | undefined;
  } catch {
    return; // database closed: the service is shutting down
  }
  if (!hook || hook.is_active !== 1 || !(JSON.parse(hook.events) as string[]).includes('scan.complete')) return;
  const body = JSON.stringify({ event: 'scan.complete', timestamp: zuluTime(ctx.now()), scan });
  const signature = 'sha256=' + createHmac('sha256', hook.secret).update(body, 'utf8').digest('hex');
  const result = await post(ctx, hook.url, body, { 'X-Service-Event': 'scan.complete', 'X-Service-Signature': signature });
  if (s.stopped) return;
  const ok = result.status !== undefined && result.status >= 200 && result.status < 300;
  s.log.push({ webhookId, scanId: scan.id, attempt, status: result.status, ok, error: result.error });
  if (s.log.length > 1000) s.log.splice(0, s.log.length - 1000);
  const delays = ctx.config.webhookRetryDelaysMs;
  if (!ok && attempt < delays.length) schedule(ctx, webhookId, accountId, scan, attempt + 1, delays[attempt]);
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
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'User-Agent': 'scan-service-local/1', ...extra },
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
