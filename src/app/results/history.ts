/**
 * Scan history in the sidebar: listScans, openResultTab, deleteScan and exportScan (to the service's
 * spreadsheet integration); downloads are in downloads.ts. Thin over src/api/scans.ts.
 */
import { problemError } from '../../api/exceptions';
import { HISTORY_CALL_BUDGET_MS } from '../../domain/time-budgets';
import { checkScanId, fetchScanList, readExport, removeScan, requestExport } from '../../api/scans';
import { activeSpreadsheet, documentProperties } from '../../apps-script';
import { apiContext, asSidebarCall } from '../context';
import { forgetPendingImport, pendingImport } from './import';
import { forgetNotSent } from '../records/not-sent';
import { forgetDecision } from '../records/decision';
import { forgetTabRecord, readTabRecord, resultSheetName, resultSummary, sheetById, tabFinder } from '../records/tabs';
import { withDocumentLock } from '../../store/locks';
import { runningScans } from '../scan/progress';
import { progressFromRecord } from '../scan/progress-read';
import { forgetRunningScan } from '../scan/running';
import { scheduleLines } from '../scan/schedule';
import type { ExportResult, ScanListPage } from './protocol';
import type { ScanProgress } from '../scan/protocol';
import { ensureImportTrigger, triggerNotice } from '../trigger/install';

/** Scans per history page. */
export const HISTORY_PER_PAGE = 25;

export function deadline(): number {
  return Date.now() + HISTORY_CALL_BUDGET_MS;
}

// ---- List ----------------------------------------------------------------------------------------

/**
 * One page of finished scans (newest first); page 1 also lists this document's scans still queued or
 * running (the service lists finished scans only). resultSheet: the tab of an imported scan.
 */
export function listScans(page: number): ScanListPage {
  return asSidebarCall(() => {
    const p = Math.max(1, Math.floor(Number(page) || 1));
    const body = fetchScanList(apiContext(deadline()), p, HISTORY_PER_PAGE);
    const scans: ScanProgress[] = body.scans.map(progressFromRecord);
    let notice: string | null = null;
    if (p === 1) {
      const running = runningScans().filter((r) => r.status === 'queued' || r.status === 'running');
      // Scans of this user still running here: make sure they are imported even if the sidebar closes.
      if (running.length) notice = triggerNotice(ensureImportTrigger());
      const known = new Set(scans.map((s) => s.scanId));
      scans.unshift(...running.filter((r) => !known.has(r.scanId)));
    }
    const ss = activeSpreadsheet();
    const props = documentProperties();
    // A tab found by its note counts too (the document's records lost): never offered for a second import.
    const find = tabFinder(ss);
    for (const s of scans) {
      s.resultSheet = resultSheetName(ss, props, s.scanId, find);
      s.summary = s.resultSheet ? resultSummary(props, s.scanId) : null;
    }
    const perPage = body.perPage > 0 ? body.perPage : HISTORY_PER_PAGE;
    return { scans, page: p, hasMore: p * perPage < body.total, notice, schedules: p === 1 ? scheduleLines() : [] };
  });
}

// ---- Open ----------------------------------------------------------------------------------------

/**
 * "Open" in the history: activates the scan's result tab (the tab record of src/app/records/tabs.ts, so a
 * renamed tab is found). No service call. A scan without a tab here says to import it.
 */
export function openResultTab(scanId: number, filtered?: boolean): { sheetName: string } {
  return asSidebarCall(() => {
    const id = checkScanId(scanId);
    const ss = activeSpreadsheet();
    const rec = readTabRecord(documentProperties(), id);
    // The full results tab, or the filtered one when the sidebar just imported with filters; either
    // when only the other exists (a scan imported only with filters has no full tab).
    let full = rec ? sheetById(ss, rec.sheetId) : null;
    let kept = rec ? sheetById(ss, rec.filteredSheetId ?? null) : null;
    if (!full && !kept) {
      // The document's records are gone (an .xlsx reopened, a copy): the tabs are found by their notes.
      const t = tabFinder(ss)(id);
      full = t ? t.full : null;
      kept = t ? t.filtered : null;
    }
    const sheet = filtered === true ? kept || full : full || kept;
    if (!sheet)
      throw new Error(
        'This scan has no result tab in this spreadsheet (not imported here yet, or the tab was deleted). Import it to get one.',
      );
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
    const deleted = removeScan(apiContext(deadline()), id);
    const props = documentProperties();
    withDocumentLock(() => {
      const cp = pendingImport(props, id);
      if (cp) {
        const ss = activeSpreadsheet();
        for (const sid of [cp.stagingId, cp.errorsStagingId]) {
          const s = sheetById(ss, sid);
          if (s) ss.deleteSheet(s);
        }
        forgetPendingImport(props, id);
      }
      forgetTabRecord(props, id);
      forgetNotSent(props, id);
      forgetDecision(props, id);
    });
    forgetRunningScan(id);
    return { deleted };
  });
}

// ---- Export --------------------------------------------------------------------------------------

/** Exports to the account's spreadsheet service; the link it answers with, or a plain reason. */
export function exportScan(scanId: number): ExportResult {
  return asSidebarCall(() => {
    const id = checkScanId(scanId);
    const r = requestExport(apiContext(deadline()), id);
    if (!r.ok) {
      if (r.problem.status === 409) {
        const said = r.problem.serviceMessage || '';
        if (/integration|not set up|set it up/i.test(said)) {
          return {
            url: null,
            message:
              'Export is not set up for your Scan Service account. Set up the spreadsheet integration in the Scan Service (Integrations), then export again.',
          };
        }
        return { url: null, message: 'This scan has not finished yet; export it when it has.' };
      }
      throw problemError(r.problem);
    }
    const { url, rows } = readExport(r.body);
    const what = rows === null ? 'The results were exported' : `${rows} product${rows === 1 ? ' was' : 's were'} exported`;
    return { url, message: url ? `${what}. Open the link to see them.` : `${what}; the service gave no link.` };
  });
}
