/**
 * importScan: a finished scan's results into a tab of this spreadsheet (and its unusable rows into
 * an errors tab), through the API's own filter and sort.
 *
 * How (see README "Sidebar server functions"):
 * - Calls: results pages of 100 (the API's maximum, so its floor of calls), fetched in PARALLEL waves
 *   with UrlFetchApp.fetchAll (src/api/scans.ts fetchScanParts). The first wave also reads the scan record
 *   (name, marketplace, mapping) and the first errors page.
 * - Writes: rows go into a HIDDEN staging tab, one setValues per wave (+ one setRichTextValues for
 *   the ASIN links); number formats, widths, filter and rules are set once per column block.
 *   The visible tab is replaced only when the staging tab is complete, so a tab is never half
 *   written, duplicated or short.
 * - Time: a WorkBudget (Date.now and the work done, whichever is larger) stops before a wave that
 *   would not fit; the checkpoint (document properties, small) lets the next call continue from the
 *   rows known to be in the staging tab. Anything below them (written by an execution that was
 *   killed before it could save its checkpoint) is cleared first.
 */
import {
  checkScanId,
  isFinishedState,
  okBody,
  readResultsPage,
  fetchScanParts,
  requireScan,
  type ResultsPage,
  type ResultsTable,
  type ScanPart,
  type ScanQuery,
} from '../../api/scans';
import { problemOf } from '../../api/exceptions';
import { isRetryable } from '../../api/problems';
import { findMarketplace, type Marketplace } from '../../../contract/marketplaces';
import {
  cellValue,
  columnIndex,
  FROZEN_COLUMNS,
  resultBlock,
  resultColumns,
  selectColumns,
  omittedColumns,
  PICTURE_COLUMN,
  type LayoutColumn,
  type LayoutContext,
} from '../../domain/result-tabs/result-columns';
import { PICTURE_ROW_HEIGHT } from '../../domain/result-tabs/picture';
import { errorsBlock, sheetRowField } from '../../domain/result-tabs/errors-columns';
import { verdictNote, verdictOf, type VerdictWord } from '../../domain/result-tabs/verdict';
import { columnSetOf } from '../../domain/result-tabs/all-columns';
import {
  overviewCells,
  overviewNumberFormats,
  overviewPictureRows,
  overviewTabName,
  overviewTitle,
} from '../../domain/result-tabs/overview';
import { numberFormatFor, type Product } from '../../domain/result-tabs/columns';
import { fullMessage, NEW_TAB_CELLS } from '../../domain/price-list/room';
import { SpreadsheetFullError, type SpreadsheetRoom } from '../records/room';
import { CELL_MAX_CHARS, fitCell, safeText, textOf } from '../../domain/sheet/safe';
import { errorsNote, scanNote } from '../../domain/result-tabs/changes';
import { dailyQuotaOf } from '../quota-errors';
import { importKey, importKeyIds } from '../../store/keys';
import { readTuning, type ImportTuning } from '../records/import-tuning';
import { adoptNotedTabs, readTabRecord, sheetById, writeTabRecord, type TabRecord } from '../records/tabs';
import { forgetNotSent, notSentFromErrorRows, notSentRows, readNotSent, recordNotSent, withRoom, type NotSent } from '../records/not-sent';
import { readColumnSet, readDecision, readPictures, readSent, type SentRecord } from '../records/decision';
import { withDocumentLock } from '../../store/locks';
import { newConditionalFormat, newRichText } from '../../apps-script';
import { asSidebarCall } from '../context';
import { IMPORT_CALL_BUDGET_MS } from '../../domain/time-budgets';
import { gasJobEnv, StagedJob, type JobEnv } from './staged-tab';
import { forgetRunningScan } from '../scan/running';
import type { ImportProgress, ImportRequest } from './protocol';
import { tabName } from '../../domain/sheet/tab-name';
import {
  apiFilters,
  encodeCheckpoint,
  formatRuns,
  formatSpans,
  type FormatSpan,
  IMPORT_CHECKPOINT,
  inputCells,
  inputHeaders,
  requestKey,
  uploadWidth,
  WORK_COST,
  type ApiFilter,
  type ImportCheckpoint,
  type UploadMapping,
  addToSummary,
  emptySummary,
  summaryText,
  countText,
  pageSignature,
  shortScanName,
} from './import-plan';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** Rows per results page: the API's maximum. */
export const PER_PAGE = 100;
/** Expected cost of the swap: the filter and rules, the overview, the tabs renamed and shown, the records written. */
const SWAP_MS = WORK_COST.writeCallMs * 16 + WORK_COST.propertyWriteMs * 4;
/** Rows a result tab grows by at a time (at most): its formats are set once per growth. */
export const GROW_ROWS = 25_000;

// ---- Sidebar server function ----------------------------------------------------------------------

/**
 * Imports (or continues importing) a finished scan. `request`: filters and sort; null continues the
 * import under way for this scan (or starts one without filters). done:false means: call again.
 */
export function importScan(scanId: number, request: ImportRequest | null): ImportProgress {
  return asSidebarCall(() => {
    const id = checkScanId(scanId);
    // The seller waits on this call: a long import is split between calls (the trigger's is not).
    const env: ImportEnv = { ...gasImportEnv(), callBudgetMs: IMPORT_CALL_BUDGET_MS };
    const result = withDocumentLock(() => runImport(id, request, env));
    // Imported: no longer one of this document's scans waiting for results.
    if (result.done) forgetRunningScan(id);
    return result;
  });
}

/** The import's environment: a staged-tab job's, and the waves copied in it. */
export interface ImportEnv extends JobEnv {
  /** Waves copied in this execution: the first always runs, so every call makes progress. */
  waves: number;
  /** A sidebar call's length: an import that would run longer is split into calls of about equal length (undefined: none). */
  callBudgetMs?: number;
}

/** The real services, with a fetcher that charges each wave to the budget. */
export function gasImportEnv(tuning: ImportTuning = readTuning()): ImportEnv {
  return { ...gasJobEnv(tuning), waves: 0 };
}

// ---- The import -----------------------------------------------------------------------------------

type Page = ResultsPage;
type Table = 'products' | 'errors';

function resultsPart(scanId: number, table: ResultsTable, page: number, query: ScanQuery | null): ScanPart {
  return { results: scanId, table, page, perPage: PER_PAGE, query };
}

/** One import step: starts or continues, and returns where it got to. */
export function runImport(scanId: number, request: ImportRequest | null, env: ImportEnv): ImportProgress {
  let job = resumeImport(scanId, request, env);
  // The service's count is read, not trusted: when a later answer gives another count (or a page
  // of another length), what was staged under the old count is dropped and the import begins
  // again from a fresh first page, once in this call (a count that lied once heals at once).
  for (let attempt = 1; ; attempt++) {
    try {
      if (job && !job.trimStaging()) {
        // A column inserted by an execution killed before its checkpoint: the tab no longer matches it.
        job.drop();
        job = null;
      }
      if (!job) {
        // Tabs of this scan left by an import whose record is gone (an .xlsx reopened, a copy): replaced, not doubled.
        adoptNotedTabs(env.ss, env.props, scanId);
        job = ImportJob.begin(scanId, request, env);
      }
      return job.run();
    } catch (e) {
      if (job && !keepsStaging(e)) job.drop();
      if (e instanceof ResultsChanged && attempt === 1) {
        job = null;
        continue;
      }
      throw e;
    }
  }
}

