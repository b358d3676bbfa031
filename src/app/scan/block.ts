/**
 * Reading the New scan's block from the sheet: which block (the selection or the data range, or
 * what the form was built from), its top for the setup, and only its mapped columns for preview and
 * start (one getValues and one getDisplayValues per run of columns).
 */
import type { ScanRequest } from './protocol';
import { activeSpreadsheet } from '../../apps-script';
import { cellKind, findHeader, HEADER_ROWS_IN_BLOCK } from '../../domain/price-list/header';
import { cellText } from '../../domain/ids/identify';
import { quoteCell } from '../../domain/ids/quote';

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

export function readBlockRows(b: Block, rows: number): BlockValues {
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

/**
 * Cells read above a selection to find the sheet's own header row (one read, rows 1 down to the
 * selection; ~1 s in the cost model). A selection further down than that reads the top rows of the
 * sheet only, where a list's header is.
 */
export const HEADER_SEARCH_CELLS = 100_000;

/**
 * Where the block's column names are. `index`: row of the block (0-based) holding them; -1 when none
 * is inside the block. `above`: the sheet row of a header ABOVE the block (a selection of data rows
 * below the sheet's header), else 0. `sheetRow`: the header's sheet row, 0 for none. `question`:
 * set when the add-on is not sure, in words for the seller (the sidebar shows it by the header row
 * choice).
 */
export interface HeaderPlace {
  index: number;
  above: number;
  sheetRow: number;
  question?: string;
}

function placeAt(b: Block, sheetRow: number): HeaderPlace {
  if (sheetRow <= 0) return { index: -1, above: 0, sheetRow: 0 };
  if (sheetRow >= b.row) return { index: sheetRow - b.row, above: 0, sheetRow };
  return { index: -1, above: sheetRow, sheetRow };
}

/**
 * The header row of a block, or what the user said (`chosen`: a sheet row; 0 = the list has no header
 * row). Without a choice (findHeader): the rows above a selection (one read of its columns, from
 * sheet row 1 when that is at most HEADER_SEARCH_CELLS cells, else the sheet's top rows) and the
 * block's first rows are searched together for the header row nearest the data; data rows never
 * qualify. Not sure, or nothing found in a search that did not reach row 1: `question` says so.
 */
export function placeHeader(b: Block, top: unknown[][], chosen?: number): HeaderPlace {
  if (typeof chosen === 'number' && isFinite(chosen)) {
    const r = Math.floor(chosen);
    if (r >= b.row + b.numRows)
      throw new Error('Row ' + r + ' is below the rows read (' + b.rangeA1 + '): choose a header row at or above the list, or 0 for none.');
    return placeAt(b, r);
  }
  let above: unknown[][] = [];
  if (b.selection && b.row > 1) {
    const rows = Math.min(b.row - 1, Math.max(HEADER_ROWS_IN_BLOCK, Math.floor(HEADER_SEARCH_CELLS / b.numColumns)));
    above = b.sheet.getRange(1, b.column, rows, b.numColumns).getValues();
  }
  const found = findHeader({ block: top, blockRow: b.row, above, aboveFirstRow: 1 });
  const place = placeAt(b, found.sheetRow);
  if (found.confidence === 'guess')
    place.question =
      'Row ' +
      found.sheetRow +
      ' was taken as the column names, but none of its names says UPC, Cost or the like. If the names are in another row, enter its number below (0 if the list has none).';
  else if (found.confidence === 'none' && above.length < b.row - 1)
    place.question =
      'No row with column names was found in rows 1 to ' +
      above.length +
      ' or in the selection. Enter the number of the row with the column names below (0 if the list has none).';
  return place;
}

/**
 * Why a row the user (or a form) gave as the header row is data, or null: a header row holds names,
 * and a row with an identifier, amount or number in it is a product that would then never be sent.
 */
export function dataRowAsHeader(sheetRow: number, headerValues: readonly unknown[]): string | null {
  const values = headerValues.filter((v) => cellKind(v) === 'value');
  if (!values.length) return null;
  return (
    'Row ' +
    sheetRow +
    ' holds data (' +
    values
      .slice(0, 2)
      .map((v) => quoteCell(cellText(v)))
      .join(', ') +
    '), not column names: taken as the header row, it would never be scanned. Enter the number of the row with the column names (0 if the list has none).'
  );
}

/** The header row above a block, columns [from, from + width) of the block, as one row (values and display). */
export function headerAbove(b: Block, place: HeaderPlace, from: number, width: number): { values: unknown[]; display: string[] } {
  const r = b.sheet.getRange(place.above, b.column + from, 1, width);
  return { values: r.getValues()[0], display: r.getDisplayValues()[0] };
}
