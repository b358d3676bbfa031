/**
 * Scan history in the sidebar: listScans, deleteScan, downloadScan (to Drive or into a tab) and
 * exportScan (to the service's spreadsheet integration). Thin over the API client; the pure parts
 * (flattening JSON, typing CSV cells) are exported for tests.
 */
import { sendAll, type ApiCall, type CallResult } from '../api/client';
import { ApiProblemError } from '../api/problems';
import type { FetchRequest, HttpResponseLike, UrlFetchLike } from '../api/services';
import { parseCsv } from '../scan/csv';
import { safeText } from '../sheet/safe';
import { activeSpreadsheet, asSidebarCall, clientDeps, documentProperties, serviceSettings } from './gas';
import { checkScanId, forgetTabRecord, pendingImport, readTabRecord, resultSheetName, withDocumentLock } from './import';
import { forgetRunningScan, progressFromScan, runningScans } from './progress';
import type { DownloadFormat, DownloadResult, ExportResult, ScanListPage, ScanProgress } from './protocol';
import { tabBaseName, uniqueName } from './resulttab';
import { ensureImportTrigger } from './trigger';

/** Scans per history page. */
export const HISTORY_PER_PAGE = 25;
/** Time a history call may take, retries included (the sidebar is waiting). */
const CALL_BUDGET_MS = 120_000;
/** Rows per setValues when writing a download into a tab. */
const TAB_CHUNK_ROWS = 5000;

function deadline(): number {
  return Date.now() + CALL_BUDGET_MS;
}

function scanPath(scanId: number, suffix = ''): string {
  return '/api/v3/scans/' + scanId + suffix;
}

function okBody(r: CallResult): unknown {
  if (!r.ok) throw new ApiProblemError(r.problem);
  return r.body;
}

// ---- List ----------------------------------------------------------------------------------------

/**
 * One page of finished scans (newest first); page 1 also lists this document's scans still queued or
 * running (the service lists finished scans only). resultSheet: the tab of an imported scan.
 */
export function listScans(page: number): ScanListPage {
  return asSidebarCall(() => {
    const p = Math.max(1, Math.floor(Number(page) || 1));
    const settings = serviceSettings();
    const body = okBody(
      sendAll(settings, clientDeps(), [{ method: 'get', path: '/api/v3/scans', query: { page: p, per_page: HISTORY_PER_PAGE } }], { deadline: deadline() })[0],
    ) as { data?: unknown[]; total?: number; page?: number; per_page?: number };
    const list: unknown[] = body && Array.isArray(body.data) ? body.data : [];
    const scans: ScanProgress[] = [];
    for (const s of list) {
      const sp = progressFromScan(s);
      if (sp) scans.push(sp);
    }
    if (p === 1) {
      const running = runningScans().filter((r) => r.status === 'queued' || r.status === 'running');
      // Scans of this user still running here: make sure they are imported even if the sidebar closes.
      if (running.length) ensureImportTrigger();
      const known = new Set(scans.map((s) => s.scanId));
      scans.unshift(...running.filter((r) => !known.has(r.scanId)));
    }
    const ss = activeSpreadsheet();
    const props = documentProperties();
    for (const s of scans) s.resultSheet = resultSheetName(ss, props, s.scanId);
    const total = typeof body.total === 'number' ? body.total : 0;
    const perPage = typeof body.per_page === 'number' && body.per_page > 0 ? body.per_page : HISTORY_PER_PAGE;
    return { scans, page: p, hasMore: p * perPage < total };
  });
}

// ---- Open ----------------------------------------------------------------------------------------

/**
 * "Open" in the history: activates the scan's result tab (the tab record of src/app/import.ts, so a
 * renamed tab is found). No service call. A scan without a tab here says to import it.
 */
