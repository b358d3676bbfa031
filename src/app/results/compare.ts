/**
 * "Compare with an earlier scan" (issue 23): a "<name> – Changes" tab of what changed between two
 * finished scans (the diff and the layout: src/domain/result-tabs/changes.ts).
 *
 * - Source per scan: its full result tab when it is there and untouched (tab record's sheet id,
 *   the row count the import recorded, the result headers, no import under way): no request at all.
 *   Otherwise the service's results pages (100 a page, fetchAll waves), counted in `requests`.
 * - Order: the older scan is "before", whatever order they are given in (scan ids grow with time at
 *   the service).
 * - Resumable like the import: service rows are staged as compact facts in a hidden tab, the Changes
 *   tab is written into a hidden tab in chunks, and ONE checkpoint (COMPARE_KEY, a few hundred bytes)
 *   says how far it got; the tab is shown only when complete. runCompare is what a trigger calls.
 */
import { ApiProblemError, isRetryable } from '../../api/problems';
import {
  checkScanId,
  fetchScanList,
  fetchScanParts,
  fetchScans,
  okBody,
  readResultsPage,
  requireScan,
  type ScanPart,
  type ScanRecord,
} from '../../api/scans';
import { findMarketplace, type Marketplace } from '../../../contract/marketplaces';
import {
  CHANGES_FROZEN_COLUMNS,
  changesColumns,
  changesFormats,
  changesSummary,
  changesTabBase,
  changesValues,
  compareFacts,
  factColumns,
  factFromRow,
  factRow,
  factsFromProducts,
  factsFromTab,
  readScanNote,
  FACT_WIDTH,
  type ChangeCounts,
  type Fact,
} from '../../domain/result-tabs/changes';
import { safeText } from '../../domain/sheet/safe';
import { COMPARE_KEY } from '../../store/keys';
import { withDocumentLock } from '../../store/locks';
import { asSidebarCall, zoneOffset } from '../context';
import { isoTime } from '../scan/progress-read';
import { gasImportEnv, pendingImport, PER_PAGE, signColourRules, type ImportEnv } from './import';
import { formatRuns, WORK_COST } from './import-plan';
import { tabName } from '../../domain/sheet/tab-name';
import type { CompareChoices, CompareProgress } from './protocol';
import { readTabRecord, resultTabs, sheetById } from '../records/tabs';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** Rows of the Changes tab per setValues (about 135,000 cells). */
export const CHANGE_ROWS_PER_WRITE = 5000;

type Source = 'tab' | 'service';

/** The checkpoint (COMPARE_KEY): small, whatever the scans' sizes. */
export interface CompareCheckpoint {
  v: 1;
  before: number;
  after: number;
  src: [Source, Source];
  /** Products per scan (the service's count, or the tab's rows). */
  total: [number, number];
  marketplace: string;
  /** Result tab name (or scan name) the Changes tab is named after, cut. */
  baseName: string;
  phase: 'fetch' | 'write';
  /** Fetch: the side being read and the next page; facts staged so far. */
  side: 0 | 1;
  page: number;
  staged: number;
  factsId: number | null;
  /** Write: the hidden Changes tab, rows written, rows in all. */
  outId: number | null;
  written: number;
  rows: number;
  counts: ChangeCounts | null;
  requests: number;
}

function readCheckpoint(env: ImportEnv): CompareCheckpoint | null {
  const t = env.props.getProperty(COMPARE_KEY);
  if (!t) return null;
  try {
    const c = JSON.parse(t) as CompareCheckpoint;
    return c && c.v === 1 && typeof c.before === 'number' ? c : null;
  } catch (_e) {
    return null;
  }
}

function saveCheckpoint(env: ImportEnv, cp: CompareCheckpoint): void {
  env.props.setProperty(COMPARE_KEY, JSON.stringify(cp));
  env.budget.charge(WORK_COST.propertyWriteMs);
}

function dropCompare(env: ImportEnv, cp: CompareCheckpoint): void {
  for (const id of [cp.factsId, cp.outId]) {
    const s = sheetById(env.ss, id);
    if (s) env.ss.deleteSheet(s);
  }
  env.props.deleteProperty(COMPARE_KEY);
}

// ---- Sidebar / headless ----------------------------------------------------------------------------

