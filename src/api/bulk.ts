/**
 * The shared client of the paced areas: paged lists (1,000 a page, the API's maximum, so the floor
 * of requests) and bulk writes (10,000 rows a request, the API's maximum; a request is applied in
 * full or not at all). Requests go in parallel waves as large as the pacer allows; 429 waits as
 * Retry-After says (and holds the pacer), 5xx and time-outs back off (src/api/retry.ts).
 * Each area's module (asin-blocklist.ts, brand-blocklist.ts, listing-matches.ts,
 * multipack-corrections.ts) describes it as a PacedArea; `listArea` and `writeArea` are its calls,
 * typed from the contract's operations of that path.
 */
import { MAX_SLEEP_MS, sendAll, type ApiCall, type ApiContext, type CallResult } from './client';
import { ApiProblemError, type Problem } from './problems';
import { DEFAULT_RETRY_POLICY, decideRetry, type RetryPolicy } from './retry';
import type { BulkPacer } from './bulk-pacer';
import type { components, paths } from '../../contract/schema';

export type BulkCounts = components['schemas']['BulkCounts'];

/** The paced areas' paths (document section 8). */
export type PacedPath = '/api/v3/brand-blocklist' | '/api/v3/asin-blocklist' | '/api/v3/listing-matches' | '/api/v3/multipack-corrections';
export type WriteMethod = 'post' | 'delete';
type JsonOf<T> = T extends { content: { 'application/json': infer J } } ? J : never;
type WriteBody<P extends PacedPath, M extends WriteMethod> = JsonOf<paths[P][M]['requestBody']>;
/** The body member a write carries its rows in (`brands`, `matches` …). */
type RowsField<P extends PacedPath, M extends WriteMethod> = Exclude<keyof WriteBody<P, M>, 'marketplace_id'> & string;
/** An entry of an area's list, as the contract describes it. */
export type PacedItem<P extends PacedPath> = JsonOf<paths[P]['get']['responses'][200]>['data'][number];
/** One row of an area's add/upsert (`post`) or delete body. */
export type PacedRow<P extends PacedPath, M extends WriteMethod> = P extends PacedPath
  ? WriteBody<P, M>[RowsField<P, M>] extends ReadonlyArray<infer R>
    ? R
    : never
  : never;

/** A paced area: its path and the body member each write carries its rows in. */
export interface PacedArea<P extends PacedPath> {
  path: P;
  post: RowsField<P, 'post'>;
  delete: RowsField<P, 'delete'>;
}

/** Rows per write request and items per list page: the API's ceilings (document section 8). */
export const MAX_ROWS_PER_WRITE = 10_000;
export const LIST_PAGE_SIZE = 1_000;

export interface PacedContext extends ApiContext {
  pacer: BulkPacer;
  policy?: RetryPolicy;
  /** Requests answered with 429 (figures; the target is 0). */
  stats?: { requests: number; rateLimited: number };
}

/** Thrown when the time budget ran out before the work was done: the caller checkpoints. */
export class OutOfTimeError extends Error {
  constructor(message = 'The time for this run is used up; the sync continues on the next run.') {
    super(message);
    this.name = 'OutOfTimeError';
  }
}

/**
 * Sends calls through the pacer and answers their results in order; a call that fails for good
 * throws ApiProblemError (or OutOfTimeError when time ran out).
 */
