/**
 * Planning of the menu action "Convert selected column": for columns too large for one 30-second
 * formula call. The action (run as the clicking user, with their own key) converts the selected
 * column chunk by chunk and writes plain values next to it; when the 6-minute execution limit
 * comes near it stops at a checkpoint, saved in the user's properties, and the next execution
 * (the sidebar calls again) continues from it: no row converted twice, none skipped.
 *
 * This module is the pure part: the job and its checkpoint, which rows come next for the time
 * left, progress text. Reading and writing the sheet and the properties belong to the action.
 */
import { columnJobKey, PROPERTY_VALUE_MAX_BYTES } from '../../store/keys';
import { END_RESERVE_MS } from '../../domain/time-budgets';
import { record } from '../../store/records';

export type ColumnFunction =
  | 'ASIN_FROM_UPC'
  | 'ASIN_FROM_EAN'
  | 'ASIN_FROM_ISBN'
  | 'UPC_FROM_ASIN'
  | 'EAN_FROM_ASIN'
  | 'ISBN_FROM_ASIN'
  | 'GTIN_FROM_ASIN'
  | 'JAN_FROM_ASIN'
  | 'IDENTIFIERS_FROM_ASIN';

export const COLUMN_FUNCTIONS: readonly ColumnFunction[] = [
  'ASIN_FROM_UPC',
  'ASIN_FROM_EAN',
  'ASIN_FROM_ISBN',
  'UPC_FROM_ASIN',
  'EAN_FROM_ASIN',
  'ISBN_FROM_ASIN',
  'GTIN_FROM_ASIN',
  'JAN_FROM_ASIN',
  'IDENTIFIERS_FROM_ASIN',
];

/** The selection as the action reads it from the active range. */
export interface Selection {
  sheetId: number;
  sheetName: string;
  row: number;
  column: number;
  numRows: number;
  numColumns: number;
}

export interface ColumnJob {
  v: 1;
  sheetId: number;
  sheetName: string;
  fn: ColumnFunction;
  marketplace: string;
  matches: 'first' | 'all' | 'spill';
  /** Input column and its first and last data row (1-based, header excluded). */
  inColumn: number;
  firstRow: number;
  lastRow: number;
  /** First output column (right of the input). */
  outColumn: number;
  /** Widest output written so far (spill grows it; the action keeps it for a consistent block). */
  outWidth: number;
  /** Next row to convert; > lastRow when done. */
  nextRow: number;
  /**
   * Rows from nextRow that an execution was about to write when this checkpoint was saved: if it
   * was cut before saving the next checkpoint they may already hold our values, so the next
   * execution may overwrite them (it converts them again); rows beyond must still be empty.
   */
  pendingRows?: number;
  /**
   * The last execution wrote no row because rows failed with passing problems (429, 5xx) as its
   * time ran out. The next execution then writes such failures as final (the cell says so), so a
   * lasting outage cannot hold the job at one row forever.
   */
  stalled?: boolean;
  /** Measured modelled cost per row, refined after each chunk. */
  msPerRow: number;
  startedAt: number;
  updatedAt: number;
}

/** Properties allow 9 KB per value; a checkpoint stays far below. */
export const CHECKPOINT_MAX_BYTES = PROPERTY_VALUE_MAX_BYTES;
// Its unit test reads it here.
export { END_RESERVE_MS } from '../../domain/time-budgets';
/** Smallest chunk worth starting. */
export const MIN_CHUNK_ROWS = 20;

/** Rows per chunk: a convert chunk of 1,000 rows is at most 50 calls (2 waves); asin-convert needs 1 call per 1,000. */
export function maxChunkRows(fn: ColumnFunction): number {
  return fn.indexOf('ASIN_FROM_') === 0 ? 1000 : 5000;
}

/** First guess of the cost per row before anything is measured (about one wave of 25 calls per 500 rows). */
export function initialMsPerRow(fn: ColumnFunction): number {
  return fn.indexOf('ASIN_FROM_') === 0 ? 10 : 2;
}

/** User property (of the clicking user) holding the checkpoint, one per spreadsheet. */
export const checkpointPropertyName = columnJobKey;

export type JobPlan = { ok: true; job: ColumnJob } | { ok: false; message: string };

