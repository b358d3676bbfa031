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
import type { ServiceSettings } from '../../api/client';
import { numberOf as num } from '../../api/read';
import { RUNNING_KEY, RUNNING_MAX_RECORDS } from '../../store/keys';
import { RECORD_LOCK, withDocumentLock } from '../../store/locks';
import { ApiProblemError } from '../../api/problems';
import { checkScanId, fetchScan, fetchScans, isFinishedState, readScan, readStatus, type ScanRecord } from '../../api/scans';
import { findMarketplace } from '../../../contract/marketplaces';
import type { ScanProgress, ScanStatus } from './protocol';
import { activeUserEmail, asSidebarCall, clientDeps, documentProperties, loadSettings, now, serviceSettings } from '../services';
import { autoImportNotes } from '../results/autoimport';

export const MAX_RECORDS = RUNNING_MAX_RECORDS;
export const FORGET_FINISHED_AFTER_MS = 7 * 24 * 3600_000;
/** Time one progress or cancel call may take, retries included (the sidebar is waiting). */
export const POLL_BUDGET_MS = 60_000;

// ---- Reading a scan record ---------------------------------------------------------------------

/** The service's status words to the sidebar's (the one status reader, src/api/scans.ts). */
export const mapStatus: (v: unknown) => ScanStatus = readStatus;

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
  const r = readScan(body);
  return r ? progressFromRecord(r) : null;
}

/** A read scan record to the sidebar's progress. */
export function progressFromRecord(r: ScanRecord): ScanProgress {
  const { status, lines, linesDone: done, products, speed } = r;
  const market = findMarketplace(r.marketplace) ?? findMarketplace(r.marketplaceId);
  let secondsLeft: number | null = null;
  if (isFinishedState(status)) secondsLeft = 0;
  else if (status === 'running') secondsLeft = secondsLeftOf(lines, done, products, speed);
  const completed = isoTime(r.completedAt);
  return {
    scanId: r.id,
    name: r.name,
    status,
    marketplace: market ? market.code : typeof r.marketplace === 'string' ? r.marketplace : '',
    lines,
    done: Math.min(done, lines || done),
    products,
    errors: r.errors,
    speed,
    secondsLeft,
    createdAt: isoTime(r.createdAt),
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
  return withDocumentLock(
    () => {
      const before = decodeRecords(props.getProperty(RUNNING_KEY));
      const { records, result } = change(before);
      if (records) {
        if (Object.keys(records).length) props.setProperty(RUNNING_KEY, JSON.stringify(records));
        else props.deleteProperty(RUNNING_KEY);
      }
      return result;
    },
    RECORD_LOCK,
  );
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
  const r = decodeRecords(documentProperties().getProperty(RUNNING_KEY));
  return Object.keys(r)
    .filter((k) => r[k].u === tag)
    .sort((a, b) => r[a].t - r[b].t)
    .map(Number);
}

// ---- Calls -------------------------------------------------------------------------------------

function fetchProgress(service: ServiceSettings, scanId: number, cancel: 'cancel' | '' = ''): ScanProgress {
  return progressFromRecord(fetchScan(service, clientDeps(), scanId, now() + POLL_BUDGET_MS, cancel));
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
  const results = fetchScans(service, clientDeps(), ids, now() + POLL_BUDGET_MS);
  const out: ScanProgress[] = [];
  const forget: number[] = [];
  const auth = results.find((r) => !r.ok && r.problem.kind === 'auth');
  if (auth && !auth.ok) throw new ApiProblemError(auth.problem);
  const r0 = decodeRecords(documentProperties().getProperty(RUNNING_KEY));
  const stopped = autoImportNotes();
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
    else out.push(stopped[String(id)] ? { ...p, autoImportStopped: stopped[String(id)] } : p);
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
  return asSidebarCall(() => fetchProgress(serviceSettings(), checkScanId(scanId)));
}

/** Sidebar: the current user's scans recorded in this document (running, or finished and not yet imported). */
export function getRunningScans(): ScanProgress[] {
  return asSidebarCall(() => (loadSettings().apiKey ? runningScans() : []));
}

/** Sidebar: cancels a queued or running scan; a finished scan answers its progress unchanged. */
export function cancelScan(scanId: number): ScanProgress {
  return asSidebarCall(() => {
    const id = checkScanId(scanId);
    const service = serviceSettings();
    try {
      return fetchProgress(service, id, 'cancel');
    } catch (e) {
      if (e instanceof ApiProblemError && e.problem.status === 409) return fetchProgress(service, id);
      throw e;
    }
  });
}
