/**
 * "Convert selected column" (issue 5):
 * - convertSelectedColumn(request?) and the menu action menuConvertColumn: "Convert selected
 *   column", for columns too large for one 30-second formula call. Plain values are written to the
 *   right of the selection, chunk by chunk, with a checkpoint after every chunk (the clicking
 *   user's properties), so an execution that stops near (or is killed at) its 6-minute limit is
 *   continued by the next call: no row converted twice into different cells, none skipped.
 *
 * Decisions:
 * - Column conversion uses the CURRENT user's own key (Settings), never the owner's formula share:
 *   it runs as the clicking user, who can be asked to add a key, and it may write thousands of
 *   rows, which is that user's quota to spend. Answers are cached in the USER cache (the document
 *   cache is the formula key's, shared by the document's people; another user's key may lack
 *   access to a marketplace).
 * - Output goes into the columns right of the selection, which must be empty (a header cell above
 *   them may be overwritten only by our header): nothing a user typed is overwritten. Values pass
 *   the formula guard (src/domain/sheet/safe.ts), so identifiers stay text with their leading zeros.
 * - matches: 'first' (default) or 'all'; 'spill' is for formulas only (a column job's width must be
 *   known before it writes).
 * - With no request, an unfinished conversion of this spreadsheet continues whatever is selected;
 *   `restart` (or a finished/absent one) converts the current selection.
 */
import type { ServiceSettings } from '../../api/client';
import { EXECUTION_LIMIT_MS, RETRY_ROOM_MS } from '../../domain/time-budgets';
import { problemError } from '../../api/exceptions';
import { classifyResponse } from '../../api/problems';
import { failedText } from '../../custom-functions/messages';
import { COLUMN_JOB, completeChunk, isDone, nextChunk, planColumnJob, progress, type ColumnJob } from './column-job';
import { chooseConversion, finalRows, looksLikeHeader, parseConversion } from './column-choice';
import { convertRows, outputHeader } from './column-run';
import type { FormulaDeps } from '../../custom-functions/engine';
import { findMarketplace } from '../../../contract/marketplaces';
import { columnLetter } from '../../domain/price-list/mapping';
import { safeBlock } from '../../domain/sheet/safe';
import type { ColumnConversionProgress, ColumnConversionRequest } from './protocol';
import { activeSpreadsheet, userProperties, urlFetcher, userCache, sleep } from '../../apps-script';
import { asSidebarCall, loadSettings, serviceSettings } from '../context';

// ---- Convert selected column --------------------------------------------------------------------

/** What the column conversion's toasts are titled (the menu's own messages too). */
export const TOAST_TITLE = 'Convert selected column';

interface Run {
  started: number;
  clock: { now: () => number; sleep: (ms: number) => void };
}

