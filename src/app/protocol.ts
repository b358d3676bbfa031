/**
 * The sidebar's contract with the server: every function the sidebar calls through
 * google.script.run, with its arguments and result. Types only (nothing runs at load time); the
 * sidebar imports them type-only, the server functions implement them, README documents them.
 *
 * google.script.run passes only plain data: numbers, booleans, strings, null, and plain
 * objects/arrays of those. No Date (times travel as ISO strings), no undefined inside arrays.
 * Failures reach the sidebar's failure handler as an Error whose message is shown to the user as is,
 * so server functions throw plain-language messages (never with the API key in them).
 *
 * Ownership: settings/new scan/progress (scan flow), import/history/downloads (results), formula
 * sharing and column conversion (formulas). Changes must stay ADDITIVE while the sidebar is built.
 */
import type { ColumnRole } from '../scan/mapping';
import type { ScanOptionsInput } from '../scan/attributes';
import type { PreviewSummary } from '../scan/prepare';
import type { WebhookServerFunctions } from './webhooks/protocol';

export type { WebhookView, WebhookList, WebhookInput, WebhookChange, WebhookSecret, WebhookServerFunctions } from './webhooks/protocol';

// ---- Failures ----------------------------------------------------------------------------------

/**
 * A server function's failure message that starts with this marker means "the API key is missing
 * or was refused" (401): the sidebar shows the rest of the message and opens Settings. Added by the
 * scan-flow server functions; read it with readFailure.
 */
export const OPEN_SETTINGS_MARKER = '[open-settings] ';

/** What a failure handler got, as the user should see it: Google's "Error: "/"Exception: " prefix and the marker removed. */
export function readFailure(message: string): { message: string; openSettings: boolean } {
  let m = String(message || '').replace(/^(Error|Exception|ScriptError):\s*/, '');
  const openSettings = m.indexOf(OPEN_SETTINGS_MARKER) === 0;
  if (openSettings) m = m.slice(OPEN_SETTINGS_MARKER.length);
  return { message: m, openSettings };
}

// ---- Settings ----------------------------------------------------------------------------------

export interface MarketplaceOption {
  code: string;
  name: string;
}

export interface SettingsView {
  /** The key with all but its last 4 characters masked ("••••••••1a2b"), or '' when none is saved. */
  apiKeyMasked: string;
  hasApiKey: boolean;
  serviceUrl: string;
  defaultMarketplace: string;
  marketplaces: MarketplaceOption[];
  /** Whether formulas in this spreadsheet may use the owner's key (only the owner can change it). */
  formulaKeyShared: boolean;
  /** True when the current user owns the spreadsheet. */
  isOwner: boolean;
}

export interface SettingsInput {
  /** A new key; '' or absent keeps the saved one. */
  apiKey?: string;
  serviceUrl?: string;
  defaultMarketplace?: string;
}

export interface ConnectionResult {
  ok: boolean;
  /** Plain language: what works, or what is wrong and what to do. */
  message: string;
  /** e.g. 'bad-key', 'unreachable', 'no-marketplace-access', 'bad-address'. */
  problem?: string;
}

// ---- New scan ----------------------------------------------------------------------------------

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
  /** Set when the hourly trigger stopped importing this scan by itself: why, and what to do. */
  autoImportStopped?: string | null;
}

export interface StartedScan {
  progress: ScanProgress;
  preview: PreviewSummary;
}

// ---- Results -----------------------------------------------------------------------------------

/** A filter as the sidebar offers it; values in the user's units (money in currency, percent in %). */
export interface ResultFilter {
  /** API field name, e.g. 'profit', 'roi', 'rank', 'financials.margin'. */
  field: string;
  operator: '>' | '>=' | '<' | '<=' | '=' | '!=';
  value: number;
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
}

export interface ScanListPage {
  scans: ScanProgress[];
  page: number;
  hasMore: boolean;
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

// ---- Column conversion (identifier formulas' menu action) --------------------------------------

export interface ColumnConversionProgress {
  done: boolean;
  rowsDone: number;
  totalRows: number;
  /** Where the values go, A1 notation. */
  targetA1: string;
  message: string;
  /** The conversion, e.g. 'ASIN_FROM_UPC', 'IDENTIFIERS_FROM_ASIN'. */
  conversion: string;
  /** The column read (data rows, header excluded), A1 notation with the sheet name. */
  sourceA1: string;
  marketplace: string;
}

/** Optional choices for "Convert selected column"; with none, an unfinished conversion continues, else the selection is converted. */
export interface ColumnConversionRequest {
  /** One of ASIN_FROM_UPC/EAN/ISBN, UPC/EAN/ISBN/GTIN/JAN_FROM_ASIN, IDENTIFIERS_FROM_ASIN; default: chosen from the header and values. */
  conversion?: string;
  /** Marketplace code; default: the user's default marketplace. */
  marketplace?: string;
  /** Several ASINs for one input: 'first' (default) or 'all' (joined with ", "). */
  matches?: 'first' | 'all';
  /** Start over with the current selection even when an unfinished conversion exists. */
  restart?: boolean;
}

/**
 * Every function the sidebar may call, by name. The sidebar's typed wrapper of google.script.run
 * is built on this map, so a renamed server function breaks the sidebar's type check.
 */
export interface ServerFunctions extends WebhookServerFunctions, ListsServerFunctions {
  getSettings(): SettingsView;
  saveSettings(input: SettingsInput): SettingsView;
  testConnection(input?: SettingsInput | null): ConnectionResult;
  setFormulaKeySharing(on: boolean): SettingsView;

  getScanSetup(again?: Partial<ScanRequest> | null): ScanSetup;
  previewScan(request: ScanRequest): PreviewSummary;
  startScan(request: ScanRequest): StartedScan;
  getScanProgress(scanId: number): ScanProgress;
  getRunningScans(): ScanProgress[];
  cancelScan(scanId: number): ScanProgress;

  importScan(scanId: number, request: ImportRequest | null): ImportProgress;
  listScans(page: number): ScanListPage;
  deleteScan(scanId: number): { deleted: boolean };
  downloadScan(scanId: number, format: DownloadFormat, target: 'drive' | 'tab'): DownloadResult;
  exportScan(scanId: number): ExportResult;
  /** Shows (activates) the scan's result tab in this spreadsheet; a plain message when there is none. */
  openResultTab(scanId: number): { sheetName: string };

  convertSelectedColumn(request?: ColumnConversionRequest | null): ColumnConversionProgress;
}

// ---- Lists (tags, notes, blocklists, listing matches, multipack corrections) --------------------
import type { ListsServerFunctions } from './lists/protocol';
export type { ListsServerFunctions, ListIdName, ListCounts, ListConflictView, ListRefusedView, ListState, ListReport, SyncReport, ListStatusView, ListsStatus } from './lists/protocol';