/** The import under way for this scan: same request (or none), its staging tabs still there; any other is dropped. */
function resumeImport(scanId: number, request: ImportRequest | null, env: ImportEnv): ImportJob | null {
  const cp = IMPORT_CHECKPOINT.get(env.props, scanId);
  env.budget.charge(WORK_COST.propertyReadMs);
  if (!cp) return null;
  const job = new ImportJob(env, cp);
  const tabsThere = () => sheetById(env.ss, cp.stagingId) && (cp.errorsStagingId === null || sheetById(env.ss, cp.errorsStagingId));
  if ((request === null || cp.request === requestKey(request)) && tabsThere()) return job;
  job.drop();
  return null;
}

/**
 * Kept for a retry only when waiting helps (service busy or down, a daily quota of Google): what is
 * staged is correct and the next call continues. Anything else (key refused, scan gone, an answer
 * that cannot be right, a write Sheets refused) drops the staging tabs and the checkpoint: no hidden
 * tab outlives a failed try, and "import again" starts afresh. A full spreadsheet keeps what is
 * staged too: the import continues once the user made room.
 */
function keepsStaging(e: unknown): boolean {
  const problem = problemOf(e);
  return (!!problem && isRetryable(problem)) || dailyQuotaOf(e) !== null || e instanceof SpreadsheetFullError;
}

/** The service's answers disagree with what this import was staged for (its count, a page's length). */
class ResultsChanged extends Error {}

function doneMessage(cp: ImportCheckpoint, name: string, errorsName: string | null): string {
  const message = `Imported ${cp.productsTotal} product${cp.productsTotal === 1 ? '' : 's'} into "${name}"`;
  const skipped = cp.notSentTotal || 0;
  const rows = (n: number) => `${n} row${n === 1 ? '' : 's'}`;
  if (cp.filtered) return message + ` (the rows your filters keep; the full results stay in their own tab).`;
  if (cp.errorsTotal && skipped)
    return (
      message + `; ${rows(cp.errorsTotal)} the service could not use and ${rows(skipped)} skipped before sending are in "${errorsName}".`
    );
  if (cp.errorsTotal)
    return message + `; ${rows(cp.errorsTotal)} the service could not use ${cp.errorsTotal === 1 ? 'is' : 'are'} in "${errorsName}".`;
  if (skipped) return message + `; ${rows(skipped)} skipped before sending ${skipped === 1 ? 'is' : 'are'} in "${errorsName}".`;
  return message + '.';
}

function progress(cp: ImportCheckpoint, done: boolean): ImportProgress {
  const name = done ? cp.finalName! : tabName(cp.scanName, [], { fallback: 'Scan ' + cp.scanId });
  const errorsName = done ? cp.finalErrorsName : null;
  let message = done
    ? doneMessage(cp, name, errorsName)
    : `Imported ${cp.productsDone + cp.errorsDone} of ${cp.productsTotal + cp.errorsTotal} rows so far; continuing…`;
  const summary = done && cp.summary ? summaryText(cp.summary, findMarketplace(cp.marketplace)!.moneyFormat, cp.decision) : null;
  if (summary) message += ' ' + summary + '.';
  return {
    scanId: cp.scanId,
    done,
    rowsWritten: cp.productsDone,
    totalRows: cp.productsTotal,
    sheetName: name,
    errorsSheetName: errorsName,
    message,
    summary,
  };
}

/** What the first wave of a new import reads: the scan record and the first page of each table. */
interface FirstRead {
  scanId: number;
  filters: ApiFilter[];
  sort: string;
  scan: ReturnType<typeof requireScan>;
  products: Page;
  errors: Page;
}

/** Reads the scan with the first pages, and checks it finished and that its counts can be right. */
function readFirst(scanId: number, request: ImportRequest | null, env: ImportEnv): FirstRead {
  const conv = apiFilters(request ? request.filters : undefined);
  if (!conv.ok) throw new Error(conv.message);
  const sort = String((request && request.sort) || '').trim();
  const q = { filters: conv.value, sort };
  const answers = fetchScanParts(env, [{ record: scanId }, resultsPart(scanId, 'products', 1, q), resultsPart(scanId, 'errors', 1, null)]);
  const scan = requireScan(okBody(answers[0]));
  // The one status reader: Success, success and SUCCESS alike (the vendor's words included).
  if (!isFinishedState(scan.status)) {
    throw new Error(
      `The scan "${shortScanName(scan.name, scanId)}" is still ${scan.status === 'queued' ? 'queued' : 'running'} (${countText(scan.linesDone)} of ${countText(scan.lines)} lines). Import it when it has finished.`,
    );
  }
  const products = readResultsPage(okBody(answers[1]));
  const errors = readResultsPage(okBody(answers[2]));
  // A count that is no count of rows (fractional, negative, or fewer than the page holds) is read again.
  for (const [page, label] of [
    [products, 'products'],
    [errors, 'error rows'],
  ] as const) {
    if (!(Number.isInteger(page.count) && page.count >= page.data.length))
      throw new ResultsChanged(
        `The Scan Service's count of ${label} (${countText(page.count)}) cannot be right for a page of ${page.data.length}.`,
      );
  }
  return { scanId, filters: conv.value, sort, scan, products, errors };
}

type ScanOptions = { custom_columns?: string[]; marketplace_id?: string; pull_historical_data?: boolean };

/** A new import's checkpoint, before its columns are chosen and its tabs made. */
function newCheckpoint(
  first: FirstRead,
  request: ImportRequest | null,
  labels: ReturnType<typeof uploadLabels>,
  options: ScanOptions,
  env: ImportEnv,
): ImportCheckpoint {
  const scanId = first.scanId;
  const mapping = labels.mapping;
  const customColumns = labels.customColumns;
  return {
    v: 1,
    scanId,
    request: requestKey(request),
    filters: first.filters,
    sort: first.sort,
    phase: 'products',
    marketplace: labels.marketplace.code,
    customColumns,
    mapping: mapping,
    sheetRowField: sheetRowField({ mapping: mapping as { custom_columns?: number[] }, options: { custom_columns: customColumns } }),
    // Only what the tab names need (a property holds 9 KB; a scan name may be 60,000 characters).
    scanName: shortScanName(first.scan.name, scanId),
    productsTotal: first.products.count,
    productsDone: 0,
    errorsTotal: first.errors.count,
    errorsDone: 0,
    stagingId: -1,
    errorsStagingId: null,
    finalName: null,
    finalErrorsName: null,
    historical: options.pull_historical_data === true,
    filtered: first.filters.length > 0,
    decision: readDecision(env.props, scanId),
    ...(readColumnSet(env.props, scanId) === 'all' ? { columnSet: 'all' as const } : {}),
  };
}

/**
 * The columns a new import writes: only the ones the first page has values for (all of them for a
 * scan without products); a column that comes later is inserted then (addColumns).
 */
