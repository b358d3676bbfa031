/**
 * The scans API (document sections 2, 3 and 6): upload, one scan, the list, cancel, delete, the
 * results with the API's own filter and sort, download and export. Calls are built here (the only
 * place that knows the paths), sent with the one policy of client.ts, and every answer is read
 * through the tolerant readers below, so the real service's older shapes (the vendor's client:
 * `Success`, `InProgress`, `{data, total, pagination}`, records without `lines_done`, null members)
 * read the same as the local service's.
 */
import type { components } from '../../contract/schema';
import { send, sendAll, type ApiCall, type ApiContext, type CallResult, type FormBody } from './client';
import { okBody, problemError } from './exceptions';
import type { Problem } from './problems';
import { DEFAULT_RETRY_POLICY } from './retry';
import { isObject, numberOf as num, unwrapData } from './read';

const SCANS_PATH = '/api/v3/scans';

/** A results request: the API's own filter and sort (field names as in the contract's ScanFilter). */
export type ScanQuery = { filters: components['schemas']['ScanFilter'][] | unknown[]; sort: string };
export type ResultsTable = 'products' | 'errors';
export type DownloadType = 'csv' | 'xlsx' | 'json';

/** The status words the add-on knows, whatever vocabulary and case the service answered in. */
export type ScanState = 'queued' | 'running' | 'success' | 'error' | 'cancelled';

/** A scan record as the add-on reads it (contract Scan; absent or null members filled in). */
export interface ScanRecord {
  id: number;
  name: string;
  status: ScanState;
  /** Marketplace code or numeric id as the service gave it ('' when absent). */
  marketplace: string | number;
  /** The numeric marketplace id when the record has one besides (contract: marketplace_id). */
  marketplaceId: number | null;
  lines: number;
  /** Lines done: the service's `lines_done`, else estimated (see readScan). */
  linesDone: number;
  products: number;
  errors: number;
  speed: number;
  createdAt: unknown;
  completedAt: unknown;
  options: Record<string, unknown>;
  mapping: Record<string, unknown>;
}

// ---- The one id validator ----------------------------------------------------------------------

/** A scan id from the sidebar or a record: a whole number from 1, else an Error naming what came. */
export function checkScanId(scanId: unknown): number {
  const n = typeof scanId === 'number' ? scanId : Number(scanId);
  if (!Number.isInteger(n) || n < 1) throw new Error('Not a scan number: ' + String(scanId).slice(0, 20) + '.');
  return n;
}

// ---- Calls -------------------------------------------------------------------------------------

/** A call on one scan: `/api/v3/scans/{id}<suffix>`, named in 403/404 messages as "scan <id>". */
function onScan(method: ApiCall['method'], scanId: number, suffix = '', extra?: Partial<ApiCall>): ApiCall {
  return { method, path: SCANS_PATH + '/' + scanId + suffix, subject: 'scan ' + scanId, ...extra };
}

/** The calls of the scans API (sent by the operations below; several go in one fetchAll with fetchScanParts). */
export const scanCalls = {
  upload: (marketplace: string, form: FormBody): ApiCall => ({
    method: 'post',
    path: SCANS_PATH,
    subject: 'marketplace ' + marketplace,
    form,
  }),
  get: (scanId: number) => onScan('get', scanId),
  list: (page: number, perPage: number): ApiCall => ({ method: 'get', path: SCANS_PATH, query: { page, per_page: perPage } }),
  cancel: (scanId: number) => onScan('get', scanId, '/cancel'),
  remove: (scanId: number) => onScan('delete', scanId),
  /** One page of products or errors; filters and sort are the user's view of the products, errors always come by file line. */
  results(scanId: number, table: ResultsTable, page: number, perPage: number, query: ScanQuery | null): ApiCall {
    const body: components['schemas']['ScanResultsRequest'] = { page, per_page: perPage, tableType: table };
    if (table === 'errors') body.sort = 'line';
    else if (query) {
      if (query.filters.length) body.filter = query.filters as components['schemas']['ScanFilter'][];
      if (query.sort) body.sort = query.sort;
    }
    return onScan('post', scanId, '', { body });
  },
  /** The file comes as it is (CallResult's `response`), never read as JSON. */
  download: (scanId: number, type: DownloadType) => onScan('post', scanId, '/download', { query: { type }, body: {}, file: true }),
  export: (scanId: number) => onScan('post', scanId, '/export', { body: {} }),
};

