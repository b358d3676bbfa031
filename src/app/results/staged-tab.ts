/**
 * The resumable staged-tab job that the import and Compare share: hidden tabs made with a room
 * check, grown under the cell limit, a checkpoint in document properties saying how far they got,
 * then shown (swapped in) or dropped with the checkpoint. A job's state is this object: its
 * environment, its checkpoint and how it stores it.
 */
import type { ApiContext } from '../../api/client';
import type { FetchRequest, HttpResponseLike, UrlFetchLike } from '../../api/services';
import { NEW_TAB_CELLS } from '../../domain/price-list/room';
import { tabName } from '../../domain/sheet/tab-name';
import { activeSpreadsheet, clientDeps, documentProperties } from '../../apps-script';
import { EXECUTION_LIMIT_MS, STAGED_TAB_CALL_RESERVE_MS } from '../../domain/time-budgets';
import { serviceSettings } from '../context';
import { readTuning, type ImportTuning } from '../records/import-tuning';
import { isCellLimitError, readRoom, readUsedCells, type SpreadsheetRoom } from '../records/room';
import { sheetById } from '../records/tabs';
import { WorkBudget, WORK_COST } from './import-plan';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** What a staged-tab job runs on: the document, the service, the time budget and the tuning knob. */
export interface JobEnv extends ApiContext {
  ss: GoogleAppsScript.Spreadsheet.Spreadsheet;
  props: GoogleAppsScript.Properties.Properties;
  budget: WorkBudget;
  tuning: ImportTuning;
}

/** The real services, with a fetcher that charges each wave to the budget. */
export function gasJobEnv(tuning: ImportTuning = readTuning()): JobEnv {
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
    // Clock time by which every API attempt must be over (the client's retries stop there).
    deadline: startedAt + EXECUTION_LIMIT_MS - STAGED_TAB_CALL_RESERVE_MS,
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

/**
 * One staged-tab job. A subclass names its checkpoint's key and encoding, the hidden tabs the
 * checkpoint owns, and its message when the spreadsheet is full.
 */
export abstract class StagedJob<C> {
  constructor(
    readonly env: JobEnv,
    public cp: C,
  ) {}

  /** Document property of the checkpoint. */
  protected abstract checkpointKey(): string;
  protected abstract encode(): string;
  /** The hidden tabs the checkpoint owns (dropped with it). */
  protected abstract tabs(): ReadonlyArray<number | null>;
  /** The job's own error when the spreadsheet cannot take `needed` more cells. */
  protected abstract full(needed: number, room: SpreadsheetRoom): Error;

  /** Writes the encoded checkpoint (the import makes room in the store first). */
  protected writeCheckpoint(text: string): void {
    this.env.props.setProperty(this.checkpointKey(), text);
  }

  save(): void {
    this.writeCheckpoint(this.encode());
    this.env.budget.charge(WORK_COST.propertyWriteMs);
  }

  /** The checkpoint is done with (its tabs were shown or dropped). */
  forget(): void {
    this.env.props.deleteProperty(this.checkpointKey());
  }

  /** Deletes the job's hidden tabs and its checkpoint. */
  drop(): void {
    for (const id of this.tabs()) {
      const s = sheetById(this.env.ss, id);
      if (s) this.env.ss.deleteSheet(s);
    }
    this.forget();
  }

  /** The spreadsheet's room, read when the tuning knob asks for the check (null: grow and let Google refuse). */
  room(charged = true): SpreadsheetRoom | null {
    if (!this.env.tuning.roomCheck) return null;
    const room = readRoom(this.env.ss, this.env.props, this.env.tuning.cellLimit);
    if (charged) this.env.budget.charge(WORK_COST.cheapCallMs * (2 * this.env.ss.getSheets().length + 2));
    return room;
  }

  /** Cells used and left, when the tuning knob asks for the check (what a new tab needs; no tab named). */
  usedCells(): SpreadsheetRoom | null {
    return this.env.tuning.roomCheck ? readUsedCells(this.env.ss, this.env.tuning.cellLimit) : null;
  }

  /** Stops with the job's own message unless `needed` more cells fit. */
  requireRoom(needed: number, room: SpreadsheetRoom | null = this.room()): void {
    if (room && room.left < needed) throw this.full(needed, room);
  }

  /** The job's error for `needed` cells that do not fit, with the room as it is now. */
  fullError(needed: number): Error {
    return this.full(needed, readRoom(this.env.ss, this.env.props, this.env.tuning.cellLimit));
  }

  /** A call that grows the grid: Google's refusal at the cell limit becomes the job's own message (never the raw one). */
  growing<T>(needed: number, call: () => T): T {
    try {
      return call();
    } catch (e) {
      if (isCellLimitError(e)) throw this.fullError(needed);
      throw e;
    }
  }

  /** A hidden tab named from `base` (a name no user would pick), at `index` or the end; the user stays where they were. */
  createHidden(base: string, index?: number): Sheet {
    const ss = this.env.ss;
    const sheets = ss.getSheets();
    const name = tabName(
      base,
      sheets.map((s) => s.getName()),
    );
    const active = ss.getActiveSheet();
    const sheet = this.growing(NEW_TAB_CELLS, () => ss.insertSheet(name, index ?? sheets.length));
    // insertSheet activates the new tab.
    ss.setActiveSheet(active);
    sheet.hideSheet();
    return sheet;
  }

  /** Grows a tab's grid to at least rows x cols. */
  growTo(sheet: Sheet, rows: number, cols: number): void {
    const maxRows = sheet.getMaxRows();
    const maxCols = sheet.getMaxColumns();
    if (maxRows < rows) this.growing((rows - maxRows) * maxCols, () => sheet.insertRowsAfter(maxRows, rows - maxRows));
    if (maxCols < cols) this.growing((cols - maxCols) * rows, () => sheet.insertColumnsAfter(maxCols, cols - maxCols));
  }

  /** A tab's grid made exactly rows x cols (a new tab's default 1,000 x 26 cells count against the limit too). */
  fitGrid(sheet: Sheet, rows: number, cols: number): void {
    const maxRows = sheet.getMaxRows();
    const maxCols = sheet.getMaxColumns();
    // Shrink first, so growing the other way needs the least room.
    if (maxRows > rows) sheet.deleteRows(rows + 1, maxRows - rows);
    if (maxCols > cols) sheet.deleteColumns(cols + 1, maxCols - cols);
    if (maxCols < cols) this.growing((cols - maxCols) * rows, () => sheet.insertColumnsAfter(maxCols, cols - maxCols));
    if (maxRows < rows) this.growing((rows - maxRows) * cols, () => sheet.insertRowsAfter(maxRows, rows - maxRows));
    this.env.budget.chargeWrite(0, 2);
  }

  /**
   * On resume: rows below the first `keep` came from an execution that did not live to record them.
   * `width`: the columns to clear (all of the tab's when not given). True when something was cleared.
   */
  clearBelow(sheet: Sheet, keep: number, width?: number): boolean {
    const last = sheet.getLastRow();
    if (last <= keep) return false;
    sheet.getRange(keep + 1, 1, last - keep, width ?? sheet.getMaxColumns()).clearContent();
    return true;
  }

  /** A complete staged tab shown under its final name. */
  reveal(sheet: Sheet, name: string): void {
    if (sheet.getName() !== name) sheet.setName(name);
    sheet.showSheet();
  }
}