/** A job for the selected column. `hasHeader`: the first selected row is a header (kept, not converted). */
export function planColumnJob(
  sel: Selection,
  fn: ColumnFunction,
  opts: { marketplace: string; matches?: 'first' | 'all' | 'spill'; hasHeader: boolean; now: number },
): JobPlan {
  if (COLUMN_FUNCTIONS.indexOf(fn) < 0) return { ok: false, message: 'Unknown conversion ' + String(fn) + '.' };
  if (sel.numColumns !== 1)
    return { ok: false, message: 'Select one column of identifiers (you selected ' + sel.numColumns + ' columns).' };
  const firstRow = sel.row + (opts.hasHeader ? 1 : 0);
  const lastRow = sel.row + sel.numRows - 1;
  if (lastRow < firstRow) return { ok: false, message: 'The selection has no rows to convert below its header.' };
  const matches = fn === 'IDENTIFIERS_FROM_ASIN' ? 'all' : (opts.matches ?? 'first');
  return {
    ok: true,
    job: {
      v: 1,
      sheetId: sel.sheetId,
      sheetName: sel.sheetName,
      fn,
      marketplace: opts.marketplace,
      matches,
      inColumn: sel.column,
      firstRow,
      lastRow,
      outColumn: sel.column + 1,
      outWidth: fn === 'IDENTIFIERS_FROM_ASIN' ? 5 : 1,
      nextRow: firstRow,
      msPerRow: initialMsPerRow(fn),
      startedAt: opts.now,
      updatedAt: opts.now,
    },
  };
}

export interface Chunk {
  startRow: number;
  numRows: number;
  /** Time budget to give the conversion of this chunk. */
  budgetMs: number;
}

/** The next rows to convert in the time left of this execution, or null (done, or stop here and resume). */
export function nextChunk(job: ColumnJob, timeLeftMs: number): Chunk | null {
  if (job.nextRow > job.lastRow) return null;
  const usable = timeLeftMs - END_RESERVE_MS;
  if (usable <= 0) return null;
  const remaining = job.lastRow - job.nextRow + 1;
  const affordable = Math.floor(usable / Math.max(job.msPerRow, 0.1));
  const rows = Math.min(remaining, maxChunkRows(job.fn), affordable);
  if (rows < Math.min(MIN_CHUNK_ROWS, remaining)) return null;
  return { startRow: job.nextRow, numRows: rows, budgetMs: usable };
}

/**
 * The job after a chunk was written: rows actually written (the action may write fewer than asked,
 * e.g. rows that ran out of time are left for the next run), the width written, time it took.
 */
export function completeChunk(job: ColumnJob, done: { rows: number; width: number; elapsedMs: number; now: number }): ColumnJob {
  const rows = Math.max(0, Math.min(done.rows, job.lastRow - job.nextRow + 1));
  const measured = rows > 0 ? done.elapsedMs / rows : job.msPerRow;
  return {
    ...job,
    pendingRows: 0,
    nextRow: job.nextRow + rows,
    outWidth: Math.max(job.outWidth, done.width),
    // Weighted toward the latest measurement; never below a floor, so one cached chunk does not promise too much.
    msPerRow: Math.max(0.5, job.msPerRow * 0.3 + measured * 0.7),
    updatedAt: done.now,
  };
}

export function isDone(job: ColumnJob): boolean {
  return job.nextRow > job.lastRow;
}

export function progress(job: ColumnJob): { done: number; total: number; percent: number; text: string } {
  const total = job.lastRow - job.firstRow + 1;
  const done = Math.min(total, job.nextRow - job.firstRow);
  const percent = total > 0 ? Math.floor((done * 100) / total) : 100;
  return { done, total, percent, text: isDone(job) ? `Converted ${total} rows.` : `Converted ${done} of ${total} rows (${percent}%).` };
}

/** Whether `v` is a well-formed job (else the user starts over). */
function jobOf(v: any): ColumnJob | null {
  if (!v || v.v !== 1 || COLUMN_FUNCTIONS.indexOf(v.fn) < 0) return null;
  const ints = ['sheetId', 'inColumn', 'firstRow', 'lastRow', 'outColumn', 'outWidth', 'nextRow'];
  if (ints.some((k) => typeof v[k] !== 'number' || Math.floor(v[k]) !== v[k])) return null;
  if (typeof v.sheetName !== 'string' || typeof v.marketplace !== 'string' || ['first', 'all', 'spill'].indexOf(v.matches) < 0) return null;
  if (v.nextRow < v.firstRow || v.nextRow > v.lastRow + 1 || typeof v.msPerRow !== 'number') return null;
  if (v.stalled !== undefined && typeof v.stalled !== 'boolean') return null;
  if (
    v.pendingRows !== undefined &&
    (typeof v.pendingRows !== 'number' || v.pendingRows < 0 || Math.floor(v.pendingRows) !== v.pendingRows)
  )
    return null;
  return v as ColumnJob;
}

/** The user's checkpoint of "Convert selected column" in one spreadsheet (by its id). */
export const COLUMN_JOB = record<ColumnJob, [string]>(columnJobKey, { decode: jobOf, cap: CHECKPOINT_MAX_BYTES });

/** The checkpoint as a property value; throws if it would not fit (it cannot, by construction, but the limit is Google's). */
export function encodeJob(job: ColumnJob): string {
  return COLUMN_JOB.encode(job, '');
}

/** Reads a checkpoint; undefined for anything that is not a well-formed job (then the user starts over). */
export function decodeJob(text: string | null | undefined): ColumnJob | undefined {
  return COLUMN_JOB.parse(text) || undefined;
}
