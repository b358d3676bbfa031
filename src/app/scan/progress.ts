/**
 * While a scan runs: the sidebar's getScanProgress / getRunningScans / cancelScan (GET
 * /scans/{id} and /scans/{id}/cancel through src/api/scans.ts; a 409 on cancel, already finished,
 * answers the scan's current progress instead of an error). The record of this document's running
 * scans is in running.ts, the reading of a record in progress-read.ts.
 */
import type { ServiceSettings } from '../../api/client';
import { POLL_BUDGET_MS } from '../../domain/time-budgets';
import { okBody, problemOf } from '../../api/exceptions';
import { checkScanId, fetchScan, fetchScans, isFinishedState } from '../../api/scans';
import type { ScanProgress } from './protocol';
import { activeSpreadsheet, documentProperties, formatInSpreadsheetZone, now } from '../../apps-script';
import { resultSheetName, tabFinder } from '../records/tabs';
import { apiContext, asSidebarCall, loadSettings, serviceSettings } from '../context';
import { progressFromRecord, progressFromScan } from './progress-read';
import { readRecords, recordedScanIds, withRecords } from './running';
import { autoImportNotes } from '../records/autoimport';
import { currentQuotaNotice } from '../trigger/quota';
import { noDocumentNotice, readNoDocument } from '../trigger/no-document';

export const FORGET_FINISHED_AFTER_MS = 7 * 24 * 3600_000;

// ---- Calls -------------------------------------------------------------------------------------

function fetchProgress(service: ServiceSettings, scanId: number, cancel: 'cancel' | '' = ''): ScanProgress {
  return progressFromRecord(fetchScan(apiContext(now() + POLL_BUDGET_MS, service), scanId, cancel));
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
  const results = fetchScans(apiContext(now() + POLL_BUDGET_MS, service), ids);
  const out: ScanProgress[] = [];
  const forget: number[] = [];
  const auth = results.find((r) => !r.ok && r.problem.kind === 'auth');
  if (auth) okBody(auth);
  const r0 = readRecords(documentProperties());
  const stopped = autoImportNotes();
  // A daily quota of Google stopped the hourly import: said on every finished scan waiting for it.
  const format = (ms: number, pattern: string) => formatInSpreadsheetZone(new Date(ms), pattern);
  const quotaNote = currentQuotaNotice(now(), format);
  // The hourly trigger ran without this spreadsheet: said on every finished scan, which the open sidebar now imports.
  const noDocNote = noDocumentNotice(readNoDocument(), format);
  results.forEach((r, i) => {
    const id = ids[i];
    if (!r.ok) {
      if (r.problem.kind === 'not-found') forget.push(id);
      return;
    }
    const p = progressFromScan(r.body);
    if (!p) return;
    const rec = r0[String(id)];
    if (isFinishedState(p.status) && rec && now() - rec.t > FORGET_FINISHED_AFTER_MS) forget.push(id);
    else {
      const finished = isFinishedState(p.status);
      const note = stopped[String(id)] || (finished ? quotaNote || noDocNote : null);
      // Missed only because the trigger had no document: the open sidebar does the import now (not a
      // scan whose import stopped on a failure, nor a cancelled one, which the user imports).
      const importNow = finished && !!noDocNote && note === noDocNote && p.status !== 'cancelled';
      out.push(note ? { ...p, autoImportStopped: note, ...(importNow ? { importNow } : {}) } : p);
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
  return asSidebarCall(() => fetchProgress(serviceSettings(), checkScanId(scanId)));
}

/** Sidebar: the current user's scans recorded in this document (running, or finished and not yet imported). */
export function getRunningScans(): ScanProgress[] {
  return asSidebarCall(() => {
    if (!loadSettings().apiKey) return [];
    const scans = runningScans();
    if (!scans.length) return scans;
    // A finished scan whose tab is already here (also one found by its note) is not offered for a second import.
    const ss = activeSpreadsheet();
    const find = tabFinder(ss);
    for (const s of scans) s.resultSheet = resultSheetName(ss, documentProperties(), s.scanId, find);
    return scans;
  });
}

/** Sidebar: cancels a queued or running scan; a finished scan answers its progress unchanged. */
export function cancelScan(scanId: number): ScanProgress {
  return asSidebarCall(() => {
    const id = checkScanId(scanId);
    const service = serviceSettings();
    try {
      return fetchProgress(service, id, 'cancel');
    } catch (e) {
      const problem = problemOf(e);
      if (problem && problem.status === 409) return fetchProgress(service, id);
      throw e;
    }
  });
}
