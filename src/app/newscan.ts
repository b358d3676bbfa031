/**
 * New scan: the sidebar's getScanSetup / previewScan / startScan.
 *
 * Reading the sheet: the block is the selection when the user selected more than one cell, else the
 * sheet's data range. Setup reads only the top of it (SETUP_ROWS rows: enough to find the header and
 * sample every column; blocks wider than MAX_COLUMNS are refused before reading). Preview and start
 * read only the MAPPED columns: one getValues and one getDisplayValues per contiguous run of mapped
 * columns (runs closer than a few cells' worth are read as one), over every row of the block. Reads
 * cost per cell, so a wide block with few mapped columns costs what a narrow one does (see README
 * for the figures). Before anything is read in full, a block over MAX_LINES data rows, or whose
 * mapped cells pass MAX_READ_CELLS (time) or whose rows from the first to the last mapped column
 * pass MAX_SPAN_CELLS (memory of the rows handed to prepareScan), is refused with its size and what
 * to select instead. A row is blank when all its mapped cells are.
 *
 * Which block: ScanSetup names it (sheetName, rangeA1, selection); the sidebar sends those back in
 * the ScanRequest (optional fields), so preview and start read what the user saw even when the
 * selection moved meanwhile. A data-range setup re-reads the CURRENT data range of that sheet (rows
 * added since are included). Without them, the active sheet/selection is read again.
 *
 * After a successful upload the hourly import trigger is made sure of (src/app/trigger.ts), so a
 * scan finished while the sidebar is closed is imported anyway.
 *
 * Upload (contract 2.1): multipart `file` (the prepared CSV, text/csv, "<name>.csv") and
 * `attributes` (JSON text). Retries: 429 waits Retry-After, 5xx and unreachable back off (the
 * client's policy, src/api/retry.ts). A time-out is NOT retried for the upload: the service may have
 * stored the scan before the answer was lost, and a retry would start it twice; the message says to
 * look in Scans (history). Only after the service answered with the scan's id is it recorded as
 * running, so a failed upload leaves nothing behind.
 */
import { send, type ApiCall, type ServiceSettings } from '../api/client';
import { ApiProblemError, type Problem } from '../api/problems';
import { decideRetry } from '../api/retry';
import type { FetchRequest, UrlFetchLike } from '../api/services';
import { findMarketplace } from '../../contract/marketplaces';
import { findHeaderRow, suggestColumns } from '../sheet/header';
import { mappingFromRoles, roleLabel, type ColumnRole } from '../scan/mapping';
import { prepareScan, previewSummary, type PreparedScan, type PreviewSummary } from '../scan/prepare';
import type { ScanRequest, ScanSetup, StartedScan } from './protocol';
import { activeSpreadsheet, asSidebarCall, clientDeps, formatInSpreadsheetZone, loadSettings, now, serviceSettings } from './gas';
import { marketplaceOptions } from './settings';
import { progressFromScan, recordRunningScan, runningScans, SCANS_PATH } from './progress';
import { ensureImportTrigger } from './trigger';

/** Rows read for the setup (header search looks at the first 30, samples at 200 below it). */
export const SETUP_ROWS = 260;
/** The service's maximum of data lines per upload (scans.yaml). */
export const MAX_LINES = 100_000;
/** Columns of a block the form can offer (each gets a dropdown); wider blocks are refused before reading. */
export const MAX_COLUMNS = 250;
/**
 * Mapped cells a preview or start reads (values and display values of each): 2,000,000 are
 * modelled at about 40 s of the 6 minutes, leaving the upload its UPLOAD_BUDGET_MS.
 */
export const MAX_READ_CELLS = 2_000_000;
/** Cells of the rows handed to prepareScan (first to last mapped column, unmapped ones left empty). */
export const MAX_SPAN_CELLS = 5_000_000;
/** Unmapped cells between two runs that are cheaper to read than a second pair of read calls. */
export const MERGE_GAP_CELLS = 2_000;
/** Time a startScan gives its upload, retries and waits included (of the 6-minute limit). */
export const UPLOAD_BUDGET_MS = 4.5 * 60_000;

