/**
 * While a scan runs: the sidebar's getScanProgress / getRunningScans / cancelScan, the record of
 * this document's running scans, and the tolerant reading of a scan record.
 *
 * Running-scan record: ONE document property, `scan.running`, JSON `{"<scan id>": {"u": <user tag>,
 * "t": <start ms>}}`: ids only (plus whose they are), far below the 9 KB per value (at most
 * MAX_RECORDS entries, ~40 bytes each). The user tag is the first 12 hex digits of SHA-256 of the
 * starter's email: scans belong to accounts, so another editor (another key) cannot read them and
 * only sees their own; the email itself is not written into the document. Read-modify-write runs
 * under the document lock. A record stays after the scan finished (so reopening finds it for
 * import) until the import forgets it (forgetRunningScan), the scan is gone (404), or a finished
 * scan's record is older than FORGET_FINISHED_AFTER_MS.
 *
 * Progress: GET /api/v3/scans/{id} (scans.yaml: lines, lines_done, products, errors, speed). `speed`
 * is products per minute (contract, section 6), not lines: time left is estimated from the lines
 * rate, speed * lines_done / products (see secondsLeftOf). Cancel: GET /api/v3/scans/{id}/cancel; a
 * 409 (already finished) answers the scan's current progress instead of an error.
 */
import { requestJson, sendAll, type ApiCall, type ServiceSettings } from '../api/client';
import { ApiProblemError } from '../api/problems';
import { unwrapData } from '../api/read';
import { findMarketplace } from '../../contract/marketplaces';
import type { ScanProgress, ScanStatus } from './protocol';
import { activeUserEmail, asSidebarCall, clientDeps, documentProperties, formatInSpreadsheetZone, loadSettings, now, serviceSettings } from './gas';
import { autoImportNotes } from './autoimport';
import { currentQuotaNotice } from './quota';

export const SCANS_PATH = '/api/v3/scans';
export const RUNNING_PROPERTY = 'scan.running';
export const MAX_RECORDS = 50;
export const FORGET_FINISHED_AFTER_MS = 7 * 24 * 3600_000;
/** Time one progress or cancel call may take, retries included (the sidebar is waiting). */
export const POLL_BUDGET_MS = 60_000;

// ---- Reading a scan record ---------------------------------------------------------------------

function num(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return isFinite(n) ? n : 0;
}

/** The service's status words to the sidebar's. Unknown words count as running (it is not finished as far as we know). */
export function mapStatus(v: unknown): ScanStatus {
  const s = String(v == null ? '' : v).toLowerCase().replace(/[\s_-]/g, '');
  if (s === 'queued' || s === 'pending' || s === 'waiting') return 'queued';
  if (s === 'success' || s === 'succeeded' || s === 'completed' || s === 'complete' || s === 'done' || s === 'finished') return 'success';
  if (s === 'error' || s === 'failed' || s === 'failure') return 'error';
  if (s === 'cancelled' || s === 'canceled') return 'cancelled';
  return 'running';
}

/** `YYYY-MM-DDTHH:MM:SS` (UTC without zone, as the service writes created_at) or ISO -> ISO with Z; '' when unreadable. */
export function isoTime(v: unknown): string {
  if (typeof v !== 'string' || !v.trim()) return '';
  let t = v.trim().replace(' ', 'T');
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(t)) t += 'Z';
  const ms = Date.parse(t);
  return isNaN(ms) ? '' : new Date(ms).toISOString();
}

/**
 * Seconds left of a running scan, or null when unknown. The service reports products per minute of
 * its processing time; lines per minute = speed * done / products (the ratio of lines to products so
 * far), so left = (lines - done) / that * 60. Unknown (null) while no product was produced, nothing
 * done or no speed yet. Chosen over lines_done / (now - created_at): that would count time spent
 * queued and depend on the service's and Apps Script's clocks agreeing.
 */
export function secondsLeftOf(lines: number, done: number, products: number, speed: number): number | null {
  if (!(speed > 0 && products > 0 && done > 0) || lines < done) return null;
  // Integer arithmetic up to the one division, so an exact result is not pushed up by rounding.
  return Math.ceil(((lines - done) * products * 60) / (speed * done));
}