function chooseColumns(
  cp: ImportCheckpoint,
  labels: ReturnType<typeof uploadLabels>,
  options: ScanOptions,
  firstPage: Page,
  pictures: boolean,
): void {
  const unlabelled = new Set(labels.unlabelled);
  // Without the mapping the service names SKU, MAP and stock itself (blank when not uploaded): those stay in.
  const namedByService = ['supplier_sku', 'map', 'stock', 'discount_cost'];
  cp.omit = omittedColumns(cp.mapping as Record<string, unknown>, options as Record<string, unknown>).filter(
    (k) => !(unlabelled.size && namedByService.indexOf(k) >= 0) && !unlabelled.has(k),
  );
  // New scan's "Pictures" off (the scan's record): the picture column is never written, nor counted.
  if (!pictures) cp.omit.push(PICTURE_COLUMN.key);
  if (unlabelled.size) cp.unlabelled = labels.unlabelled;
  const all = allowedColumns(cp);
  const filled = new Set(firstPage.data.length ? filledKeys(all, firstPage.data as Product[], labels.marketplace) : all.map((c) => c.key));
  // A column that cannot be labelled stays, blank, with a header note saying why (never shifted, never dropped unseen).
  cp.cols = all.filter((c) => filled.has(c.key) || unlabelled.has(c.key)).map((c) => c.key);
}

/** A count no tab can hold is refused before any tab is made (Sheets holds 10 million cells a spreadsheet). */
function refuseTooMany(cp: ImportCheckpoint, limit: number): void {
  if ((cp.productsTotal + 1) * (cp.cols || []).length > limit)
    throw new Error(
      `The Scan Service says this scan has ${countText(cp.productsTotal)} results: more than a spreadsheet holds (${countText(limit)} cells). Import it with filters, or download it (Scans > Download).`,
    );
}

/**
 * An import: its checkpoint (importKey of the scan) and its hidden products and errors tabs, copied
 * wave by wave, then swapped in for the scan's visible tabs.
 */
class ImportJob extends StagedJob<ImportCheckpoint> {
  /** Pages the first wave read with the scan record: copied without asking for them again. */
  private first: { products?: Page; errors?: Page } = {};
  /** Modelled ms a row of each table took in this call's last wave (what the next waves are expected to take). */
  private msPerRow: Partial<Record<Table, number>> = {};
  /** Where this call stops (ms of its budget), set at its first wave's end; null: the import's budget alone. */
  private callLimit: number | null | undefined;

  constructor(
    override readonly env: ImportEnv,
    cp: ImportCheckpoint,
  ) {
    super(env, cp);
  }

  protected checkpointKey(): string {
    return importKey(this.cp.scanId);
  }
  protected encode(): string {
    return encodeCheckpoint(this.cp);
  }
  protected tabs(): ReadonlyArray<number | null> {
    return [this.cp.stagingId, this.cp.errorsStagingId, this.cp.overviewId ?? null];
  }
  protected writeCheckpoint(text: string): void {
    // A full store must not stop the import: other scans' not-sent records give way first.
    withRoom(this.env.props, this.cp.scanId, () => super.writeCheckpoint(text));
  }
  /** The import's error when the spreadsheet cannot take `needed` more cells: rows so far, room left, what to delete. */
  protected full(needed: number, room: SpreadsheetRoom): SpreadsheetFullError {
    const cp = this.cp;
    return new SpreadsheetFullError(
      fullMessage({
        scanName: cp.scanName,
        rowsDone: cp.productsDone,
        rowsTotal: cp.productsTotal,
        neededCells: needed,
        left: room.left,
        limit: room.limit,
        resultTabs: room.resultTabs,
      }),
    );
  }

  /** First step: reads the scan, checks it finished, creates the staging tabs with their layout. */
  static begin(scanId: number, request: ImportRequest | null, env: ImportEnv): ImportJob {
    const before = env.budget.used();
    const first = readFirst(scanId, request, env);
    const firstFetchMs = env.budget.used() - before;
    const options = (Object.keys(first.scan.options).length ? first.scan.options : first.products.options) as ScanOptions;
    const labels = uploadLabels(readSent(env.props, scanId), first.scan, options);
    const cp = newCheckpoint(first, request, labels, options, env);
    chooseColumns(cp, labels, options, first.products, readPictures(env.props, first.scanId));
    refuseTooMany(cp, env.tuning.cellLimit);
    const job = new ImportJob(env, cp);
    job.first = { products: first.products, errors: first.errors };
    job.countNotSent();
    job.makeTabs(firstFetchMs);
    return job;
  }

  /** The rows skipped before the upload join the service's error rows in the (full) errors tab. */
  private countNotSent(): void {
    const cp = this.cp;
    const notSent = cp.filtered ? null : readNotSent(this.env.props, cp.scanId) || this.recoverNotSent();
    cp.notSent = notSent ? notSentRows(notSent).length : 0;
    cp.notSentTotal = notSent ? notSent.n : 0;
  }

  /** The staging tabs with their layout, once the room for them is known; the checkpoint names them. */
  private makeTabs(firstFetchMs: number): void {
    const cp = this.cp;
    // Room for the new tabs at their largest: a new tab has 26,000 cells until trimmed (the products
    // tab to its header and one row, then the errors tab, made whole).
    const errorRows = cp.errorsTotal + (cp.notSent || 0);
    const errorsCells = errorRows > 0 && !cp.filtered ? Math.max(NEW_TAB_CELLS, (Math.max(1, errorRows) + 1) * errorsHeaders(cp).width) : 0;
    const overview = cp.filtered ? null : overviewGrid(cp, allowedColumns(cp));
    const overviewSize = overview ? overview.rows * overview.width : 0;
    this.requireRoom(Math.max(NEW_TAB_CELLS, 2 * (cp.cols || []).length + errorsCells + overviewSize));
    try {
      const staging = this.createStaging('products');
      cp.stagingId = staging.getSheetId();
      this.layoutProducts(staging, findMarketplace(cp.marketplace)!);
      // Made now, at its largest (every column the import may write), so the room it takes is known
      // before any row; when this call has barely the time for its first wave (twice the first fetch:
      // a trigger near its daily runtime, a slow service), it is made at the swap instead.
      if (
        overview &&
        overviewSize &&
        this.env.budget.fits(2 * firstFetchMs + this.waveCost('products', this.firstWaveRows()) + WORK_COST.writeCallMs * 8)
      ) {
        const ov = this.createHidden('~import ' + cp.scanId + ' overview', staging.getIndex());
        cp.overviewId = ov.getSheetId();
        this.fitGrid(ov, overview.rows, overview.width);
      }
      if (errorRows > 0 && !cp.filtered) {
        const es = this.createStaging('errors');
        cp.errorsStagingId = es.getSheetId();
        this.layoutErrors(es);
      }
      this.save();
    } catch (e) {
      // No checkpoint names these tabs yet: they go with the failed try.
      this.drop();
      throw e;
    }
  }

  /** Rows of the first products wave. */
  private firstWaveRows(): number {
    return planWave(0, this.cp.productsTotal, this.env.tuning.pagesPerWave).rows;
  }

  /** Copies the products, then the error rows, then swaps; the progress says where it got to. */
  run(): ImportProgress {
    const cp = this.cp;
    if (cp.phase === 'products') {
      if (!this.copyRows('products', this.first.products)) return progress(cp, false);
      cp.phase = cp.filtered ? 'swap' : 'errors';
      this.save();
    }
    if (cp.phase === 'errors') {
      if (!this.copyRows('errors', this.first.errors)) return progress(cp, false);
      this.writeNotSent();
      cp.phase = 'swap';
    }
    this.swap();
    return progress(cp, true);
  }

