/**
 * The sidebar's contract with the server functions of New scan and progress: types only (nothing runs, nothing is
 * bundled). See src/app/protocol.ts for the rules every server function follows.
 */
import type { ColumnRole } from '../../domain/price-list/mapping';
import type { ScanOptionsInput } from '../../domain/price-list/attributes';
import type { PreviewSummary } from '../../domain/price-list/prepare';
import type { MarketplaceOption } from '../settings/protocol';
import type { RememberedOptions } from '../../domain/price-list/memory';
import type { ColumnSet } from '../../domain/result-tabs/all-columns';

export interface ColumnChoice {
  /** 0-based index into the block that was read. */
  index: number;
  /** Sheet column letter, e.g. "C". */
  letter: string;
  header: string;
  /** First non-blank value below the header, as shown in the sheet. */
  sample: string;
  /** The suggested role. */
  role: ColumnRole;
}

export interface ScanSetup {
  sheetName: string;
  /** A1 notation of what will be read (the selection when one was made, else the data range). */
  rangeA1: string;
  /** Sheet row number of the header row; 0 when no row looks like a header (columns are then named by letter). */
  headerRow: number;
  /**
   * Set when the header row may be wrong: the add-on was not sure of it, or the chosen row holds data.
   * The sidebar shows it by the header row choice. '' when sure.
   */
  headerQuestion?: string;
  /** Data rows below the header. */
  rowCount: number;
  columns: ColumnChoice[];
  /** Roles with their labels, in dropdown order. */
  roles: Array<{ role: ColumnRole; label: string }>;
  defaultName: string;
  defaultMarketplace: string;
  marketplaces: MarketplaceOption[];
  /** Scans of this spreadsheet still running (reopening the sidebar finds them). */
  running: ScanProgress[];
  /** True when rangeA1 is the user's selection (then exactly it is read), false for the sheet's data range. */
  selection?: boolean;
  /** The form's explanations (help.ts): they come with the setup so that they cost the page nothing. */
  help: NewScanHelp;
  /**
   * Supplier memory (this user's, in this document): the line the form shows, and the remembered
   * options to fill in when the list was recognised (its roles are then already in `columns`), and
   * its column choice (`columns: 'all'` when its last scan had All columns; absent: the essential ones).
   */
  memory?: { note: string; options?: RememberedOptions; columns?: ColumnSet };
}

/** One line under each option of New scan (named as the option), the header row choice, and the key asked for in place. */
export interface NewScanHelp {
  headerRow: string;
  supplierDiscount: string;
  prepCost: string;
  multipackPrepCost: string;
  multipackOverride: string;
  pullHistoricalData: string;
  pictures: string;
  allColumns: string;
  /** What the API key is and where to find it (New scan asks for a missing or refused key in place). */
  key: string;
  /** The box shown when the results will not fit in this spreadsheet. */
  sendAnyway: string;
  /** The question before sending the same rows again. */
  sendAgain: string;
}

/** A supplier list remembered for New scan (Settings lists them with Forget). */
export interface RememberedSupplier {
  /** What forgetSupplier takes. */
  id: string;
  /** The sheet it was last scanned in, and when (spreadsheet's time zone). */
  sheetName: string;
  scannedOn: string;
  /** "Identifier: upc, Cost: unit cost, …" (the header names, normalised). */
  columns: string;
  /**
   * What its next New scan and its scheduled re-scans use besides the roles, one line each, in words:
   * "Pictures: on" / "off", and the column choice with the result tab's width under both choices as
   * the room check counts it ("Columns: all (up to 71 in the result tab; the essential ones: up to 40)").
   */
  uses: string[];
  /** Its re-scan schedule's rule ('' when none), the select's choices, and the schedule's line (next run, cost, status, last summary; '' when none). */
  rule: string;
  choices: Array<[string, string]>;
  schedule: string;
  /** Whether its schedule emails this user the summary after each run. */
  email: boolean;
  /** The email opt-in's label (it says when runs here happen only from the sidebar). */
  emailLabel: string;
  /** The scan last sent from it (0: not known): its card offers the schedule; the first scheduled run compares with it. */
  scanId: number;
}

/** A re-scan schedule as the sidebar shows it (src/app/scan/schedule.ts). */
export interface ScheduleView {
  /** The remembered supplier's id (RememberedSupplier.id). */
  id: string;
  sheetName: string;
  /** The rule ("w1@9") and "every Monday at 09:00". */
  rule: string;
  label: string;
  paused: boolean;
  /** "Next run: Mon Dec 1, 09:00. Each run is a paid scan at the Scan Service." or why it is paused. */
  line: string;
  /** What the last slot came to, and the last Changes summary. */
  status: string;
  summary: string;
  /** Whether the summary is emailed to this user after each run (opt-in). */
  email: boolean;
  /** The email opt-in's label (it says when runs here happen only from the sidebar). */
  emailLabel: string;
}

export interface ScanRequest {
  /** roles[i] is the role of columns[i] of ScanSetup. */
  roles: ColumnRole[];
  options: ScanOptionsInput;
  /**
   * Send back ScanSetup's sheetName, rangeA1 and selection, so that preview and start read the block
   * the form was built from (even if the user clicked elsewhere meanwhile). Absent: the active
   * sheet/selection is read again.
   */
  sheetName?: string;
  rangeA1?: string;
  selection?: boolean;
  /** Sheet row number of the header row (ScanSetup.headerRow); absent: found again. */
  headerRow?: number;
  /**
   * true: send even when the results will not fit in this spreadsheet (PreviewSummary.room), to
   * import only the rows that pass filters or to keep them at the service and download them.
   */
  sendWhenFull?: boolean;
  /** ScanSetup's column headers, for supplier memory (a started scan is remembered by them); absent: not remembered. */
  headers?: string[];
  /**
   * Which columns the result tab gets (issue 36): 'essential' (absent: the default) or 'all' (every
   * documented product field). Kept in the scan's record for the import, and with the supplier (memory)
   * for its scheduled re-scans and next New scan; the room check counts it.
   */
  columns?: ColumnSet;
}

export type ScanStatus = 'queued' | 'running' | 'success' | 'error' | 'cancelled';

export interface ScanProgress {
  scanId: number;
  name: string;
  status: ScanStatus;
  marketplace: string;
  /** Input lines of the uploaded file. */
  lines: number;
  /** Lines processed so far. */
  done: number;
  products: number;
  errors: number;
  /** Products per minute. */
  speed: number;
  /** Estimated seconds left, null when unknown. */
  secondsLeft: number | null;
  /** ISO 8601 times. */
  createdAt: string;
  completedAt: string | null;
  /** The result tab when imported. */
  resultSheet: string | null;
  /** What the import found, in words ("112 of 250 products profitable · best ROI 84% · …"), when imported here. */
  summary?: string | null;
  /** Set when the hourly trigger stopped importing this scan by itself: why, and what to do. */
  autoImportStopped?: string | null;
  /** A finished scan's line on its card (an error scan: what importing does). */
  note?: string;
  /**
   * The hourly trigger could not import this finished scan (it ran without the spreadsheet): the
   * sidebar imports it on sight, as the trigger would have (autoImportStopped says so).
   */
  importNow?: boolean;
}

export interface StartedScan {
  progress: ScanProgress;
  preview: PreviewSummary;
  /** The scan will NOT be imported automatically (Google refused the hourly trigger, e.g. 20 per person) and what to do; null when it will. */
  notice: string | null;
}