export function sendPaced(ctx: PacedContext, calls: readonly ApiCall[]): unknown[] {
  const policy = ctx.policy ?? DEFAULT_RETRY_POLICY;
  const random = ctx.deps.random ?? Math.random;
  const results: unknown[] = new Array(calls.length);
  let pending = calls.map((_c, index) => ({ index, attempts: 0, notBefore: 0 }));
  while (pending.length) {
    const now = ctx.deps.now();
    const readyAt = Math.min(...pending.map((p) => p.notBefore));
    if (readyAt > now) {
      if (readyAt + policy.attemptReserveMs > ctx.deadline) throw new OutOfTimeError();
      ctx.deps.sleep(Math.min(readyAt - now, MAX_SLEEP_MS));
      continue;
    }
    const ready = pending.filter((p) => p.notBefore <= now);
    const n = ctx.pacer.reserve(ready.length, ctx.deadline - policy.attemptReserveMs);
    if (n === 0) throw new OutOfTimeError();
    const wave = ready.slice(0, n);
    const inWave = new Set(wave);
    pending = pending.filter((p) => !inWave.has(p));
    const answers: CallResult[] = sendAll(
      ctx.settings,
      ctx.deps,
      wave.map((p) => calls[p.index]),
      { deadline: ctx.deadline, maxParallel: wave.length, policy: { ...policy, maxAttempts: 1 } },
    );
    const after = ctx.deps.now();
    // What the service counted (a 429 is not counted), recorded before anything can throw.
    ctx.pacer.record(answers.filter((r) => r.ok || r.problem.kind !== 'rate-limited').length, after);
    let holdUntil = 0;
    const toldSlots: Array<{ notBefore: number }> = [];
    answers.forEach((r, i) => {
      const slot = wave[i];
      slot.attempts++;
      if (ctx.stats) ctx.stats.requests++;
      if (r.ok) {
        results[slot.index] = r.body;
        return;
      }
      const problem: Problem = r.problem;
      if (problem.kind === 'out-of-time') throw new OutOfTimeError();
      if (problem.kind === 'rate-limited') {
        if (ctx.stats) ctx.stats.rateLimited++;
        if (problem.retryAfterMs !== undefined) holdUntil = Math.max(holdUntil, after + problem.retryAfterMs);
      }
      // A 429 that says when to come back is waited out while time allows, however often it comes (a storm passes).
      const told = problem.kind === 'rate-limited' && problem.retryAfterMs !== undefined;
      const d = decideRetry({ attempt: told ? 1 : slot.attempts, problem, timeLeftMs: ctx.deadline - after, random: random(), policy });
      if (!d.retry) {
        if (d.reason === 'time') throw new OutOfTimeError();
        throw new ApiProblemError(problem);
      }
      slot.notBefore = after + d.waitMs;
      if (told) toldSlots.push(slot);
      pending.push(slot);
    });
    // Calls refused in one wave come back together, once the latest wait is over.
    const together = Math.max(0, ...toldSlots.map((t) => t.notBefore));
    for (const t of toldSlots) t.notBefore = together;
    if (holdUntil) ctx.pacer.holdUntil(holdUntil);
  }
  return results;
}

interface Page<T> {
  data: T[];
  total: number;
}

function readPage<T>(body: unknown): Page<T> {
  const b = (body || {}) as Record<string, unknown>;
  const data = Array.isArray(b.data) ? (b.data as T[]) : Array.isArray(body) ? (body as T[]) : [];
  const total = typeof b.total === 'number' ? b.total : data.length;
  return { data, total };
}

/** Every entry of a paged list: page 1 tells the total, the other pages follow in paced waves. */
export function listAllPages<T>(ctx: PacedContext, path: string, query: { [k: string]: string | undefined }): T[] {
  const call = (page: number): ApiCall => ({ method: 'get', path, query: { ...query, page, per_page: LIST_PAGE_SIZE } });
  const first = readPage<T>(sendPaced(ctx, [call(1)])[0]);
  const pages = Math.ceil(first.total / LIST_PAGE_SIZE);
  const out = first.data.slice();
  if (pages > 1) {
    const rest = sendPaced(
      ctx,
      Array.from({ length: pages - 1 }, (_x, i) => call(i + 2)),
    );
    for (const body of rest) out.push(...readPage<T>(body).data);
  }
  // Entries created while paging shift pages (newest first): an entry can be seen twice. Callers key entries, so a repeat is harmless.
  return out;
}

/** Writes rows in requests of up to 10,000 (one marketplace per request); answers the summed counts. */
export function writeRows(
  ctx: PacedContext,
  method: 'post' | 'delete',
  path: string,
  marketplace: string,
  field: string,
  rows: readonly unknown[],
): BulkCounts {
  const total: BulkCounts = { created: 0, updated: 0, unchanged: 0, deleted: 0 };
  if (!rows.length) return total;
  const calls: ApiCall[] = [];
  for (let i = 0; i < rows.length; i += MAX_ROWS_PER_WRITE) {
    calls.push({
      method,
      path,
      body: { marketplace_id: marketplace, [field]: rows.slice(i, i + MAX_ROWS_PER_WRITE) },
      subject: 'marketplace ' + marketplace,
    });
  }
  for (const body of sendPaced(ctx, calls)) {
    const c = (body || {}) as Partial<BulkCounts>;
    total.created += c.created ?? 0;
    total.updated += c.updated ?? 0;
    total.unchanged += c.unchanged ?? 0;
    total.deleted += c.deleted ?? 0;
  }
  return total;
}

/** Every entry of a paced area (of one marketplace when given). */
export function listArea<P extends PacedPath>(ctx: PacedContext, area: PacedArea<P>, marketplace?: string): PacedItem<P>[] {
  return listAllPages<PacedItem<P>>(ctx, area.path, { marketplace_id: marketplace });
}

/** Adds or upserts (`post`) or deletes rows of a paced area of one marketplace; answers the summed counts. */
export function writeArea<P extends PacedPath, M extends WriteMethod>(
  ctx: PacedContext,
  area: PacedArea<P>,
  method: M,
  marketplace: string,
  rows: readonly PacedRow<P, M>[],
): BulkCounts {
  return writeRows(ctx, method, area.path, marketplace, area[method], rows);
}