  /**
   * A re-import after the not-sent record was deleted (a full import moved its rows into the errors
   * tab): the rows come back from the scan's current errors tab and are recorded again until this
   * import has written them.
   */
  private recoverNotSent(): NotSent | null {
    const { env, cp } = this;
    const rec = readTabRecord(env.props, cp.scanId);
    const sheet = rec ? sheetById(env.ss, rec.errorsSheetId) : null;
    if (!sheet || sheet.getLastRow() < 2) return null;
    const rows = sheet.getRange(2, 1, sheet.getLastRow() - 1, 4).getValues();
    env.budget.charge(WORK_COST.readCallMs);
    const record = notSentFromErrorRows(rows);
    if (record) recordNotSent(env.props, cp.scanId, record);
    return record;
  }

  /** A hidden tab next to the current result tab (or at the end), with a name no user would pick. */
  private createStaging(which: Table): Sheet {
    const { env, cp } = this;
    const rec = readTabRecord(env.props, cp.scanId);
    const old = rec
      ? sheetById(env.ss, which === 'products' ? (cp.filtered ? (rec.filteredSheetId ?? null) : rec.sheetId) : rec.errorsSheetId)
      : null;
    return this.createHidden('~import ' + cp.scanId + (which === 'errors' ? ' errors' : ''), old ? old.getIndex() : undefined);
  }

  /**
   * Makes the products tab at least `need` rows, growing by up to GROW_ROWS rows (never past the
   * table) and setting the new rows' number formats. The room is read first: rows that would not fit
   * stop the import cleanly (SpreadsheetFullError) with the rows so far kept.
   */
  private ensureRows(sheet: Sheet, need: number): void {
    const { env, cp } = this;
    const maxRows = sheet.getMaxRows();
    env.budget.charge(WORK_COST.cheapCallMs);
    if (maxRows >= need) return;
    const cols = stagedColumns(cp);
    let add = Math.max(need, Math.min(cp.productsTotal + 1, maxRows + GROW_ROWS)) - maxRows;
    const room = this.room();
    if (room) {
      const fit = Math.floor(room.left / Math.max(1, cols.length));
      if (fit < need - maxRows) throw this.full((need - maxRows) * cols.length, room);
      add = Math.min(add, fit);
    }
    const spans = formatSpans(cols.map((c) => numberFormatFor(c.kind, findMarketplace(cp.marketplace)!)));
    // The first growth formats the one data row the tab was made with, so the rows added after it take its formats.
    if (maxRows === 2 && cp.productsDone === 0) this.formatRows(sheet, spans, 2, 1);
    this.growing(add * cols.length, () => sheet.insertRowsAfter(maxRows, add));
    env.budget.chargeWrite(0, 1);
    if (!this.inherited(sheet, spans, maxRows + add)) this.formatRows(sheet, spans, maxRows + 1, add);
  }

  /**
   * Sets the number formats of rows from..from+n-1: one setNumberFormats per span of formatted
   * columns (issue 36: a call per run of equal formats made 20 calls for All columns).
   */
  private formatRows(sheet: Sheet, spans: readonly FormatSpan[], from: number, n: number): void {
    for (const span of spans) {
      const row = span.formats;
      sheet.getRange(from, span.start + 1, n, row.length).setNumberFormats(new Array(n).fill(row));
      this.env.budget.chargeWrite(n * row.length);
    }
  }

  /**
   * Whether rows inserted after a formatted one took its number formats, read on the last of them.
   * Google's Sheets API says inserted rows inherit the formats of the row before
   * (developers.google.com/sheets/api/reference/rest/v4/spreadsheets/request#InsertDimensionRequest);
   * Apps Script's insertRowsAfter page is silent, so one row is read back and, if it did not, the
   * new rows are formatted as before: right either way, one read instead of a write per cell.
   */
  private inherited(sheet: Sheet, spans: readonly FormatSpan[], row: number): boolean {
    if (!spans.length) return true;
    const last = spans[spans.length - 1];
    const got = sheet.getRange(row, 1, 1, last.start + last.formats.length).getNumberFormats()[0];
    this.env.budget.charge(WORK_COST.readCallMs);
    return spans.every((span) => span.formats.every((f, i) => got[span.start + i] === f));
  }

  /**
   * Inserts the columns that got their first value in this wave (their rows above are empty: nothing
   * came back for them), with header, width and format, and records them in the checkpoint at once.
   */
  private addColumns(sheet: Sheet, products: readonly Product[], mp: Marketplace): void {
    const { env, cp } = this;
    // (a supplier input that was not uploaded stays out: what the service says for it is no supplier's figure)
    const all = allowedColumns(cp);
    const have = new Set(cp.cols);
    const ctx = { marketplace: mp, links: 'text' as const };
    const fresh = all.filter((c) => !have.has(c.key) && products.some((p) => cellValue(c, p, ctx) !== ''));
    if (!fresh.length) return;
    const rows = sheet.getMaxRows();
    for (const col of fresh) {
      const keys = all.filter((c) => have.has(c.key) || c === col).map((c) => c.key);
      const at = keys.indexOf(col.key) + 1; // its 1-based column once inserted
      this.requireRoom(rows, this.room(false));
      this.growing(rows, () => (at > sheet.getMaxColumns() ? sheet.insertColumnsAfter(at - 1, 1) : sheet.insertColumnsBefore(at, 1)));
      sheet.getRange(1, at).setValue(safeText(col.header));
      sheet.setColumnWidth(at, col.width);
      const format = numberFormatFor(col.kind, mp);
      if (format && rows > 1) sheet.getRange(2, at, rows - 1, 1).setNumberFormat(format);
      have.add(col.key);
      cp.cols = keys;
      // The tab and the checkpoint must agree on the columns before any row is written under them.
      this.save();
      env.budget.chargeWrite(rows, 4);
    }
  }

  /** Header, column formats and widths, filter, frozen header and the profit/ROI rules: once, by column block. */
  private layoutProducts(sheet: Sheet, mp: Marketplace): void {
    const { env, cp } = this;
    const block = resultBlock([], layoutContext(cp, mp));
    const cols = block.headers.length;
    // The header and one row: the rows are added as they come (ensureRows), after the room is read.
    this.fitGrid(sheet, 2, cols);
    const header = sheet.getRange(1, 1, 1, cols);
    // Custom column names are the supplier's own header cells: guarded like every other text.
    header.setValues([block.headers.map((h) => safeText(h))]);
    header.setFontWeight('bold');
    // How the figures a seller decides on are computed (ROI, expected share, costs): on their header cells.
    // The ASIN header says which scan this is and how many rows it had (Compare reads an untouched tab by it).
    header.setNotes([[scanNote(cp.scanId, cp.marketplace, cp.productsTotal, !!cp.filtered), ...block.notes.slice(1)]]);
    sheet.setFrozenRows(1);
    // ASIN and Title stay in view while the seller reads across the row.
    sheet.setFrozenColumns(FROZEN_COLUMNS);
    // Three writes (header, bold, notes); the frozen panes and widths are cheap calls.
    env.budget.chargeWrite(cols, 3);
    env.budget.charge(WORK_COST.cheapCallMs * (2 + setWidths(sheet, block.widths)));
  }