export function openResultTab(scanId: number): { sheetName: string } {
  return asSidebarCall(() => {
    const id = checkScanId(scanId);
    const ss = activeSpreadsheet();
    const rec = readTabRecord(documentProperties(), id);
    const sheet = rec ? ss.getSheets().filter((s) => s.getSheetId() === rec.sheetId)[0] : undefined;
    if (!sheet) throw new Error('This scan has no result tab in this spreadsheet (not imported here yet, or the tab was deleted). Import it to get one.');
    sheet.activate();
    return { sheetName: sheet.getName() };
  });
}

// ---- Delete --------------------------------------------------------------------------------------

/**
 * Deletes a scan at the service (the sidebar asks the user first). Its tabs stay (they are the
 * user's now); this document forgets the scan. A scan the service no longer knows: deleted:false.
 */
export function deleteScan(scanId: number): { deleted: boolean } {
  return asSidebarCall(() => {
    const id = checkScanId(scanId);
    const r = sendAll(serviceSettings(), clientDeps(), [{ method: 'delete', path: scanPath(id), subject: 'scan ' + id }], { deadline: deadline() })[0];
    let deleted = true;
    if (!r.ok) {
      if (r.problem.kind !== 'not-found') throw new ApiProblemError(r.problem);
      deleted = false;
    }
    const props = documentProperties();
    withDocumentLock(() => {
      const cp = pendingImport(props, id);
      if (cp) {
        const ss = activeSpreadsheet();
        for (const sid of [cp.stagingId, cp.errorsStagingId]) {
          const s = ss.getSheets().filter((x) => x.getSheetId() === sid)[0];
          if (s) ss.deleteSheet(s);
        }
        props.deleteProperty('scan.import.' + id);
      }
      forgetTabRecord(props, id);
    });
    forgetRunningScan(id);
    return { deleted };
  });
}

// ---- Download ------------------------------------------------------------------------------------

const EXTENSIONS: { [f: string]: string } = { csv: 'csv', xlsx: 'xlsx', json: 'json' };

/**
 * A fetcher that hands sendAll an empty body for successful answers of `capture` (so a CSV or
 * XLSX file is not read as JSON) and keeps the real answer aside. Retries stay sendAll's.
 */
export function capturingFetcher(real: UrlFetchLike, capture: string, kept: { response?: HttpResponseLike }): UrlFetchLike {
  return {
    fetchAll(requests: FetchRequest[]): HttpResponseLike[] {
      const answers = real.fetchAll(requests);
      return answers.map((a, i) => {
        const code = a.getResponseCode();
        if (requests[i].url !== capture || code < 200 || code >= 300) return a;
        kept.response = a;
        return { getResponseCode: () => code, getHeaders: () => a.getHeaders(), getContentText: () => '' };
      });
    },
  };
}

/** A scan's results as a file: to Drive (its link) or into a new tab (CSV and JSON). */
export function downloadScan(scanId: number, format: DownloadFormat, target: 'drive' | 'tab'): DownloadResult {
  return asSidebarCall(() => {
    const id = checkScanId(scanId);
    const ext = EXTENSIONS[String(format)];
    if (!ext) throw new Error('Choose CSV, XLSX or JSON.');
    if (target !== 'drive' && target !== 'tab') throw new Error('Choose Drive or a tab.');
    if (target === 'tab' && ext === 'xlsx') throw new Error('An XLSX file can only be saved to Drive. Choose CSV or JSON to put the results into a tab.');
    const settings = serviceSettings();
    const base = clientDeps();
    const download: ApiCall = { method: 'post', path: scanPath(id, '/download'), query: { type: ext }, body: {}, subject: 'scan ' + id };
    const kept: { response?: HttpResponseLike } = {};
    const captureUrl = settings.baseUrl.replace(/\/+$/, '') + download.path + '?type=' + ext;
    const deps = { ...base, fetcher: capturingFetcher(base.fetcher, captureUrl, kept) };
    const answers = sendAll(settings, deps, [{ method: 'get', path: scanPath(id), subject: 'scan ' + id }, download], { deadline: deadline() });
    const scan = (okBody(answers[0]) || {}) as Record<string, unknown>;
    const dl = answers[1];
    if (!dl.ok) {
      if (dl.problem.status === 409) throw new Error(`The scan "${String(scan.name || id)}" has not finished yet; download it when it has.`);
      throw new ApiProblemError(dl.problem);
    }
    const response = kept.response;
    if (!response) throw new Error('The Scan Service sent no file.');
    const scanName = tabBaseName(String(scan.name || ''), id);
    const fileName = fileNameFor(scanName, id, ext);
    if (target === 'drive') {
      const blob = (response as GoogleAppsScript.URL_Fetch.HTTPResponse).getBlob().setName(fileName);
      const file = DriveApp.createFile(blob);
      return { fileName, url: file.getUrl(), sheetName: null };
    }
    const text = response.getContentText();
    const grid = ext === 'csv' ? csvGrid(text) : jsonGrid(text);
    const sheetName = writeGrid(downloadTabBase(scanName, ext), grid);
    return { fileName, url: null, sheetName };
  });
}

