/**
 * The shared client of the paced areas: paged lists (1,000 a page, the API's maximum, so the floor
 * of requests) and bulk writes (10,000 rows a request, the API's maximum; a request is applied in
 * full or not at all). Requests go in parallel waves as large as the pacer allows; 429 waits as
 * Retry-After says (and holds the pacer), 5xx and time-outs back off: client.ts's one retry loop,
 * paced (src/api/retry.ts).
 * Each area's module (asin-blocklist.ts, brand-blocklist.ts, listing-matches.ts,
 * multipack-corrections.ts) describes it as a PacedArea; `listArea` and `writeArea` are its calls,
 * typed from the contract's operations of that path.
 */
import { sendAll, type ApiCall, type ApiContext } from './client';
import { pacedBodies } from './exceptions';
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

/** The context of the paced areas' calls: an ApiContext with its pacer. */
export type PacedContext = ApiContext & { pacer: BulkPacer };

/** Sends calls paced (client.ts's loop, `paced`) and answers their bodies in order; the failure that ended the run is thrown (exceptions.ts: OutOfTimeError when time ran out). */
export function sendPaced(ctx: PacedContext, calls: readonly ApiCall[]): unknown[] {
  return pacedBodies(sendAll(ctx, calls, { paced: true }));
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
