/**
 * A list's table in the spreadsheet: found by its named range, columns by header text (case and
 * spaces ignored, any order), rows read in one values and one formulas read, and written back in
 * ONE setValues per list. The user's own columns are kept row by row (their formulas too); the
 * named range grows (or shrinks) to cover the rows.
 */
import { safeCellValue, safeText } from '../../domain/sheet/safe';
import { tabName } from '../../domain/sheet/tab-name';
import { headerKey, type ListKind, type SheetRow } from './kinds';
import { md5Base64 } from '../../apps-script';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

export interface Table {
  sheet: Sheet;
  /** Header row and first column (1-based). */
  top: number;
  left: number;
  width: number;
  /** 0-based column of each known field within the table; absent fields are missing. */
  columns: { [field: string]: number };
  /** Data rows as read (values, and formulas where a cell holds one). */
  values: unknown[][];
  formulas: string[][];
  header: unknown[];
  /** Rows the named range covers now (header included). */
  rangeRows: number;
  /** Digest of the table's range and values (tableFingerprint reads the same with one getValues). */
  fingerprint: string;
}

export type FindResult = { ok: true; table: Table } | { ok: false; missing: boolean; message: string };

/** The header cells a kind requires, by field, in a header row (null when a required one is absent). */
export function matchColumns(kind: ListKind, header: readonly unknown[]): { columns: { [field: string]: number }; missing: string[] } {
  const norm = header.map(headerKey);
  const columns: { [field: string]: number } = {};
  const missing: string[] = [];
  for (const c of kind.columns) {
    const names = [c.header].concat(c.aliases).map(headerKey);
    const i = norm.findIndex((h) => h !== '' && names.indexOf(h) >= 0);
    if (i >= 0) columns[c.field] = i;
    else if (!c.optional) missing.push(c.header);
  }
  return { columns, missing };
}

/** The block a table is read from: its named range and the rows typed below it. */
function tableBlock(range: GoogleAppsScript.Spreadsheet.Range): GoogleAppsScript.Spreadsheet.Range {
  const sheet = range.getSheet();
  const top = range.getRow();
  // Rows typed right below the range belong to the table too: read down to the sheet's last row.
  const bottom = Math.max(top + range.getNumRows() - 1, Math.min(sheet.getLastRow(), top + range.getNumRows() - 1 + 100_000));
  return sheet.getRange(top, range.getColumn(), bottom - top + 1, range.getNumColumns());
}

function digest(range: GoogleAppsScript.Spreadsheet.Range, values: unknown[][]): string {
  const text = JSON.stringify([range.getSheet().getName(), range.getA1Notation(), values]);
  return md5Base64(text);
}

/**
 * What the automatic sync compares to learn cheaply that a table was edited (schedule.ts): a digest
 * of its named range and values, one getValues and no URL Fetch; '' when the list has no table.
 */
export function tableFingerprint(ss: Spreadsheet, kind: ListKind): string {
  const range = ss.getRangeByName(kind.rangeName);
  return range ? digest(range, tableBlock(range).getValues()) : '';
}

/** Finds and reads a list's table (2 reads). */
export function findTable(ss: Spreadsheet, kind: ListKind): FindResult {
  const range = ss.getRangeByName(kind.rangeName);
  if (!range)
    return {
      ok: false,
      missing: true,
      message: `No named range ${kind.rangeName}: use "Set up lists", or name your own table ${kind.rangeName}.`,
    };
  const sheet = range.getSheet();
  const top = range.getRow();
  const left = range.getColumn();
  const width = range.getNumColumns();
  const block = tableBlock(range);
  const all = block.getValues();
  const formulas = block.getFormulas();
  const fingerprint = digest(range, all);
  const header = all[0];
  const { columns, missing } = matchColumns(kind, header);
  if (missing.length) {
    return {
      ok: false,
      missing: false,
      message: `${kind.rangeName} (${sheet.getName()}) has no ${missing.join(', ')} column in its first row.`,
    };
  }
  let values = all.slice(1);
  let f = formulas.slice(1);
  const blankRow = (i: number) => values[i].every((v) => v === '' || v === null) && f[i].every((x) => !x);
  // Rows below the range belong to the table while they follow it without a gap (what is further
  // down, after a blank row, is something else of the user's).
  let n = range.getNumRows() - 1;
  while (n < values.length && !blankRow(n)) n++;
  values = values.slice(0, n);
  f = f.slice(0, n);
  // Trailing rows with nothing in them are not part of the table.
  while (n > 0 && blankRow(n - 1)) n--;
  values = values.slice(0, n);
  f = f.slice(0, n);
  return { ok: true, table: { sheet, top, left, width, columns, values, formulas: f, header, rangeRows: range.getNumRows(), fingerprint } };
}

