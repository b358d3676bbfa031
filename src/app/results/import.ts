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
import type { ClientDeps, ServiceSettings } from '../../api/client';
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
import { ApiProblemError, isRetryable } from '../../api/problems';
import type { FetchRequest, HttpResponseLike, UrlFetchLike } from '../../api/services';
import { findMarketplace, type Marketplace } from '../../../contract/marketplaces';
import {
  cellValue,
  columnIndex,
  errorsBlock,
  FROZEN_COLUMNS,
  resultBlock,
  resultColumns,
  numberFormatFor,
  selectColumns,
  sheetRowField,
  omittedColumns,
  type LayoutColumn,
  type LayoutContext,
  type Product,
} from '../../domain/result-tabs/layout';
import { fullMessage, NEW_TAB_CELLS } from '../../domain/price-list/room';
import { isCellLimitError, readRoom, SpreadsheetFullError } from '../records/room';
import { CELL_MAX_CHARS, fitCell, safeText, textOf } from '../../domain/sheet/safe';
import { errorsNote, scanNote } from '../../domain/result-tabs/changes';
import { dailyQuotaOf } from '../quota-errors';
import { importKey, importKeyIds } from '../../store/keys';
import { readTuning, type ImportTuning } from '../records/import-tuning';
import { adoptNotedTabs, readTabRecord, sheetById, writeTabRecord } from '../records/tabs';
import { forgetNotSent, notSentFromErrorRows, notSentRows, readNotSent, recordNotSent, withRoom, type NotSent } from '../records/not-sent';
import { readDecision, readSent, type SentRecord } from '../records/decision';
import { withDocumentLock } from '../../store/locks';
import {
  activeSpreadsheet,
  clientDeps,
  EXECUTION_LIMIT_MS,
  documentProperties,
  newConditionalFormat,
  newRichText,
} from '../../apps-script';
import { asSidebarCall, serviceSettings } from '../context';
import { forgetRunningScan } from '../scan/running';
import type { ImportProgress, ImportRequest } from './protocol';
import { tabName } from '../../domain/sheet/tab-name';
import {
  apiFilters,
  decodeCheckpoint,
  encodeCheckpoint,
  formatRuns,
  inputCells,
  inputHeaders,
  requestKey,
  uploadWidth,
  WorkBudget,
  WORK_COST,
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
type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/** Rows per results page: the API's maximum. */
export const PER_PAGE = 100;
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
    const env = gasImportEnv();
    const result = withDocumentLock(() => runImport(id, request, env));
    // Imported: no longer one of this document's scans waiting for results.
    if (result.done) forgetRunningScan(id);
    return result;
  });
}

export interface ImportEnv {
  ss: Spreadsheet;
  props: GoogleAppsScript.Properties.Properties;
  settings: ServiceSettings;
  deps: ClientDeps;
  budget: WorkBudget;
  tuning: ImportTuning;
  /** Clock time by which every API attempt must be over (the client's retries stop there). */
  deadline: number;
  /** Waves copied in this execution: the first always runs, so every call makes progress. */
  waves: number;
}

/** The real services, with a fetcher that charges each wave to the budget. */
export function gasImportEnv(tuning: ImportTuning = readTuning()): ImportEnv {
  const startedAt = Date.now();
  const budget = new WorkBudget(() => Date.now(), startedAt, tuning.budgetMs);
  const base = clientDeps();
  return {
    ss: activeSpreadsheet(),
    props: documentProperties(),
    settings: serviceSettings(),
    deps: { ...base, fetcher: chargingFetcher(base.fetcher, budget) },
    budget,
    tuning,
    deadline: startedAt + EXECUTION_LIMIT_MS - 45000,
    waves: 0,
  };
}

/** UrlFetchApp with every fetchAll charged to the budget (its real duration and its size). */
export function chargingFetcher(fetcher: UrlFetchLike, budget: WorkBudget): UrlFetchLike {
  return {
    fetchAll(requests: FetchRequest[]): HttpResponseLike[] {
      const t0 = Date.now();
      const answers = fetcher.fetchAll(requests);
      let largest = 0;
      for (const a of answers) largest = Math.max(largest, a.getContentText().length);
      budget.chargeFetch(requests.length, largest, Date.now() - t0);
      return answers;
    },
  };
}

// ---- The import -----------------------------------------------------------------------------------

type Page = ResultsPage;

function resultsPart(scanId: number, table: ResultsTable, page: number, query: ScanQuery | null): ScanPart {
  return { results: scanId, table, page, perPage: PER_PAGE, query };
}

function saveCheckpoint(env: ImportEnv, cp: ImportCheckpoint): void {
  // A full store must not stop the import: other scans' not-sent records give way first.
  withRoom(env.props, cp.scanId, () => env.props.setProperty(importKey(cp.scanId), encodeCheckpoint(cp)));
  env.budget.charge(WORK_COST.propertyWriteMs);
}