/** A scan id, or the name of a result tab of this document (headless: `--scan "Acme 2026-11-02"`). */
export function scanIdOf(ref: number | string, env: Pick<ImportEnv, 'ss' | 'props'>): number {
  if (typeof ref === 'number' || /^\s*\d+\s*$/.test(String(ref))) return checkScanId(Number(ref));
  const tab = resultTabs(env.ss, env.props).find((t) => t.sheet.getName() === String(ref));
  if (tab) return tab.scanId;
  const sheet = env.ss.getSheetByName(String(ref));
  const note = sheet ? noteOf(sheet) : null;
  if (note && !note.filtered) return note.scanId;
  throw new Error('"' + String(ref).slice(0, 60) + '" is neither a scan number nor a result tab of this spreadsheet.');
}

/** Sidebar: compares (or continues comparing) two scans; done:false means call again. */
export function compareScans(a: number | string, b: number | string): CompareProgress {
  return asSidebarCall(() => {
    const env = gasImportEnv();
    return withDocumentLock(() => runCompare(scanIdOf(a, env), scanIdOf(b, env), env));
  });
}

/** A scan's supplier, from what its record keeps: its name without the date New scan adds, its marketplace, its custom column names (the sheet's headers). */
export function supplierKey(r: Pick<ScanRecord, 'name' | 'marketplace' | 'options'>): string {
  const name = String(r.name || '')
    .replace(/\s+\d{4}-\d{2}-\d{2}(\s.*)?$/, '')
    .trim()
    .toLowerCase();
  const custom = Array.isArray(r.options.custom_columns) ? r.options.custom_columns.map(String).join('|') : '';
  return name + '\u0000' + String(r.marketplace) + '\u0000' + custom;
}

/** A scan in Compare's choice, told apart from another of the same name: "Acme 2026-11-02 · 60 lines · 2026-11-02 09:15 (scan 12)". */
function choiceLabel(s: Pick<ScanRecord, 'id' | 'name' | 'lines' | 'createdAt'>): string {
  const iso = isoTime(s.createdAt);
  const ms = iso ? Date.parse(iso) : NaN;
  // The time in the spreadsheet's zone, as the seller's clock shows it.
  const when = isNaN(ms) ? '' : new Date(ms + zoneOffset(ms) * 60_000).toISOString().slice(0, 16).replace('T', ' ');
  return (
    String(s.name || 'Scan ' + s.id) +
    ' · ' +
    s.lines.toLocaleString('en-US') +
    ' line' +
    (s.lines === 1 ? '' : 's') +
    (when ? ' · ' + when : '') +
    ' (scan ' +
    s.id +
    ')'
  );
}

/**
 * Sidebar: what a scan can be compared with: the finished scans of the first history page (one
 * request), the previous scan of the same supplier first (`suggested`), then the others newest first.
 */
export function compareChoices(scanId: number): CompareChoices {
  return asSidebarCall(() => {
    const id = checkScanId(scanId);
    const env = gasImportEnv();
    const list = fetchScanList(env, 1, 50);
    const finished = list.scans.filter((s) => s.status === 'success' && s.id !== id);
    const self = list.scans.find((s) => s.id === id);
    const key = self ? supplierKey(self) : null;
    const same = finished.filter((s) => key !== null && supplierKey(s) === key && s.id < id).sort((x, y) => y.id - x.id);
    const rest = finished.filter((s) => same.indexOf(s) < 0).sort((x, y) => y.id - x.id);
    return {
      suggested: same.length ? same[0].id : null,
      scans: same.concat(rest).map((s) => ({ scanId: s.id, name: s.name, label: choiceLabel(s), sameSupplier: same.indexOf(s) >= 0 })),
      none: finished.length ? '' : 'No other finished scan to compare with.',
    };
  });
}

// ---- The compare -----------------------------------------------------------------------------------

/** A scan's result tab that Compare may read, with its rows and marketplace. */
export interface TabSource {
  sheet: Sheet;
  rows: number;
  marketplace: string;
}

function noteOf(sheet: Sheet): ReturnType<typeof readScanNote> {
  return readScanNote(sheet.getRange(1, 1).getNote());
}

/**
 * The result tab of a scan when Compare may read it instead of the service: its full tab (the tab
 * record's, else the tab whose ASIN header note names the scan: a workbook saved as XLSX keeps no
 * document properties), with exactly the product rows the import wrote, the result headers, and no
 * import of the scan under way. A tab with rows added or removed, or a column renamed, is read from
 * the service instead. (Edited cells with the same row count cannot be told; see README.)
 */
