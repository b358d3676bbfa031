/**
 * Reading the New scan's block from the sheet: which block (the selection or the data range, or
 * what the form was built from), its top for the setup, and only its mapped columns for preview and
 * start (one getValues and one getDisplayValues per run of columns).
 */
import type { ScanRequest } from './protocol';
import { activeSpreadsheet } from '../services';
import { findHeaderRow } from '../../sheet/header';

export interface Block {
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

export function locateBlock(request?: Partial<ScanRequest>): Block {
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
    if (rows < 1 || cols < 1)
      throw new Error('The selected cells are empty. Select the price list (with its header row), or one cell to scan the whole sheet.');
    if (rows !== range.getNumRows() || cols !== range.getNumColumns())
      range = sheet.getRange(range.getRow(), range.getColumn(), rows, cols);
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

export interface BlockValues {
  values: unknown[][];
  display: string[][];
}

export function readRows(b: Block, rows: number): BlockValues {
  const r = b.sheet.getRange(b.row, b.column, Math.max(1, rows), b.numColumns);
  return { values: r.getValues(), display: r.getDisplayValues() };
}

/**
 * Reads the runs of every row of the block into rows indexed like the block from the first mapped
 * column (returned as `offset`): unmapped columns in between stay ''.
 */
export function readRuns(b: Block, runs: ReadonlyArray<[number, number]>): BlockValues & { offset: number } {
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
export function placeHeader(b: Block, top: unknown[][], chosen?: number): HeaderPlace {
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
export function headerAbove(b: Block, place: HeaderPlace, from: number, width: number): { values: unknown[]; display: string[] } {
  const r = b.sheet.getRange(place.above, b.column + from, 1, width);
  return { values: r.getValues()[0], display: r.getDisplayValues()[0] };
}