const ROLE_ORDER: ColumnRole[] = ['identifier', 'cost', 'sku', 'map', 'stock', 'pack_quantity', 'image', 'discount', 'custom', 'ignore'];

// ---- Reading the sheet -------------------------------------------------------------------------

interface Block {
  sheet: GoogleAppsScript.Spreadsheet.Sheet;
  sheetName: string;
  /** Sheet row / column (1-based) of the block's first cell. */
  row: number;
  column: number;
  numRows: number;
  numColumns: number;
  selection: boolean;
  rangeA1: string;
}

function locateBlock(request?: Partial<ScanRequest>): Block {
  const ss = activeSpreadsheet();
  let sheet: GoogleAppsScript.Spreadsheet.Sheet | null = null;
  let range: GoogleAppsScript.Spreadsheet.Range | null = null;
  let selection = false;
  if (request && typeof request.sheetName === 'string' && request.sheetName) {
    sheet = ss.getSheetByName(request.sheetName);
    if (!sheet) throw new Error('The sheet "' + request.sheetName + '" is no longer there. Open Scan this sheet again.');
    if (request.selection && request.rangeA1) {
      range = sheet.getRange(request.rangeA1);
      selection = true;
    }
  } else {
    sheet = ss.getActiveSheet();
    const active = ss.getActiveRange();
    if (active && active.getSheet().getName() === sheet.getName() && active.getNumRows() * active.getNumColumns() > 1) {
      range = active;
      selection = true;
    }
  }
  if (!range) range = sheet.getDataRange();
  else {
    // A selection of whole columns (A:E) or reaching below the data is cut at the last filled row and
    // column, so counts and reads cover the list, not a thousand empty rows.
    const lastRow = sheet.getLastRow();
    const lastColumn = sheet.getLastColumn();
    const rows = Math.min(range.getNumRows(), lastRow - range.getRow() + 1);
    const cols = Math.min(range.getNumColumns(), lastColumn - range.getColumn() + 1);
    if (rows < 1 || cols < 1) throw new Error('The selected cells are empty. Select the price list (with its header row), or one cell to scan the whole sheet.');
    if (rows !== range.getNumRows() || cols !== range.getNumColumns()) range = sheet.getRange(range.getRow(), range.getColumn(), rows, cols);
  }
  return {
    sheet,
    sheetName: sheet.getName(),
    row: range.getRow(),
    column: range.getColumn(),
    numRows: range.getNumRows(),
    numColumns: range.getNumColumns(),
    selection,
    rangeA1: range.getA1Notation(),
  };
}

interface BlockValues {
  values: unknown[][];
  display: string[][];
}

function readRows(b: Block, rows: number): BlockValues {
  const r = b.sheet.getRange(b.row, b.column, Math.max(1, rows), b.numColumns);
  return { values: r.getValues(), display: r.getDisplayValues() };
}

/** Contiguous runs [first, last] (block column indices) of the columns whose role is not 'ignore'; close runs merged. */
export function mappedRuns(roles: readonly string[], rows: number): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  roles.forEach((role, i) => {
    if (role === 'ignore') return;
    const last = runs[runs.length - 1];
    if (last && (i === last[1] + 1 || (i - last[1] - 1) * rows <= MERGE_GAP_CELLS)) last[1] = i;
    else runs.push([i, i]);
  });
  return runs;
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}

