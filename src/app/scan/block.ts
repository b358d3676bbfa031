/**
 * Reading the New scan's block from the sheet: which block (the selection or the data range, or
 * what the form was built from), its top for the setup, and only its mapped columns for preview and
 * start (one getValues and one getDisplayValues per run of columns).
 */
import type { ScanRequest } from './protocol';
import { activeSpreadsheet } from '../services';

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