/** A scan record (any tolerated shape) to the sidebar's progress; null when it has no id. */
export function progressFromScan(body: unknown): ScanProgress | null {
  const v = unwrapData(body);
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  const id = num(o.id ?? o.scan_id ?? o.scanId);
  if (!(id > 0)) return null;
  const status = mapStatus(o.status);
  const lines = num(o.lines ?? o.total_lines);
  const done = status === 'success' && !num(o.lines_done ?? o.linesDone) ? lines : num(o.lines_done ?? o.linesDone);
  const speed = num(o.speed);
  const products = num(o.products);
  const market = findMarketplace((o.marketplace as string) ?? (o.marketplace_id as number)) ?? findMarketplace(o.marketplace_id as number);
  let secondsLeft: number | null = null;
  if (status === 'success' || status === 'error' || status === 'cancelled') secondsLeft = 0;
  else if (status === 'running') secondsLeft = secondsLeftOf(lines, done, products, speed);
  const completed = isoTime(o.completed_at);
  return {
    scanId: id,
    name: typeof o.name === 'string' ? o.name : '',
    status,
    marketplace: market ? market.code : typeof o.marketplace === 'string' ? o.marketplace : '',
    lines,
    done: Math.min(done, lines || done),
    products,
    errors: num(o.errors),
    speed,
    secondsLeft,
    createdAt: isoTime(o.created_at),
    completedAt: completed || null,
    resultSheet: null,
  };
}

export function isFinished(p: ScanProgress): boolean {
  return p.status === 'success' || p.status === 'error' || p.status === 'cancelled';
}

// ---- The running-scan record -------------------------------------------------------------------

export interface RunningRecord {
  u: string;
  t: number;
}

export type RunningRecords = { [scanId: string]: RunningRecord };

export function decodeRecords(text: string | null): RunningRecords {
  if (!text) return {};
  try {
    const v = JSON.parse(text);
    if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
    const out: RunningRecords = {};
    for (const k of Object.keys(v)) {
      const r = v[k];
      if (/^\d+$/.test(k) && r && typeof r === 'object' && typeof r.u === 'string') out[k] = { u: r.u, t: num(r.t) };
    }
    return out;
  } catch (_e) {
    return {};
  }
}

/** Adds a record, dropping the oldest beyond MAX_RECORDS. */
export function addRecord(records: RunningRecords, scanId: number, user: string, at: number): RunningRecords {
  const out: RunningRecords = { ...records, [String(scanId)]: { u: user, t: at } };
  const ids = Object.keys(out).sort((a, b) => out[a].t - out[b].t);
  while (ids.length > MAX_RECORDS) delete out[ids.shift()!];
  return out;
}

/** Short tag of a user (not the email itself). */
export function userTag(email: string): string {
  const bytes = Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, email || 'unknown', Utilities.Charset.UTF_8);
  let hex = '';
  for (let i = 0; i < 6; i++) hex += ((bytes[i] + 256) % 256).toString(16).padStart(2, '0');
  return hex;
}

function withRecords<T>(change: (records: RunningRecords) => { records?: RunningRecords; result: T }): T {
  const props = documentProperties();
  const lock = LockService.getDocumentLock();
  lock.waitLock(10_000);
  try {
    const before = decodeRecords(props.getProperty(RUNNING_PROPERTY));
    const { records, result } = change(before);
    if (records) {
      if (Object.keys(records).length) props.setProperty(RUNNING_PROPERTY, JSON.stringify(records));
      else props.deleteProperty(RUNNING_PROPERTY);
    }
    return result;
  } finally {
    lock.releaseLock();
  }
}

/** Records a scan the current user just started in this document. */
export function recordRunningScan(scanId: number): void {
  const tag = userTag(activeUserEmail());
  withRecords((r) => ({ records: addRecord(r, scanId, tag, now()), result: undefined }));
}

/** Forgets a scan (imported, deleted, or gone). For the import and history code too. */
export function forgetRunningScan(scanId: number): void {
  withRecords((r) => {
    if (!r[String(scanId)]) return { result: undefined };
    const out = { ...r };
    delete out[String(scanId)];
    return { records: out, result: undefined };
  });
}