  /** When every row is in: the grid exactly the rows (a table of none keeps one empty row), filter and profit/ROI rules. Idempotent. */
  private finishProducts(sheet: Sheet): void {
    const rows = this.cp.productsTotal;
    const columns = stagedColumns(this.cp);
    const cols = columns.length;
    this.fitGrid(sheet, Math.max(2, rows + 1), cols);
    if (!sheet.getFilter()) sheet.getRange(1, 1, rows + 1, cols).createFilter();
    if (rows > 0)
      signColourRules(
        sheet,
        rows,
        ['profit', 'roi'].map((key) => columnIndex(columns, key)).filter((c) => c >= 0),
        verdictColourRules(sheet, rows, columnIndex(columns, 'verdict')),
      );
    this.env.budget.chargeWrite(0, 3);
  }

  /** After the service's error rows: the rows skipped before the upload, in one write (idempotent: same rows, same place). */
  private writeNotSent(): void {
    const { env, cp } = this;
    if (!cp.notSent) return;
    const record = readNotSent(env.props, cp.scanId);
    const sheet = sheetById(env.ss, cp.errorsStagingId);
    if (!record || !sheet) return;
    const { width } = errorsHeaders(cp);
    const rows = notSentRows(record)
      .slice(0, cp.notSent)
      .map((r) => [r[0], r[1], r[2] ? safeText(r[2]) : '', safeText(r[3])].concat(new Array(Math.max(0, width - 4)).fill('')));
    sheet.getRange(cp.errorsTotal + 2, 1, rows.length, width).setValues(rows);
    env.budget.chargeWrite(rows.length * width, 1);
  }

  private layoutErrors(sheet: Sheet): void {
    const { env, cp } = this;
    const base = errorsBlock([], { sheetRowField: cp.sheetRowField });
    const { headers, width } = errorsHeaders(cp);
    const total = cp.errorsTotal + (cp.notSent || 0);
    this.fitGrid(sheet, Math.max(2, total + 1), width);
    const header = sheet.getRange(1, 1, 1, width);
    header.setValues([headers.map((h) => safeText(h))]);
    header.setFontWeight('bold');
    // Which scan's rows these are: a re-import finds this tab by it when the document's records are gone.
    sheet.getRange(1, 1).setNote(errorsNote(cp.scanId));
    sheet.setFrozenRows(1);
    base.widths.forEach((w, i) => sheet.setColumnWidth(i + 1, w));
    if (width > base.widths.length) sheet.setColumnWidths(base.widths.length + 1, width - base.widths.length, 120);
    for (const run of formatRuns(base.formats))
      if (total > 0) sheet.getRange(2, run.start + 1, total, run.count).setNumberFormat(run.format);
    sheet.getRange(1, 1, total + 1, width).createFilter();
    env.budget.chargeWrite(total * 2 + width, 6 + base.widths.length);
  }

  /**
   * On resume: rows below the checkpoint came from an execution that did not live to record them.
   * False when the products tab's columns are not the checkpoint's (a column insert cut short).
   */
  trimStaging(): boolean {
    const { env, cp } = this;
    const products = sheetById(env.ss, cp.stagingId);
    if (products && cp.cols && products.getMaxColumns() !== cp.cols.length) return false;
    const parts: Array<[number | null, number]> = [
      [cp.stagingId, cp.productsDone],
      // In the swap phase the rows skipped before the upload are already written below the error rows.
      [cp.errorsStagingId, cp.errorsDone + (cp.phase === 'swap' ? cp.notSent || 0 : 0)],
    ];
    for (const [id, done] of parts) {
      const s = sheetById(env.ss, id);
      if (s && this.clearBelow(s, done + 1)) env.budget.chargeWrite(0);
    }
    return true;
  }

  private rowsDone(table: Table): number {
    return table === 'products' ? this.cp.productsDone : this.cp.errorsDone;
  }

  /**
   * Copies the rest of one table into its staging tab, wave by wave, saving the checkpoint after each.
   * Returns false when it stopped for time (the checkpoint says where).
   */
  private copyRows(table: Table, first: Page | undefined): boolean {
    const { env, cp } = this;
    const total = table === 'products' ? cp.productsTotal : cp.errorsTotal;
    const sheet = sheetById(env.ss, table === 'products' ? cp.stagingId : cp.errorsStagingId);
    let pending: Page | undefined = first;
    while (this.rowsDone(table) < total) {
      if (!sheet) throw new Error('The staging tab of this import disappeared; import the scan again.');
      const wave = planWave(this.rowsDone(table), total, env.tuning.pagesPerWave);
      if (env.waves > 0 && !(env.budget.fits(this.waveCost(table, wave.rows)) && this.fitsCall(table, wave))) {
        this.save();
        return false;
      }
      const before = env.budget.used();
      // Room before the rows are fetched: a wave that would not fit stops here, the rows so far kept.
      if (table === 'products') this.ensureRows(sheet, wave.done + wave.rows + 1);
      const rows = this.fetchWave(table, total, wave, pending);
      pending = undefined;
      this.writeWave(table, sheet, rows, wave.done);
      this.save();
      env.waves++;
      this.msPerRow[table] = (env.budget.used() - before) / Math.max(1, wave.rows);
    }
    return true;
  }

  /**
   * Whether the next wave (and the swap after it, when it is the last) still belongs in this sidebar
   * call. An import that would run past the call's budget is split into calls of about equal length,
   * each within it, planned from this call's first wave on; when that wave alone ran past it (a slow
   * service or Sheets), the import's budget alone decides, as before.
   */
  private fitsCall(table: Table, wave: Wave): boolean {
    const target = this.env.callBudgetMs;
    if (!target) return true;
    const used = this.env.budget.used();
    if (this.callLimit === undefined) {
      const total = used + this.restMs();
      this.callLimit = used > target ? null : total <= target ? target : total / Math.ceil(total / target);
    }
    if (this.callLimit === null) return true;
    const last = wave.done + wave.rows >= this.tableTotal(table) && (table === 'errors' || this.errorsLeft() === 0);
    return used + this.expectedWaveMs(table, wave.rows) + (last ? SWAP_MS : 0) <= this.callLimit;
  }

  /** Expected ms of a wave: the planned cost, or what this call's last wave of the table took a row, whichever is more. */
  private expectedWaveMs(table: Table, rows: number): number {
    return Math.max(this.waveCost(table, rows), (this.msPerRow[table] || 0) * rows);
  }

  /** Expected ms of the rest of the import: the waves left in each table, then the swap. */
  private restMs(): number {
    let ms = SWAP_MS;
    for (const table of ['products', 'errors'] as const) {
      const total = table === 'products' ? this.tableTotal(table) : this.rowsDone(table) + this.errorsLeft();
      for (let done = this.rowsDone(table); done < total; ) {
        const wave = planWave(done, total, this.env.tuning.pagesPerWave);
        ms += this.expectedWaveMs(table, wave.rows);
        done += wave.rows;
      }
    }
    return ms;
  }

  private tableTotal(table: Table): number {
    return table === 'products' ? this.cp.productsTotal : this.cp.errorsTotal;
  }

  /** Error rows still to copy (none for a filtered import: it has no errors tab). */
  private errorsLeft(): number {
    return this.cp.filtered ? 0 : this.cp.errorsTotal - this.cp.errorsDone;
  }

