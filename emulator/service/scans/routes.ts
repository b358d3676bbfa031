/** Handlers of the scan operations of scans.yaml, by operationId. */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context';
import { ApiError } from '../shared/errors';
import { UploadError, type ScanEngine } from '../engine/types';
import { UploadLimitError } from '../engine/upload';
import { assertMarketplaceAccess } from '../shared/auth';
import { readMultipart } from '../shared/multipart';
import { zuluTime } from '../shared/time';
import { checkAttributes } from './attributes';
import { countRows, downloadColumns, selectRowJson, toCsv, toXlsx } from './downloads';
import { buildRowQuery, type FilterItem, type TableType } from './query';
import { FINISHED, scanRecord, speedOf, type ScanRow } from './records';
import { finishScan, getScanRow, isFinished, loadScan } from './store';

/** Most data lines one upload may have (the document gives no limit; this keeps a scan bounded). */
export const MAX_SCAN_LINES = 100_000;
const LIST_PER_PAGE = 25;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

type Req = FastifyRequest<{ Params: Record<string, string>; Querystring: Record<string, any>; Body: any }>;

interface RowsBody {
  per_page?: number;
  page?: number;
  tableType?: TableType;
  sort?: string;
  filter?: FilterItem[];
}

function scanId(req: Req): number {
  const id = Number(req.params.scan_id);
  if (!Number.isSafeInteger(id) || id < 1) throw new ApiError(404, 'Not found: the id in the path is not a valid id.');
  return id;
}

function intIn(v: unknown, name: string, min: number, max: number, dflt: number): number {
  if (v === undefined || v === null) return dflt;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
    throw new ApiError(422, `Invalid request: ${name} must be an integer from ${min} to ${max}.`);
  return v;
}

function tableOf(v: unknown): TableType {
  if (v === undefined || v === 'products') return 'products';
  if (v === 'errors') return 'errors';
  throw new ApiError(422, 'Invalid request: tableType must be one of "products", "errors".');
}

function filterOf(v: unknown): FilterItem[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((f) => typeof f !== 'object' || f === null))
    throw new ApiError(422, 'Invalid request: filter must be an array of {name, operator, value}.');
  return v as FilterItem[];
}

function sortOf(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new ApiError(422, 'Invalid request: sort must be a field name, with a "-" prefix for descending.');
  return v;
}

type Problem = { index: number; field: string; message: string };
type UploadFile = NonNullable<Awaited<ReturnType<typeof readMultipart>>['files']['file']>;
type DataLine = { line: number; cells: string[] };

/** The form's file and attributes parts, each sent once; what is wrong with them. */
function formParts(form: Awaited<ReturnType<typeof readMultipart>>): {
  file: UploadFile | undefined;
  raw: unknown;
  attrsGiven: boolean;
  header: boolean;
  problems: Problem[];
} {
  const problems: Problem[] = [];
  // A repeated part is refused rather than one of them silently chosen: which file or which
  // attributes the client meant is not knowable, and a scan of the wrong one would look fine.
  const repeated = (name: string) => (form.counts[name] ?? 0) > 1;
  const fileRepeated = repeated('file');
  const attributesRepeated = repeated('attributes');
  const file = fileRepeated ? undefined : form.files.file;
  if (fileRepeated)
    problems.push({ index: 0, field: 'file', message: `file was sent ${form.counts.file} times; send exactly one file part.` });
  else if (!file) problems.push({ index: 0, field: 'file', message: 'file is required: the supplier price list, a CSV or XLSX file.' });
  let raw: unknown;
  const attributesText = attributesRepeated ? undefined : form.fields.attributes;
  if (attributesRepeated)
    problems.push({
      index: 0,
      field: 'attributes',
      message: `attributes was sent ${form.counts.attributes} times; send exactly one attributes part.`,
    });
  else if (attributesText === undefined)
    problems.push({ index: 0, field: 'attributes', message: 'attributes is required: JSON text with "mapping" and "options".' });
  else {
    try {
      raw = JSON.parse(attributesText);
    } catch (e) {
      problems.push({ index: 0, field: 'attributes', message: `attributes is not valid JSON (${(e as Error).message}).` });
    }
  }
  const attrsGiven = attributesText !== undefined && raw !== undefined;
  let header = false;
  if (attrsGiven && typeof raw === 'object' && raw && typeof (raw as any).options === 'object' && (raw as any).options)
    header = (raw as any).options.header === true;
  return { file, raw, attrsGiven, header, problems };
}