function dropStaging(env: ImportEnv, cp: ImportCheckpoint): void {
  for (const id of [cp.stagingId, cp.errorsStagingId]) {
    const s = sheetById(env.ss, id);
    if (s) env.ss.deleteSheet(s);
  }
  env.props.deleteProperty(importKey(cp.scanId));
}

/** One import step: starts or continues, and returns where it got to. */
export function runImport(scanId: number, request: ImportRequest | null, env: ImportEnv): ImportProgress {
  let cp = decodeCheckpoint(env.props.getProperty(importKey(scanId)));
  env.budget.charge(WORK_COST.propertyReadMs);
  const key = requestKey(request);
  // A continuation: same request (or none). Its staging tabs must still be there.
  if (cp && request !== null && cp.request !== key) {
    dropStaging(env, cp);
    cp = null;
  }
  if (cp && (!sheetById(env.ss, cp.stagingId) || (cp.errorsStagingId !== null && !sheetById(env.ss, cp.errorsStagingId)))) {
    dropStaging(env, cp);
    cp = null;
  }
  // The service's count is read, not trusted: when a later answer gives another count (or a page
  // of another length), what was staged under the old count is dropped and the import begins
  // again from a fresh first page, once in this call (a count that lied once heals at once).
  for (let attempt = 1; ; attempt++) {
    const prefetched: { products?: Page; errors?: Page } = {};
    try {
      if (cp && !trimStaging(env, cp)) {
        // A column inserted by an execution killed before its checkpoint: the tab no longer matches it.
        dropStaging(env, cp);
        cp = null;
      }
      if (!cp) {
        // Tabs of this scan left by an import whose record is gone (an .xlsx reopened, a copy): replaced, not doubled.
        adoptNotedTabs(env.ss, env.props, scanId);
        cp = begin(scanId, request, key, env, prefetched);
      }
      if (cp.phase === 'products') {
        if (!copyRows(env, cp, 'products', prefetched.products)) return progress(cp, false, env);
        cp.phase = cp.filtered ? 'swap' : 'errors';
        saveCheckpoint(env, cp);
      }
      if (cp.phase === 'errors') {
        if (!copyRows(env, cp, 'errors', prefetched.errors)) return progress(cp, false, env);
        writeNotSent(env, cp);
        cp.phase = 'swap';
      }
      swap(env, cp);
      return progress(cp, true, env);
    } catch (e) {
      // Kept for a retry only when waiting helps (service busy or down, a daily quota of Google):
      // what is staged is correct and the next call continues. Anything else (key refused, scan
      // gone, an answer that cannot be right, a write Sheets refused) drops the staging tabs and
      // the checkpoint: no hidden tab outlives a failed try, and "import again" starts afresh.
      // A full spreadsheet keeps what is staged too: the import continues once the user made room.
      const keep =
        (e instanceof ApiProblemError && isRetryable(e.problem)) || dailyQuotaOf(e) !== null || e instanceof SpreadsheetFullError;
      if (cp && !keep) dropStaging(env, cp);
      if (e instanceof ResultsChanged && attempt === 1) {
        cp = null;
        continue;
      }
      throw e;
    }
  }
}

/** The service's answers disagree with what this import was staged for (its count, a page's length). */
class ResultsChanged extends Error {}