/** Why a block is too large to read for a preview or start, or null. Nothing is read to decide. */
export function readRefusal(numRows: number, numColumns: number, runs: ReadonlyArray<[number, number]>, firstColumn: number): string | null {
  const cells = runs.reduce((a, r) => a + (r[1] - r[0] + 1) * numRows, 0);
  const mapped = runs.reduce((a, r) => a + r[1] - r[0] + 1, 0);
  if (cells > MAX_READ_CELLS) {
    return (
      'The list is too large to read at once: ' + fmt(numRows) + ' rows x ' + mapped + ' chosen columns = ' + fmt(cells) + ' cells (at most ' + fmt(MAX_READ_CELLS) + '). ' +
      'Set fewer columns to be sent (custom columns to "' + roleLabel('ignore') + '"), or select fewer rows (with the header row) and scan the list in parts.'
    );
  }
  if (runs.length) {
    const span = runs[runs.length - 1][1] - runs[0][0] + 1;
    if (span * numRows > MAX_SPAN_CELLS) {
      return (
        'The chosen columns ' + columnName(firstColumn + runs[0][0]) + ' to ' + columnName(firstColumn + runs[runs.length - 1][1]) + ' span ' + span + ' columns x ' + fmt(numRows) + ' rows = ' +
        fmt(span * numRows) + ' cells (at most ' + fmt(MAX_SPAN_CELLS) + '). Choose columns closer together, or select fewer rows (with the header row) and scan the list in parts.'
      );
    }
  }
  void numColumns;
  return null;
}

/** Sheet column number (1-based) to its letters. */
function columnName(n: number): string {
  let s = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
}

/**
 * Reads the runs of every row of the block into rows indexed like the block from the first mapped
 * column (returned as `offset`): unmapped columns in between stay ''.
 */
function readRuns(b: Block, runs: ReadonlyArray<[number, number]>): BlockValues & { offset: number } {
  const offset = runs[0][0];
  const width = runs[runs.length - 1][1] - offset + 1;
  const values: unknown[][] = [];
  const display: string[][] = [];
  for (let r = 0; r < b.numRows; r++) {
    values.push(new Array(width).fill(''));
    display.push(new Array(width).fill(''));
  }
  for (const [first, last] of runs) {
    const range = b.sheet.getRange(b.row, b.column + first, b.numRows, last - first + 1);
    const v = range.getValues();
    const d = range.getDisplayValues();
    for (let r = 0; r < b.numRows; r++) {
      const vr = v[r];
      const dr = d[r];
      const tv = values[r];
      const td = display[r];
      for (let c = 0; c <= last - first; c++) {
        tv[first - offset + c] = vr[c];
        td[first - offset + c] = dr[c];
      }
    }
  }
  return { values, display, offset };
}

function isBlankRow(row: readonly unknown[]): boolean {
  return row.every((v) => v === '' || v === null || v === undefined);
}

// ---- The header row ----------------------------------------------------------------------------

/** Rows above a selection searched for the sheet's own header row. */
export const HEADER_SEARCH_ROWS = 30;

/**
 * Where the block's column names are. `index`: row of the block (0-based) holding them; -1 when none
 * is inside the block. `above`: the sheet row of a header ABOVE the block (a selection of data rows
 * below the sheet's header), else 0. `sheetRow`: the header's sheet row, 0 for none.
 */
export interface HeaderPlace {
  index: number;
  above: number;
  sheetRow: number;
}

/**
 * The header row of a block, or what the user said (`chosen`: a sheet row; 0 = the list has no header
 * row). Without a choice: a header at the top of the block is taken; a selection whose first row is
 * not its header takes the sheet's header row above it (found in the HEADER_SEARCH_ROWS rows above,
 * over the selection's columns: one read), so data rows never become column names; else the best
 * header-like row inside the block.
 */
function placeHeader(b: Block, top: unknown[][], chosen?: number): HeaderPlace {
  if (typeof chosen === 'number' && isFinite(chosen)) {
    const r = Math.floor(chosen);
    if (r <= 0) return { index: -1, above: 0, sheetRow: 0 };
    if (r >= b.row && r < b.row + b.numRows) return { index: r - b.row, above: 0, sheetRow: r };
    if (r < b.row) return { index: -1, above: r, sheetRow: r };
    throw new Error('Row ' + r + ' is below the rows read (' + b.rangeA1 + '): choose a header row at or above the list, or 0 for none.');
  }
  const inside = findHeaderRow(top);
  if (inside === 0 || !b.selection || b.row === 1) return { index: inside, above: 0, sheetRow: inside >= 0 ? b.row + inside : 0 };
  const first = Math.max(1, b.row - HEADER_SEARCH_ROWS);
  const aboveRows = b.sheet.getRange(first, b.column, b.row - first, b.numColumns).getValues();
  const found = findHeaderRow(aboveRows, HEADER_SEARCH_ROWS);
  if (found >= 0) return { index: -1, above: first + found, sheetRow: first + found };
  return { index: inside, above: 0, sheetRow: inside >= 0 ? b.row + inside : 0 };
}