/** The data rows as the kinds read them (sheet row numbers). */
export function tableRows(t: Table): SheetRow[] {
  return t.values.map((r, i) => {
    const cells: { [field: string]: unknown } = {};
    for (const field of Object.keys(t.columns)) cells[field] = r[t.columns[field]];
    return { row: t.top + 1 + i, cells };
  });
}

export interface SheetChanges {
  /** Sheet row -> known cells to set (by field). */
  update: Map<number, { [field: string]: string | number | boolean }>;
  /** Sheet rows to take out. */
  remove: Set<number>;
  /** New rows (known cells by field). */
  append: Array<{ [field: string]: string | number | boolean }>;
}

export function noChanges(c: SheetChanges): boolean {
  return c.update.size === 0 && c.remove.size === 0 && c.append.length === 0;
}

function known(kind: ListKind, field: string, v: string | number | boolean): string | number | boolean {
  const def = kind.columns.find((c) => c.field === field);
  if (typeof v === 'string') return def && def.text ? safeText(v) : (safeCellValue(v) as string);
  return v;
}

/**
 * Applies the changes in ONE setValues over header and rows (rows that went are closed up, blank
 * rows fill what the table no longer uses) and sets the named range to the new size. Cells of the
 * user's columns keep their values, or their formulas.
 */
export function writeTable(ss: Spreadsheet, kind: ListKind, t: Table, changes: SheetChanges): number {
  const keep = (i: number): (string | number | boolean | Date)[] =>
    t.values[i].map((v, c) => (t.formulas[i][c] ? t.formulas[i][c] : (safeCellValue(v) as string | number | boolean | Date)));
  const out: (string | number | boolean | Date)[][] = [];
  for (let i = 0; i < t.values.length; i++) {
    const row = t.top + 1 + i;
    if (changes.remove.has(row)) continue;
    const cells = keep(i);
    const up = changes.update.get(row);
    if (up) for (const f of Object.keys(up)) if (t.columns[f] !== undefined) cells[t.columns[f]] = known(kind, f, up[f]);
    out.push(cells);
  }
  for (const add of changes.append) {
    const cells: (string | number | boolean | Date)[] = new Array(t.width).fill('');
    for (const f of Object.keys(add)) if (t.columns[f] !== undefined) cells[t.columns[f]] = known(kind, f, add[f]);
    out.push(cells);
  }
  const header = t.header.map((h) => safeCellValue(h));
  const rows = Math.max(out.length, t.values.length);
  const block: (string | number | boolean | Date)[][] = [header];
  for (let i = 0; i < rows; i++) block.push(i < out.length ? out[i] : new Array(t.width).fill(''));
  // A sheet has a fixed number of rows: add what the table needs below it (one call).
  const needRows = t.top + block.length - 1 - t.sheet.getMaxRows();
  if (needRows > 0) t.sheet.insertRowsAfter(t.sheet.getMaxRows(), needRows);
  t.sheet.getRange(t.top, t.left, block.length, t.width).setValues(block);
  ss.setNamedRange(kind.rangeName, t.sheet.getRange(t.top, t.left, 1 + Math.max(out.length, 1), t.width));
  return out.length;
}

/** Rows typed below the named range belong to the table: the range grows to cover them (no values written). */
export function coverRows(ss: Spreadsheet, kind: ListKind, t: Table): void {
  const rows = 1 + t.values.length;
  if (rows > t.rangeRows) ss.setNamedRange(kind.rangeName, t.sheet.getRange(t.top, t.left, rows, t.width));
}

/** "Set up lists": a tab with the header row and the named range, for a list that has none. */
export function createTable(ss: Spreadsheet, kind: ListKind): string {
  const name = tabName(
    kind.tabName,
    ss.getSheets().map((s) => s.getName()),
  );
  // At the end, after the seller's price lists and result tabs (without an index Google puts it after the active tab).
  const sheet = ss.insertSheet(name, ss.getSheets().length);
  const headers = kind.columns.map((c) => c.header);
  // Every cell of a tab counts against the spreadsheet's 10,000,000, empty ones too: only the table's
  // columns (the 1,000 rows of a new tab stay, to type into; a sync adds rows as it needs them).
  if (sheet.getMaxColumns() > headers.length) sheet.deleteColumns(headers.length + 1, sheet.getMaxColumns() - headers.length);
  const header = sheet.getRange(1, 1, 1, headers.length);
  header.setValues([headers]);
  header.setFontWeight('bold');
  sheet.setFrozenRows(1);
  ss.setNamedRange(kind.rangeName, sheet.getRange(1, 1, 2, headers.length));
  return name;
}