/**
 * Reads the file before the mapping is judged against its width. Rows come one at a time with
 * the upload limits checked as they are read; only data lines are kept, and reading stops at the
 * first line past the most a scan takes. A limit is refused at once; other faults join `problems`.
 */
async function readDataLines(
  engine: ScanEngine,
  file: UploadFile | undefined,
  header: boolean,
  problems: Problem[],
): Promise<{ lines: DataLine[]; width: number; read: boolean }> {
  const lines: { line: number; cells: string[] }[] = [];
  let width = 0;
  let read = false;
  if (file) {
    try {
      await engine.readUpload(file.data, file.filename, (cells, line) => {
        width = Math.max(width, cells.length);
        if (header && line === 1) return;
        if (cells.every((c) => (c ?? '').trim() === '')) return;
        if (lines.length >= MAX_SCAN_LINES)
          throw new UploadLimitError(
            422,
            'maxDataLines',
            `The file has at least ${lines.length + 1} data lines; a scan takes at most ${MAX_SCAN_LINES}.`,
          );
        lines.push({ line, cells });
      });
      read = true;
    } catch (e) {
      if (e instanceof UploadLimitError) {
        // A limit answers at once, naming it: nothing else about the upload matters any more.
        throw new ApiError(e.status, `The upload was refused: ${e.message}`, {
          errors: [{ index: 0, field: 'file', message: e.message }],
          limit: e.limit,
        });
      }
      if (!(e instanceof UploadError)) throw e;
      problems.push({ index: 0, field: 'file', message: (e as Error).message });
    }
    if (read && lines.length === 0)
      problems.push({
        index: 0,
        field: 'file',
        message: `${file.filename || 'The file'} has no data lines${header ? ' below the header' : ''}.`,
      });
  }
  return { lines, width, read };
}