/** The header row above a block, columns [from, from + width) of the block, as one row (values and display). */
function headerAbove(b: Block, place: HeaderPlace, from: number, width: number): { values: unknown[]; display: string[] } {
  const r = b.sheet.getRange(place.above, b.column + from, 1, width);
  return { values: r.getValues()[0], display: r.getDisplayValues()[0] };
}

// ---- Setup -------------------------------------------------------------------------------------

/** Roles in dropdown order with their labels. */
export function roleChoices(): Array<{ role: ColumnRole; label: string }> {
  return ROLE_ORDER.map((role) => ({ role, label: roleLabel(role) }));
}

/** Default scan name: "<sheet name> <yyyy-mm-dd>" in the spreadsheet's time zone. */
export function defaultScanName(sheetName: string, date: string): string {
  return (sheetName.trim() || 'Scan') + ' ' + date;
}

/**
 * A pack column next to a cost that says it is per unit ("Unit Cost", "Cost each") is the carton
 * size, for information: mapped as the pack quantity it would divide that cost again (the shipped
 * sample's README says so for "Case Pack"). It is suggested as a custom column instead, so it still
 * travels with the results. (The header rules in src/sheet/header.ts do not look at two columns at
 * once; this does.)
 */
export function perUnitCostPacks<T extends { header: string; role: ColumnRole }>(columns: T[]): T[] {
  const cost = columns.find((c) => c.role === 'cost');
  if (!cost || !/\b(unit|each|ea|per (unit|item|piece|pc))\b/i.test(cost.header)) return columns;
  return columns.map((c) => (c.role === 'pack_quantity' ? { ...c, role: 'custom' as ColumnRole } : c));
}

/**
 * Sidebar: what the New scan form shows (columns with suggested roles and samples, defaults). With
 * `again` (the form's block and the header row the user chose, 0 for none), the same block is read
 * with that header row.
 */
export function getScanSetup(again?: Partial<ScanRequest> | null): ScanSetup {
  return asSidebarCall(() => {
    const b = locateBlock(again || undefined);
    if (b.numColumns > MAX_COLUMNS) {
      throw new Error(
        'The ' + (b.selection ? 'selection' : 'sheet "' + b.sheetName + '"') + ' has ' + fmt(b.numColumns) + ' columns (' + b.rangeA1 + '); the add-on reads at most ' + MAX_COLUMNS +
          '. Select the columns of the price list (with its header row) and open Scan this sheet again.',
      );
    }
    const top = readRows(b, Math.min(b.numRows, SETUP_ROWS));
    if (top.values.every(isBlankRow)) {
      throw new Error(b.selection ? 'The selected cells are empty. Select the price list (with its header row), or one cell to scan the whole sheet.' : 'The sheet "' + b.sheetName + '" is empty. Open the sheet with the price list and try again.');
    }
    const place = placeHeader(b, top.values, again ? again.headerRow : undefined);
    // A header above a selection is put on top of its rows, so names and samples come out as usual.
    let values = top.values;
    let display = top.display;
    let headerRow = place.index;
    if (place.above) {
      const head = headerAbove(b, place, 0, b.numColumns);
      values = [head.values].concat(values);
      display = [head.display].concat(display);
      headerRow = 0;
    }
    const columns = perUnitCostPacks(suggestColumns(values, headerRow, { display, firstSheetColumn: b.column })).map((c) => ({
      index: c.index,
      letter: c.letter,
      header: c.header,
      sample: c.sample,
      role: c.role,
    }));
    const settings = loadSettings();
    let running: ScanSetup['running'] = [];
    if (settings.apiKey) {
      try {
        running = runningScans();
      } catch (_e) {
        running = []; // the form must open even when the service cannot be asked now
      }
    }
    return {
      sheetName: b.sheetName,
      rangeA1: b.rangeA1,
      selection: b.selection,
      headerRow: place.sheetRow,
      rowCount: b.numRows - (place.index + 1),
      columns,
      roles: roleChoices(),
      defaultName: defaultScanName(b.sheetName, formatInSpreadsheetZone(new Date(now()), 'yyyy-MM-dd')),
      defaultMarketplace: settings.marketplace,
      marketplaces: marketplaceOptions(),
      running,
    };
  });
}

