/**
 * Room in the spreadsheet for a scan's results: Sheets holds 10,000,000 cells a spreadsheet and
 * counts every cell of every tab's grid, empty ones included (max rows x max columns; Google Drive
 * Help, "Files you can store in Google Drive"). Pure: the caller reads the tabs' sizes.
 */
import { count } from '../../../contract/numbers';

/** Cells a spreadsheet holds. */
export const SPREADSHEET_MAX_CELLS = 10_000_000;

/**
 * Products a line of a price list brings, for the estimate before sending. Measured on the local
 * Scan Service's catalog with catalogue identifiers (bench/addon-scan.ts, bench/big-list.ts):
 * 10,000 lines gave 11,127 products and 100,000 lines 111,556 (an identifier can match several
 * listings). Rounded up so the estimate errs towards "will not fit".
 */
export const PRODUCTS_PER_LINE = 1.12;

/** Cells a new tab has before the add-on trims it to its data (insertSheet: 1,000 rows x 26 columns). */
export const NEW_TAB_CELLS = 1000 * 26;

/** Cells a new tab of rows x cols takes: it starts at 1,000 rows x 26 columns and only grows from there. */
export function newTabCells(rows: number, cols: number): number {
  return Math.max(rows, 1000) * Math.max(cols, 26);
}

/** Compare's message when a tab it makes would not fit: nothing is made. */
export function noRoomForTab(what: string, needed: number, left: number, limit: number): string {
  return (
    `${what} needs ${count(needed)} cells and this spreadsheet has ${count(left)} left of the ${count(limit)} Google Sheets holds. ` +
    'Delete tabs you no longer need (old result tabs), or compare in a new spreadsheet.'
  );
}

export interface TabCells {
  name: string;
  cells: number;
}

export interface RoomCheck {
  /** The results are expected to fit. */
  fits: boolean;
  lines: number;
  /** Expected products: lines x PRODUCTS_PER_LINE, rounded up. */
  products: number;
  /** Columns the import will write (the most: a column nothing comes back for is left out). */
  columns: number;
  /** Cells the results need: (products + header) x columns, plus the errors tab for rows not sent. */
  needed: number;
  limit: number;
  used: number;
  left: number;
  /** The add-on's result tabs in this spreadsheet, largest first (what a user may delete to make room). */
  resultTabs: TabCells[];
  /** When it does not fit: the numbers and what fits instead. */
  message: string | null;
}

/** Cells the results of `lines` sent lines need, with `columns` result columns and `notSent` skipped rows (4 columns). */
export function neededCells(lines: number, columns: number, notSent: number): { products: number; needed: number } {
  // (100,000 x 1.12 is 112,000.00000000001 in floating point: rounded to cents first)
  const products = Math.ceil(Math.round(lines * PRODUCTS_PER_LINE * 100) / 100);
  const needed = (products + 1) * columns + (notSent > 0 ? (notSent + 1) * 4 : 0);
  return { products, needed };
}

/** Compares the results' estimate with the cells left, and says what fits when they do not. */
export function checkRoom(input: {
  lines: number;
  columns: number;
  notSent: number;
  limit: number;
  used: number;
  resultTabs: TabCells[];
  /** New scan's "All columns" was chosen: the columns it adds to the essential ones. */
  beyondEssential?: number;
}): RoomCheck {
  const { products, needed } = neededCells(input.lines, input.columns, input.notSent);
  const left = Math.max(0, input.limit - input.used);
  const tabs = input.resultTabs.slice().sort((a, b) => b.cells - a.cells);
  const fits = needed <= left;
  return {
    fits,
    lines: input.lines,
    products,
    columns: input.columns,
    needed,
    limit: input.limit,
    used: input.used,
    left,
    resultTabs: tabs,
    message: fits ? null : roomMessage(products, input.columns, needed, left, input.limit, tabs, input.lines, input.beyondEssential || 0),
  };
}

/** The add-on's result tabs as a short list: the largest five with their cells. */
export function tabList(tabs: readonly TabCells[]): string {
  const shown = tabs.slice(0, 5).map((t) => `"${t.name}" (${count(t.cells)} cells)`);
  const more = tabs.length > 5 ? ` and ${tabs.length - 5} more` : '';
  return shown.join(', ') + more;
}

function roomMessage(
  products: number,
  columns: number,
  needed: number,
  left: number,
  limit: number,
  tabs: readonly TabCells[],
  lines: number,
  beyondEssential: number,
): string {
  const rowsThatFit = Math.max(0, Math.floor(left / Math.max(1, columns)) - 1);
  const parts = [
    `The results will not fit in this spreadsheet. ` +
      `About ${count(products)} products (${count(lines)} lines × ${PRODUCTS_PER_LINE} products a line, as scans of catalogue lists average) ` +
      `× ${columns} columns need about ${count(needed)} cells; the spreadsheet has ${count(left)} of its ${count(limit)} cells left ` +
      `(Sheets counts every cell of every tab, empty ones too).`,
    `What fits:`,
    `• Send anyway and import only the rows that pass your filters (Scans > Import with filters): about ${count(rowsThatFit)} rows fit.`,
    ...(beyondEssential > 0
      ? [
          `• The essential columns instead of all of them (New scan's Columns): ${beyondEssential} fewer columns, about ${count((products + 1) * beyondEssential)} cells less.`,
        ]
      : []),
    `• Fewer columns: each mapped custom column or extra input (MAP, stock, pack quantity, SKU) adds about ${count(products)} cells; leave the ones you do not need unmapped.`,
    tabs.length
      ? `• Delete older result tabs you no longer need: ${tabList(tabs)}.`
      : `• Delete tabs you no longer need, or scan part of the list (select its rows).`,
    `• Send anyway and keep the results at the Scan Service: download them to Drive (Scans > Download) instead of importing.`,
  ];
  return parts.join('\n');
}

/** The import's message when the spreadsheet is full: rows so far, what to delete, how to continue. */
export function fullMessage(input: {
  scanName: string;
  rowsDone: number;
  rowsTotal: number;
  neededCells: number;
  left: number;
  limit: number;
  resultTabs: TabCells[];
}): string {
  const tabs = input.resultTabs.slice().sort((a, b) => b.cells - a.cells);
  const sofar = input.rowsDone
    ? `${count(input.rowsDone)} of ${count(input.rowsTotal)} rows of "${input.scanName}" are imported so far (kept in a hidden tab; nothing is lost)`
    : `the ${count(input.rowsTotal)} rows of "${input.scanName}" could not start importing`;
  return (
    `The spreadsheet is full: ${sofar}. The next rows need ${count(input.neededCells)} cells and the spreadsheet has ` +
    `${count(input.left)} of its ${count(input.limit)} cells left (Sheets counts every cell of every tab, empty ones too). ` +
    (tabs.length
      ? `To free room, delete older result tabs you no longer need: ${tabList(tabs)}; or other tabs. `
      : `To free room, delete tabs you no longer need. `) +
    (input.rowsDone ? `Then import the scan again: it continues from row ${count(input.rowsDone + 1)}. ` : `Then import the scan again. `) +
    `Or import only the rows that pass filters, or download the results (Scans > Download).`
  );
}