export { okBody };

// ---- Tolerant readers --------------------------------------------------------------------------

function has(v: unknown): boolean {
  return v !== undefined && v !== null && v !== '';
}

/**
 * A status word to the add-on's: any case, `_`/`-`/spaces ignored, both vocabularies (contract:
 * queued, in_progress, success, error, cancelled; vendor's client: InProgress, Success, Error,
 * Cancelled). Unknown words count as running: not finished as far as we know.
 */
export function readStatus(v: unknown): ScanState {
  const s = String(v == null ? '' : v)
    .toLowerCase()
    .replace(/[\s_-]/g, '');
  if (s === 'queued' || s === 'pending' || s === 'waiting') return 'queued';
  if (s === 'success' || s === 'succeeded' || s === 'completed' || s === 'complete' || s === 'done' || s === 'finished') return 'success';
  if (s === 'error' || s === 'failed' || s === 'failure') return 'error';
  if (s === 'cancelled' || s === 'canceled') return 'cancelled';
  return 'running';
}

export function isFinishedState(s: ScanState): boolean {
  return s === 'success' || s === 'error' || s === 'cancelled';
}

/**
 * A scan record in any tolerated shape (bare or in `data`), or null without an id. Lines done: the
 * service's `lines_done`; a finished scan's record without it counts all lines; a running one
 * without it (the vendor's record has no such count) counts the lines that gave a product or an
 * error so far, which never overstates progress (blocklisted rows are in neither).
 */
export function readScan(body: unknown): ScanRecord | null {
  const o = unwrapData(body);
  if (!isObject(o)) return null;
  const id = num(o.id ?? o.scan_id ?? o.scanId);
  if (!(id > 0)) return null;
  const status = readStatus(o.status);
  const lines = num(o.lines ?? o.total_lines);
  const products = num(o.products);
  const errors = num(o.errors);
  const doneGiven = o.lines_done ?? o.linesDone;
  let linesDone = num(doneGiven);
  if (status === 'success' && !linesDone) linesDone = lines;
  else if (!has(doneGiven) && status !== 'queued') linesDone = Math.min(lines, products + errors);
  const market = has(o.marketplace) ? o.marketplace : o.marketplace_id;
  return {
    id,
    name: typeof o.name === 'string' ? o.name : '',
    status,
    marketplace: typeof market === 'string' || typeof market === 'number' ? market : '',
    marketplaceId: typeof o.marketplace_id === 'number' ? o.marketplace_id : null,
    lines,
    linesDone,
    products,
    errors,
    speed: num(o.speed),
    createdAt: o.created_at,
    completedAt: o.completed_at,
    options: isObject(o.options) ? o.options : {},
    mapping: isObject(o.mapping) ? o.mapping : {},
  };
}

/**
 * A list page: `{data, total, page, per_page}` (contract), `{data, total, pagination: {page,
 * per_page}}` (vendor's client). Unreadable records are left out.
 */
export function readScanList(body: unknown): { scans: ScanRecord[]; total: number; perPage: number } {
  const b = isObject(body) ? body : {};
  const list = Array.isArray(b.data) ? b.data : [];
  const pagination = isObject(b.pagination) ? b.pagination : {};
  const scans: ScanRecord[] = [];
  for (const s of list) {
    const r = readScan(s);
    if (r) scans.push(r);
  }
  return { scans, total: num(b.total ?? pagination.total), perPage: num(b.per_page ?? pagination.per_page) };
}

export interface ResultsPage {
  count: number;
  data: unknown[];
  options: Record<string, unknown>;
}

/** A results page (`{count, data, meta, options}`, both vocabularies); options may be absent. Throws when it has no rows list or count. */
export function readResultsPage(body: unknown): ResultsPage {
  const b = isObject(body) ? body : {};
  if (typeof b.count !== 'number' || !Array.isArray(b.data)) throw new Error('The Scan Service sent results the add-on cannot read.');
  return { count: b.count, data: b.data, options: isObject(b.options) ? b.options : {} };
}