// ---- Preview and start -------------------------------------------------------------------------

/** Reads the block in full and prepares the scan for the request's roles and options. */
function prepareFromSheet(request: ScanRequest): PreparedScan {
  if (!request || !Array.isArray(request.roles) || !request.options) throw new Error('The scan form was incomplete. Open Scan this sheet again.');
  const b = locateBlock(request);
  if (b.numRows - 1 > MAX_LINES) {
    throw new Error('The sheet has ' + b.numRows + ' rows; a scan takes at most ' + MAX_LINES.toLocaleString('en-US') + '. Select a part of the list (with its header row) and scan it.');
  }
  if (request.roles.length !== b.numColumns) {
    throw new Error('The sheet changed since the form was opened (' + b.numColumns + ' columns now, ' + request.roles.length + ' in the form). Open Scan this sheet again.');
  }
  const checked = mappingFromRoles(request.roles, b.column);
  if (!checked.ok) throw new Error(checked.errors.join(' '));
  const runs = mappedRuns(request.roles, b.numRows);
  const tooLarge = readRefusal(b.numRows, b.numColumns, runs, b.column);
  if (tooLarge) throw new Error(tooLarge);
  const { values, display, offset } = readRuns(b, runs);
  // The rows start at the first mapped column: the mapping is shifted to match, messages still name real columns.
  const mapping = mappingFromRoles(request.roles.slice(offset), b.column + offset);
  if (!mapping.ok) throw new Error(mapping.errors.join(' '));
  // The header row the form was built with (0: none); absent: found again as the setup finds it.
  const place = placeHeader(b, typeof request.headerRow === 'number' ? [] : values.slice(0, SETUP_ROWS), typeof request.headerRow === 'number' ? request.headerRow : undefined);
  let headerRow = place.index;
  let firstSheetRow = b.row;
  if (place.above) {
    const width = runs[runs.length - 1][1] - offset + 1;
    const head = headerAbove(b, place, offset, width);
    values.unshift(head.values);
    display.unshift(head.display);
    headerRow = 0;
    firstSheetRow = b.row - 1; // values[i] is sheet row b.row - 1 + i: the data keeps its real row numbers
  }
  const options = { ...request.options };
  if (options.marketplace === undefined || options.marketplace === null || String(options.marketplace).trim() === '') options.marketplace = loadSettings().marketplace;
  return prepareScan({ values, display, headerRow, firstSheetRow, firstSheetColumn: b.column + offset, mapping: mapping.mapping, options });
}

/** Sidebar: what would be sent, skipped and repaired (real sheet row numbers), and option problems. */
export function previewScan(request: ScanRequest): PreviewSummary {
  return asSidebarCall(() => previewSummary(prepareFromSheet(request)));
}

/** Why a prepared scan cannot go, in one message. */
export function refusal(p: PreparedScan): string {
  return 'The scan was not started: ' + p.problems.map((x) => x.message).join(' ');
}

/**
 * A fetcher that sends the upload's multipart form instead of the client's JSON body: UrlFetchApp
 * builds multipart/form-data itself when a payload object holds a Blob.
 */
