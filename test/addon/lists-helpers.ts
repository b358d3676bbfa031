/**
 * Set-up of the lists-sync tests: the BUILT add-on in the local runtime, the local Scan Service in a
 * worker thread on the runtime's virtual clock (emulator/service/worker), and a recording/fault
 * proxy (scanflow-fault-proxy.cjs) in front of it.
 */
import { SharedClock } from '../../emulator/gas/shared-clock';
import { startServiceInWorker } from '../../emulator/service/worker';
import { createRuntime, type Runtime } from '../../emulator/gas';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { START, startFaultProxy, type FaultProxy } from './scanflow-helpers';

export { SharedClock };

export interface ClockedService {
  url: string;
  clock: SharedClock;
  stop(): Promise<void>;
}

export async function startClockedService(apiKeys: string[], start = START): Promise<ClockedService> {
  const clock = new SharedClock(start);
  const svc = await startServiceInWorker({ clock: clock.buffer, apiKeys });
  return { url: svc.url, clock, stop: svc.stop };
}

/**
 * For a test file: the clocked service for `apiKeys` behind a recording/fault proxy, started before
 * its tests (the returned object is filled in then) and stopped after them. Before each test the
 * accounts get a fresh rate window and the proxy forgets its rules and what it saw.
 */
export function useClockedServiceBehindProxy(apiKeys: string[]): { svc: ClockedService; proxy: FaultProxy } {
  const env = {} as { svc: ClockedService; proxy: FaultProxy };
  beforeAll(async () => {
    env.svc = await startClockedService(apiKeys);
    env.proxy = await startFaultProxy(env.svc.url);
  }, 60_000);
  afterAll(async () => {
    await env.proxy?.stop();
    await env.svc?.stop();
  });
  beforeEach(async () => {
    env.svc.clock.advance(61_000);
    await env.proxy.reset();
  });
  return env;
}

export function listsRuntime(wb: Workbook, clock: SharedClock): Runtime {
  return createRuntime({ workbook: wb, clock, urlFetchTimeoutMs: 20_000 });
}

/** A request straight to the service (seeding and checking), as the account with `key`. */
export async function api(url: string, key: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

/** Every entry of a paged bulk list (advances the clock a minute between bursts so seeding never meets the limit). */
export async function listAll(svc: ClockedService, key: string, path: string): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    // the test's own reading takes the account's rate window for itself, then leaves it fresh
    if (page % 25 === 1) svc.clock.advance(61_000);
    const r = await api(svc.url, key, 'GET', `${path}?per_page=1000&page=${page}`);
    out.push(...r.data);
    if (out.length >= r.total || !r.data.length) {
      svc.clock.advance(61_000);
      return out;
    }
  }
}

/** Types `values` into row `row` of `sheet` from column A, cell by cell as the user would. */
export function typeRow(wb: Workbook, sheet: string, row: number, values: unknown[]): void {
  values.forEach((v, i) => wb.type(sheet, wb.a1(row, i + 1), v));
}

/** Values of a tab as the user sees them (row arrays), without trailing blank rows. */
export function tab(wb: Workbook, name: string): unknown[][] {
  const v = wb.values(name);
  let n = v.length;
  while (n > 0 && v[n - 1].every((x) => x === '' || x === null)) n--;
  return v.slice(0, n);
}

/** Puts rows on a tab (typed as a user would) and names the table. */
export function userTable(wb: Workbook, sheet: string, rows: unknown[][], rangeName: string, at = { row: 1, col: 1 }): void {
  if (!wb.sheetNames().includes(sheet)) wb.addSheet(sheet);
  rows.forEach((row, i) => row.forEach((v, j) => v !== '' && wb.type(sheet, wb.a1(at.row + i, at.col + j), v)));
  wb.namedRanges.set(rangeName, {
    name: rangeName,
    area: { sheet: wb.requireSheet(sheet), r1: at.row, c1: at.col, r2: at.row + rows.length - 1, c2: at.col + rows[0].length - 1 },
  });
}

export function rangeArea(wb: Workbook, name: string): { r1: number; c1: number; r2: number; c2: number } | undefined {
  const nr = wb.namedRanges.get(name);
  return nr ? { r1: nr.area.r1, c1: nr.area.c1, r2: nr.area.r2, c2: nr.area.c2 } : undefined;
}