function progress(cp: ImportCheckpoint, done: boolean, env: ImportEnv): ImportProgress {
  const name = done ? cp.finalName! : tabName(cp.scanName, [], { fallback: 'Scan ' + cp.scanId });
  const errorsName = done ? cp.finalErrorsName : null;
  let message: string;
  if (done) {
    message = `Imported ${cp.productsTotal} product${cp.productsTotal === 1 ? '' : 's'} into "${name}"`;
    const skipped = cp.notSentTotal || 0;
    const rows = (n: number) => `${n} row${n === 1 ? '' : 's'}`;
    if (cp.filtered) message += ` (the rows your filters keep; the full results stay in their own tab).`;
    else if (cp.errorsTotal && skipped)
      message += `; ${rows(cp.errorsTotal)} the service could not use and ${rows(skipped)} skipped before sending are in "${errorsName}".`;
    else if (cp.errorsTotal)
      message += `; ${rows(cp.errorsTotal)} the service could not use ${cp.errorsTotal === 1 ? 'is' : 'are'} in "${errorsName}".`;
    else if (skipped) message += `; ${rows(skipped)} skipped before sending ${skipped === 1 ? 'is' : 'are'} in "${errorsName}".`;
    else message += '.';
  } else {
    const rows = cp.productsDone + cp.errorsDone;
    message = `Imported ${rows} of ${cp.productsTotal + cp.errorsTotal} rows so far; continuing…`;
  }
  void env;
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

/** First step: reads the scan, checks it finished, creates the staging tabs with their layout. */
function begin(
  scanId: number,
  request: ImportRequest | null,
  key: string,
  env: ImportEnv,
  prefetched: { products?: Page; errors?: Page },
): ImportCheckpoint {
  const conv = apiFilters(request ? request.filters : undefined);
  if (!conv.ok) throw new Error(conv.message);
  const sort = String((request && request.sort) || '').trim();
  const q = { filters: conv.value, sort };
  const answers = fetchScanParts(env, [{ record: scanId }, resultsPart(scanId, 'products', 1, q), resultsPart(scanId, 'errors', 1, null)]);
  const scan = requireScan(okBody(answers[0]));
  const name = scan.name;
  // The one status reader: Success, success and SUCCESS alike (the vendor's words included).
  if (!isFinishedState(scan.status)) {
    throw new Error(
      `The scan "${shortScanName(name, scanId)}" is still ${scan.status === 'queued' ? 'queued' : 'running'} (${countText(scan.linesDone)} of ${countText(scan.lines)} lines). Import it when it has finished.`,
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
  prefetched.products = products;
  prefetched.errors = errors;
  const options = (Object.keys(scan.options).length ? scan.options : products.options) as {
    custom_columns?: string[];
    marketplace_id?: string;
    pull_historical_data?: boolean;
  };
  const labels = uploadLabels(readSent(env.props, scanId), scan, options);
  const mapping = labels.mapping;
  const customColumns = labels.customColumns;
  const mp = labels.marketplace;
  const cp: ImportCheckpoint = {
    v: 1,
    scanId,
    request: key,
    filters: conv.value,
    sort,
    phase: 'products',
    marketplace: mp.code,
    customColumns,
    mapping: mapping,
    sheetRowField: sheetRowField({ mapping: mapping as { custom_columns?: number[] }, options: { custom_columns: customColumns } }),
    // Only what the tab names need (a property holds 9 KB; a scan name may be 60,000 characters).
    scanName: shortScanName(name, scanId),
    productsTotal: products.count,
    productsDone: 0,
    errorsTotal: errors.count,
    errorsDone: 0,
    stagingId: -1,
    errorsStagingId: null,
    finalName: null,
    finalErrorsName: null,
    historical: options.pull_historical_data === true,
    filtered: conv.value.length > 0,
    decision: readDecision(env.props, scanId),
  };
  // Only the columns the first page has values for (all of them for a scan without products); a
  // column that comes later is inserted then (copyRows).
  const unlabelled = new Set(labels.unlabelled);
  // Without the mapping the service names SKU, MAP and stock itself (blank when not uploaded): those stay in.
  const namedByService = ['supplier_sku', 'map', 'stock', 'discount_cost'];
  cp.omit = omittedColumns(mapping as Record<string, unknown>, options as Record<string, unknown>).filter(
    (k) => !(unlabelled.size && namedByService.indexOf(k) >= 0) && !unlabelled.has(k),
  );
  if (unlabelled.size) cp.unlabelled = labels.unlabelled;
  const all = allowedColumns(cp);
  const filled = new Set(products.data.length ? filledKeys(all, products.data as Product[], mp) : all.map((c) => c.key));
  // A column that cannot be labelled stays, blank, with a header note saying why (never shifted, never dropped unseen).
  cp.cols = all.filter((c) => filled.has(c.key) || unlabelled.has(c.key)).map((c) => c.key);
  // A count no tab can hold is refused before any tab is made (Sheets holds 10 million cells a spreadsheet).
  const cols = cp.cols.length;
  const limit = env.tuning.cellLimit;
  if ((cp.productsTotal + 1) * cols > limit)
    throw new Error(
      `The Scan Service says this scan has ${countText(cp.productsTotal)} results: more than a spreadsheet holds (${countText(limit)} cells). Import it with filters, or download it (Scans > Download).`,
    );
  // The rows skipped before the upload join the service's error rows in the (full) errors tab.
  const notSent = cp.filtered ? null : readNotSent(env.props, scanId) || recoverNotSent(env, scanId);
  cp.notSent = notSent ? notSentRows(notSent).length : 0;
  cp.notSentTotal = notSent ? notSent.n : 0;
  // Room for the new tabs at their largest: a new tab has 26,000 cells until trimmed (the products
  // tab to its header and one row, then the errors tab, made whole).
  const errorRows = cp.errorsTotal + (cp.notSent || 0);
  const errorsCells = errorRows > 0 && !cp.filtered ? Math.max(NEW_TAB_CELLS, (Math.max(1, errorRows) + 1) * errorsHeaders(cp).width) : 0;
  const peak = Math.max(NEW_TAB_CELLS, 2 * cols + errorsCells);
  if (env.tuning.roomCheck) {
    const room = readRoom(env.ss, env.props, limit);
    env.budget.charge(WORK_COST.cheapCallMs * (2 * env.ss.getSheets().length + 2));
    if (room.left < peak) throw fullError(env, cp, peak, room);
  }
  try {
    const staging = createStaging(env, cp, 'products');
    cp.stagingId = staging.getSheetId();
    layoutProducts(env, cp, staging, mp);
    if (cp.errorsTotal + (cp.notSent || 0) > 0 && !cp.filtered) {
      const es = createStaging(env, cp, 'errors');
      cp.errorsStagingId = es.getSheetId();
      layoutErrors(env, cp, es);
    }
    saveCheckpoint(env, cp);
  } catch (e) {
    // No checkpoint names these tabs yet: they go with the failed try.
    dropStaging(env, cp);
    throw e;
  }
  return cp;
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

/**
 * A re-import after the not-sent record was deleted (a full import moved its rows into the errors
 * tab): the rows come back from the scan's current errors tab and are recorded again until this
 * import has written them.
 */
function recoverNotSent(env: ImportEnv, scanId: number): NotSent | null {
  const rec = readTabRecord(env.props, scanId);
  const sheet = rec ? sheetById(env.ss, rec.errorsSheetId) : null;
  if (!sheet || sheet.getLastRow() < 2) return null;
  const rows = sheet.getRange(2, 1, sheet.getLastRow() - 1, 4).getValues();
  env.budget.charge(WORK_COST.readCallMs);
  const record = notSentFromErrorRows(rows);
  if (record) recordNotSent(env.props, scanId, record);
  return record;
}

/** A hidden tab next to the current result tab (or at the end), with a name no user would pick. */
function createStaging(env: ImportEnv, cp: ImportCheckpoint, which: 'products' | 'errors'): Sheet {
  const ss = env.ss;
  const rec = readTabRecord(env.props, cp.scanId);
  const old = rec
    ? sheetById(ss, which === 'products' ? (cp.filtered ? (rec.filteredSheetId ?? null) : rec.sheetId) : rec.errorsSheetId)
    : null;
  const sheets = ss.getSheets();
  const taken = sheets.map((s) => s.getName());
  const name = tabName('~import ' + cp.scanId + (which === 'errors' ? ' errors' : ''), taken);
  const index = old ? old.getIndex() : sheets.length;
  const active = ss.getActiveSheet();
  const sheet = growing(env, cp, NEW_TAB_CELLS, () => ss.insertSheet(name, index));
  // insertSheet activates the new tab; the user stays where they were.
  ss.setActiveSheet(active);
  sheet.hideSheet();
  return sheet;
}

/** A tab's grid made exactly rows x cols (a new tab's default 1,000 x 26 cells count against the limit too). */
function fitGrid(env: ImportEnv, cp: ImportCheckpoint, sheet: Sheet, rows: number, cols: number): void {
  const maxRows = sheet.getMaxRows();
  const maxCols = sheet.getMaxColumns();
  // Shrink first, so growing the other way needs the least room.
  if (maxRows > rows) sheet.deleteRows(rows + 1, maxRows - rows);
  if (maxCols > cols) sheet.deleteColumns(cols + 1, maxCols - cols);
  if (maxCols < cols) growing(env, cp, (cols - maxCols) * rows, () => sheet.insertColumnsAfter(maxCols, cols - maxCols));
  if (maxRows < rows) growing(env, cp, (rows - maxRows) * cols, () => sheet.insertRowsAfter(maxRows, rows - maxRows));
  env.budget.chargeWrite(0, 2);
}

/** The import's error when the spreadsheet cannot take `needed` more cells: rows so far, room left, what to delete. */
function fullError(env: ImportEnv, cp: ImportCheckpoint, needed: number, known?: ReturnType<typeof readRoom>): SpreadsheetFullError {
  const room = known || readRoom(env.ss, env.props, env.tuning.cellLimit);
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

/** A call that grows the grid: Google's refusal at the cell limit becomes the import's own message (never the raw one). */
function growing<T>(env: ImportEnv, cp: ImportCheckpoint, needed: number, call: () => T): T {
  try {
    return call();
  } catch (e) {
    if (isCellLimitError(e)) throw fullError(env, cp, needed);
    throw e;
  }
}

/** Keys of the columns with a value in at least one of the products. */
function filledKeys(all: readonly LayoutColumn[], products: readonly Product[], mp: Marketplace): string[] {
  const ctx = { marketplace: mp, links: 'text' as const };
  return all.filter((c) => products.some((p) => cellValue(c, p, ctx) !== '')).map((c) => c.key);
}

/** The columns this import may write: the scan's layout less the ones omitted for it. */
function allowedColumns(cp: ImportCheckpoint): LayoutColumn[] {
  const omit = new Set(cp.omit || []);
  return resultColumns(cp.customColumns, !!cp.historical, cp.decision).filter((c) => !omit.has(c.key));
}

/** The staging tab's columns (cp.cols of the scan's layout). */
function stagedColumns(cp: ImportCheckpoint): LayoutColumn[] {
  return selectColumns(resultColumns(cp.customColumns, !!cp.historical, cp.decision), cp.cols);
}

/**
 * Makes the products tab at least `need` rows, growing by up to GROW_ROWS rows (never past the
 * table) and setting the new rows' number formats. The room is read first: rows that would not fit
 * stop the import cleanly (SpreadsheetFullError) with the rows so far kept.
 */
function ensureRows(env: ImportEnv, cp: ImportCheckpoint, sheet: Sheet, need: number): void {
  const maxRows = sheet.getMaxRows();
  env.budget.charge(WORK_COST.cheapCallMs);
  if (maxRows >= need) return;
  const cols = stagedColumns(cp);
  let add = Math.max(need, Math.min(cp.productsTotal + 1, maxRows + GROW_ROWS)) - maxRows;
  if (env.tuning.roomCheck) {
    const room = readRoom(env.ss, env.props, env.tuning.cellLimit);
    env.budget.charge(WORK_COST.cheapCallMs * (2 * env.ss.getSheets().length + 2));
    const fit = Math.floor(room.left / Math.max(1, cols.length));
    if (fit < need - maxRows) throw fullError(env, cp, (need - maxRows) * cols.length, room);
    add = Math.min(add, fit);
  }
  growing(env, cp, add * cols.length, () => sheet.insertRowsAfter(maxRows, add));
  const formats = cols.map((c) => numberFormatFor(c.kind, findMarketplace(cp.marketplace)!));
  let calls = 1;
  // The first growth formats the one data row the tab was made with too.
  const from = maxRows === 2 && cp.productsDone === 0 ? 2 : maxRows + 1;
  const n = maxRows + add - from + 1;
  for (const run of formatRuns(formats)) {
    sheet.getRange(from, run.start + 1, n, run.count).setNumberFormat(run.format);
    env.budget.chargeWrite(n * run.count);
    calls++;
  }
  env.budget.chargeWrite(0, calls);
}

/**
 * Inserts the columns that got their first value in this wave (their rows above are empty: nothing
 * came back for them), with header, width and format, and records them in the checkpoint at once.
 */
function addColumns(env: ImportEnv, cp: ImportCheckpoint, sheet: Sheet, products: readonly Product[], mp: Marketplace): void {
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
    if (env.tuning.roomCheck) {
      const room = readRoom(env.ss, env.props, env.tuning.cellLimit);
      if (room.left < rows) throw fullError(env, cp, rows, room);
    }
    growing(env, cp, rows, () => (at > sheet.getMaxColumns() ? sheet.insertColumnsAfter(at - 1, 1) : sheet.insertColumnsBefore(at, 1)));
    sheet.getRange(1, at).setValue(safeText(col.header));
    sheet.setColumnWidth(at, col.width);
    const format = numberFormatFor(col.kind, mp);
    if (format && rows > 1) sheet.getRange(2, at, rows - 1, 1).setNumberFormat(format);
    have.add(col.key);
    cp.cols = keys;
    // The tab and the checkpoint must agree on the columns before any row is written under them.
    saveCheckpoint(env, cp);
    env.budget.chargeWrite(rows, 4);
  }
}

/** The result tab's layout context: the same in the header, every wave and the estimate. */
function layoutContext(cp: ImportCheckpoint, mp: Marketplace): LayoutContext {
  return {
    marketplace: mp,
    customColumns: cp.customColumns,
    links: 'text',
    historical: !!cp.historical,
    decision: cp.decision,
    only: cp.cols,
    blank: cp.unlabelled,
  };
}

const GREEN = '#d9ead3';
const RED = '#f4cccc';

/**
 * The red-below-0 / green-above-0 rules of result tabs on the given columns (0-based) of rows 2..rows+1,
 * so that every tab with money or percent figures (results, Changes) colours them alike.
 */
export function signColourRules(sheet: Sheet, rows: number, columns: readonly number[]): void {
  const rules: GoogleAppsScript.Spreadsheet.ConditionalFormatRule[] = [];
  for (const c of columns) {
    const range = sheet.getRange(2, c + 1, rows, 1);
    rules.push(newConditionalFormat().whenNumberLessThan(0).setBackground(RED).setRanges([range]).build());
    rules.push(newConditionalFormat().whenNumberGreaterThan(0).setBackground(GREEN).setRanges([range]).build());
  }
  sheet.setConditionalFormatRules(rules);
}

/** Header, column formats and widths, filter, frozen header and the profit/ROI rules: once, by column block. */
function layoutProducts(env: ImportEnv, cp: ImportCheckpoint, sheet: Sheet, mp: Marketplace): void {
  const block = resultBlock([], layoutContext(cp, mp));
  const cols = block.headers.length;
  // The header and one row: the rows are added as they come (ensureRows), after the room is read.
  fitGrid(env, cp, sheet, 2, cols);
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
  let calls = 5;
  // Widths: one call per run of equal widths.
  let i = 0;
  while (i < cols) {
    let j = i;
    while (j + 1 < cols && block.widths[j + 1] === block.widths[i]) j++;
    if (j > i) sheet.setColumnWidths(i + 1, j - i + 1, block.widths[i]);
    else sheet.setColumnWidth(i + 1, block.widths[i]);
    calls++;
    i = j + 1;
  }
  env.budget.chargeWrite(cols, calls);
}

/** When every row is in: the grid exactly the rows (a table of none keeps one empty row), filter and profit/ROI rules. Idempotent. */
function finishProducts(env: ImportEnv, cp: ImportCheckpoint, sheet: Sheet): void {
  const rows = cp.productsTotal;
  const columns = stagedColumns(cp);
  const cols = columns.length;
  fitGrid(env, cp, sheet, Math.max(2, rows + 1), cols);
  if (!sheet.getFilter()) sheet.getRange(1, 1, rows + 1, cols).createFilter();
  if (rows > 0)
    signColourRules(
      sheet,
      rows,
      ['profit', 'roi'].map((key) => columnIndex(columns, key)).filter((c) => c >= 0),
    );
  env.budget.chargeWrite(0, 3);
}

function errorsHeaders(cp: ImportCheckpoint): { headers: string[]; width: number; inputWidth: number } {
  const inputWidth = uploadWidth(cp.mapping);
  const headers = errorsBlock([], { sheetRowField: cp.sheetRowField }).headers.concat(
    inputHeaders(inputWidth, cp.mapping, cp.customColumns),
  );
  return { headers, width: headers.length, inputWidth };
}

/** After the service's error rows: the rows skipped before the upload, in one write (idempotent: same rows, same place). */
function writeNotSent(env: ImportEnv, cp: ImportCheckpoint): void {
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

function layoutErrors(env: ImportEnv, cp: ImportCheckpoint, sheet: Sheet): void {
  const base = errorsBlock([], { sheetRowField: cp.sheetRowField });
  const { headers, width } = errorsHeaders(cp);
  const total = cp.errorsTotal + (cp.notSent || 0);
  fitGrid(env, cp, sheet, Math.max(2, total + 1), width);
  const header = sheet.getRange(1, 1, 1, width);
  header.setValues([headers.map((h) => safeText(h))]);
  header.setFontWeight('bold');
  // Which scan's rows these are: a re-import finds this tab by it when the document's records are gone.
  sheet.getRange(1, 1).setNote(errorsNote(cp.scanId));
  sheet.setFrozenRows(1);
  base.widths.forEach((w, i) => sheet.setColumnWidth(i + 1, w));
  if (width > base.widths.length) sheet.setColumnWidths(base.widths.length + 1, width - base.widths.length, 120);
  for (const run of formatRuns(base.formats)) if (total > 0) sheet.getRange(2, run.start + 1, total, run.count).setNumberFormat(run.format);
  sheet.getRange(1, 1, total + 1, width).createFilter();
  env.budget.chargeWrite(total * 2 + width, 6 + base.widths.length);
}

/**
 * On resume: rows below the checkpoint came from an execution that did not live to record them.
 * False when the products tab's columns are not the checkpoint's (a column insert cut short).
 */
function trimStaging(env: ImportEnv, cp: ImportCheckpoint): boolean {
  const products = sheetById(env.ss, cp.stagingId);
  if (products && cp.cols && products.getMaxColumns() !== cp.cols.length) return false;
  const parts: Array<[number | null, number]> = [
    [cp.stagingId, cp.productsDone],
    // In the swap phase the rows skipped before the upload are already written below the error rows.
    [cp.errorsStagingId, cp.errorsDone + (cp.phase === 'swap' ? cp.notSent || 0 : 0)],
  ];
  for (const [id, done] of parts) {
    const s = sheetById(env.ss, id);
    if (!s) continue;
    const last = s.getLastRow();
    if (last > done + 1) {
      s.getRange(done + 2, 1, last - done - 1, s.getMaxColumns()).clearContent();
      env.budget.chargeWrite(0);
    }
  }
  return true;
}

/**
 * Copies the rest of one table into its staging tab, wave by wave, saving the checkpoint after each.
 * Returns false when it stopped for time (the checkpoint says where).
 */
function copyRows(env: ImportEnv, cp: ImportCheckpoint, table: 'products' | 'errors', first: Page | undefined): boolean {
  const total = table === 'products' ? cp.productsTotal : cp.errorsTotal;
  const sheet = sheetById(env.ss, table === 'products' ? cp.stagingId : cp.errorsStagingId);
  const mp = findMarketplace(cp.marketplace)!;
  const errCols = table === 'errors' ? errorsHeaders(cp) : null;
  const perWave = env.tuning.pagesPerWave;
  let pending: Page | undefined = first;
  while ((table === 'products' ? cp.productsDone : cp.errorsDone) < total) {
    if (!sheet) throw new Error('The staging tab of this import disappeared; import the scan again.');
    const done = table === 'products' ? cp.productsDone : cp.errorsDone;
    const firstPage = Math.floor(done / PER_PAGE) + 1;
    const lastPage = Math.ceil(total / PER_PAGE);
    const pages: number[] = [];
    for (let p = firstPage; p <= lastPage && pages.length < perWave; p++) pages.push(p);
    const rowsInWave = Math.min(total, (firstPage + pages.length - 1) * PER_PAGE) - done;
    const cols = errCols ? errCols.width : stagedColumns(cp).length;
    // Expected cost of this wave: one fetch round (about a second and a half) and the writes.
    const estimate = 1500 + WORK_COST.writeCallMs * 3 + rowsInWave * (cols + 1) * WORK_COST.writeCellMs + WORK_COST.propertyWriteMs;
    if (env.waves > 0 && !env.budget.fits(estimate)) {
      saveCheckpoint(env, cp);
      return false;
    }
    // Room before the rows are fetched: a wave that would not fit stops here, the rows so far kept.
    if (table === 'products') ensureRows(env, cp, sheet, done + rowsInWave + 1);
    let rows: unknown[] = [];
    const signatures = new Map<number, string>();
    const toFetch: number[] = [];
    const got = new Map<number, Page>();
    for (const p of pages) {
      if (p === 1 && pending && done === 0) got.set(1, pending);
      else toFetch.push(p);
    }
    pending = undefined;
    if (toFetch.length) {
      const answers = fetchScanParts(
        env,
        toFetch.map((p) => resultsPart(cp.scanId, table, p, table === 'products' ? cp : null)),
      );
      toFetch.forEach((p, i) => got.set(p, readResultsPage(okBody(answers[i]))));
    }
    for (const p of pages) {
      const page = got.get(p)!;
      const what = table === 'products' ? 'results' : 'error rows';
      if (page.count !== total)
        throw new ResultsChanged(
          `The Scan Service's count of this scan's ${what} changed while importing (${countText(total)}, then ${countText(page.count)}), so the rows staged so far were dropped. Import the scan again: it starts from the first row.`,
        );
      // A page with the same rows as the one before: the service ignored which page was asked for.
      const sig = pageSignature(page.data);
      if (page.data.length && p > 1 && sig === (p === firstPage ? cp.lastPage : signatures.get(p - 1)))
        throw new Error(
          `The Scan Service answered page ${p} of this scan's ${what} with the same rows as page ${p - 1} (it seems to ignore which page is asked for), so nothing was imported: a tab of repeated rows would not be the scan's results. Try again later; if it happens again, tell the Scan Service's support.`,
        );
      signatures.set(p, sig);
      const expected = Math.min(PER_PAGE, total - (p - 1) * PER_PAGE);
      if (page.data.length !== expected)
        throw new ResultsChanged(
          `The Scan Service sent page ${p} of this scan's ${what} with ${page.data.length} rows where its count (${countText(total)}) means ${expected}, so the rows staged so far were dropped. Import the scan again: it starts from the first row.`,
        );
      rows = rows.concat(page.data);
    }
    cp.lastPage = signatures.get(pages[pages.length - 1]);
    // Rows of the first page may already be partly in (never: done is a multiple of PER_PAGE unless the table is complete).
    rows = rows.slice(done - (firstPage - 1) * PER_PAGE);
    if (rows.length) {
      if (table === 'products') {
        addColumns(env, cp, sheet, rows as Product[], mp);
        writeProducts(env, cp, sheet, mp, rows as Product[], done);
        cp.summary = addToSummary(cp.summary || emptySummary(), rows as Product[], cp.decision);
      } else writeErrors(env, cp, sheet, errCols!, rows as Record<string, unknown>[], done);
    }
    if (table === 'products') cp.productsDone = done + rows.length;
    else cp.errorsDone = done + rows.length;
    saveCheckpoint(env, cp);
    env.waves++;
  }
  return true;
}

function writeProducts(env: ImportEnv, cp: ImportCheckpoint, sheet: Sheet, mp: Marketplace, products: Product[], done: number): void {
  const block = resultBlock(products, layoutContext(cp, mp));
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
  env.budget.chargeWrite(n * cols, 2);
}

function writeErrors(
  env: ImportEnv,
  cp: ImportCheckpoint,
  sheet: Sheet,
  shape: { width: number; inputWidth: number },
  rows: Record<string, unknown>[],
  done: number,
): void {
  const block = errorsBlock(rows, { sheetRowField: cp.sheetRowField });
  const values = block.values.map((v, i) => v.concat(inputCells(rows[i].input, shape.inputWidth)));
  sheet.getRange(done + 2, 1, rows.length, shape.width).setValues(values);
  env.budget.chargeWrite(rows.length * shape.width, 1);
}

/**
 * Replaces the visible tabs with the complete staging tabs. Idempotent: a swap cut short by the
 * time limit finishes the same way in the next call (final names are fixed in the checkpoint first).
 */
function swap(env: ImportEnv, cp: ImportCheckpoint): void {
  const ss = env.ss;
  const rec = readTabRecord(env.props, cp.scanId);
  // A filtered import replaces the scan's filtered tab and leaves the full one (and its errors) alone.
  const old = rec ? sheetById(ss, cp.filtered ? (rec.filteredSheetId ?? null) : rec.sheetId) : null;
  const oldErrors = rec && !cp.filtered ? sheetById(ss, rec.errorsSheetId) : null;
  const staging = sheetById(ss, cp.stagingId);
  const errorsStaging = sheetById(ss, cp.errorsStagingId);
  if (!staging) throw new Error('The staging tab of this import disappeared; import the scan again.');
  finishProducts(env, cp, staging);
  if (cp.finalName === null) {
    const others = ss
      .getSheets()
      .filter((s) => s.getSheetId() !== cp.stagingId && s.getSheetId() !== cp.errorsStagingId && s !== old && s !== oldErrors)
      .map((s) => s.getName());
    // Re-import keeps the tab's current name (the user may have renamed it).
    cp.finalName = old
      ? old.getName()
      : tabName(cp.scanName, others, { suffix: cp.filtered ? ' (filtered)' : '', fallback: 'Scan ' + cp.scanId });
    cp.finalErrorsName = errorsStaging
      ? oldErrors
        ? oldErrors.getName()
        : tabName(cp.finalName, others.concat([cp.finalName]), { suffix: ' – errors' })
      : null;
    cp.phase = 'swap';
    saveCheckpoint(env, cp);
  }
  if (old) ss.deleteSheet(old);
  if (oldErrors) ss.deleteSheet(oldErrors);
  if (staging.getName() !== cp.finalName) staging.setName(cp.finalName);
  staging.showSheet();
  if (errorsStaging) {
    if (errorsStaging.getName() !== cp.finalErrorsName) errorsStaging.setName(cp.finalErrorsName!);
    errorsStaging.showSheet();
  }
  if (cp.filtered) {
    // The full tab (when there is one) stays what it was; only the filtered slot changes.
    const full = rec && sheetById(ss, rec.sheetId) ? rec : null;
    withRoom(env.props, cp.scanId, () =>
      writeTabRecord(env.props, cp.scanId, {
        ...(full || {}),
        sheetId: full ? full.sheetId : -1,
        errorsSheetId: full ? full.errorsSheetId : null,
        filteredSheetId: cp.stagingId,
        marketplace: cp.marketplace,
      }),
    );
  } else {
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
      }),
    );
  }
  env.props.deleteProperty(importKey(cp.scanId));
  // The skipped rows are in the errors tab now; the store keeps no second copy (a re-import reads the tab).
  if (!cp.filtered) forgetNotSent(env.props, cp.scanId);
  // The user asked for these results (or is told by a toast): show them.
  staging.activate();
  env.budget.charge(WORK_COST.propertyWriteMs * 2 + WORK_COST.writeCallMs * 6);
}

/** The unfinished import of a scan, for the trigger and the sidebar. */
/** Drops the unfinished import's checkpoint of a scan (its staging tabs are the caller's). */
export function forgetPendingImport(props: GoogleAppsScript.Properties.Properties, scanId: number): void {
  props.deleteProperty(importKey(scanId));
}

export function pendingImport(props: GoogleAppsScript.Properties.Properties, scanId: number): ImportCheckpoint | null {
  return decodeCheckpoint(props.getProperty(importKey(scanId)));
}

/** Scans with an import under way (checkpoint kept) in this document. */
export function pendingImportIds(props: GoogleAppsScript.Properties.Properties): number[] {
  return importKeyIds(props.getKeys());
}
