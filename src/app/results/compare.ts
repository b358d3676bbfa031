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
import { commas } from '../../../contract/numbers';
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
import { newTabCells, noRoomForTab } from '../../domain/price-list/room';
import { safeText } from '../../domain/sheet/safe';
import { COMPARE_KEY } from '../../store/keys';
import { record } from '../../store/records';
import { withDocumentLock } from '../../store/locks';
import { asSidebarCall, zoneOffset } from '../context';
import { isoTime } from '../scan/progress-read';
import { pendingImport, PER_PAGE, signColourRules } from './import';
import { gasJobEnv, StagedJob, type JobEnv } from './staged-tab';
import { formatRuns, WORK_COST } from './import-plan';
import { tabName } from '../../domain/sheet/tab-name';
import type { CompareChoices, CompareProgress } from './protocol';
import { readTabRecord, resultTabs, sheetById } from '../records/tabs';
import type { SpreadsheetRoom } from '../records/room';

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

/** Any stored object is read (pendingCompare shows it); readCheckpoint resumes only one this code wrote. */
const COMPARE_CHECKPOINT = record<CompareCheckpoint>(COMPARE_KEY, {
  decode: (v) => (v && typeof v === 'object' ? (v as CompareCheckpoint) : null),
});

// ---- Sidebar / headless ----------------------------------------------------------------------------