/** Name of a download's tab: "<scan name> (CSV)", within 90 characters so a unique suffix still fits Sheets' 100. */
export function downloadTabBase(scanName: string, ext: string): string {
  const suffix = ' (' + ext.toUpperCase() + ')';
  return scanName.slice(0, 90 - suffix.length).trim() + suffix;
}

/** "Name (scan 12).csv", without characters Drive users trip over. */
export function fileNameFor(scanName: string, scanId: number, ext: string): string {
  const clean = scanName.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 100);
  return (clean || 'Scan') + ' (scan ' + scanId + ').' + ext;
}

/** Columns whose numbers are codes, not quantities: kept as text so no zero or digit is lost. */
const CODE_COLUMN = /(identifier|asin|upc|ean|isbn|gtin|jan|sku|input|title|name|brand)/i;
const PLAIN_NUMBER = /^-?(0|[1-9]\d{0,14})(\.\d+)?$/;

/** CSV text to cells: numbers as numbers in quantity columns, everything else as guarded text. */
export function csvGrid(text: string): unknown[][] {
  const rows = parseCsv(text.replace(/^\uFEFF/, ''));
  if (!rows.length) return [];
  const header = rows[0].map((h) => String(h));
  const codes = header.map((h) => CODE_COLUMN.test(h));
  const out: unknown[][] = [header.map((h) => safeText(h))];
  for (let i = 1; i < rows.length; i++) {
    const r = rows[i];
    if (r.length === 1 && r[0] === '') continue;
    out.push(header.map((_h, j) => cellOf(r[j], codes[j])));
  }
  return out;
}

/** The `'` the service puts before formula-like CSV text (OWASP CSV injection): taken off to show the supplier's text. */
const NEUTRALISED = /^'(?=[ "']*[=+\-@\t\r])/;

function cellOf(v: unknown, code: boolean): unknown {
  if (v === undefined || v === null || v === '') return '';
  // Exactly one apostrophe, then the text guard below keeps it from becoming a formula.
  const s = String(v).replace(NEUTRALISED, '');
  if (!code && PLAIN_NUMBER.test(s)) return Number(s);
  return safeText(s);
}

/** Flattens one JSON value under a dotted prefix, as the service's CSV does. */
function flatten(v: unknown, prefix: string, out: Map<string, unknown>): void {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    for (const k of Object.keys(v as object)) flatten((v as Record<string, unknown>)[k], prefix ? prefix + '.' + k : k, out);
    return;
  }
  // The supplier's custom columns: one column each (as in the service's CSV), by position.
  if (Array.isArray(v) && /(^|\.)custom_columns$/.test(prefix)) {
    v.forEach((x, i) => out.set(prefix + '.' + (i + 1), x));
    return;
  }
  out.set(prefix, v);
}

