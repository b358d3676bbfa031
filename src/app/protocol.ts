/**
 * The sidebar's contract with the server: every function the sidebar calls through
 * google.script.run, with its arguments and result. Types only (nothing runs at load time, nothing
 * here is bundled); each feature keeps its own types in app/<feature>/protocol.ts and this file
 * gathers them. The sidebar imports them type-only, the server functions implement them (src/main.ts
 * checks at compile time that it exports exactly these), and each function's JSDoc is its
 * documentation (what it does, what a caller must know).
 *
 * google.script.run passes only plain data: numbers, booleans, strings, null, and plain
 * objects/arrays of those. No Date (times travel as ISO strings), no undefined inside arrays.
 * Failures reach the sidebar's failure handler as an Error whose message is shown to the user as is,
 * so server functions throw plain-language messages (never with the API key in them). Two markers
 * lead a message (src/app/failure.ts): OPEN_SETTINGS_MARKER (the key is missing or was refused, 401:
 * the sidebar opens Settings) and NEEDS_ROOM_MARKER (the results will not fit: the sidebar offers
 * Send anyway); readFailure strips them. A menu item shows the same failure in plain words
 * (forSeller), never with a marker.
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
  DueScan,
  DueScanResult,
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
  /**
   * The user's settings. The key is never sent back: only masked (bullets and its last 4 characters
   * when it has 12 or more, else bullets only). Settings' explanations come with the view so that
   * they cost the sidebar page nothing.
   */
  getSettings(): SettingsView;
  /**
   * Validates and saves; a blank key keeps the saved one. With `check` (the sidebar's Save) it first
   * tests what changed, as testConnection does: a new key the service refuses (401) is not saved and
   * the message says which key stays in use; anything else (service down or busy, no access to the
   * marketplace) saves, and `checked` says what the test found. Nothing is saved when any field is
   * refused. A new key or address rewrites the user's formula shares with it. `formulasOnMyKey` also
   * turns formulas on here, as setFormulaKeySharing(true) (refused before saving for a non-owner or
   * in a shared drive).
   */
  saveSettings(input: SettingsInput): SettingsView;
  /**
   * With `input`, tests what the user typed WITHOUT saving it (refused as saveSettings refuses), so
   * testing a mistyped key never replaces the saved one; without, the saved settings. One
   * asin-convert of one ASIN for the default marketplace: it needs the key and access to that
   * marketplace, and has no side effects. `problem`: no-key, bad-key (401), no-marketplace-access
   * (403), unreachable (a host that does not exist is blamed on the address; nothing answering, or a
   * time-out, on the service), bad-address (3xx/404: not the Scan Service), busy (429), service-error (5xx).
   */
  testConnection(input?: SettingsInput | null): ConnectionResult;
  /**
   * The spreadsheet's OWNER lets its identifier formulas use their current key, address and default
   * marketplace (`on`), or stops it: a custom function reads the owner's user properties whoever
   * recalculates. Anyone else is refused with who the owner is (in a shared drive: why formulas cannot
   * run there); an owner without a key gets the open-Settings marker. saveSettings rewrites the share
   * when the key or address changes.
   */
  setFormulaKeySharing(on: boolean): SettingsView;

  /**
   * The New scan form: the selection (when more than one cell is selected) or the sheet's data range;
   * `again` is the block and header row (0: none) the form already shows. A selection without a
   * header row of its own takes the sheet's header row above it. A header row is words above values
   * and codes, so a data row never becomes the column names; `headerQuestion` asks the seller when
   * the add-on is not sure, or when the chosen row holds data. Only the first 260 rows are read (values
   * and display values, one read each); a block wider than 250 columns is refused before reading.
   * Suggests a role per column, the name "<sheet> <yyyy-mm-dd>" (spreadsheet time zone) and the
   * default marketplace, lists the user's running scans. Supplier memory: a list this user scanned
   * here before (same header names in any order, also in another sheet) comes back with its roles and
   * options, and `memory.note` says so; a changed header gets only a note that the columns were
   * guessed again. Its explanations come with the setup so that they cost the page nothing.
   */
  getScanSetup(again?: Partial<ScanRequest> | null): ScanSetup;
  /**
   * Reads only the block's mapped columns (one values and one display-values read per run of
   * contiguous mapped columns) and prepares the upload: the rows that go, skipped rows with their
   * reasons and real sheet row numbers, repairs, duplicates, warnings. `problems` (`ok` false: the scan
   * cannot go) names every problem at once: option problems and missing roles, a data row chosen as
   * the header row, columns that cannot be what they were chosen as (descriptions as identifiers, MSRP
   * or MAP as the cost, a cost at or above MAP on most rows), an upload over 32 MiB. `room` says
   * whether the results will fit in this spreadsheet (src/domain/price-list/room.ts). Changes nothing.
   */
  previewScan(request: ScanRequest): PreviewSummary;
  /**
   * Re-reads and prepares, then uploads the CSV and its attributes to the service. Nothing is
   * uploaded (so nothing is charged) when anything cannot be sent, an option is wrong, or the results
   * will not fit in this spreadsheet (the needs-room marker, with what fits: filters, fewer columns,
   * the result tabs by size, a download) unless `sendWhenFull`. The decision options are checked but
   * never uploaded: they are kept for the import with what was sent (mapping, custom column names,
   * marketplace, lines), since the service's scan record has no mapping. The scan is recorded for this
   * document only once the service answered with its id. A time-out is not retried (the service may
   * have stored the scan): the message says to look in Scans. Makes sure of the hourly import trigger;
   * `notice` says when Google refused it (20 per person and script) and what to do. Remembers the
   * roles and options (not the name) by `headers` for supplier memory; that never fails the start.
   */
  startScan(request: ScanRequest): StartedScan;
  /**
   * This user's remembered supplier lists in this document, newest first (Settings > Remembered
   * suppliers); another editor's are never listed. Each carries its schedule and the scan last sent
   * from it, for Settings and New scan's finished card.
   */
  getRememberedSuppliers(): RememberedSupplier[];
  /**
   * Forgets a supplier for this user in this document (its next New scan guesses the columns again and
   * starts with the default options) and removes its re-scan schedule; an unknown id changes nothing.
   */
  forgetSupplier(id: string): RememberedSupplier[];
  /**
   * This user's re-scan schedules in this document, one per remembered supplier (src/app/scan/schedule.ts).
   * Each says its next run and that each run is a paid scan (or why it is paused), what its last slot
   * came to, and the last Changes summary.
   */
  getSchedules(): ScheduleView[];
  /** The schedule select's choices: daily, each weekday, the 1st of the month, at 06:00 in the spreadsheet's zone. */
  scheduleChoices(): { value: string; label: string }[];
  /**
   * Sets or changes a supplier's schedule, and runs a paused one again. `rule`: "d@H", "wD@H" (D = 1
   * Monday … 7) or "mD@H" (D ≤ 28); '' removes it. `scanId` (the card's scan) is what the first
   * scheduled run is compared with. `email` (opt-in, off by default; absent: unchanged) mails the user
   * themself a plain-text summary after each run. Makes sure of the hourly trigger (`notice` when
   * Google refused it).
   */
  saveSchedule(id: string, rule: string, scanId?: number, email?: boolean): { schedules: ScheduleView[]; notice: string | null };
  /** One click; the supplier, its scans and its Changes tabs stay. */
  pauseSchedule(id: string): ScheduleView[];
  /** One click; the supplier, its scans and its Changes tabs stay. */
  removeSchedule(id: string): ScheduleView[];
  /**
   * Each schedule's latest slot not sent, when the last hourly run here had no document or the slot is
   * more than 90 minutes old; New scan and Scans offer them on opening.
   */
  getDueScans(): DueScan[];
  /**
   * Sends an offered slot the way the trigger does (src/app/results/schedule-run.ts), claiming it
   * first: a slot already taken sends nothing and says so.
   */
  sendDueScan(id: string, slot: number): DueScanResult;
  /**
   * One scan's status, lines done, products, errors and speed as the service reports them;
   * `secondsLeft` is the lines left at the lines rate (0 when finished, null while unknown).
   */
  getScanProgress(scanId: number): ScanProgress;
  /**
   * The current user's scans recorded in this document and not yet imported (running, or finished and
   * waiting), in one fetchAll; scans the service no longer knows are forgotten. When the hourly trigger
   * last ran without the document, finished ones carry `autoImportStopped` and `importNow`: the Scans
   * card imports them on sight.
   */
  getRunningScans(): ScanProgress[];
  /** A scan that already finished (409) answers its progress unchanged. */
  cancelScan(scanId: number): ScanProgress;

  /**
   * Imports a FINISHED scan (success, error or cancelled; a running one gets "still running (x of y
   * lines)") into a new tab named from the scan (a re-import replaces the scan's tab under its current
   * name), its unusable rows into "<tab> – errors" followed by the rows the add-on skipped before
   * sending, so every row of the price list is in some tab. The message ends with the summary a seller
   * decides on, by the scan's decision options (defaults when absent). `filters`/`sort` go to the
   * API's own filter and sort (money in currency, percent in %; yes/no fields with true/false and
   * =/!=); filtered rows go to the scan's own "<tab> (filtered)" tab, replaced by the next filtered
   * import, with no errors tab, and the full tab stays. `done: false`: call again (same request or
   * null) to continue from the checkpoint. Decisions: src/app/results/README.md.
   */
  importScan(scanId: number, request: ImportRequest | null): ImportProgress;
  /**
   * A page of 25 finished scans, newest first; page 1 also lists this user's queued and running scans
   * of this document and, when there are any, makes sure of the hourly import trigger (`notice` when
   * Google refused it).
   * `resultSheet` names the imported tab while it exists, found by its header note too when the
   * document's records are gone (an .xlsx reopened, a copy), so a second import replaces it.
   */
  listScans(page: number): ScanListPage;
  /**
   * Deletes the scan at the service (the sidebar confirms first) and this document's record of it and
   * any unfinished import; the user's tabs stay. One the service no longer knows: `{deleted: false}`.
   */
  deleteScan(scanId: number): { deleted: boolean };
  /**
   * The whole result: to a new Drive file "<scan name> (scan <id>).<ext>", byte for byte (Drive API
   * files.create, scope drive.file; `url` its link), or CSV/JSON into a new tab "<scan name> (CSV)"
   * (numbers as numbers except code-like columns, all text guarded; JSON flattened to dotted columns).
   * XLSX into a tab is refused with a message.
   */
  downloadScan(scanId: number, format: DownloadFormat, target: 'drive' | 'tab'): DownloadResult;
  /**
   * The link the service answers with (only an http(s) link is passed on); a plain message when the
   * account has no export integration (409) or the scan has not finished.
   */
  exportScan(scanId: number): ExportResult;
  /**
   * "Open tab": activates the scan's result tab, found by its sheet id (also when renamed); with
   * `filtered` (the sidebar just imported with filters), its "(filtered)" tab first. No service call.
   * A scan without a tab in this spreadsheet: a plain message saying to import it.
   */
  openResultTab(scanId: number, filtered?: boolean): { sheetName: string };
  /**
   * "Compare…" on a scan card (issue 23): writes "<name> – Changes"; `a` and `b` are scan ids or
   * result tab names, in either order (the older is "before"). `done: false`: call again with the same
   * scans to continue from its checkpoint; another pair drops an unfinished compare. Decisions:
   * src/app/results/README.md.
   */
  compareScans(a: number | string, b: number | string): CompareProgress;
  /**
   * The finished scans of the first history page (one request, 50 scans), the previous scan of the same
   * list first (`suggested`: same name before New scan's date, same marketplace, same custom column
   * names); `none` is what the card says when there is no other.
   */
  compareChoices(scanId: number): CompareChoices;

  /**
   * "Convert selected column", for columns too long for one 30-second formula: converts the selected
   * column with the CURRENT user's own key and writes plain values into the empty column(s) right of it
   * (1; 5 for IDENTIFIERS_FROM_ASIN); a text header on top is kept and gets an output header. A cell
   * in the way stops it before anything is written. The conversion defaults from the header
   * (UPC/EAN/ISBN/ASIN) or the most frequent kind of id. Works in chunks with a checkpoint after
   * each; near the 6-minute limit it answers `done: false`: call again with no request, whatever is
   * selected, to continue (an execution killed at the limit continues the same way). `restart`
   * converts the current selection instead.
   */
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
  RowPicture,
} from './actions/protocol';

// ---- What to buy (Negotiate tab, purchase order, a tab as CSV) -----------------------------------
import type { BuyServerFunctions } from './buy/protocol';
export type { BuyServerFunctions, NegotiateRequest, PurchaseOrderRequest, BuyTabResult, TabFileResult } from './buy/protocol';
