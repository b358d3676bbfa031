/**
 * The sidebar's contract with the server: every function the sidebar calls through
 * google.script.run, with its arguments and result. Types only (nothing runs at load time, nothing
 * here is bundled); each feature keeps its own types in app/<feature>/protocol.ts and this file
 * gathers them. The sidebar imports them type-only, the server functions implement them (src/main.ts
 * checks at compile time that it exports exactly these), README documents them.
 *
 * google.script.run passes only plain data: numbers, booleans, strings, null, and plain
 * objects/arrays of those. No Date (times travel as ISO strings), no undefined inside arrays.
 * Failures reach the sidebar's failure handler as an Error whose message is shown to the user as is,
 * so server functions throw plain-language messages (never with the API key in them); the
 * "open Settings" marker and its reader are in src/app/failure.ts.
 *
 * Changes must stay ADDITIVE while the sidebar is built.
 */
import type { PreviewSummary } from '../domain/price-list/prepare';
import type { ConnectionResult, SettingsInput, SettingsView } from './settings/protocol';
import type { RememberedSupplier, ScheduleView, ScanProgress, ScanRequest, ScanSetup, StartedScan } from './scan/protocol';
import type {
  CompareChoices,
  CompareProgress,
  DownloadFormat,
  DownloadResult,
  ExportResult,
  ImportProgress,
  ImportRequest,
  ScanListPage,
} from './results/protocol';
import type { ColumnConversionProgress, ColumnConversionRequest } from './formulas/protocol';
import type { WebhookServerFunctions } from './webhooks/protocol';
import type { HelpServerFunctions } from './help/protocol';
import type { ConsentServerFunctions } from './trigger/protocol';

export type * from './settings/protocol';
export type * from './scan/protocol';
export type * from './results/protocol';
export type * from './formulas/protocol';
export type * from './webhooks/protocol';
export type * from './help/protocol';
export type * from './trigger/protocol';
export type { PreviewSummary };

/**
 * Every function the sidebar may call, by name. The sidebar's typed wrapper of google.script.run
 * is built on this map, so a renamed server function breaks the sidebar's type check.
 */
export interface ServerFunctions
  extends WebhookServerFunctions,
    ListsServerFunctions,
    ActionsServerFunctions,
    BuyServerFunctions,
    HelpServerFunctions,
    ConsentServerFunctions {
  getSettings(): SettingsView;
  saveSettings(input: SettingsInput): SettingsView;
  testConnection(input?: SettingsInput | null): ConnectionResult;
  setFormulaKeySharing(on: boolean): SettingsView;

  getScanSetup(again?: Partial<ScanRequest> | null): ScanSetup;
  previewScan(request: ScanRequest): PreviewSummary;
  startScan(request: ScanRequest): StartedScan;
  /** Supplier memory: this user's remembered suppliers in this document, and forgetting one (the list after). */
  getRememberedSuppliers(): RememberedSupplier[];
  forgetSupplier(id: string): RememberedSupplier[];
  /** Re-scan schedules (src/app/scan/schedule.ts): list, the select's choices, save (set/resume), pause, remove. */
  getSchedules(): ScheduleView[];
  scheduleChoices(): { value: string; label: string }[];
  saveSchedule(id: string, rule: string, scanId?: number, email?: boolean): { schedules: ScheduleView[]; notice: string | null };
  pauseSchedule(id: string): ScheduleView[];
  removeSchedule(id: string): ScheduleView[];
  getScanProgress(scanId: number): ScanProgress;
  getRunningScans(): ScanProgress[];
  cancelScan(scanId: number): ScanProgress;

  importScan(scanId: number, request: ImportRequest | null): ImportProgress;
  listScans(page: number): ScanListPage;
  deleteScan(scanId: number): { deleted: boolean };
  downloadScan(scanId: number, format: DownloadFormat, target: 'drive' | 'tab'): DownloadResult;
  exportScan(scanId: number): ExportResult;
  /** Shows (activates) the scan's result tab in this spreadsheet; a plain message when there is none. */
  /** filtered: the tab of the last filtered import first (the sidebar just imported with filters). */
  openResultTab(scanId: number, filtered?: boolean): { sheetName: string };
  /** Compare with an earlier scan (issue 23): a result tab name or scan id each, either order; done:false → call again. */
  compareScans(a: number | string, b: number | string): CompareProgress;
  /** What a scan can be compared with, the previous scan of the same supplier first (one request). */
  compareChoices(scanId: number): CompareChoices;

  convertSelectedColumn(request?: ColumnConversionRequest | null): ColumnConversionProgress;
}

// ---- Lists (tags, notes, blocklists, listing matches, multipack corrections) --------------------
import type { ListsServerFunctions } from './lists/protocol';
export type {
  ListsServerFunctions,
  ListId,
  ListCounts,
  ListConflictView,
  ListRefusedView,
  ListState,
  ListReport,
  SyncReport,
  ListStatusView,
  ListsStatus,
  ListEntryView,
  RestoreResult,
} from './lists/protocol';

// ---- Row actions (selected result rows into the lists) -------------------------------------------
import type { ActionsServerFunctions } from './actions/protocol';
export type {
  ActionsServerFunctions,
  RowActionId,
  RowActionPreview,
  RowActionResult,
  RowActionView,
  RowActionsView,
} from './actions/protocol';

// ---- What to buy (Negotiate tab, purchase order, a tab as CSV) -----------------------------------
import type { BuyServerFunctions } from './buy/protocol';
export type { BuyServerFunctions, NegotiateRequest, PurchaseOrderRequest, BuyTabResult, TabFileResult } from './buy/protocol';