  /** Expected cost of a wave: one fetch round (about a second and a half) and the writes. */
  private waveCost(table: Table, rows: number): number {
    const cols = table === 'errors' ? errorsHeaders(this.cp).width : stagedColumns(this.cp).length;
    return 1500 + WORK_COST.writeCallMs * 3 + rows * (cols + 1) * WORK_COST.writeCellMs + WORK_COST.propertyWriteMs;
  }

  /** The wave's rows not yet in the tab: its pages fetched (the first page of a new import is already read) and checked. */
  private fetchWave(table: Table, total: number, wave: Wave, pending: Page | undefined): unknown[] {
    const cp = this.cp;
    const got = new Map<number, Page>();
    const toFetch: number[] = [];
    for (const p of wave.pages) {
      if (p === 1 && pending && wave.done === 0) got.set(1, pending);
      else toFetch.push(p);
    }
    if (toFetch.length) {
      const answers = fetchScanParts(
        this.env,
        toFetch.map((p) => resultsPart(cp.scanId, table, p, table === 'products' ? cp : null)),
      );
      toFetch.forEach((p, i) => got.set(p, readResultsPage(okBody(answers[i]))));
    }
    let rows: unknown[] = [];
    let previous = cp.lastPage;
    for (const p of wave.pages) {
      const page = got.get(p)!;
      previous = checkPage(table, total, p, page, previous);
      rows = rows.concat(page.data);
    }
    cp.lastPage = previous;
    // Rows of the first page may already be partly in (never: done is a multiple of PER_PAGE unless the table is complete).
    return rows.slice(wave.done - (wave.pages[0] - 1) * PER_PAGE);
  }

  /** A wave's rows into the staging tab below the `done` rows so far, and counted in the checkpoint. */
  private writeWave(table: Table, sheet: Sheet, rows: unknown[], done: number): void {
    const cp = this.cp;
    if (rows.length && table === 'products') {
      const mp = findMarketplace(cp.marketplace)!;
      this.addColumns(sheet, rows as Product[], mp);
      this.writeProducts(sheet, mp, rows as Product[], done);
      cp.summary = addToSummary(cp.summary || emptySummary(), rows as Product[], cp.decision);
    } else if (rows.length) this.writeErrors(sheet, rows as Record<string, unknown>[], done);
    if (table === 'products') cp.productsDone = done + rows.length;
    else cp.errorsDone = done + rows.length;
  }

  private writeProducts(sheet: Sheet, mp: Marketplace, products: Product[], done: number): void {
    const block = resultBlock(products, layoutContext(this.cp, mp, done + 2));
    const n = products.length;
    const cols = block.headers.length;
    const asinCol = columnIndex(block.columns, 'asin');
    // The ASIN column (the first) is written once, as rich text below; the values start right of it.
    if (asinCol === 0 && cols > 1) sheet.getRange(done + 2, 2, n, cols - 1).setValues(block.values.map((r) => r.slice(1)));
    else sheet.getRange(done + 2, 1, n, cols).setValues(block.values);
    // The ASIN column as rich text: the link is ours, the text stays text (never a formula).
    if (asinCol >= 0) {
      // One builder for the wave (each newRichTextValue is a service call); setText starts each value
      // afresh and a null link clears any left from the previous row.
      const b = newRichText();
      const rich = products.map((p, i) => {
        // (rich text is not parsed, so not guarded; held within a cell like every text)
        const text = fitCell(textOf(p.asin), CELL_MAX_CHARS);
        const url = block.urls[i];
        b.setText(text).setLinkUrl(url && text ? url : null);
        return [b.build()];
      });
      sheet.getRange(done + 2, asinCol + 1, n, 1).setRichTextValues(rich);
    }
    // The verdict's reasons, in its cells' notes: one write for the wave (notes are never parsed as formulas).
    const verdictCol = columnIndex(block.columns, 'verdict');
    if (verdictCol >= 0)
      sheet.getRange(done + 2, verdictCol + 1, n, 1).setNotes(products.map((p) => [fitCell(verdictNote(verdictOf(p)), CELL_MAX_CHARS)]));
    // Rows tall enough for their picture: one call for the wave.
    const pictured = columnIndex(block.columns, PICTURE_COLUMN.key) >= 0;
    if (pictured) sheet.setRowHeights(done + 2, n, PICTURE_ROW_HEIGHT);
    this.env.budget.chargeWrite(n * cols, (verdictCol >= 0 ? 3 : 2) + (pictured ? 1 : 0));
  }

  private writeErrors(sheet: Sheet, rows: Record<string, unknown>[], done: number): void {
    const shape = errorsHeaders(this.cp);
    const block = errorsBlock(rows, { sheetRowField: this.cp.sheetRowField });
    const values = block.values.map((v, i) => v.concat(inputCells(rows[i].input, shape.inputWidth)));
    sheet.getRange(done + 2, 1, rows.length, shape.width).setValues(values);
    this.env.budget.chargeWrite(rows.length * shape.width, 1);
  }

  /**
   * Replaces the visible tabs with the complete staging tabs. Idempotent: a swap cut short by the
   * time limit finishes the same way in the next call (final names are fixed in the checkpoint first).
   */
  private swap(): void {
    const { env, cp } = this;
    const ss = env.ss;
    const rec = readTabRecord(env.props, cp.scanId);
    // A filtered import replaces the scan's filtered tab and leaves the full one (and its errors) alone.
    const old = rec ? sheetById(ss, cp.filtered ? (rec.filteredSheetId ?? null) : rec.sheetId) : null;
    const oldErrors = rec && !cp.filtered ? sheetById(ss, rec.errorsSheetId) : null;
    const staging = sheetById(ss, cp.stagingId);
    const errorsStaging = sheetById(ss, cp.errorsStagingId);
    if (!staging) throw new Error('The staging tab of this import disappeared; import the scan again.');
    this.finishProducts(staging);
    if (cp.finalName === null) this.fixNames(old, oldErrors, errorsStaging !== null);
    if (old) ss.deleteSheet(old);
    if (oldErrors) ss.deleteSheet(oldErrors);
    this.reveal(staging, cp.finalName!);
    if (errorsStaging) this.reveal(errorsStaging, cp.finalErrorsName!);
    this.makeOverview(rec);
    this.recordTabs(rec);
    this.forget();
    // The skipped rows are in the errors tab now; the store keeps no second copy (a re-import reads the tab).
    if (!cp.filtered) forgetNotSent(env.props, cp.scanId);
    // The user asked for these results (or is told by a toast): show them.
    staging.activate();
    env.budget.charge(WORK_COST.propertyWriteMs * 2 + WORK_COST.writeCallMs * 6);
  }