/** An export answer: the link (only http(s) is passed on) and the rows written, each null when absent. */
export function readExport(body: unknown): { url: string | null; rows: number | null } {
  const b = isObject(body) ? body : {};
  const url = typeof b.url === 'string' && /^https?:\/\/[^\s"'<>]+$/i.test(b.url) ? b.url : null;
  return { url, rows: typeof b.rows === 'number' ? b.rows : null };
}

// ---- Sending -----------------------------------------------------------------------------------

/** One scan record (or its cancel: `suffix` 'cancel'); an API exception (exceptions.ts) on failure, an Error when the answer is not a scan. */
export function fetchScan(ctx: ApiContext, scanId: number, suffix: 'cancel' | '' = ''): ScanRecord {
  return requireScan(okBody(send(ctx, suffix ? scanCalls.cancel(scanId) : scanCalls.get(scanId))));
}

/** readScan, or an Error saying the record cannot be read. */
export function requireScan(body: unknown): ScanRecord {
  const r = readScan(body);
  if (!r) throw new Error('The Scan Service sent a scan record the add-on cannot read.');
  return r;
}

/** Several scan records in one fetchAll, one result per id (never throws for the service). */
export function fetchScans(ctx: ApiContext, ids: readonly number[]): CallResult[] {
  return sendAll(ctx, ids.map(scanCalls.get));
}

/** One page of the scan list (finished scans, newest first); an API exception (exceptions.ts) on failure. */
export function fetchScanList(ctx: ApiContext, page: number, perPage: number): ReturnType<typeof readScanList> {
  return readScanList(okBody(send(ctx, scanCalls.list(page, perPage))));
}

/** DELETE a scan: true when deleted, false when the service no longer knows it (404); an API exception otherwise. */
export function removeScan(ctx: ApiContext, scanId: number): boolean {
  const r = send(ctx, scanCalls.remove(scanId));
  if (r.ok) return true;
  if (r.problem.kind === 'not-found') return false;
  throw problemError(r.problem);
}

/** Asks the service to export a scan to the account's spreadsheet service; the caller reads the answer (readExport) or its problem. */
export function requestExport(ctx: ApiContext, scanId: number): CallResult {
  return send(ctx, scanCalls.export(scanId));
}

/** What one request about a scan asks for: its record, a page of its products or errors, or its file. */
export type ScanPart =
  | { record: number }
  | { results: number; table: ResultsTable; page: number; perPage: number; query: ScanQuery | null }
  | { download: number; type: DownloadType };

/** Several requests about scans in one fetchAll (same retries), one result per part in order; never throws for the service. A download's file is its result's `response`. */
export function fetchScanParts(ctx: ApiContext, parts: readonly ScanPart[]): CallResult[] {
  return sendAll(
    ctx,
    parts.map((p) =>
      'record' in p
        ? scanCalls.get(p.record)
        : 'results' in p
          ? scanCalls.results(p.results, p.table, p.page, p.perPage, p.query)
          : scanCalls.download(p.download, p.type),
    ),
  );
}

/**
 * The upload (multipart `file` and `attributes`: the form body kind), with the client's
 * classification and backoff, except that a time-out is NOT retried: the service may have stored
 * the scan before its answer was lost, and a second upload would start it twice. Returns the
 * answer's body or throws the API exception (exceptions.ts).
 */
export function uploadScan(ctx: ApiContext, form: FormBody, marketplace: string): unknown {
  const r = send(ctx, scanCalls.upload(marketplace, form), { policy: { ...DEFAULT_RETRY_POLICY, retryTimeouts: false } });
  if (r.ok) return r.body;
  const problem: Problem = r.problem;
  if (problem.kind === 'timeout') {
    throw problemError({
      ...problem,
      message:
        'The Scan Service did not answer the upload in time. It may still have received it: look in Scans (history) before starting the scan again.',
    });
  }
  if (problem.blocked) throw problemError({ ...problem, message: problem.message + ' The scan was not started.' });
  if (problem.kind === 'rate-limited' || problem.kind === 'server' || problem.kind === 'unreachable') {
    throw problemError({ ...problem, message: problem.message + ' The scan was not started (tried ' + r.attempts + ' times).' });
  }
  throw problemError(problem);
}
