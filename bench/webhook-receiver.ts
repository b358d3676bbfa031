/**
 * The example webhook receiver (examples/webhook-receiver/server.js), run as people run it (a
 * child process), answering signed scan.complete deliveries over loopback: time from sending a
 * delivery to its answer (HMAC check over the raw body, JSON, log line, CSV row when set), one
 * delivery at a time as the service sends them, and 50 at once. The service waits 10 s.
 * Run alone: `npx tsx bench/webhook-receiver.ts`; `npm run bench` runs it through bench/run.ts.
 */
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ended, untilListening } from '../emulator/stand-in';
import { runAlone } from './run-alone';

const SERVER = join(__dirname, '..', 'examples', 'webhook-receiver', 'server.js');
const SECRET = 'bench-secret-0123456789abcdef';
const N = 1000;

function start(env: Record<string, string>): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [SERVER], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', WEBHOOK_SECRET: SECRET, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return untilListening(child, 'receiver', 10_000).then((c) => ({ url: c.url, stop: () => ended(child, 'SIGTERM') }));
}

let id = 1;
function delivery(): { raw: string; headers: Record<string, string | number> } {
  const raw = JSON.stringify({
    event: 'scan.complete',
    timestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    scan: {
      id: id++,
      name: 'Price List 2026-11-25',
      status: 'success',
      marketplace_id: 1,
      products: 291,
      errors: 9,
      speed: 600,
      lines: 300,
      created_at: '2026-11-25T10:00:00',
      completed_at: new Date().toISOString(),
    },
  });
  const sig = 'sha256=' + createHmac('sha256', SECRET).update(raw).digest('hex');
  return {
    raw,
    headers: {
      'content-type': 'application/json',
      'x-service-event': 'scan.complete',
      'x-service-signature': sig,
      'content-length': Buffer.byteLength(raw),
    },
  };
}

function send(url: string, agent: Agent): Promise<number> {
  const { raw, headers } = delivery();
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers, agent }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - t0) : reject(new Error(`status ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(raw);
  });
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function measure(env: Record<string, string>): Promise<{ median: number; p95: number; max: number; burstMs: number }> {
  const r = await start(env);
  const agent = new Agent({ keepAlive: true, maxSockets: 50 });
  try {
    for (let i = 0; i < 50; i++) await send(r.url, agent); // warm-up
    const times: number[] = [];
    for (let i = 0; i < N; i++) times.push(await send(r.url, agent));
    times.sort((a, b) => a - b);
    const t0 = performance.now();
    await Promise.all(Array.from({ length: 50 }, () => send(r.url, agent)));
    const burstMs = performance.now() - t0;
    return { median: pct(times, 50), p95: pct(times, 95), max: times[times.length - 1], burstMs };
  } finally {
    agent.destroy();
    await r.stop();
  }
}

export async function benchWebhookReceiver(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-receiver-'));
  try {
    const plain = await measure({});
    const csv = await measure({ WEBHOOK_CSV: join(dir, 'scans.csv') });
    return {
      'receiver.deliveries': N,
      'receiver.median_ms': plain.median,
      'receiver.p95_ms': plain.p95,
      'receiver.max_ms': plain.max,
      'receiver.with_csv.median_ms': csv.median,
      'receiver.with_csv.p95_ms': csv.p95,
      'receiver.with_csv.max_ms': csv.max,
      'receiver.50_at_once_ms': csv.burstMs,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) runAlone(benchWebhookReceiver);
