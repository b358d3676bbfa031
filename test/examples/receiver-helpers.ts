/**
 * Shared by the webhook tests: the example receiver (examples/webhook-receiver/server.js) run as
 * people run it (a child process configured by environment), a relay in front of it that can fail
 * or tamper with deliveries, and a scan uploaded to the local service over HTTP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { childStandIn, closeServer, type StandIn, stopOnce } from '../../emulator/stand-in';

export const RECEIVER = join(__dirname, '..', '..', 'examples', 'webhook-receiver', 'server.js');

export interface RunningReceiver extends StandIn {
  /** The delivery address, e.g. http://127.0.0.1:4711/scan-complete. */
  url: string;
  stdout(): string;
  stderr(): string;
  /** stdout lines that report a handled scan. */
  handled(): string[];
}

/** Starts server.js with `env` (PORT 0); resolves once it prints its address. */
export function startReceiver(env: Record<string, string>, timeoutMs = 10_000): Promise<RunningReceiver> {
  const child: ChildProcess = spawn(process.execPath, [RECEIVER], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return childStandIn(child, 'receiver', timeoutMs).then((c) => ({
    url: c.url,
    stdout: c.stdout,
    stderr: c.stderr,
    handled: () =>
      c
        .stdout()
        .split('\n')
        .filter((l) => / scan \d+ /.test(l)),
    stop: c.stop,
  }));
}

/** What the relay does with the n-th delivery (0-based). */
export type RelayAction = 'forward' | 'fail' | 'forward-then-fail' | 'tamper';

export interface Delivery {
  headers: IncomingHttpHeaders;
  raw: Buffer;
  /** Status the receiver answered (undefined when not forwarded). */
  receiverStatus?: number;
  receiverBody?: string;
  /** Status the service got. */
  status: number;
  /** The relay has answered the service. */
  answered: boolean;
  at: number;
}

export interface Relay extends StandIn {
  deliveries: Delivery[];
  /** Deliveries the relay has answered. */
  answered(): number;
}

/** POSTs raw bytes with headers; answers status and body. */
export function post(
  url: string,
  raw: Buffer | string,
  headers: Record<string, string | string[] | undefined>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const clean: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(headers))
      if (v !== undefined && !['host', 'content-length', 'connection'].includes(k)) clean[k] = v;
    const req = request(url, { method: 'POST', headers: { ...clean, 'content-length': Buffer.byteLength(raw) } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end(raw);
  });
}

/**
 * A relay in front of the receiver, as the service sees it: `plan(n)` decides per delivery.
 * 'fail' answers 500 without forwarding; 'forward-then-fail' forwards and answers 500 anyway (an
 * answer lost on the way back); 'tamper' changes one number in the body and forwards it with the
 * original signature.
 */
export async function startRelay(target: string, plan: (n: number) => RelayAction): Promise<Relay> {
  const deliveries: Delivery[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks);
      const d: Delivery = { headers: req.headers, raw, status: 500, at: Date.now(), answered: false };
      const action = plan(deliveries.length);
      deliveries.push(d);
      if (action !== 'fail') {
        const body =
          action === 'tamper'
            ? Buffer.from(raw.toString('utf8').replace(/"products":(\d+)/, (_m, n) => `"products":${Number(n) + 1000}`))
            : raw;
        const r = await post(target, body, req.headers);
        d.receiverStatus = r.status;
        d.receiverBody = r.body;
        d.status = action === 'forward-then-fail' ? 500 : r.status;
      }
      res.statusCode = d.status;
      res.end();
      d.answered = true;
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/scan-complete`,
    deliveries,
    answered: () => deliveries.filter((d) => d.answered).length,
    stop: stopOnce(() => {
      server.closeAllConnections();
      return closeServer(server);
    }),
  };
}

/** sha256=<hex HMAC of the raw bytes> as the service signs. */
export function sign(raw: Buffer | string, secret: string): string {
  return 'sha256=' + createHmac('sha256', secret).update(raw).digest('hex');
}

export async function api(base: string, key: string, method: string, path: string, json?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(json !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: json !== undefined ? JSON.stringify(json) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Uploads a small price list and waits until the scan has finished; answers the scan record. */
export async function runScan(base: string, key: string, name: string): Promise<any> {
  const csv = 'UPC,Cost\n694108366009,26.38\n648545301499,29.43\n889794054723,37.92\n000000000000,1.00\n';
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'list.csv');
  form.append('attributes', JSON.stringify({ mapping: { id: 0, cost: 1 }, options: { marketplace_id: 'US', name, header: true } }));
  const up = await fetch(`${base}/api/v3/scans`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  const scan = (await up.json()) as { id: number };
  if (up.status !== 201) throw new Error(`upload: ${up.status} ${JSON.stringify(scan)}`);
  for (;;) {
    const r = await api(base, key, 'GET', `/api/v3/scans/${scan.id}`);
    if (!['queued', 'running', 'in_progress'].includes(r.body.status)) return r.body;
    await new Promise((res) => setTimeout(res, 25));
  }
}

/** Waits until cond() holds (polling), or fails with `what`. */
export async function waitFor(cond: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