export function untouchedTab(env: Pick<ImportEnv, 'ss' | 'props'>, scanId: number): TabSource | null {
  if (pendingImport(env.props, scanId)) return null;
  const rec = readTabRecord(env.props, scanId);
  let sheet = rec ? sheetById(env.ss, rec.sheetId) : null;
  if (!sheet)
    sheet =
      env.ss.getSheets().find((s) => {
        const n = noteOf(s);
        return n !== null && n.scanId === scanId && !n.filtered;
      }) || null;
  if (!sheet) return null;
  const note = noteOf(sheet);
  const fromNote = note && note.scanId === scanId && !note.filtered ? note : null;
  const rows = fromNote ? fromNote.rows : rec && rec.sheetId === sheet.getSheetId() ? rec.rows : undefined;
  if (typeof rows !== 'number' || sheet.getLastRow() - 1 !== rows) return null;
  const width = sheet.getLastColumn();
  if (width < 1) return null;
  const header = sheet.getRange(1, 1, 1, width).getValues()[0];
  if (!factColumns(header)) return null;
  return { sheet, rows, marketplace: (fromNote && fromNote.marketplace) || (rec && rec.marketplace) || '' };
}

/** Facts of a result tab: only the columns needed, one read each. */
function tabFacts(env: ImportEnv, sheet: Sheet): Fact[] {
  const last = sheet.getLastRow();
  const width = sheet.getLastColumn();
  const header = sheet.getRange(1, 1, 1, width).getValues()[0];
  const wanted = factColumns(header) || [];
  const rows: unknown[][] = [];
  for (let i = 0; i < last - 1; i++) rows.push(new Array(width).fill(''));
  for (const at of wanted) {
    const col = last > 1 ? sheet.getRange(2, at + 1, last - 1, 1).getValues() : [];
    for (let i = 0; i < col.length; i++) rows[i][at] = col[i][0];
  }
  env.budget.charge(WORK_COST.readCallMs * (wanted.length + 1) + (last * wanted.length * WORK_COST.writeCellMs) / 3);
  return factsFromTab(header, rows);
}

function progress(cp: CompareCheckpoint, done: boolean, sheetName: string | null, message: string): CompareProgress {
  return {
    before: cp.before,
    after: cp.after,
    done,
    sheetName,
    rowsWritten: cp.written,
    totalRows: cp.rows,
    requests: cp.requests,
    sources: { before: cp.src[0], after: cp.src[1] },
    summary: cp.counts && done ? changesSummary(cp.counts) : null,
    message,
  };
}

function begin(before: number, after: number, env: ImportEnv): CompareCheckpoint {
  const tabs = [untouchedTab(env, before), untouchedTab(env, after)];
  const src: [Source, Source] = [tabs[0] ? 'tab' : 'service', tabs[1] ? 'tab' : 'service'];
  const cp: CompareCheckpoint = {
    v: 1,
    before,
    after,
    src,
    total: [0, 0],
    marketplace: '',
    baseName: '',
    phase: 'fetch',
    side: 0,
    page: 1,
    staged: 0,
    factsId: null,
    outId: null,
    written: 0,
    rows: 0,
    counts: null,
    requests: 0,
  };
  const records: Array<ScanRecord | null> = [null, null];
  const needed = [0, 1].filter((s) => src[s] === 'service');
  if (needed.length) {
    const ids = [before, after];
    const answers = fetchScans(
      env,
      needed.map((s) => ids[s]),
    );
    cp.requests += needed.length;
    needed.forEach((s, i) => {
      const r = requireScan(okBody(answers[i]));
      if (r.status !== 'success') throw new Error('Scan ' + r.id + ' has not finished; compare it when it has.');
      records[s] = r;
      cp.total[s] = r.products;
    });
  }
  for (const s of [0, 1]) {
    const t = tabs[s];
    if (t) cp.total[s] = t.rows;
  }
  const afterRec = readTabRecord(env.props, after);
  const mp =
    (tabs[1] && tabs[1].marketplace && findMarketplace(tabs[1].marketplace)) ||
    (afterRec && afterRec.marketplace && findMarketplace(afterRec.marketplace)) ||
    (records[1] && (findMarketplace(records[1].marketplace) || findMarketplace(records[1].marketplaceId))) ||
    findMarketplace('US')!;
  cp.marketplace = mp.code;
  const afterTab = tabs[1] ? tabs[1].sheet : afterRec ? sheetById(env.ss, afterRec.sheetId) : null;
  cp.baseName = changesTabBase(afterTab ? afterTab.getName() : records[1] ? records[1].name || 'Scan ' + after : 'Scan ' + after);
  if (src[0] === 'tab') cp.side = 1;
  if (src[0] === 'tab' && src[1] === 'tab') cp.phase = 'write';
  return cp;
}

