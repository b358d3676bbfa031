/**
 * What the four bulk areas of the document (4.6, 7, 8) share: listing matches, brand blocklist,
 * ASIN blocklist, multipack corrections (each defined in its own folder). One implementation:
 *  - every bad row is listed in one 422 and nothing is written (schema errors and the content
 *    rules below are merged, so a request learns about all its bad rows at once);
 *  - rows are trimmed, then matched exactly (case-sensitive);
 *  - counts are of entries, not rows: a key repeated in one request is one entry, its last row
 *    wins, and it counts once against what was stored before the request (created, updated or
 *    unchanged), all inside one transaction; repeating a payload reports every entry unchanged;
 *  - at most 10,000 rows per request; 30 requests per minute per account over the four areas;
 *  - lists newest first (by creation), page/per_page.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context';
import { ApiError, validationFailed, type RowError } from './errors';
import { requestMarketplace } from './auth';
import { sqlTime } from './time';
import { describeValidation, splitBulkErrors } from './validation';

export const MAX_BULK_ROWS = 10_000;
export const ASIN_MIN = 10;
export const ASIN_MAX = 25;
export const TEXT_MAX = 255;

export type Row = Record<string, string | number | boolean>;

/** A bulk area as the handlers see it; made by defineBulkArea (shared/bulk-area.ts) in the area's folder. */
export interface BulkArea {
  /** Its folder. */
  name: string;
  /** Idempotent SQL creating its table. */
  tables: string;
  table: string;
  ops: { list: string; upsert: string; remove: string };
  /** Body member holding the rows of an upsert / of a delete. */
  upsertField: string;
  deleteField: string;
  /** Columns that identify an entry (with account and marketplace); a list filters exactly by each. */
  keys: string[];
  /** Columns whose change makes an upsert an update. */
  values: string[];
  /** Checks and normalises one upsert row; pushes errors; undefined when bad. */
  upsertRow(raw: unknown, index: number, errors: RowError[]): Row | undefined;
  deleteRow(raw: unknown, index: number, errors: RowError[]): Row | undefined;
  toJson(r: any): Record<string, unknown>;
}

/** Trimmed text or an error; `undefined` raw values were already reported by the schema check. */
export function text(
  raw: unknown,
  index: number,
  field: string,
  errors: RowError[],
  min: number,
  max: number,
  what: string,
): string | undefined {
  if (typeof raw !== 'string') {
    if (raw === undefined || raw === null) errors.push({ index, field, message: `${what} is required.` });
    else errors.push({ index, field, message: `${what} must be a string.` });
    return undefined;
  }
  const v = raw.trim();
  if (v === '') {
    errors.push({ index, field, message: `${what} must not be empty.` });
    return undefined;
  }
  if (v.length < min || v.length > max) {
    errors.push({
      index,
      field,
      message:
        min > 1
          ? `${what} must be ${min} to ${max} characters long (got ${v.length}).`
          : `${what} must be at most ${max} characters long (got ${v.length}); it is rejected, not shortened.`,
    });
    return undefined;
  }
  return v;
}

export const asin = (raw: unknown, i: number, e: RowError[], field = 'asin') => text(raw, i, field, e, ASIN_MIN, ASIN_MAX, 'asin');
export const obj = (raw: unknown, i: number, e: RowError[]): Record<string, unknown> | undefined => {
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) return raw as Record<string, unknown>;
  e.push({ index: i, field: 'value', message: 'Each row must be an object.' });
  return undefined;
};
export function bool(raw: unknown, i: number, field: string, e: RowError[]): boolean | undefined {
  if (typeof raw === 'boolean') return raw;
  e.push({ index: i, field, message: raw === undefined ? `${field} is required.` : `${field} must be true or false.` });
  return undefined;
}
export function positiveInt(raw: unknown, i: number, field: string, e: RowError[]): number | undefined {
  if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 1) return raw;
  if (raw === undefined) e.push({ index: i, field, message: `${field} is required.` });
  else if (typeof raw !== 'number' || !Number.isInteger(raw)) e.push({ index: i, field, message: `${field} must be an integer.` });
  else e.push({ index: i, field, message: `${field} must be 1 or greater (got ${raw}).` });
  return undefined;
}
export const all = (...vals: unknown[]) => vals.every((v) => v !== undefined);

