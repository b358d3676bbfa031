/** Shared by the service's tests: a service on a free port, and fetch with a key. */
import { startService, type RunningService, type StartOptions } from '../../emulator/service/server';
import type { ServiceConfig } from '../../emulator/service/context';
import type { Catalog } from '../../emulator/service/engine/types';

/** These tests need no products; the scans' own tests use the sample catalog. */
export const EMPTY_CATALOG: Catalog = { byIdentifier: () => [], byAsin: () => undefined, size: () => 0 };

export const KEY_A = 'key-account-a';
export const KEY_B = 'key-account-b';
export const KEY_US_ONLY = 'key-us-only';

/** A movable clock for rate limits and timestamps. */
export class TestClock {
  t = Date.UTC(2026, 0, 15, 12, 0, 0);
  now = () => new Date(this.t);
  advance(ms: number) {
    this.t += ms;
  }
}

export async function start(config: Partial<ServiceConfig> = {}, opts: StartOptions = {}): Promise<RunningService> {
  return startService(
    { port: 0, dbPath: ':memory:', apiKeys: [KEY_A, KEY_B, `${KEY_US_ONLY}:US`], ...config },
    { catalog: EMPTY_CATALOG, ...opts },
  );
}

export interface Res {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export async function call(
  base: string,
  method: string,
  path: string,
  opts: { key?: string | null; json?: unknown; body?: any; headers?: Record<string, string> } = {},
): Promise<Res> {
  const headers: Record<string, string> = { ...opts.headers };
  const key = opts.key === undefined ? KEY_A : opts.key;
  if (key) headers.authorization = `Bearer ${key}`;
  let body = opts.body;
  if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  }
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  let parsed: any;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}