/** Cells a spreadsheet holds (Google Drive Help, "Files you can store in Google Drive"). */
const SPREADSHEET_MAX_CELLS = 10_000_000;

/** A new tab of rows × cols must fit in what the spreadsheet has left; otherwise a plain message and nothing made. */
function checkRoom(env: ImportEnv, rows: number, cols: number, what: string): void {
  let used = 0;
  for (const s of env.ss.getSheets()) used += s.getMaxRows() * s.getMaxColumns();
  // A new tab starts at 1,000 rows × 26 columns and only grows from there.
  const need = Math.max(rows, 1000) * Math.max(cols, 26);
  if (used + need > SPREADSHEET_MAX_CELLS)
    throw new Error(
      what +
        ' needs ' +
        need.toLocaleString('en-US') +
        ' cells and this spreadsheet has ' +
        Math.max(0, SPREADSHEET_MAX_CELLS - used).toLocaleString('en-US') +
        ' left of the 10,000,000 Google Sheets holds. Delete tabs you no longer need (old result tabs), or compare in a new spreadsheet.',
    );
}

function hiddenTab(env: ImportEnv, base: string, rows: number, cols: number): Sheet {
  const ss = env.ss;
  checkRoom(env, rows, cols, base === '~compare facts' ? 'Reading the two scans' : 'The Changes tab');
  const active = ss.getActiveSheet();
  const sheet = ss.insertSheet(
    tabName(
      base,
      ss.getSheets().map((s) => s.getName()),
    ),
    ss.getSheets().length,
  );
  ss.setActiveSheet(active);
  sheet.hideSheet();
  if (sheet.getMaxRows() < rows) sheet.insertRowsAfter(sheet.getMaxRows(), rows - sheet.getMaxRows());
  if (sheet.getMaxColumns() < cols) sheet.insertColumnsAfter(sheet.getMaxColumns(), cols - sheet.getMaxColumns());
  env.budget.chargeWrite(0, 4);
  return sheet;
}

/** Fetch phase: results pages of the service-side scans into the facts tab, wave by wave. */
function fetchWaves(env: ImportEnv, cp: CompareCheckpoint): number {
  let facts = sheetById(env.ss, cp.factsId);
  if (!facts) {
    facts = hiddenTab(env, '~compare facts', Math.max(2, cp.total[0] + cp.total[1] + 1), FACT_WIDTH + 1);
    cp.factsId = facts.getSheetId();
    saveCheckpoint(env, cp);
  } else if (facts.getLastRow() > cp.staged) {
    // Rows an execution wrote but did not live to record.
    facts.getRange(cp.staged + 1, 1, facts.getLastRow() - cp.staged, FACT_WIDTH + 1).clearContent();
  }
  const ids = [cp.before, cp.after];
  let waves = 0;
  while (cp.phase === 'fetch') {
    const side = cp.side;
    const pages = Math.ceil(cp.total[side] / PER_PAGE);
    if (cp.page > pages) {
      if (side === 0 && cp.src[1] === 'service') {
        cp.side = 1;
        cp.page = 1;
      } else cp.phase = 'write';
      saveCheckpoint(env, cp);
      continue;
    }
    const n = Math.min(env.tuning.pagesPerWave, pages - cp.page + 1);
    const estimate =
      WORK_COST.fetchCallMs + n * (WORK_COST.fetchPerRequestMs + 150) + WORK_COST.writeCallMs + n * PER_PAGE * 12 * WORK_COST.writeCellMs;
    if (waves > 0 && !env.budget.fits(estimate)) return waves;
    const parts: ScanPart[] = [];
    for (let p = cp.page; p < cp.page + n; p++)
      parts.push({ results: ids[side], table: 'products', page: p, perPage: PER_PAGE, query: null });
    const answers = fetchScanParts(env, parts);
    cp.requests += n;
    const rows: unknown[][] = [];
    for (const a of answers) {
      const page = readResultsPage(okBody(a));
      if (page.count !== cp.total[side])
        throw new Error(
          'The Scan Service now counts ' +
            page.count +
            ' results for scan ' +
            ids[side] +
            ' (it said ' +
            cp.total[side] +
            '); compare again.',
        );
      for (const f of factsFromProducts(page.data as Record<string, unknown>[])) rows.push([side, ...factRow(f)]);
    }
    if (rows.length) {
      facts.getRange(cp.staged + 1, 1, rows.length, FACT_WIDTH + 1).setValues(rows);
      env.budget.chargeWrite(rows.length * (FACT_WIDTH + 1));
    }
    cp.staged += rows.length;
    cp.page += n;
    waves++;
    saveCheckpoint(env, cp);
  }
  return waves;
}