/** Ids of the scans the current user started in this document and not yet forgotten, oldest first. */
export function recordedScanIds(): number[] {
  const tag = userTag(activeUserEmail());
  const r = decodeRecords(documentProperties().getProperty(RUNNING_PROPERTY));
  return Object.keys(r)
    .filter((k) => r[k].u === tag)
    .sort((a, b) => r[a].t - r[b].t)
    .map(Number);
}

// ---- Calls -------------------------------------------------------------------------------------

function scanCall(scanId: number, suffix = ''): ApiCall {
  return { method: 'get', path: SCANS_PATH + '/' + encodeURIComponent(String(scanId)) + suffix, subject: 'scan ' + scanId };
}

function checkId(scanId: unknown): number {
  const n = typeof scanId === 'number' ? scanId : Number(scanId);
  if (!Number.isInteger(n) || n < 1) throw new Error('Not a scan number: ' + String(scanId).slice(0, 20) + '.');
  return n;
}

function readProgress(body: unknown): ScanProgress {
  const p = progressFromScan(body);
  if (!p) throw new Error('The Scan Service sent a scan record the add-on cannot read.');
  return p;
}

function fetchProgress(service: ServiceSettings, scanId: number): ScanProgress {
  return readProgress(requestJson(service, clientDeps(), scanCall(scanId), { deadline: now() + POLL_BUDGET_MS }));
}

/**
 * Progress of every recorded scan of the current user, in one fetchAll. Scans the service no
 * longer knows (404) and finished ones recorded long ago are forgotten; other failures keep the
 * record and are left out of this answer.
 */
export function runningScans(): ScanProgress[] {
  const ids = recordedScanIds();
  if (!ids.length) return [];
  const service = serviceSettings();
  const results = sendAll(service, clientDeps(), ids.map((id) => scanCall(id)), { deadline: now() + POLL_BUDGET_MS });
  const out: ScanProgress[] = [];
  const forget: number[] = [];
  const auth = results.find((r) => !r.ok && r.problem.kind === 'auth');
  if (auth && !auth.ok) throw new ApiProblemError(auth.problem);
  const r0 = decodeRecords(documentProperties().getProperty(RUNNING_PROPERTY));
  const stopped = autoImportNotes();
  // A daily quota of Google stopped the hourly import: said on every finished scan waiting for it.
  const quotaNote = currentQuotaNotice(now(), (ms, pattern) => formatInSpreadsheetZone(new Date(ms), pattern));
  results.forEach((r, i) => {
    const id = ids[i];
    if (!r.ok) {
      if (r.problem.kind === 'not-found') forget.push(id);
      return;
    }
    const p = progressFromScan(r.body);
    if (!p) return;
    const rec = r0[String(id)];
    if (isFinished(p) && rec && now() - rec.t > FORGET_FINISHED_AFTER_MS) forget.push(id);
    else {
      const note = stopped[String(id)] || (isFinished(p) ? quotaNote : null);
      out.push(note ? { ...p, autoImportStopped: note } : p);
    }
  });
  if (forget.length) {
    withRecords((r) => {
      const next = { ...r };
      for (const id of forget) delete next[String(id)];
      return { records: next, result: undefined };
    });
  }
  return out;
}

/** Sidebar: one scan's progress. */
export function getScanProgress(scanId: number): ScanProgress {
  return asSidebarCall(() => fetchProgress(serviceSettings(), checkId(scanId)));
}

/** Sidebar: the current user's scans recorded in this document (running, or finished and not yet imported). */
export function getRunningScans(): ScanProgress[] {
  return asSidebarCall(() => (loadSettings().apiKey ? runningScans() : []));
}

/** Sidebar: cancels a queued or running scan; a finished scan answers its progress unchanged. */
export function cancelScan(scanId: number): ScanProgress {
  return asSidebarCall(() => {
    const id = checkId(scanId);
    const service = serviceSettings();
    try {
      return readProgress(requestJson(service, clientDeps(), scanCall(id, '/cancel'), { deadline: now() + POLL_BUDGET_MS }));
    } catch (e) {
      if (e instanceof ApiProblemError && e.problem.status === 409) return fetchProgress(service, id);
      throw e;
    }
  });
}