/** The scan row and its input lines, in one transaction; answers its id. */
function insertScan(
  ctx: ServiceContext,
  account: Req['account'],
  checked: NonNullable<ReturnType<typeof checkAttributes>['checked']>,
  filename: string,
  lines: DataLine[],
): number {
  const { db } = ctx;
  const now = ctx.now().toISOString();
  const attrs = checked.attributes;
  return db.transaction(() => {
    const info = db
      .prepare(
        `INSERT INTO scans (account_id, user_id, marketplace_id, status, source_type, name, filename, attributes, lines, created_at, updated_at)
         VALUES (?, ?, ?, 'queued', 'Upload', ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        account.id,
        account.userId,
        checked.marketplace.id,
        attrs.options.name.trim(),
        filename || null,
        JSON.stringify(attrs),
        lines.length,
        now,
        now,
      );
    const scan = Number(info.lastInsertRowid);
    const ins = db.prepare('INSERT INTO scan_inputs (scan_id, seq, line, cells) VALUES (?, ?, ?, ?)');
    lines.forEach((l, seq) => ins.run(scan, seq, l.line, JSON.stringify(l.cells.map((c) => c ?? ''))));
    return scan;
  })();
}

async function uploadScan(ctx: ServiceContext, engine: ScanEngine, req: Req, reply: FastifyReply) {
  const account = req.account;
  const form = await readMultipart(req);
  const { file, raw, attrsGiven, header, problems } = formParts(form);
  const { lines, width, read } = await readDataLines(engine, file, header, problems);
  let checked;
  if (attrsGiven) {
    const r = checkAttributes(raw, read ? width : undefined);
    problems.push(...r.problems);
    checked = r.checked;
  }
  if (problems.length || !checked || !read) {
    throw new ApiError(422, `The upload was refused: ${problems.map((p) => p.message).join(' ')}`, { errors: problems });
  }
  assertMarketplaceAccess(account, checked.marketplace);

  const id = insertScan(ctx, account, checked, file!.filename, lines);
  reply.code(201);
  return scanRecord(getScanRow(ctx, id)!);
}

function getScanResults(ctx: ServiceContext, req: Req, reply: FastifyReply) {
  const { db } = ctx;
  const scan = loadScan(ctx, req.account, scanId(req));
  const body: RowsBody = req.body ?? {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new ApiError(422, 'Invalid request: the body must be a JSON object.');
  const perPage = intIn(body.per_page, 'per_page', 1, 100, 50);
  // Page 0 (the document's default) and page 1 are both the first page.
  const page = Math.max(1, intIn(body.page, 'page', 0, Number.MAX_SAFE_INTEGER, 0));
  const table = tableOf(body.tableType);
  const q = buildRowQuery(table, filterOf(body.filter), sortOf(body.sort));
  const count = countRows(db, scan.id, table, q);
  const data = selectRowJson(db, scan.id, table, q, { limit: perPage, offset: (page - 1) * perPage });
  const attrs = JSON.parse(scan.attributes);
  const meta = {
    status: scan.status,
    name: scan.name,
    marketplace_id: scan.marketplace_id,
    lines: scan.lines,
    lines_done: scan.lines_done,
    products: scan.products,
    errors: scan.errors,
    speed: speedOf(scan),
    scanned_at: scan.completed_at ? zuluTime(new Date(scan.completed_at)) : null,
  };
  // Rows are stored as the JSON the API answers: join them rather than parse and re-serialise.
  const text = `{"count":${count},"data":[${data.join(',')}],"meta":${JSON.stringify(meta)},"options":${JSON.stringify(attrs.options)},"page":${page},"per_page":${perPage}}`;
  reply.type('application/json; charset=utf-8');
  return reply.send(text);
}

function getExportedWorkbook(ctx: ServiceContext, req: Req, reply: FastifyReply) {
  const { db } = ctx;
  const row = db.prepare('SELECT scan_id, workbook FROM scan_exports WHERE token = ?').get(String(req.params.token)) as
    | { scan_id: number; workbook: Buffer }
    | undefined;
  if (!row) throw new ApiError(404, 'Export not found.');
  reply.type(XLSX_TYPE).header('Content-Disposition', `attachment; filename="scan-${row.scan_id}-export.xlsx"`);
  return reply.send(row.workbook);
}

/** Rows of a download or export: the whole filtered, sorted result unless a page is asked for. */
function resultRows(db: ServiceContext['db'], scan: ScanRow, body: RowsBody) {
  if (!isFinished(scan.status))
    throw new ApiError(
      409,
      `Scan ${scan.id} is still ${scan.status === 'queued' ? 'queued' : 'running'}; it can be downloaded or exported when it has finished.`,
    );
  const table = tableOf(body.tableType);
  const q = buildRowQuery(table, filterOf(body.filter), sortOf(body.sort));
  let page: { limit: number; offset: number } | undefined;
  if (body.page !== undefined || body.per_page !== undefined) {
    const perPage = intIn(body.per_page, 'per_page', 1, 100, 50);
    const p = Math.max(1, intIn(body.page, 'page', 0, Number.MAX_SAFE_INTEGER, 1));
    page = { limit: perPage, offset: (p - 1) * perPage };
  }
  const rows = selectRowJson(db, scan.id, table, q, page);
  const attrs = JSON.parse(scan.attributes);
  const columns = downloadColumns(table, attrs.options ?? {}, (attrs.mapping?.custom_columns ?? []).length);
  return { table, rows, columns };
}

export function scanOperationHandlers(ctx: ServiceContext, engine: ScanEngine) {
  const { db } = ctx;
  const exportEnabled = () => (ctx.config as { exportIntegration?: boolean }).exportIntegration !== false;

  function listScans(req: Req) {
    const page = Number(req.query.page ?? 1);
    const perPage = Number(req.query.per_page ?? LIST_PER_PAGE);
    if (!Number.isInteger(page) || page < 1)
      throw new ApiError(422, 'Invalid request: query parameter page must be an integer 1 or greater.');
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100)
      throw new ApiError(422, 'Invalid request: query parameter per_page must be an integer from 1 to 100.');
    const finished = FINISHED.map(() => '?').join(',');
    const total = db
      .prepare(`SELECT count(*) FROM scans WHERE account_id = ? AND deleted_at IS NULL AND status IN (${finished})`)
      .pluck()
      .get(req.account.id, ...FINISHED) as number;
    const rows = db
      .prepare(
        `SELECT * FROM scans WHERE account_id = ? AND deleted_at IS NULL AND status IN (${finished}) ORDER BY id DESC LIMIT ? OFFSET ?`,
      )
      .all(req.account.id, ...FINISHED, perPage, (page - 1) * perPage) as ScanRow[];
    return { data: rows.map(scanRecord), page, per_page: perPage, total };
  }

  function getScan(req: Req) {
    return scanRecord(loadScan(ctx, req.account, scanId(req)));
  }

  async function downloadScan(req: Req, reply: FastifyReply) {
    const scan = loadScan(ctx, req.account, scanId(req));
    const type = String(req.query.type);
    const body: RowsBody = req.body ?? {};
    const { table, rows, columns } = resultRows(db, scan, body);
    const base = `scan-${scan.id}${table === 'errors' ? '-errors' : ''}`;
    if (type === 'json') {
      reply.type('application/json; charset=utf-8').header('Content-Disposition', `attachment; filename="${base}.json"`);
      return reply.send(`[${rows.join(',')}]`);
    }
    if (type === 'csv') {
      reply.type('text/csv; charset=utf-8').header('Content-Disposition', `attachment; filename="${base}.csv"`);
      return reply.send(toCsv(columns, rows));
    }
    if (type === 'xlsx') {
      const data = await toXlsx(columns, rows, table === 'errors' ? 'Errors' : 'Products', new Date(scan.completed_at ?? scan.updated_at));
      reply.type(XLSX_TYPE).header('Content-Disposition', `attachment; filename="${base}.xlsx"`);
      return reply.send(data);
    }
    throw new ApiError(422, 'Invalid request: query parameter type must be one of "csv", "xlsx", "json".');
  }

  function cancelScan(req: Req) {
    const scan = loadScan(ctx, req.account, scanId(req));
    if (isFinished(scan.status))
      throw new ApiError(409, `Scan ${scan.id} has already finished (${scan.status}); only a queued or running scan can be cancelled.`);
    return scanRecord(finishScan(ctx, scan.id, 'cancelled'));
  }

  function deleteScan(req: Req) {
    const scan = loadScan(ctx, req.account, scanId(req));
    const now = ctx.now().toISOString();
    db.transaction(() => {
      // A running scan stops here: the processor only picks up queued and running scans that are not deleted.
      db.prepare('UPDATE scans SET deleted_at = ?, updated_at = ? WHERE id = ?').run(now, now, scan.id);
      for (const t of ['scan_inputs', 'scan_products', 'scan_errors']) db.prepare(`DELETE FROM ${t} WHERE scan_id = ?`).run(scan.id);
    })();
    return { deleted: true };
  }

  async function exportScan(req: Req, reply: FastifyReply) {
    const scan = loadScan(ctx, req.account, scanId(req));
    if (!exportEnabled())
      throw new ApiError(
        409,
        'The spreadsheet-service integration is not set up for this account; set it up in the integrations area first.',
      );
    const body = (req.body ?? {}) as RowsBody;
    const { rows, columns } = resultRows(db, scan, { filter: body.filter, sort: body.sort });
    const workbook = await toXlsx(columns, rows, 'Products', new Date(scan.completed_at ?? scan.updated_at));
    const token = randomBytes(24).toString('base64url');
    const now = ctx.now();
    db.prepare('INSERT INTO scan_exports (token, scan_id, account_id, rows, workbook, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(
      token,
      scan.id,
      req.account.id,
      rows.length,
      workbook,
      now.toISOString(),
    );
    const host = req.headers.host ?? `${ctx.config.host}:${ctx.config.port}`;
    reply.code(201);
    return { url: `${req.protocol}://${host}/exports/${token}`, rows: rows.length, exported_at: zuluTime(now) };
  }

  return {
    uploadScan: (req: Req, reply: FastifyReply) => uploadScan(ctx, engine, req, reply),
    listScans,
    getScan,
    getScanResults: (req: Req, reply: FastifyReply) => getScanResults(ctx, req, reply),
    downloadScan,
    cancelScan,
    deleteScan,
    exportScan,
    getExportedWorkbook: (req: Req, reply: FastifyReply) => getExportedWorkbook(ctx, req, reply),
  };
}