/** Both scans' facts: from their tabs or the facts tab. */
function allFacts(env: ImportEnv, cp: CompareCheckpoint): [Fact[], Fact[]] {
  const out: [Fact[], Fact[]] = [[], []];
  const ids = [cp.before, cp.after];
  const staged = cp.staged > 0 ? sheetById(env.ss, cp.factsId) : null;
  const rows = staged ? staged.getRange(1, 1, cp.staged, FACT_WIDTH + 1).getValues() : [];
  if (staged) env.budget.charge(WORK_COST.readCallMs + (rows.length * (FACT_WIDTH + 1) * WORK_COST.writeCellMs) / 3);
  for (const s of [0, 1] as const) {
    if (cp.src[s] === 'tab') {
      const tab = untouchedTab(env, ids[s]);
      if (!tab || tab.rows !== cp.total[s])
        throw new Error('The result tab of scan ' + ids[s] + ' changed while comparing; compare again.');
      out[s] = tabFacts(env, tab.sheet);
    } else out[s] = rows.filter((r) => r[0] === s).map((r) => factFromRow(r.slice(1)));
  }
  return out;
}

/** Formats, widths, filter, frozen panes and the profit/ROI colours of the complete Changes tab. */
function layoutChanges(env: ImportEnv, sheet: Sheet, rows: number, mp: Marketplace): void {
  const cols = changesColumns();
  const formats = changesFormats(mp);
  if (rows > 0)
    for (const run of formatRuns(formats)) {
      sheet.getRange(2, run.start + 1, rows, run.count).setNumberFormat(run.format);
      env.budget.chargeWrite(rows * run.count);
    }
  cols.forEach((c, i) => sheet.setColumnWidth(i + 1, c.width));
  sheet.setFrozenRows(1);
  sheet.setFrozenColumns(CHANGES_FROZEN_COLUMNS);
  sheet.getRange(1, 1, rows + 1, cols.length).createFilter();
  if (rows > 0)
    signColourRules(
      sheet,
      rows,
      cols.flatMap((c, i) => (c.coloured ? [i] : [])),
    );
  env.budget.chargeWrite(cols.length, cols.length + 6);
}

/**
 * Write phase: the Changes rows into the hidden tab, chunk by chunk; then shown. Its name when
 * complete, '' when nothing changed (no tab), null when it continues in the next call.
 */
function writeChanges(env: ImportEnv, cp: CompareCheckpoint): string | null {
  const [before, after] = allFacts(env, cp);
  const cmp = compareFacts(before, after);
  cp.rows = cmp.rows.length;
  cp.counts = cmp.counts;
  const cols = changesColumns();
  let out = sheetById(env.ss, cp.outId);
  // Nothing changed: no tab of headers alone (a scheduled run made one every time; issue 32). The
  // counts say it, with the unchanged products.
  if (cp.rows === 0) {
    for (const s of [out, sheetById(env.ss, cp.factsId)]) if (s) env.ss.deleteSheet(s);
    env.props.deleteProperty(COMPARE_KEY);
    env.budget.charge(WORK_COST.writeCallMs * 2 + WORK_COST.propertyWriteMs);
    return '';
  }
  if (!out) {
    out = hiddenTab(env, '~compare changes', cp.rows + 1, cols.length);
    const header = out.getRange(1, 1, 1, cols.length);
    header.setValues([cols.map((c) => safeText(c.header))]);
    header.setFontWeight('bold');
    header.setNotes([cols.map((c) => c.note)]);
    env.budget.chargeWrite(cols.length * 2, 3);
    cp.outId = out.getSheetId();
    cp.written = 0;
    saveCheckpoint(env, cp);
  } else if (out.getLastRow() > cp.written + 1) {
    out.getRange(cp.written + 2, 1, out.getLastRow() - cp.written - 1, cols.length).clearContent();
  }
  let chunks = 0;
  while (cp.written < cp.rows) {
    const n = Math.min(CHANGE_ROWS_PER_WRITE, cp.rows - cp.written);
    if (chunks > 0 && !env.budget.fits(WORK_COST.writeCallMs + n * cols.length * WORK_COST.writeCellMs + WORK_COST.propertyWriteMs))
      return null;
    const values = changesValues(cmp.rows.slice(cp.written, cp.written + n));
    out.getRange(cp.written + 2, 1, n, cols.length).setValues(values);
    env.budget.chargeWrite(n * cols.length);
    cp.written += n;
    chunks++;
    saveCheckpoint(env, cp);
  }
  layoutChanges(env, out, cp.rows, findMarketplace(cp.marketplace) || findMarketplace('US')!);
  const name = tabName(
    cp.baseName,
    env.ss
      .getSheets()
      .filter((s) => s.getSheetId() !== cp.outId)
      .map((s) => s.getName()),
  );
  out.setName(name);
  out.showSheet();
  const facts = sheetById(env.ss, cp.factsId);
  if (facts) env.ss.deleteSheet(facts);
  env.props.deleteProperty(COMPARE_KEY);
  out.activate();
  env.budget.charge(WORK_COST.writeCallMs * 4 + WORK_COST.propertyWriteMs);
  return name;
}