/** A JSON array of objects to cells: dotted columns in order of first appearance. */
export function jsonGrid(text: string): unknown[][] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (_e) {
    throw new Error('The Scan Service sent a JSON file the add-on cannot read.');
  }
  if (!Array.isArray(data)) throw new Error('The Scan Service sent a JSON file the add-on cannot read.');
  const flat = data.map((item) => {
    const m = new Map<string, unknown>();
    flatten(item, '', m);
    return m;
  });
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const m of flat) for (const k of m.keys()) if (!seen.has(k)) (seen.add(k), columns.push(k));
  const codes = columns.map((c) => CODE_COLUMN.test(c));
  const out: unknown[][] = [columns.map((c) => safeText(c))];
  for (const m of flat) {
    out.push(
      columns.map((c, j) => {
        const v = m.get(c);
        if (v === undefined || v === null) return '';
        if (typeof v === 'boolean') return v;
        if (typeof v === 'number') return !isFinite(v) ? '' : codes[j] ? safeText(String(v)) : v;
        if (Array.isArray(v)) return safeText(v.every((x) => typeof x === 'string') ? v.join('|') : JSON.stringify(v));
        return safeText(String(v));
      }),
    );
  }
  return out;
}

/** Writes cells into a new tab (unique name), one setValues per chunk; returns the tab's name. */
function writeGrid(baseName: string, grid: unknown[][]): string {
  const ss = activeSpreadsheet();
  const name = uniqueName(baseName, ss.getSheets().map((s) => s.getName()));
  const width = Math.max(1, grid.length ? grid[0].length : 1);
  const sheet = ss.insertSheet(name, ss.getSheets().length);
  const rows = Math.max(1, grid.length);
  if (sheet.getMaxRows() < rows) sheet.insertRowsAfter(sheet.getMaxRows(), rows - sheet.getMaxRows());
  if (sheet.getMaxColumns() < width) sheet.insertColumnsAfter(sheet.getMaxColumns(), width - sheet.getMaxColumns());
  for (let i = 0; i < grid.length; i += TAB_CHUNK_ROWS) {
    const part = grid.slice(i, i + TAB_CHUNK_ROWS);
    sheet.getRange(i + 1, 1, part.length, width).setValues(part);
  }
  if (grid.length) {
    sheet.getRange(1, 1, 1, width).setFontWeight('bold');
    sheet.setFrozenRows(1);
  }
  sheet.activate();
  return name;
}

// ---- Export --------------------------------------------------------------------------------------

/** Exports to the account's spreadsheet service; the link it answers with, or a plain reason. */
export function exportScan(scanId: number): ExportResult {
  return asSidebarCall(() => {
    const id = checkScanId(scanId);
    const r = sendAll(serviceSettings(), clientDeps(), [{ method: 'post', path: scanPath(id, '/export'), body: {}, subject: 'scan ' + id }], { deadline: deadline() })[0];
    if (!r.ok) {
      if (r.problem.status === 409) {
        const said = r.problem.serviceMessage || '';
        if (/integration|not set up|set it up/i.test(said)) {
          return {
            url: null,
            message: 'Export is not set up for your Scan Service account. Set up the spreadsheet integration in the Scan Service (Integrations), then export again.',
          };
        }
        return { url: null, message: 'This scan has not finished yet; export it when it has.' };
      }
      throw new ApiProblemError(r.problem);
    }
    const body = (r.body || {}) as { url?: unknown; rows?: unknown };
    const url = typeof body.url === 'string' && /^https?:\/\/[^\s"'<>]+$/i.test(body.url) ? body.url : null;
    const rows = typeof body.rows === 'number' ? body.rows : null;
    const what = rows === null ? 'The results were exported' : `${rows} product${rows === 1 ? ' was' : 's were'} exported`;
    return { url, message: url ? `${what}. Open the link to see them.` : `${what}; the service gave no link.` };
  });
}