  /**
   * The scan's "<name> – Overview" tab (issue 36): the staged overview tab filled with ONE setValues
   * of formulas over the result tab and shown after it; the scan's earlier overview is replaced.
   * Idempotent: a swap cut short writes the same cells again.
   */
  private makeOverview(rec: TabRecord | null): void {
    const { env, cp } = this;
    const ss = env.ss;
    let sheet = sheetById(ss, cp.overviewId ?? null);
    if (!sheet && !cp.filtered) {
      // Not staged at the start (no time then): made now, its room checked first.
      this.requireRoom(NEW_TAB_CELLS);
      sheet = this.createHidden('~import ' + cp.scanId + ' overview', sheetById(ss, cp.stagingId)?.getIndex());
      cp.overviewId = sheet.getSheetId();
      this.save();
    }
    if (!sheet) return;
    const old = sheetById(ss, rec ? (rec.overviewSheetId ?? null) : null);
    if (old && old.getSheetId() !== sheet.getSheetId()) ss.deleteSheet(old);
    const name = overviewTabName(cp.finalName!);
    // A workbook reopened from .xlsx has no record: its overview is known by its name and its own title.
    const named = ss.getSheetByName(name);
    if (named && named.getSheetId() !== sheet.getSheetId() && named.getRange(1, 1).getValue() === overviewTitle(cp.finalName!))
      ss.deleteSheet(named);
    const grid = overviewGrid(cp, stagedColumns(cp));
    if (!grid.rows) return ss.deleteSheet(sheet);
    this.fitGrid(sheet, grid.rows, grid.width);
    const all = sheet.getRange(1, 1, grid.rows, grid.width);
    all.setValues(grid.cells);
    all.setNumberFormats(overviewNumberFormats(grid.cells, findMarketplace(cp.marketplace)!.moneyFormat));
    sheet.getRange(1, 1).setFontWeight('bold');
    for (const [row, n] of overviewPictureRows(grid.cells)) sheet.setRowHeights(row, n, PICTURE_ROW_HEIGHT);
    // Wide enough for the title and the top list's headings, ASIN and title (the playground cuts, Sheets overflows).
    sheet.setColumnWidth(1, 260);
    sheet.setColumnWidth(2, 170);
    sheet.setColumnWidth(3, 120);
    if (grid.width > 3) sheet.setColumnWidth(4, 280);
    const others = ss
      .getSheets()
      .filter((s) => s.getSheetId() !== sheet.getSheetId())
      .map((s) => s.getName());
    this.reveal(sheet, tabName(cp.finalName!, others, { suffix: ' – Overview' }));
    env.budget.chargeWrite(grid.rows * grid.width * 2, 10);
  }

  /** The final names, fixed in the checkpoint before any tab is renamed. Re-import keeps the tab's current name (the user may have renamed it). */
  private fixNames(old: Sheet | null, oldErrors: Sheet | null, hasErrors: boolean): void {
    const cp = this.cp;
    const others = this.env.ss
      .getSheets()
      .filter((s) => s.getSheetId() !== cp.stagingId && s.getSheetId() !== cp.errorsStagingId && s !== old && s !== oldErrors)
      .map((s) => s.getName());
    const finalName = old
      ? old.getName()
      : tabName(cp.scanName, others, { suffix: cp.filtered ? ' (filtered)' : '', fallback: 'Scan ' + cp.scanId });
    cp.finalName = finalName;
    cp.finalErrorsName = hasErrors
      ? oldErrors
        ? oldErrors.getName()
        : tabName(finalName, others.concat([finalName]), { suffix: ' – errors' })
      : null;
    cp.phase = 'swap';
    this.save();
  }

  /** The scan's tab record: the new tabs in place of the old. */
  private recordTabs(rec: TabRecord | null): void {
    const { env, cp } = this;
    if (cp.filtered) {
      // The full tab (when there is one) stays what it was; only the filtered slot changes.
      const full = rec && sheetById(env.ss, rec.sheetId) ? rec : null;
      withRoom(env.props, cp.scanId, () =>
        writeTabRecord(env.props, cp.scanId, {
          ...(full || {}),
          sheetId: full ? full.sheetId : -1,
          errorsSheetId: full ? full.errorsSheetId : null,
          filteredSheetId: cp.stagingId,
          marketplace: cp.marketplace,
        }),
      );
      return;
    }
    const summary = cp.summary ? summaryText(cp.summary, findMarketplace(cp.marketplace)!.moneyFormat, cp.decision) : undefined;
    withRoom(env.props, cp.scanId, () =>
      writeTabRecord(env.props, cp.scanId, {
        sheetId: cp.stagingId,
        errorsSheetId: cp.errorsStagingId,
        ...(rec && rec.filteredSheetId !== undefined ? { filteredSheetId: rec.filteredSheetId } : {}),
        ...(summary ? { summary } : {}),
        marketplace: cp.marketplace,
        // Compare reads an untouched tab instead of the service: one with this many product rows.
        rows: cp.productsDone,
        ...(cp.overviewId !== undefined ? { overviewSheetId: cp.overviewId } : {}),
      }),
    );
  }
}

/** One wave of a table: the rows in so far, the pages to copy, and the rows they bring. */
interface Wave {
  done: number;
  pages: number[];
  rows: number;
}

function planWave(done: number, total: number, perWave: number): Wave {
  const firstPage = Math.floor(done / PER_PAGE) + 1;
  const lastPage = Math.ceil(total / PER_PAGE);
  const pages: number[] = [];
  for (let p = firstPage; p <= lastPage && pages.length < perWave; p++) pages.push(p);
  return { done, pages, rows: Math.min(total, (firstPage + pages.length - 1) * PER_PAGE) - done };
}

/**
 * A page must be the one asked for: the table's count unchanged, not the rows of the page before,
 * and as long as the count means. Returns its signature (the next page's `previous`).
 */
function checkPage(table: Table, total: number, p: number, page: Page, previous: string | undefined): string {
  const what = table === 'products' ? 'results' : 'error rows';
  if (page.count !== total)
    throw new ResultsChanged(
      `The Scan Service's count of this scan's ${what} changed while importing (${countText(total)}, then ${countText(page.count)}), so the rows staged so far were dropped. Import the scan again: it starts from the first row.`,
    );
  // A page with the same rows as the one before: the service ignored which page was asked for.
  const sig = pageSignature(page.data);
  if (page.data.length && p > 1 && sig === previous)
    throw new Error(
      `The Scan Service answered page ${p} of this scan's ${what} with the same rows as page ${p - 1} (it seems to ignore which page is asked for), so nothing was imported: a tab of repeated rows would not be the scan's results. Try again later; if it happens again, tell the Scan Service's support.`,
    );
  const expected = Math.min(PER_PAGE, total - (p - 1) * PER_PAGE);
  if (page.data.length !== expected)
    throw new ResultsChanged(
      `The Scan Service sent page ${p} of this scan's ${what} with ${page.data.length} rows where its count (${countText(total)}) means ${expected}, so the rows staged so far were dropped. Import the scan again: it starts from the first row.`,
    );
  return sig;
}

/** Widths: one call per run of equal widths. Returns the calls made. */
function setWidths(sheet: Sheet, widths: readonly number[]): number {
  const cols = widths.length;
  let calls = 0;
  let i = 0;
  while (i < cols) {
    let j = i;
    while (j + 1 < cols && widths[j + 1] === widths[i]) j++;
    if (j > i) sheet.setColumnWidths(i + 1, j - i + 1, widths[i]);
    else sheet.setColumnWidth(i + 1, widths[i]);
    calls++;
    i = j + 1;
  }
  return calls;
}