/**
 * One step of comparing scan `a` with scan `b` (either order): starts, or continues the compare of
 * the same two scans; another pair drops an unfinished one. What a trigger calls, under the lock.
 */
export function runCompare(a: number, b: number, env: ImportEnv): CompareProgress {
  if (a === b) throw new Error('Choose two different scans to compare.');
  const before = Math.min(a, b);
  const after = Math.max(a, b);
  let cp = readCheckpoint(env);
  if (cp && (cp.before !== before || cp.after !== after || (cp.factsId !== null && !sheetById(env.ss, cp.factsId)))) {
    dropCompare(env, cp);
    cp = null;
  }
  if (!cp) {
    cp = begin(before, after, env);
    saveCheckpoint(env, cp);
  }
  const requestsBefore = cp.requests;
  try {
    const waves = cp.phase === 'fetch' ? fetchWaves(env, cp) : 0;
    // Reading both scans and writing the first rows is left to the next call when this one is spent.
    if (cp.phase === 'fetch' || (waves > 0 && !env.budget.fits(WORK_COST.readCallMs * 20 + WORK_COST.writeCallMs * 10)))
      return progress(
        cp,
        false,
        null,
        'Read ' +
          cp.staged.toLocaleString('en-US') +
          ' of ' +
          ((cp.src[0] === 'service' ? cp.total[0] : 0) + (cp.src[1] === 'service' ? cp.total[1] : 0)).toLocaleString('en-US') +
          ' products from the Scan Service; continuing…',
      );
    const name = writeChanges(env, cp);
    if (name === null)
      return progress(
        cp,
        false,
        null,
        'Wrote ' + cp.written.toLocaleString('en-US') + ' of ' + cp.rows.toLocaleString('en-US') + ' changes; continuing…',
      );
    const src = (s: Source) => (s === 'tab' ? 'its result tab' : 'the Scan Service');
    return progress(
      cp,
      true,
      name || null,
      'Scan ' +
        cp.before +
        ' (before, read from ' +
        src(cp.src[0]) +
        ') and scan ' +
        cp.after +
        ' (after, read from ' +
        src(cp.src[1]) +
        (name ? '): see "' + name + '". ' : '): no Changes tab was made. ') +
        changesSummary(cp.counts!) +
        '. ' +
        (cp.requests ? cp.requests + ' requests to the Scan Service.' : 'No request to the Scan Service.'),
    );
  } catch (e) {
    // A failure that may pass keeps what is staged for the next call; any other starts over.
    if (!(e instanceof ApiProblemError && isRetryable(e.problem))) dropCompare(env, cp);
    else if (cp.requests !== requestsBefore) saveCheckpoint(env, cp);
    throw e;
  }
}

/** The sheet a Changes tab is being written for, for tests and the trigger: whether a compare waits to be continued. */
export function pendingCompare(props: GoogleAppsScript.Properties.Properties): { before: number; after: number } | null {
  const t = props.getProperty(COMPARE_KEY);
  if (!t) return null;
  try {
    const c = JSON.parse(t) as CompareCheckpoint;
    return { before: c.before, after: c.after };
  } catch (_e) {
    return null;
  }
}