/** A scan id, or the name of a result tab of this document (headless: `--scan "Acme 2026-11-02"`). */
export function scanIdOf(ref: number | string, env: Pick<JobEnv, 'ss' | 'props'>): number {
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
    const env = gasJobEnv();
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
    commas(s.lines) +
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
    const env = gasJobEnv();
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
export function untouchedTab(env: Pick<JobEnv, 'ss' | 'props'>, scanId: number): TabSource | null {
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
function tabFacts(env: JobEnv, sheet: Sheet): Fact[] {
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

/** Which scans a compare reads, and what they are named and counted. */
function newCheckpoint(before: number, after: number, src: [Source, Source]): CompareCheckpoint {
  return {
    v: 1,
    before,
    after,
    src,
    total: [0, 0],
    marketplace: '',
    baseName: '',
    phase: src[0] === 'tab' && src[1] === 'tab' ? 'write' : 'fetch',
    side: src[0] === 'tab' ? 1 : 0,
    page: 1,
    staged: 0,
    factsId: null,
    outId: null,
    written: 0,
    rows: 0,
    counts: null,
    requests: 0,
  };
}

/** The scan records of the scans read from the service (one request each, in one wave), checked finished. */
function serviceRecords(env: JobEnv, cp: CompareCheckpoint): Array<ScanRecord | null> {
  const records: Array<ScanRecord | null> = [null, null];
  const needed = [0, 1].filter((s) => cp.src[s] === 'service');
  if (!needed.length) return records;
  const ids = [cp.before, cp.after];
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
  return records;
}

/** The Changes tab's marketplace and name come from the later scan: its tab, its tab record, else its scan record. */
function nameAfterLater(env: JobEnv, cp: CompareCheckpoint, tab: TabSource | null, record: ScanRecord | null): void {
  const afterRec = readTabRecord(env.props, cp.after);
  const mp =
    (tab && tab.marketplace && findMarketplace(tab.marketplace)) ||
    (afterRec && afterRec.marketplace && findMarketplace(afterRec.marketplace)) ||
    (record && (findMarketplace(record.marketplace) || findMarketplace(record.marketplaceId))) ||
    findMarketplace('US')!;
  cp.marketplace = mp.code;
  const afterTab = tab ? tab.sheet : afterRec ? sheetById(env.ss, afterRec.sheetId) : null;
  const fallback = 'Scan ' + cp.after;
  cp.baseName = changesTabBase(afterTab ? afterTab.getName() : record ? record.name || fallback : fallback);
}

/** A compare of two scans: its checkpoint (COMPARE_KEY), a hidden facts tab and a hidden Changes tab. */
class CompareJob extends StagedJob<CompareCheckpoint> {
  /** The tab being made, for the message when it does not fit. */
  private making = 'The Changes tab';

  protected checkpointKey(): string {
    return COMPARE_KEY;
  }
  protected encode(): string {
    return JSON.stringify(this.cp);
  }
  protected tabs(): ReadonlyArray<number | null> {
    return [this.cp.factsId, this.cp.outId];
  }
  protected full(needed: number, room: SpreadsheetRoom): Error {
    return new Error(noRoomForTab(this.making, needed, room.left, room.limit));
  }

  /** The compare under way, when it is of these two scans and its facts tab is still there; any other is dropped. */
  static resume(env: JobEnv, before: number, after: number): CompareJob | null {
    const cp = readCheckpoint(env.props);
    if (!cp) return null;
    const job = new CompareJob(env, cp);
    if (cp.before === before && cp.after === after && (cp.factsId === null || sheetById(env.ss, cp.factsId))) return job;
    job.drop();
    return null;
  }

  /** A new compare: where each scan is read from, its size, and the Changes tab's name. */
  static begin(env: JobEnv, before: number, after: number): CompareJob {
    const tabs = [untouchedTab(env, before), untouchedTab(env, after)];
    const cp = newCheckpoint(before, after, [tabs[0] ? 'tab' : 'service', tabs[1] ? 'tab' : 'service']);
    const records = serviceRecords(env, cp);
    for (const s of [0, 1]) {
      const t = tabs[s];
      if (t) cp.total[s] = t.rows;
    }
    nameAfterLater(env, cp, tabs[1], records[1]);
    const job = new CompareJob(env, cp);
    job.save();
    return job;
  }

  /** A hidden tab of rows x cols, refused with a plain message (nothing made) when the spreadsheet has no room for it. */
  private hiddenTab(base: string, what: string, rows: number, cols: number): Sheet {
    this.making = what;
    this.requireRoom(newTabCells(rows, cols), this.usedCells());
    const sheet = this.createHidden(base);
    this.growTo(sheet, rows, cols);
    this.env.budget.chargeWrite(0, 4);
    return sheet;
  }

  /** Fetch phase: results pages of the service-side scans into the facts tab, wave by wave. Returns the waves fetched. */
  fetchWaves(): number {
    const cp = this.cp;
    const facts = this.factsTab();
    let waves = 0;
    while (cp.phase === 'fetch') {
      if (this.sideDone()) continue;
      const n = Math.min(this.env.tuning.pagesPerWave, Math.ceil(cp.total[cp.side] / PER_PAGE) - cp.page + 1);
      const estimate =
        WORK_COST.fetchCallMs + n * (WORK_COST.fetchPerRequestMs + 150) + WORK_COST.writeCallMs + n * PER_PAGE * 12 * WORK_COST.writeCellMs;
      if (waves > 0 && !this.env.budget.fits(estimate)) return waves;
      this.fetchWave(facts, n);
      waves++;
    }
    return waves;
  }

  /** The facts tab: made on the first call; on a later one, cleared below the rows the checkpoint knows. */
  private factsTab(): Sheet {
    const cp = this.cp;
    const facts = sheetById(this.env.ss, cp.factsId);
    if (facts) {
      // Rows an execution wrote but did not live to record.
      this.clearBelow(facts, cp.staged, FACT_WIDTH + 1);
      return facts;
    }
    const made = this.hiddenTab('~compare facts', 'Reading the two scans', Math.max(2, cp.total[0] + cp.total[1] + 1), FACT_WIDTH + 1);
    cp.factsId = made.getSheetId();
    this.save();
    return made;
  }

  /** When every page of the side being read is in: on to the other side, or to the write phase. */
  private sideDone(): boolean {
    const cp = this.cp;
    if (cp.page <= Math.ceil(cp.total[cp.side] / PER_PAGE)) return false;
    if (cp.side === 0 && cp.src[1] === 'service') {
      cp.side = 1;
      cp.page = 1;
    } else cp.phase = 'write';
    this.save();
    return true;
  }

  /** `n` results pages of the side being read, staged as facts below the rows so far. */
  private fetchWave(facts: Sheet, n: number): void {
    const cp = this.cp;
    const side = cp.side;
    const id = side === 0 ? cp.before : cp.after;
    const parts: ScanPart[] = [];
    for (let p = cp.page; p < cp.page + n; p++) parts.push({ results: id, table: 'products', page: p, perPage: PER_PAGE, query: null });
    const answers = fetchScanParts(this.env, parts);
    cp.requests += n;
    const rows: unknown[][] = [];
    for (const a of answers) {
      const page = readResultsPage(okBody(a));
      if (page.count !== cp.total[side])
        throw new Error(
          'The Scan Service now counts ' + page.count + ' results for scan ' + id + ' (it said ' + cp.total[side] + '); compare again.',
        );
      for (const f of factsFromProducts(page.data as Record<string, unknown>[])) rows.push([side, ...factRow(f)]);
    }
    if (rows.length) {
      facts.getRange(cp.staged + 1, 1, rows.length, FACT_WIDTH + 1).setValues(rows);
      this.env.budget.chargeWrite(rows.length * (FACT_WIDTH + 1));
    }
    cp.staged += rows.length;
    cp.page += n;
    this.save();
  }

  /** Both scans' facts: from their tabs or the facts tab. */
  private allFacts(): [Fact[], Fact[]] {
    const cp = this.cp;
    const env = this.env;
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

  /**
   * Write phase: the Changes rows into the hidden tab, chunk by chunk; then shown. Its name when
   * complete, '' when nothing changed (no tab), null when it continues in the next call.
   */
  writeChanges(): string | null {
    const cp = this.cp;
    const [before, after] = this.allFacts();
    const cmp = compareFacts(before, after);
    cp.rows = cmp.rows.length;
    cp.counts = cmp.counts;
    // Nothing changed: no tab of headers alone (a scheduled run made one every time; issue 32). The
    // counts say it, with the unchanged products.
    if (cp.rows === 0) {
      this.drop();
      this.env.budget.charge(WORK_COST.writeCallMs * 2 + WORK_COST.propertyWriteMs);
      return '';
    }
    const out = this.changesTab();
    if (!this.writeChunks(out, cmp.rows)) return null;
    return this.showChanges(out);
  }

  /** The hidden Changes tab with its header: made on the first call; on a later one, cleared below the rows written. */
  private changesTab(): Sheet {
    const cp = this.cp;
    const cols = changesColumns();
    const out = sheetById(this.env.ss, cp.outId);
    if (out) {
      this.clearBelow(out, cp.written + 1, cols.length);
      return out;
    }
    const made = this.hiddenTab('~compare changes', 'The Changes tab', cp.rows + 1, cols.length);
    const header = made.getRange(1, 1, 1, cols.length);
    header.setValues([cols.map((c) => safeText(c.header))]);
    header.setFontWeight('bold');
    header.setNotes([cols.map((c) => c.note)]);
    this.env.budget.chargeWrite(cols.length * 2, 3);
    cp.outId = made.getSheetId();
    cp.written = 0;
    this.save();
    return made;
  }

  /** The rows not yet written, CHANGE_ROWS_PER_WRITE at a time; false when the time is spent first. */
  private writeChunks(out: Sheet, rows: ReadonlyArray<Parameters<typeof changesValues>[0][number]>): boolean {
    const cp = this.cp;
    const width = changesColumns().length;
    let chunks = 0;
    while (cp.written < cp.rows) {
      const n = Math.min(CHANGE_ROWS_PER_WRITE, cp.rows - cp.written);
      if (chunks > 0 && !this.env.budget.fits(WORK_COST.writeCallMs + n * width * WORK_COST.writeCellMs + WORK_COST.propertyWriteMs))
        return false;
      out.getRange(cp.written + 2, 1, n, width).setValues(changesValues(rows.slice(cp.written, cp.written + n)));
      this.env.budget.chargeWrite(n * width);
      cp.written += n;
      chunks++;
      this.save();
    }
    return true;
  }

  /** The complete Changes tab laid out and shown under its name; the facts tab and the checkpoint go. */
  private showChanges(out: Sheet): string {
    const cp = this.cp;
    const env = this.env;
    layoutChanges(env, out, cp.rows, findMarketplace(cp.marketplace) || findMarketplace('US')!);
    const name = tabName(
      cp.baseName,
      env.ss
        .getSheets()
        .filter((s) => s.getSheetId() !== cp.outId)
        .map((s) => s.getName()),
    );
    this.reveal(out, name);
    const facts = sheetById(env.ss, cp.factsId);
    if (facts) env.ss.deleteSheet(facts);
    this.forget();
    out.activate();
    env.budget.charge(WORK_COST.writeCallMs * 4 + WORK_COST.propertyWriteMs);
    return name;
  }
}

/** Formats, widths, filter, frozen panes and the profit/ROI colours of the complete Changes tab. */
function layoutChanges(env: JobEnv, sheet: Sheet, rows: number, mp: Marketplace): void {
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

function readingMessage(cp: CompareCheckpoint): string {
  const total = (cp.src[0] === 'service' ? cp.total[0] : 0) + (cp.src[1] === 'service' ? cp.total[1] : 0);
  return 'Read ' + commas(cp.staged) + ' of ' + commas(total) + ' products from the Scan Service; continuing…';
}

function doneMessage(cp: CompareCheckpoint, name: string): string {
  const src = (s: Source) => (s === 'tab' ? 'its result tab' : 'the Scan Service');
  return (
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
    (cp.requests ? cp.requests + ' requests to the Scan Service.' : 'No request to the Scan Service.')
  );
}

/** One step of a compare under way: reads, then writes; done:false when the next call continues. */
function compareStep(job: CompareJob): CompareProgress {
  const cp = job.cp;
  const waves = cp.phase === 'fetch' ? job.fetchWaves() : 0;
  // Reading both scans and writing the first rows is left to the next call when this one is spent.
  if (cp.phase === 'fetch' || (waves > 0 && !job.env.budget.fits(WORK_COST.readCallMs * 20 + WORK_COST.writeCallMs * 10)))
    return progress(cp, false, null, readingMessage(cp));
  const name = job.writeChanges();
  if (name === null) return progress(cp, false, null, 'Wrote ' + commas(cp.written) + ' of ' + commas(cp.rows) + ' changes; continuing…');
  return progress(cp, true, name || null, doneMessage(cp, name));
}

/**
 * One step of comparing scan `a` with scan `b` (either order): starts, or continues the compare of
 * the same two scans; another pair drops an unfinished one. What a trigger calls, under the lock.
 */
export function runCompare(a: number, b: number, env: JobEnv): CompareProgress {
  if (a === b) throw new Error('Choose two different scans to compare.');
  const before = Math.min(a, b);
  const after = Math.max(a, b);
  const job = CompareJob.resume(env, before, after) || CompareJob.begin(env, before, after);
  const requestsBefore = job.cp.requests;
  try {
    return compareStep(job);
  } catch (e) {
    // A failure that may pass keeps what is staged for the next call; any other starts over.
    if (!(e instanceof ApiProblemError && isRetryable(e.problem))) job.drop();
    else if (job.cp.requests !== requestsBefore) job.save();
    throw e;
  }
}

function readCheckpoint(props: GoogleAppsScript.Properties.Properties): CompareCheckpoint | null {
  const c = COMPARE_CHECKPOINT.get(props);
  return c && c.v === 1 && typeof c.before === 'number' ? c : null;
}

/** The sheet a Changes tab is being written for, for tests and the trigger: whether a compare waits to be continued. */
export function pendingCompare(props: GoogleAppsScript.Properties.Properties): { before: number; after: number } | null {
  const c = COMPARE_CHECKPOINT.get(props);
  return c ? { before: c.before, after: c.after } : null;
}