export function multipartFetcher(real: UrlFetchLike, form: { [field: string]: unknown }): UrlFetchLike {
  return {
    fetchAll(requests: FetchRequest[]) {
      return real.fetchAll(
        requests.map((r) => {
          const copy: { [k: string]: unknown } = { ...r, payload: form };
          delete copy.contentType;
          return copy as unknown as FetchRequest;
        }),
      );
    },
  };
}

/**
 * One upload with the client's classification and retry policy, except that a time-out ends it
 * (see the module comment). Returns the answer's body or throws ApiProblemError.
 */
export function uploadScan(service: ServiceSettings, csv: string, attributes: unknown, fileName: string, deadline: number): unknown {
  const deps = clientDeps();
  const form = { file: Utilities.newBlob(csv, 'text/csv', fileName), attributes: JSON.stringify(attributes) };
  const fetcher = multipartFetcher(deps.fetcher, form);
  const call: ApiCall = { method: 'post', path: SCANS_PATH, subject: 'marketplace ' + String((attributes as { options?: { marketplace_id?: string } }).options?.marketplace_id || '') };
  for (let attempt = 1; ; attempt++) {
    const r = send(service, { ...deps, fetcher }, call, { deadline, policy: { maxAttempts: 1, baseDelayMs: 1000, maxDelayMs: 16000, attemptReserveMs: 3000 } });
    if (r.ok) return r.body;
    const problem: Problem = r.problem;
    if (problem.kind === 'timeout') {
      throw new ApiProblemError({ ...problem, message: 'The Scan Service did not answer the upload in time. It may still have received it: look in Scans (history) before starting the scan again.' });
    }
    const decision = decideRetry({ attempt, problem, timeLeftMs: deadline - now(), random: Math.random() });
    if (!decision.retry) {
      if (problem.kind === 'rate-limited' || problem.kind === 'server' || problem.kind === 'unreachable') {
        throw new ApiProblemError({ ...problem, message: problem.message + ' The scan was not started (tried ' + attempt + ' times).' });
      }
      throw new ApiProblemError(problem);
    }
    deps.log!('upload: wait ' + decision.waitMs + ' ms before attempt ' + (attempt + 1));
    Utilities.sleep(decision.waitMs);
  }
}

/**
 * Sidebar: re-reads the sheet, prepares, uploads, records the scan as running (document properties,
 * ids only) and answers its first progress and the preview of what was sent.
 */
export function startScan(request: ScanRequest): StartedScan {
  const startedAt = now();
  return asSidebarCall(() => {
    const settings = loadSettings();
    const service = serviceSettings(settings);
    const prepared = prepareFromSheet(request);
    if (!prepared.ok || !prepared.attributes) throw new Error(refusal(prepared));
    if (prepared.counts.send > MAX_LINES) throw new Error('The scan was not started: ' + prepared.counts.send + ' rows to send; a scan takes at most ' + MAX_LINES + '.');
    const name = prepared.attributes.options.name;
    const body = uploadScan(service, prepared.csv, prepared.attributes, safeFileName(name) + '.csv', startedAt + UPLOAD_BUDGET_MS);
    const progress = progressFromScan(body);
    if (!progress) throw new Error('The Scan Service accepted the upload but its answer has no scan id. Look in Scans (history).');
    if (!progress.name) progress.name = name;
    if (!progress.marketplace) progress.marketplace = findMarketplace(prepared.attributes.options.marketplace_id)?.code || prepared.attributes.options.marketplace_id;
    try {
      recordRunningScan(progress.scanId);
    } catch (e) {
      // The scan IS started: failing now would make the user start it twice. Without the record the
      // sidebar still has its progress, and Scans (history) lists it once finished.
      console.log('scan ' + progress.scanId + ' started but not recorded: ' + (e instanceof Error ? e.message : String(e)));
    }
    // If the sidebar is closed before the scan ends, the hourly trigger imports it (a convenience: never fails the start).
    ensureImportTrigger();
    return { progress, preview: previewSummary(prepared) };
  });
}

/** A file name from the scan name: no path separators or control characters, at most 100 characters. */
export function safeFileName(name: string): string {
  const s = String(name).replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 100);
  return s || 'scan';
}