/**
 * How the supplier's columns of a scan are labelled: by what this add-on SENT (the scan's own record),
 * checked against the service's copy; else by the service's mapping; else (a scan started elsewhere,
 * answered without a mapping) the columns whose place only the mapping tells are left blank
 * (`unlabelled`: the custom columns and the pack quantity, which the service fills with 1 when none
 * was uploaded). The service's record may lack mapping, lines and marketplace_id (the vendor's client).
 */
export function uploadLabels(
  sent: SentRecord | null,
  scan: { mapping: Record<string, unknown>; lines: number; marketplace: string | number },
  options: { custom_columns?: unknown; marketplace_id?: unknown },
): { mapping: UploadMapping; customColumns: string[]; marketplace: Marketplace; unlabelled: string[] } {
  const serviceMp = findMarketplace(String(scan.marketplace || options.marketplace_id || ''));
  const serviceHasMapping = typeof scan.mapping.id === 'number';
  const names = Array.isArray(options.custom_columns) ? options.custom_columns.map((c) => String(c)) : [];
  if (sent) {
    const sentMp = findMarketplace(sent.marketplace);
    // The record is this scan's unless the service says otherwise (a service reset reuses scan ids).
    const same =
      (!serviceHasMapping || sameMapping(scan.mapping, sent.mapping)) &&
      (!(scan.lines > 0) || !(sent.lines > 0) || scan.lines === sent.lines) &&
      (!serviceMp || !sentMp || serviceMp.code === sentMp.code);
    if (same)
      return {
        mapping: sent.mapping as UploadMapping,
        customColumns: sent.custom,
        marketplace: sentMp || serviceMp || findMarketplace('US')!,
        unlabelled: [],
      };
  }
  const marketplace = serviceMp || findMarketplace('US')!;
  if (serviceHasMapping) return { mapping: scan.mapping as UploadMapping, customColumns: names, marketplace, unlabelled: [] };
  return {
    mapping: {},
    customColumns: names,
    marketplace,
    unlabelled: names.map((_n, i) => 'custom:' + i).concat(['supplier_pack_quantity']),
  };
}

/** Two upload mappings name the same columns (member order aside). */
function sameMapping(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const norm = (m: Record<string, unknown>) =>
    JSON.stringify(
      Object.keys(m)
        .filter((k) => m[k] !== null && m[k] !== undefined)
        .sort()
        .map((k) => [k, m[k]]),
    );
  return norm(a) === norm(b);
}

/** Keys of the columns with a value in at least one of the products. */
function filledKeys(all: readonly LayoutColumn[], products: readonly Product[], mp: Marketplace): string[] {
  const ctx = { marketplace: mp, links: 'text' as const };
  return all.filter((c) => products.some((p) => cellValue(c, p, ctx) !== '')).map((c) => c.key);
}

/** The columns this import may write: the scan's layout less the ones omitted for it. */
function allowedColumns(cp: ImportCheckpoint): LayoutColumn[] {
  const omit = new Set(cp.omit || []);
  return resultColumns(cp.customColumns, !!cp.historical, cp.decision, columnSetOf(cp.columnSet)).filter((c) => !omit.has(c.key));
}

/** The overview's cells over the result tab's `columns`, padded to one width (cells.length: its rows). */
function overviewGrid(
  cp: ImportCheckpoint,
  columns: readonly LayoutColumn[],
): { cells: (string | number)[][]; rows: number; width: number } {
  const cells = overviewCells(
    cp.finalName || cp.scanName,
    new Map(columns.map((c, i) => [c.key, i] as [string, number])),
    cp.productsTotal,
  );
  const width = Math.max(1, ...cells.map((r) => r.length));
  return { cells: cells.map((r) => r.concat(new Array(width - r.length).fill(''))), rows: cells.length, width };
}

/** The staging tab's columns (cp.cols of the scan's layout). */
function stagedColumns(cp: ImportCheckpoint): LayoutColumn[] {
  return selectColumns(resultColumns(cp.customColumns, !!cp.historical, cp.decision, columnSetOf(cp.columnSet)), cp.cols);
}

/** The result tab's layout context: the same in the header, every wave and the estimate. */
function layoutContext(cp: ImportCheckpoint, mp: Marketplace, firstRow = 2): LayoutContext {
  return {
    marketplace: mp,
    customColumns: cp.customColumns,
    links: 'text',
    historical: !!cp.historical,
    decision: cp.decision,
    only: cp.cols,
    blank: cp.unlabelled,
    columnSet: columnSetOf(cp.columnSet),
    firstRow,
  };
}

const GREEN = '#d9ead3';

const RED = '#f4cccc';

const AMBER = '#fce8b2';

const GREY = '#efefef';

const VERDICT_COLOURS: ReadonlyArray<readonly [VerdictWord, string]> = [
  ["Can't send to FBA", RED],
  ['Blocked brand', RED],
  ['Check', AMBER],
  ['No profit', GREY],
  ['Buy', GREEN],
];

/**
 * The red-below-0 / green-above-0 rules of result tabs on the given columns (0-based) of rows 2..rows+1,
 * so that every tab with money or percent figures (results, Changes) colours them alike.
 */
export function signColourRules(
  sheet: Sheet,
  rows: number,
  columns: readonly number[],
  extra: readonly GoogleAppsScript.Spreadsheet.ConditionalFormatRule[] = [],
): void {
  const rules: GoogleAppsScript.Spreadsheet.ConditionalFormatRule[] = [];
  for (const c of columns) {
    const range = sheet.getRange(2, c + 1, rows, 1);
    rules.push(newConditionalFormat().whenNumberLessThan(0).setBackground(RED).setRanges([range]).build());
    rules.push(newConditionalFormat().whenNumberGreaterThan(0).setBackground(GREEN).setRanges([range]).build());
  }
  sheet.setConditionalFormatRules(rules.concat(extra));
}

/** The verdict column (0-based; -1: none) coloured by its word: red when it cannot be bought, amber to check, green to buy. */
function verdictColourRules(sheet: Sheet, rows: number, column: number): GoogleAppsScript.Spreadsheet.ConditionalFormatRule[] {
  if (column < 0) return [];
  const range = sheet.getRange(2, column + 1, rows, 1);
  return VERDICT_COLOURS.map(([word, colour]) =>
    newConditionalFormat().whenTextEqualTo(word).setBackground(colour).setRanges([range]).build(),
  );
}

function errorsHeaders(cp: ImportCheckpoint): { headers: string[]; width: number; inputWidth: number } {
  const inputWidth = uploadWidth(cp.mapping);
  const headers = errorsBlock([], { sheetRowField: cp.sheetRowField }).headers.concat(
    inputHeaders(inputWidth, cp.mapping, cp.customColumns),
  );
  return { headers, width: headers.length, inputWidth };
}

/** The unfinished import of a scan, for the trigger and the sidebar. */
/** Drops the unfinished import's checkpoint of a scan (its staging tabs are the caller's). */
export function forgetPendingImport(props: GoogleAppsScript.Properties.Properties, scanId: number): void {
  IMPORT_CHECKPOINT.remove(props, scanId);
}

export function pendingImport(props: GoogleAppsScript.Properties.Properties, scanId: number): ImportCheckpoint | null {
  return IMPORT_CHECKPOINT.get(props, scanId);
}

/** Scans with an import under way (checkpoint kept) in this document. */
export function pendingImportIds(props: GoogleAppsScript.Properties.Properties): number[] {
  return importKeyIds(props.getKeys());
}