function a1(sheetName: string, row: number, col: number, numRows: number, numCols: number): string {
  const q = /^[A-Za-z0-9_]+$/.test(sheetName) ? sheetName : "'" + sheetName.replace(/'/g, "''") + "'";
  const tl = columnLetter(col - 1) + row;
  return q + '!' + (numRows === 1 && numCols === 1 ? tl : tl + ':' + columnLetter(col + numCols - 2) + (row + numRows - 1));
}

function view(job: ColumnJob, message?: string): ColumnConversionProgress {
  const p = progress(job);
  const rows = job.lastRow - job.firstRow + 1;
  return {
    done: isDone(job),
    rowsDone: p.done,
    totalRows: p.total,
    targetA1: a1(job.sheetName, job.firstRow, job.outColumn, rows, job.outWidth),
    sourceA1: a1(job.sheetName, job.firstRow, job.inColumn, rows, 1),
    conversion: job.fn,
    marketplace: job.marketplace,
    message: message ?? (isDone(job) ? p.text : p.text + ' Run "Convert selected column" again to continue.'),
  };
}

function saveCheckpoint(job: ColumnJob): void {
  const id = activeSpreadsheet().getId();
  if (isDone(job)) COLUMN_JOB.remove(userProperties(), id);
  else COLUMN_JOB.put(userProperties(), job, id);
}

function sheetOf(job: ColumnJob): GoogleAppsScript.Spreadsheet.Sheet {
  const sh = activeSpreadsheet().getSheetById(job.sheetId);
  if (!sh)
    throw new Error(
      'The sheet "' +
        job.sheetName +
        '" of the unfinished conversion no longer exists. Select a column and run "Convert selected column" again.',
    );
  return sh;
}

/** The rows not yet written must have nothing in the output columns (nothing a user typed is overwritten). */
function requireEmptyTarget(sh: GoogleAppsScript.Spreadsheet.Sheet, job: ColumnJob, fromRow: number): void {
  if (fromRow > job.lastRow) return;
  const range = sh.getRange(fromRow, job.outColumn, job.lastRow - fromRow + 1, job.outWidth);
  const values = range.getValues();
  const formulas = range.getFormulas();
  for (let r = 0; r < values.length; r++) {
    for (let c = 0; c < values[r].length; c++) {
      if (values[r][c] !== '' || formulas[r][c] !== '') {
        throw new Error(
          'Cell ' +
            a1(job.sheetName, fromRow + r, job.outColumn + c, 1, 1) +
            ' is not empty. The converted values go into ' +
            a1(job.sheetName, job.firstRow, job.outColumn, job.lastRow - job.firstRow + 1, job.outWidth) +
            ', right of the selection; insert ' +
            (job.outWidth === 1 ? 'an empty column' : job.outWidth + ' empty columns') +
            ' there and run it again. Nothing was written.',
        );
      }
    }
  }
}

function startJob(req: ColumnConversionRequest, now: number): ColumnJob {
  const ss = activeSpreadsheet();
  const range = ss.getActiveRange();
  if (!range) throw new Error('Select the column of identifiers to convert (one column; a header cell on top is fine).');
  const sh = range.getSheet();
  const numColumns = range.getNumColumns();
  if (numColumns !== 1) throw new Error('Select one column of identifiers (you selected ' + numColumns + ' columns).');
  // A whole-column selection (A:A) stops at the sheet's last row with content.
  const last = Math.min(range.getRow() + range.getNumRows() - 1, Math.max(sh.getLastRow(), range.getRow()));
  const numRows = last - range.getRow() + 1;
  const values = sh
    .getRange(range.getRow(), range.getColumn(), numRows, 1)
    .getValues()
    .map((r) => r[0]);
  const hasHeader = looksLikeHeader(values[0]);
  const header = hasHeader ? String(values[0]) : undefined;
  const data = hasHeader ? values.slice(1) : values;
  let fn = req.conversion ? parseConversion(req.conversion) : chooseConversion(header, data);
  if (req.conversion && !fn) throw new Error('Unknown conversion "' + String(req.conversion).slice(0, 40) + '".');
  if (!fn) throw new Error('The selected column has no UPC, EAN, ISBN or ASIN to convert.');
  const settings = loadSettings();
  const market = findMarketplace(req.marketplace ? String(req.marketplace) : settings.marketplace);
  if (!market) throw new Error('Unknown marketplace "' + String(req.marketplace).slice(0, 20) + '".');
  if (req.matches !== undefined && req.matches !== null && req.matches !== 'first' && req.matches !== 'all') {
    throw new Error('matches must be "first" or "all" for a column conversion ("spill" is for formulas).');
  }
  const plan = planColumnJob(
    { sheetId: sh.getSheetId(), sheetName: sh.getName(), row: range.getRow(), column: range.getColumn(), numRows, numColumns },
    fn,
    { marketplace: market.code, matches: req.matches ?? 'first', hasHeader, now },
  );
  if (!plan.ok) throw new Error(plan.message);
  const job = plan.job;
  requireEmptyTarget(sh, job, job.firstRow);
  if (hasHeader) {
    const headerCells = sh.getRange(job.firstRow - 1, job.outColumn, 1, job.outWidth);
    headerCells.setValues(safeBlock([outputHeader(job.fn, job.outWidth)]));
  }
  return job;
}

function formulaDepsFor(service: ServiceSettings, job: ColumnJob, run: Run, budgetMs: number): FormulaDeps {
  return {
    fetcher: urlFetcher(),
    cache: userCache(),
    sleep: run.clock.sleep,
    now: run.clock.now,
    startedAt: run.clock.now(),
    budgetMs,
    settings: () => ({ ok: true, service, defaultMarketplace: job.marketplace }),
  };
}

/** Converts chunks until done or the execution's time is nearly up; checkpoint after each chunk. */
function work(job: ColumnJob, run: Run, onProgress: (job: ColumnJob) => void): ColumnJob {
  const service = serviceSettings(loadSettings());
  const sh = sheetOf(job);
  let written = 0;
  for (;;) {
    const timeLeft = EXECUTION_LIMIT_MS - (run.clock.now() - run.started);
    const chunk = nextChunk(job, timeLeft);
    if (!chunk) return job;
    const t0 = run.clock.now();
    const input = sh.getRange(chunk.startRow, job.inColumn, chunk.numRows, 1).getValues();
    const out = convertRows(job.fn, input, job.marketplace, job.matches, formulaDepsFor(service, job, run, chunk.budgetMs));
    // The user's own key was refused: no cell is written with the formulas' words for it (they speak of
    // the owner's shared key); the conversion stops and says so, and continues once the key is fixed.
    const refused = failedText({ kind: 'auth', message: '' });
    if (out.values.some((r) => r.indexOf(refused) >= 0)) throw problemError(classifyResponse(401, {}, '', { nowMs: run.clock.now() })!);
    // Little time left in the chunk's budget: a 429/5xx failure may be the clock's (its retry did not
    // fit), so such rows are left for the next execution, unless the last one already stalled on them.
    const short = t0 + chunk.budgetMs - run.clock.now() < RETRY_ROOM_MS;
    const rows = finalRows(out.values, short && !job.stalled);
    if (rows > 0) {
      // Checkpoint first: an execution cut during the write leaves rows the next one may overwrite.
      saveCheckpoint({ ...job, pendingRows: rows });
      const block = out.values
        .slice(0, rows)
        .map((r) => r.concat(new Array(Math.max(0, job.outWidth - r.length)).fill('')).slice(0, job.outWidth));
      sh.getRange(chunk.startRow, job.outColumn, rows, job.outWidth).setValues(safeBlock(block));
    }
    written += rows;
    job = {
      ...completeChunk(job, { rows, width: job.outWidth, elapsedMs: run.clock.now() - t0, now: run.clock.now() }),
      stalled: rows < chunk.numRows && written === 0,
    };
    saveCheckpoint(job);
    onProgress(job);
    if (rows < chunk.numRows) return job; // time ran out inside the chunk: the next execution continues
  }
}

function convertColumn(req: ColumnConversionRequest | null | undefined, toast: boolean): ColumnConversionProgress {
  const clock = { now: () => Date.now(), sleep };
  const run: Run = { started: clock.now(), clock };
  const request = req || {};
  const ss = activeSpreadsheet();
  // The key first: without one nothing is planned or written.
  serviceSettings(loadSettings());
  const id = ss.getId();
  let job = request.restart ? undefined : COLUMN_JOB.get(userProperties(), id) || undefined;
  if (job && !isDone(job)) {
    try {
      requireEmptyTarget(sheetOf(job), job, job.nextRow + (job.pendingRows ?? 0));
    } catch (e) {
      // The unfinished conversion cannot go on (sheet gone, output typed over): forget it, say why.
      COLUMN_JOB.remove(userProperties(), id);
      throw e;
    }
  } else {
    job = startJob(request, run.clock.now());
    saveCheckpoint(job);
  }
  const say = (j: ColumnJob) => {
    if (toast) ss.toast(progress(j).text, TOAST_TITLE, isDone(j) ? 10 : -1);
  };
  job = work(job, run, say);
  const result = view(job);
  if (toast && !result.done) ss.toast(result.message, TOAST_TITLE, -1);
  return result;
}

/** Sidebar: converts the selected column (or continues the unfinished conversion); call again while `done` is false. */
export function convertSelectedColumn(request?: ColumnConversionRequest | null): ColumnConversionProgress {
  return asSidebarCall(() => convertColumn(request, false));
}

/** Menu (src/entry/menu.ts): converts the selected column with progress as toasts; a problem is thrown for the menu to show. */
export function convertColumnWithToasts(): void {
  convertColumn(null, true);
}
