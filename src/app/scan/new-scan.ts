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
import { uploadScan } from '../../api/scans';
import { findMarketplace } from '../../../contract/marketplaces';
import { findHeaderRow, suggestColumns } from '../../sheet/header';
import { mappingFromRoles, roleLabel, type ColumnRole } from '../../scan/mapping';
import { prepareScan, previewSummary, type PreparedScan, type PreviewSummary } from '../../scan/prepare';
import type { ScanRequest, ScanSetup, StartedScan } from './protocol';
import { activeSpreadsheet, asSidebarCall, clientDeps, formatInSpreadsheetZone, loadSettings, now, serviceSettings } from '../services';
import { marketplaceOptions } from '../settings/settings';
import { progressFromScan, recordRunningScan, runningScans } from './progress';
import { ensureImportTrigger } from '../results/trigger';

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

/** Sidebar: what the New scan form shows (columns with suggested roles and samples, defaults). */
export function getScanSetup(): ScanSetup {
  return asSidebarCall(() => {
    const b = locateBlock();
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
    const headerRow = findHeaderRow(top.values);
    const columns = perUnitCostPacks(suggestColumns(top.values, headerRow, { display: top.display, firstSheetColumn: b.column })).map((c) => ({
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
      headerRow: headerRow >= 0 ? b.row + headerRow : 0,
      rowCount: b.numRows - (headerRow + 1),
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
  const headerRow = typeof request.headerRow === 'number' && request.headerRow >= b.row ? request.headerRow - b.row : findHeaderRow(values);
  const options = { ...request.options };
  if (options.marketplace === undefined || options.marketplace === null || String(options.marketplace).trim() === '') options.marketplace = loadSettings().marketplace;
  return prepareScan({ values, display, headerRow, firstSheetRow: b.row, firstSheetColumn: b.column + offset, mapping: mapping.mapping, options });
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
    const form = { file: Utilities.newBlob(prepared.csv, 'text/csv', safeFileName(name) + '.csv'), attributes: JSON.stringify(prepared.attributes) };
    const body = uploadScan(service, clientDeps(), form, String(prepared.attributes.options.marketplace_id || ''), startedAt + UPLOAD_BUDGET_MS);
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