export const times = (r: any) => ({ created_at: r.created_at, updated_at: r.updated_at });

/** The operations of the bulk areas (their 422s list every bad row; they share one rate limit). */
export const bulkOperations = (areas: BulkArea[]) => new Set(areas.flatMap((a) => [a.ops.list, a.ops.upsert, a.ops.remove]));

export interface Counts {
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
}

/** Checks a write body; returns its marketplace and normalised rows, or throws one 422 listing every problem. */
function checkWrite(req: FastifyRequest, field: string, check: (raw: unknown, i: number, e: RowError[]) => Row | undefined) {
  const body = req.body as Record<string, unknown> | undefined;
  const rowsRaw = body && typeof body === 'object' ? body[field] : undefined;
  if (Array.isArray(rowsRaw) && rowsRaw.length > MAX_BULK_ROWS) {
    throw validationFailed([], `At most ${MAX_BULK_ROWS} rows per request; this request has ${rowsRaw.length}. Nothing was written.`);
  }
  const schemaErrors = (req.validationError as any)?.validation ?? [];
  const { rows: schemaRowErrors, request } = splitBulkErrors(schemaErrors, field);
  if (request.length) throw validationFailed([], `Invalid request: ${request.join('; ')}. Nothing was written.`);
  let marketplace;
  try {
    marketplace = requestMarketplace(req.account, body!.marketplace_id);
  } catch (e) {
    if (e instanceof ApiError && e.status === 422) throw validationFailed([], e.message);
    throw e;
  }
  const errors: RowError[] = [];
  const rows: Row[] = [];
  (rowsRaw as unknown[]).forEach((raw, i) => {
    const r = check(raw, i, errors);
    if (r) rows.push(r);
  });
  if (errors.length || schemaRowErrors.length) {
    // One entry per row and field; the row checks' wording wins over the schema's.
    const seen = new Set<string>();
    const merged = [...errors, ...schemaRowErrors].filter((e) => {
      const k = `${e.index}\u0000${e.field}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    merged.sort((a, b) => a.index - b.index || a.field.localeCompare(b.field));
    const badRows = new Set(merged.map((e) => e.index)).size;
    throw validationFailed(merged, `${badRows} of ${(rowsRaw as unknown[]).length} rows are invalid; nothing was written.`);
  }
  return { marketplace, rows };
}

function areaHandlers(ctx: ServiceContext, area: BulkArea) {
  const { db } = ctx;
  const where = ['account_id = ?', 'marketplace_id = ?', ...area.keys.map((k) => `${k} = ?`)].join(' AND ');
  const find = db.prepare(`SELECT * FROM ${area.table} WHERE ${where}`);
  const cols = ['account_id', 'marketplace_id', ...area.keys, ...area.values, 'created_at', 'updated_at'];
  const insert = db.prepare(`INSERT INTO ${area.table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`);
  const update = area.values.length
    ? db.prepare(`UPDATE ${area.table} SET ${area.values.map((v) => `${v} = ?`).join(', ')}, updated_at = ? WHERE id = ?`)
    : undefined;
  const remove = db.prepare(`DELETE FROM ${area.table} WHERE ${where}`);

  const upsertTx = db.transaction((accountId: number, marketplaceId: number, rows: Row[], now: string): Counts => {
    const c: Counts = { created: 0, updated: 0, unchanged: 0, deleted: 0 };
    // One entry per key, its last row winning; entries keep the order of their first row.
    const entries = new Map<string, Row>();
    for (const r of rows) entries.set(JSON.stringify(area.keys.map((k) => r[k])), r);
    for (const r of entries.values()) {
      const keyVals = area.keys.map((k) => r[k]);
      const existing = find.get(accountId, marketplaceId, ...keyVals) as Record<string, unknown> | undefined;
      if (!existing) {
        insert.run(accountId, marketplaceId, ...keyVals, ...area.values.map((v) => r[v]), now, now);
        c.created++;
      } else if (area.values.some((v) => existing[v] !== r[v])) {
        update!.run(...area.values.map((v) => r[v]), now, existing.id);
        c.updated++;
      } else c.unchanged++;
    }
    return c;
  });
  const deleteTx = db.transaction((accountId: number, marketplaceId: number, rows: Row[]): Counts => {
    const c: Counts = { created: 0, updated: 0, unchanged: 0, deleted: 0 };
    for (const r of rows) c.deleted += remove.run(accountId, marketplaceId, ...area.keys.map((k) => r[k])).changes;
    return c;
  });

  return {
    [area.ops.upsert]: async (req: FastifyRequest) => {
      const { marketplace, rows } = checkWrite(req, area.upsertField, area.upsertRow);
      return upsertTx(req.account.id, marketplace.id, rows, sqlTime(ctx.now()));
    },
    [area.ops.remove]: async (req: FastifyRequest) => {
      const { marketplace, rows } = checkWrite(req, area.deleteField, area.deleteRow);
      return deleteTx(req.account.id, marketplace.id, rows);
    },
    [area.ops.list]: async (req: FastifyRequest) => {
      const ve = (req.validationError as any)?.validation;
      if (ve) throw validationFailed([], describeValidation(ve, 'querystring'));
      const q = req.query as Record<string, unknown>;
      const page = Number(q.page ?? 1);
      const perPage = Number(q.per_page ?? 100);
      const conds = ['account_id = ?'];
      const args: unknown[] = [req.account.id];
      if (q.marketplace_id !== undefined && q.marketplace_id !== '') {
        let m;
        try {
          m = requestMarketplace(req.account, q.marketplace_id);
        } catch (e) {
          if (e instanceof ApiError && e.status === 422) throw validationFailed([], e.message);
          throw e;
        }
        conds.push('marketplace_id = ?');
        args.push(m.id);
      } else if (req.account.marketplaceIds) {
        conds.push(`marketplace_id IN (${req.account.marketplaceIds.map(() => '?').join(', ')})`);
        args.push(...req.account.marketplaceIds);
      }
      for (const f of area.keys) {
        if (typeof q[f] === 'string') {
          conds.push(`${f} = ?`);
          args.push((q[f] as string).trim());
        }
      }
      const whereSql = conds.join(' AND ');
      const total = (db.prepare(`SELECT COUNT(*) AS n FROM ${area.table} WHERE ${whereSql}`).get(...args) as { n: number }).n;
      const data = db
        .prepare(`SELECT * FROM ${area.table} WHERE ${whereSql} ORDER BY id DESC LIMIT ? OFFSET ?`)
        .all(...args, perPage, (page - 1) * perPage)
        .map(area.toJson);
      return { data, page, per_page: perPage, total };
    },
  };
}

/** Handlers of the given bulk areas (each area's folder defines its rows), by operationId. */
export function bulkHandlers(
  ctx: ServiceContext,
  areas: BulkArea[],
): Record<string, (req: FastifyRequest, reply: FastifyReply) => unknown> {
  return Object.assign({}, ...areas.map((a) => areaHandlers(ctx, a)));
}

/**
 * 30 requests per sliding minute per account over the four areas (reads and writes alike), on
 * service time so tests can move it. A refused request is not counted and reaches no handler.
 */
export function bulkRateLimiter(ctx: ServiceContext) {
  const hits = new Map<number, number[]>();
  return async (req: FastifyRequest) => {
    const limit = ctx.config.bulkRateLimitPerMinute;
    const now = ctx.now().getTime();
    const recent = (hits.get(req.account.id) ?? []).filter((t) => t > now - 60_000 && t <= now);
    if (recent.length >= limit) {
      const retryAfter = Math.max(1, Math.ceil((recent[0] + 60_000 - now) / 1000));
      hits.set(req.account.id, recent);
      throw new ApiError(
        429,
        `Too many requests: at most ${limit} per minute on listing matches, blocklists and multipack corrections. Retry after ${retryAfter} s; nothing was written.`,
        {},
        { 'Retry-After': String(retryAfter) },
      );
    }
    recent.push(now);
    hits.set(req.account.id, recent);
  };
}
