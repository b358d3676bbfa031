/**
 * The sidebar's contract with the server functions of Results (import, Scans history, downloads, export): types only (nothing runs, nothing is
 * bundled). See src/app/protocol.ts for the rules every server function follows.
 */
import type { ScanProgress } from '../scan/protocol';

/** A filter as the sidebar offers it; values in the user's units (money in currency, percent in %). */
export interface ResultFilter {
  /** API field name, e.g. 'profit', 'roi', 'rank', 'financials.margin'. */
  field: string;
  operator: '>' | '>=' | '<' | '<=' | '=' | '!=';
  /** A number, or true/false for yes/no fields (is_hazmat, is_adult, is_meltable, is_brand_blocklisted) with = or !=. */
  value: number | boolean;
}

export interface ImportRequest {
  filters?: ResultFilter[];
  /** API sort: field name, '-' prefix for descending. */
  sort?: string;
}

export interface ImportProgress {
  scanId: number;
  /** True when the tab is complete; otherwise call importScan again to continue from its checkpoint. */
  done: boolean;
  rowsWritten: number;
  totalRows: number;
  /** The result tab (final name), and the errors tab when there were error rows. */
  sheetName: string;
  errorsSheetName: string | null;
  message: string;
  /** When done: what a seller decides on, in words ("112 of 250 products profitable · best ROI 84% · $1,234.56 profit a month from them"). */
  summary?: string | null;
}

export interface ScanListPage {
  scans: ScanProgress[];
  page: number;
  hasMore: boolean;
  /** This document's running scans will NOT be imported automatically (Google refused the hourly trigger) and what to do; null otherwise. */
  notice: string | null;
  /** This user's re-scan schedules here, one line each (rule, next run, cost, last summary); page 1 only. */
  schedules: string[];
}

/** A schedule's slot the sidebar offers to send now (src/app/results/schedule-run.ts dueSlots). */
export interface DueScan {
  /** The schedule (its remembered supplier's id). */
  id: string;
  /** The slot (ms since the epoch), given back to sendDueScan. */
  slot: number;
  /** "The weekly scan of <sheet> is due (<when>): send it now (a paid scan)?" */
  question: string;
}

/** What sending an offered slot came to: the schedule's status text, and the scan when one was sent. */
export interface DueScanResult {
  message: string;
  progress: ScanProgress | null;
}

export type DownloadFormat = 'csv' | 'xlsx' | 'json';

export interface DownloadResult {
  fileName: string;
  /** Drive file link when saved to Drive. */
  url: string | null;
  /** The tab written when imported into a tab. */
  sheetName: string | null;
}

export interface ExportResult {
  /** Link the service answered with, when it gave one. */
  url: string | null;
  message: string;
}

/** Compare with an earlier scan (issue 23): how far a compare got, and the card's summary line when done. */
export interface CompareProgress {
  /** The older scan ("before") and the newer ("after"), whatever order they were given in. */
  before: number;
  after: number;
  /** False: call compareScans again with the same scans to continue. */
  done: boolean;
  /** The Changes tab, when done. */
  sheetName: string | null;
  rowsWritten: number;
  totalRows: number;
  /** Requests made to the Scan Service by this compare so far (0 when both result tabs were read). */
  requests: number;
  sources: { before: 'tab' | 'service'; after: 'tab' | 'service' };
  /** "12 newly profitable, 3 lost the Buy Box, … · 9,000 unchanged", when done. */
  summary: string | null;
  message: string;
}

/** What a scan can be compared with: the previous scan of the same supplier first. */
export interface CompareChoices {
  /** The previous scan of the same supplier (same name before its date, marketplace and custom column names), or null. */
  suggested: number | null;
  /** `label`: the name with line count, time sent and scan number, so two scans of one list under one name differ. */
  scans: Array<{ scanId: number; name: string; label?: string; sameSupplier: boolean }>;
  /** What the card says when there is none ('' otherwise). */
  none: string;
}
