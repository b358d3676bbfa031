/**
 * The Sheet object a script sees: its grid, rows and columns (named ranges, protections, merges,
 * the filter and formulas move with inserted and deleted ones), and what it holds.
 */
import { Ctx } from './context';
import { afterWrite, formulaWritten, reindex, sheetRenamed, shiftReferences } from './formulas';
import {
  Area,
  type Cell,
  CELL_CHARS_MESSAGE,
  MAX_CELL_CHARS,
  DEFAULT_COLUMN_WIDTH,
  DEFAULT_ROW_HEIGHT,
  MAX_COLUMNS,
  MergeModel,
  SheetModel,
} from './model';
import { ConditionalFormatRuleImpl } from './rules';
import { ProtectionImpl, checkEditable, protect as newProtection, protectionsOf, removeProtection } from './protection';
import { formatValue } from './format';
import type { LoadedConditionalRule } from './xlsx';
import type { Objects, SpreadsheetObject } from './objects';
import { NamedRangeImpl } from './named-range';
import { FilterImpl } from './filter';
import { RangeImpl } from './range';
import { checkSheetName, typeName } from './checks';
import { TextFinderImpl } from './text-finder';

/** Row/column indexes (hidden ones, heights) moved for n inserted (n > 0) or deleted (n < 0) at `at`. */
function shiftIndexes<V>(m: Map<number, V>, at: number, n: number): Map<number, V> {
  const out = new Map<number, V>();
  for (const [i, v] of m)
    if (i < at) out.set(i, v);
    else if (n > 0) out.set(i + n, v);
    else if (i >= at - n) out.set(i + n, v);
  return out;
}
/**
 * The formats a row or column inserted next to another takes from it. Google's Sheets API page
 * (developers.google.com/sheets/api/reference/rest/v4/spreadsheets/request#InsertDimensionRequest,
 * `inheritFromBefore`): new rows take the properties of the row before or after them ("if row index 0
 * has red background ... the two new rows will be red"). Apps Script's pages do not say which side;
 * gas-fakes (src/services/spreadsheetapp/fakesheet.js) maps insertRowsAfter/insertRowAfter/
 * insertColumnsAfter to inheritFromBefore true and the Before/insertRows/insertColumns forms to false.
 * Values, notes, links and validation are not formats and stay behind.
 */
const INHERITED_FORMATS = ['fmt', 'bg', 'bold', 'color', 'halign', 'wrap'] as const;
type Inherited = Pick<Cell, (typeof INHERITED_FORMATS)[number]>;
/** The inherited formats of one cell, or undefined when it has none. */
function formatsOf(cell: Cell | undefined): Inherited | undefined {
  if (!cell) return undefined;
  let out: Inherited | undefined;
  for (const k of INHERITED_FORMATS) if (cell[k] !== undefined) (out ??= {} as Inherited)[k] = cell[k] as never;
  return out;
}
/** Whether deleting n rows (or columns) from `at` leaves one that is not frozen. */
function leavesUnfrozen(total: number, frozen: number, at: number, n: number): boolean {
  const deletedUnfrozen = Math.max(0, at + n - 1 - Math.max(at - 1, frozen));
  return total - frozen - deletedUnfrozen > 0;
}
function shiftSet(s: Set<number>, at: number, n: number): Set<number> {
  return new Set(shiftIndexes(new Map([...s].map((i) => [i, true])), at, n).keys());
}

function checkInt(ctx: Ctx, method: string, ...ns: unknown[]): void {
  for (const n of ns)
    if (typeof n !== 'number' || !Number.isInteger(n))
      throw ctx.error(
        `The parameters (${ns.map(typeName).join(',')}) don't match the method signature for SpreadsheetApp.Sheet.${method}.`,
      );
}

/** Shifts an area for rows/columns inserted (n > 0) or deleted (n < 0) at index `at`. Returns null when deleted entirely. */
function shiftArea<T extends { r1: number; c1: number; r2: number; c2: number }>(
  a: T,
  dim: 'row' | 'col',
  at: number,
  n: number,
): T | null {
  const [k1, k2] = dim === 'row' ? (['r1', 'r2'] as const) : (['c1', 'c2'] as const);
  const out = { ...a };
  if (n > 0) {
    if (out[k1] >= at) out[k1] += n;
    if (out[k2] >= at) out[k2] += n;
    return out;
  }
  const del1 = at;
  const del2 = at - n - 1;
  const shift = (x: number) => (x > del2 ? x + n : x >= del1 ? del1 : x);
  const s1 = out[k1] >= del1 && out[k1] <= del2 ? del1 : shift(out[k1]);
  const e1 = out[k2] >= del1 && out[k2] <= del2 ? del1 - 1 : shift(out[k2]);
  if (e1 < s1) return null;
  out[k1] = s1;
  out[k2] = e1;
  return out;
}

export class SheetImpl {
  constructor(
    private readonly s: Objects,
    /** @internal */ readonly _m: SheetModel,
  ) {}
  private get ctx() {
    return this.s.ctx;
  }
  private get wb() {
    return this.s.ctx.wb;
  }
  getName(): string {
    this.ctx.call();
    return this._m.name;
  }
  setName(name: string): SheetImpl {
    this.ctx.mutate('setName');
    name = String(name);
    checkSheetName(this.ctx, name, this._m);
    const old = this._m.name;
    this._m.name = name;
    sheetRenamed(this.wb, old, name);
    return this;
  }
  getSheetId(): number {
    this.ctx.call();
    return this._m.id;
  }
  getIndex(): number {
    this.ctx.call();
    return this.wb.sheets.indexOf(this._m) + 1;
  }
  getParent(): SpreadsheetObject {
    this.ctx.call();
    return this.s.spreadsheet;
  }
  /** getRange(a1), getRange(row, column), getRange(row, column, numRows), getRange(row, column, numRows, numColumns). */
  getRange(a: string | number, column?: number, numRows?: number, numColumns?: number): RangeImpl {
    this.ctx.call();
    if (typeof a === 'string' && column === undefined) return this.s.rangeOf(this.s.area(a, this._m));
    const row = a as number;
    const nr = numRows ?? 1;
    const nc = numColumns ?? 1;
    checkInt(this.ctx, 'getRange', ...[row, column, numRows, numColumns].filter((x) => x !== undefined));
    if (column === undefined)
      throw this.ctx.error(`The parameters (${typeName(a)}) don't match the method signature for SpreadsheetApp.Sheet.getRange.`);
    if (row < 1) throw this.ctx.error('The starting row of the range is too small.');
    if (column < 1) throw this.ctx.error('The starting column of the range is too small.');
    if (nr < 1) throw this.ctx.error('The number of rows in the range must be at least 1.');
    if (nc < 1) throw this.ctx.error('The number of columns in the range must be at least 1.');
    if (row + nr - 1 > this._m.maxRows || column + nc - 1 > this._m.maxCols)
      throw this.ctx.error('The coordinates of the range are outside the dimensions of the sheet.');
    return this.s.range(this._m, row, column, nr, nc);
  }
  getDataRange(): RangeImpl {
    this.ctx.call();
    return this.s.range(this._m, 1, 1, Math.max(1, this._m.lastRow()), Math.max(1, this._m.lastColumn()));
  }
  getLastRow(): number {
    this.ctx.call();
    return this._m.lastRow();
  }
  getLastColumn(): number {
    this.ctx.call();
    return this._m.lastColumn();
  }
  getMaxRows(): number {
    this.ctx.call();
    return this._m.maxRows;
  }
  getMaxColumns(): number {
    this.ctx.call();
    return this._m.maxCols;
  }

  // -- rows and columns --
  /** `fromBefore`: the new rows take the formats of the row before them, else of the row after (INHERITED_FORMATS). */
  private insertRowsAt(method: string, at: number, n: number, fromBefore: boolean): void {
    this.ctx.write(method, 0);
    checkInt(this.ctx, method, at, n);
    if (n < 1) throw this.ctx.error('The number of rows to insert must be at least 1.'); // chosen wording
    if (at < 1 || at > this._m.maxRows + 1) throw this.ctx.error('Those rows are out of bounds.');
    this.wb.checkGrowth((m) => this.ctx.error(m), n * this._m.maxCols);
    const m = this._m;
    const source = !this.wb.insertInheritsFormats ? 0 : fromBefore ? at - 1 : at;
    const template = source >= 1 && source <= m.maxRows ? (m.rows[source - 1] ?? []).map(formatsOf) : [];
    const height = m.rowHeights.get(source);
    if (m.rows.length >= at) m.rows.splice(at - 1, 0, ...new Array(n));
    m.maxRows += n;
    m.rowHeights = shiftIndexes(m.rowHeights, at, n);
    m.hiddenRows = shiftSet(m.hiddenRows, at, n);
    this.shift('row', at, n);
    this.fillRows(at, n, template, height);
  }
  /** Gives rows at..at+n-1 the formats of `template` (one per column) and the row height. */
  private fillRows(at: number, n: number, template: (Inherited | undefined)[], height: number | undefined): void {
    const m = this._m;
    if (template.some(Boolean)) {
      for (let r = at; r < at + n; r++) m.rows[r - 1] = template.map((f) => (f ? { ...f } : undefined));
    }
    if (height !== undefined) for (let r = at; r < at + n; r++) m.rowHeights.set(r, height);
  }
  private deleteRowsAt(at: number, n: number): void {
    this.ctx.write('deleteRows', 0);
    checkInt(this.ctx, 'deleteRows', at, n);
    const m = this._m;
    if (at < 1 || n < 1 || at + n - 1 > m.maxRows) throw this.ctx.error('Those rows are out of bounds.');
    // Google's message (public logs of Sheets, e.g. theoephraim/node-google-spreadsheet#186): at least
    // one row past the frozen ones must stay.
    if (!leavesUnfrozen(m.maxRows, m.frozenRows, at, n)) throw this.ctx.error('Sorry, it is not possible to delete all non-frozen rows.');
    checkEditable(this.ctx, { sheet: m, r1: at, c1: 1, r2: at + n - 1, c2: m.maxCols });
    m.rows.splice(at - 1, n);
    m.maxRows -= n;
    m.rowHeights = shiftIndexes(m.rowHeights, at, -n);
    m.hiddenRows = shiftSet(m.hiddenRows, at, -n);
    this.shift('row', at, -n);
  }
  /** `fromBefore`: as insertRowsAt, for columns. */
  private insertColumnsAt(method: string, at: number, n: number, fromBefore: boolean): void {
    this.ctx.write(method, 0);
    checkInt(this.ctx, method, at, n);
    const m = this._m;
    if (n < 1) throw this.ctx.error('The number of columns to insert must be at least 1.'); // chosen wording
    if (at < 1 || at > m.maxCols + 1) throw this.ctx.error('Those columns are out of bounds.');
    if (m.maxCols + n > MAX_COLUMNS)
      throw this.ctx.error(`This action would increase the number of columns in the sheet above the limit of ${MAX_COLUMNS}.`); // chosen wording
    this.wb.checkGrowth((m) => this.ctx.error(m), n * m.maxRows);
    const source = !this.wb.insertInheritsFormats ? 0 : fromBefore ? at - 1 : at;
    const inherits = source >= 1 && source <= m.maxCols;
    for (const row of m.rows) {
      if (!row) continue;
      const f = inherits ? formatsOf(row[source - 1]) : undefined;
      if (row.length >= at) row.splice(at - 1, 0, ...new Array(n));
      if (f) for (let c = at; c < at + n; c++) row[c - 1] = { ...f };
    }
    const widths = new Map<number, number>();
    for (const [c, w] of m.colWidths) widths.set(c >= at ? c + n : c, w);
    const width = inherits ? m.colWidths.get(source) : undefined;
    if (width !== undefined) for (let c = at; c < at + n; c++) widths.set(c, width);
    m.colWidths = widths;
    m.hiddenCols = shiftSet(m.hiddenCols, at, n);
    m.maxCols += n;
    this.shift('col', at, n);
  }
  private deleteColumnsAt(at: number, n: number): void {
    this.ctx.write('deleteColumns', 0);
    checkInt(this.ctx, 'deleteColumns', at, n);
    const m = this._m;
    if (at < 1 || n < 1 || at + n - 1 > m.maxCols) throw this.ctx.error('Those columns are out of bounds.');
    if (!leavesUnfrozen(m.maxCols, m.frozenCols, at, n))
      throw this.ctx.error('Sorry, it is not possible to delete all non-frozen columns.');
    for (const row of m.rows) if (row) row.splice(at - 1, n);
    const widths = new Map<number, number>();
    for (const [c, w] of m.colWidths)
      if (c < at) widths.set(c, w);
      else if (c >= at + n) widths.set(c - n, w);
    m.colWidths = widths;
    m.hiddenCols = shiftSet(m.hiddenCols, at, -n);
    m.maxCols -= n;
    this.shift('col', at, -n);
  }
  /** Named ranges, the filter, formulas' anchors and the active range move with their cells. */
  private shift(dim: 'row' | 'col', at: number, n: number): void {
    const m = this._m;
    for (const [k, nr] of this.wb.namedRanges) {
      if (nr.area.sheet !== m) continue;
      // An open end (A:A) reaches the sheet's end however rows come and go.
      const o = nr.area.open;
      const a = shiftArea(
        o
          ? { ...nr.area, r2: o.r2 ? Number.MAX_SAFE_INTEGER / 2 : nr.area.r2, c2: o.c2 ? Number.MAX_SAFE_INTEGER / 2 : nr.area.c2 }
          : nr.area,
        dim,
        at,
        n,
      );
      if (a && o) Object.assign(a, { r2: o.r2 ? m.maxRows : a.r2, c2: o.c2 ? m.maxCols : a.c2 });
      if (a) nr.area = a;
      else this.wb.namedRanges.delete(k);
    }
    for (const p of protectionsOf(this.wb)) {
      if (p.type !== 'RANGE' || p.area.sheet !== m) continue;
      const a = shiftArea(p.area, dim, at, n);
      if (a) p.area = a;
      else removeProtection(this.wb, p);
    }
    m.merges = m.merges.map((g) => shiftArea(g, dim, at, n)).filter((g): g is MergeModel => !!g && (g.r2 > g.r1 || g.c2 > g.c1));
    if (m.filter) {
      const f = shiftArea(m.filter, dim, at, n);
      m.filter = f ? { ...f, criteria: m.filter.criteria } : null;
    }
    if (this.wb.activeRange?.sheet === m) this.wb.activeRange = shiftArea(this.wb.activeRange, dim, at, n);
    reindex(this.wb, m);
    shiftReferences(this.wb, m, dim, at, n);
  }
  insertRowBefore(beforePosition: number): SheetImpl {
    this.insertRowsAt('insertRowBefore', beforePosition, 1, false);
    return this;
  }
  insertRowAfter(afterPosition: number): SheetImpl {
    this.insertRowsAt('insertRowAfter', afterPosition + 1, 1, true);
    return this;
  }
  insertRowsBefore(beforePosition: number, howMany: number): SheetImpl {
    this.insertRowsAt('insertRowsBefore', beforePosition, howMany, false);
    return this;
  }
  insertRowsAfter(afterPosition: number, howMany: number): SheetImpl {
    this.insertRowsAt('insertRowsAfter', afterPosition + 1, howMany, true);
    return this;
  }
  insertRows(rowIndex: number, numRows?: number): void {
    this.insertRowsAt('insertRows', rowIndex, numRows ?? 1, false);
  }
  deleteRow(rowPosition: number): SheetImpl {
    this.deleteRowsAt(rowPosition, 1);
    return this;
  }
  deleteRows(rowPosition: number, howMany: number): void {
    this.deleteRowsAt(rowPosition, howMany);
  }
  insertColumnBefore(beforePosition: number): SheetImpl {
    this.insertColumnsAt('insertColumnBefore', beforePosition, 1, false);
    return this;
  }
  insertColumnAfter(afterPosition: number): SheetImpl {
    this.insertColumnsAt('insertColumnAfter', afterPosition + 1, 1, true);
    return this;
  }
  insertColumnsBefore(beforePosition: number, howMany: number): SheetImpl {
    this.insertColumnsAt('insertColumnsBefore', beforePosition, howMany, false);
    return this;
  }
  insertColumnsAfter(afterPosition: number, howMany: number): SheetImpl {
    this.insertColumnsAt('insertColumnsAfter', afterPosition + 1, howMany, true);
    return this;
  }
  insertColumns(columnIndex: number, numColumns?: number): void {
    this.insertColumnsAt('insertColumns', columnIndex, numColumns ?? 1, false);
  }
  deleteColumn(columnPosition: number): SheetImpl {
    this.deleteColumnsAt(columnPosition, 1);
    return this;
  }
  deleteColumns(columnPosition: number, howMany: number): void {
    this.deleteColumnsAt(columnPosition, howMany);
  }

  /** Appends a row after the last row with content, adding rows (and columns) to the sheet as needed. */
  appendRow(rowContents: unknown[]): SheetImpl {
    if (!Array.isArray(rowContents))
      throw this.ctx.error(
        `The parameters (${typeName(rowContents)}) don't match the method signature for SpreadsheetApp.Sheet.appendRow.`,
      );
    this.ctx.write('appendRow', rowContents.length);
    if (rowContents.some((x) => typeof x === 'string' && x.length > MAX_CELL_CHARS)) throw this.ctx.error(CELL_CHARS_MESSAGE);
    const m = this._m;
    const r = m.lastRow() + 1;
    const needRows = Math.max(0, r - m.maxRows);
    const needCols = Math.max(0, rowContents.length - m.maxCols);
    if (m.maxCols + needCols > MAX_COLUMNS)
      throw this.ctx.error(`This action would increase the number of columns in the sheet above the limit of ${MAX_COLUMNS}.`); // chosen wording
    if (needRows || needCols) {
      this.wb.checkGrowth((m) => this.ctx.error(m), needRows * Math.max(m.maxCols, rowContents.length) + needCols * m.maxRows);
      m.maxRows += needRows;
      m.maxCols += needCols;
    }
    checkEditable(this.ctx, { sheet: m, r1: r, c1: 1, r2: r, c2: Math.max(1, rowContents.length) });
    const formulas: number[] = [];
    rowContents.forEach((v, i) => {
      if (this.wb.writeInput(m, r, i + 1, v)) formulas.push(i + 1);
    });
    const areas: Area[] = [{ sheet: m, r1: r, c1: 1, r2: r, c2: Math.max(1, rowContents.length) }];
    for (const c of formulas) areas.push(...formulaWritten(this.wb, m, r, c));
    afterWrite(this.wb, areas);
    return this;
  }

  clear(options?: { contentsOnly?: boolean; formatOnly?: boolean; validationsOnly?: boolean }): SheetImpl {
    const m = this._m;
    this.ctx.write('clear', m.lastRow() * m.lastColumn());
    this.s.range(m, 1, 1, m.maxRows, m.maxCols)._clear(options ?? {});
    return this;
  }
  clearContents(): SheetImpl {
    return this.clear({ contentsOnly: true });
  }
  clearFormats(): SheetImpl {
    return this.clear({ formatOnly: true });
  }
  clearNotes(): SheetImpl {
    const m = this._m;
    this.ctx.write('clearNotes', 0);
    for (const row of m.rows) if (row) for (const c of row) if (c) c.note = undefined;
    return this;
  }
  setFrozenRows(rows: number): void {
    this.ctx.mutate('setFrozenRows');
    checkInt(this.ctx, 'setFrozenRows', rows);
    if (rows < 0 || rows > this._m.maxRows) throw this.ctx.error('Those rows are out of bounds.');
    // Google's message (Apps Script and Sheets API logs): at least one row must stay unfrozen.
    if (rows === this._m.maxRows) throw this.ctx.error("You can't freeze all visible rows on the sheet.");
    this._m.frozenRows = rows;
  }
  getFrozenRows(): number {
    this.ctx.call();
    return this._m.frozenRows;
  }
  setFrozenColumns(columns: number): void {
    this.ctx.mutate('setFrozenColumns');
    checkInt(this.ctx, 'setFrozenColumns', columns);
    if (columns < 0 || columns > this._m.maxCols) throw this.ctx.error('Those columns are out of bounds.');
    if (columns === this._m.maxCols) throw this.ctx.error("You can't freeze all visible columns on the sheet."); // (after the rows' wording)
    this._m.frozenCols = columns;
  }
  getFrozenColumns(): number {
    this.ctx.call();
    return this._m.frozenCols;
  }
  hideSheet(): SheetImpl {
    this.ctx.mutate('hideSheet');
    const visible = this.wb.sheets.filter((x) => !x.hidden);
    // Chosen wording (Sheets keeps at least one sheet visible).
    if (visible.length === 1 && visible[0] === this._m) throw this.ctx.error("You can't hide all the sheets in a document.");
    this._m.hidden = true;
    if (this.wb.activeSheet === this._m) this.wb.activeSheet = this.wb.sheets.find((x) => !x.hidden) ?? this._m;
    return this;
  }
  showSheet(): SheetImpl {
    this.ctx.mutate('showSheet');
    this._m.hidden = false;
    return this;
  }
  isSheetHidden(): boolean {
    this.ctx.call();
    return this._m.hidden;
  }
  /** Google: "Does not alter the sheet itself, only the parent's notion of the active sheet." */
  activate(): SheetImpl {
    this.ctx.mutate('activate');
    this.wb.activeSheet = this._m;
    this.wb.activeRange = null;
    return this;
  }
  setColumnWidth(columnPosition: number, width: number): SheetImpl {
    this.ctx.mutate('setColumnWidth');
    checkInt(this.ctx, 'setColumnWidth', columnPosition, width);
    if (columnPosition < 1 || columnPosition > this._m.maxCols) throw this.ctx.error('Those columns are out of bounds.');
    this._m.colWidths.set(columnPosition, width);
    return this;
  }
  setColumnWidths(startColumn: number, numColumns: number, width: number): SheetImpl {
    this.ctx.mutate('setColumnWidths');
    checkInt(this.ctx, 'setColumnWidths', startColumn, numColumns, width);
    if (startColumn < 1 || numColumns < 1 || startColumn + numColumns - 1 > this._m.maxCols)
      throw this.ctx.error('Those columns are out of bounds.');
    for (let c = startColumn; c < startColumn + numColumns; c++) this._m.colWidths.set(c, width);
    return this;
  }
  getColumnWidth(columnPosition: number): number {
    this.ctx.call();
    return this._m.colWidths.get(columnPosition) ?? DEFAULT_COLUMN_WIDTH;
  }
  toString(): string {
    return 'Sheet';
  }
  /**
   * Sorts the sheet's rows below the frozen ones by a column (Google reference: Sheet.sort(columnPosition[,
   * ascending])); gas-fakes test/testsheets.js "Sheet.sort()" records that an unfrozen header row is
   * sorted with the rest, and that an empty sheet is left alone.
   */
  sort(columnPosition: number, ascending?: boolean): SheetImpl {
    this.ctx.call();
    const m = this._m;
    const first = m.frozenRows + 1;
    const last = m.lastRow();
    const width = m.lastColumn();
    if (last >= first && width >= 1) {
      if (columnPosition < 1 || columnPosition > m.maxCols) throw this.ctx.error('Those columns are out of bounds.');
      this.s
        .range(m, first, 1, last - first + 1, Math.max(width, columnPosition))
        .sort({ column: columnPosition, ascending: ascending ?? true });
    }
    return this;
  }
  createTextFinder(findText: string): TextFinderImpl {
    this.ctx.call();
    return new TextFinderImpl(this.s, () => [{ sheet: this._m, box: null }], String(findText));
  }

  // -- row heights (gas-fakes test/testsheetsvalues.js: setRowHeight(s), setRowHeightsForced, getRowHeight) --
  setRowHeight(rowPosition: number, height: number): SheetImpl {
    return this.rowHeights('setRowHeight', rowPosition, 1, height);
  }
  setRowHeights(startRow: number, numRows: number, height: number): SheetImpl {
    return this.rowHeights('setRowHeights', startRow, numRows, height);
  }
  setRowHeightsForced(startRow: number, numRows: number, height: number): SheetImpl {
    return this.rowHeights('setRowHeightsForced', startRow, numRows, height);
  }
  private rowHeights(method: string, start: number, n: number, height: number): SheetImpl {
    this.ctx.mutate(method);
    checkInt(this.ctx, method, start, n, height);
    this.checkSpan('rows', start, n);
    for (let r = start; r < start + n; r++) this._m.rowHeights.set(r, height);
    return this;
  }
  getRowHeight(rowPosition: number): number {
    this.ctx.call();
    checkInt(this.ctx, 'getRowHeight', rowPosition);
    this.checkSpan('rows', rowPosition, 1);
    return this._m.rowHeights.get(rowPosition) ?? DEFAULT_ROW_HEIGHT;
  }
  private checkSpan(what: 'rows' | 'columns', start: number, n: number): void {
    const max = what === 'rows' ? this._m.maxRows : this._m.maxCols;
    if (start < 1 || n < 1 || start + n - 1 > max) throw this.ctx.error(`Those ${what} are out of bounds.`);
  }

  // -- hidden rows and columns (gas-fakes test/testsheetstext.js "insert sheets,rows,columns") --
  hideRows(rowIndex: number, numRows?: number): void {
    this.setHidden('hideRows', 'rows', rowIndex, numRows ?? 1, true);
  }
  showRows(rowIndex: number, numRows?: number): void {
    this.setHidden('showRows', 'rows', rowIndex, numRows ?? 1, false);
  }
  hideColumns(columnIndex: number, numColumns?: number): void {
    this.setHidden('hideColumns', 'columns', columnIndex, numColumns ?? 1, true);
  }
  showColumns(columnIndex: number, numColumns?: number): void {
    this.setHidden('showColumns', 'columns', columnIndex, numColumns ?? 1, false);
  }
  /** hideRow(range) and the like take every row (or column) the range spans. */
  hideRow(row: RangeImpl): void {
    this.setHiddenOf('hideRow', 'rows', row, true);
  }
  unhideRow(row: RangeImpl): void {
    this.setHiddenOf('unhideRow', 'rows', row, false);
  }
  hideColumn(column: RangeImpl): void {
    this.setHiddenOf('hideColumn', 'columns', column, true);
  }
  unhideColumn(column: RangeImpl): void {
    this.setHiddenOf('unhideColumn', 'columns', column, false);
  }
  isRowHiddenByUser(rowPosition: number): boolean {
    this.ctx.call();
    checkInt(this.ctx, 'isRowHiddenByUser', rowPosition);
    this.checkSpan('rows', rowPosition, 1);
    return this._m.hiddenRows.has(rowPosition);
  }
  isColumnHiddenByUser(columnPosition: number): boolean {
    this.ctx.call();
    checkInt(this.ctx, 'isColumnHiddenByUser', columnPosition);
    this.checkSpan('columns', columnPosition, 1);
    return this._m.hiddenCols.has(columnPosition);
  }
  private setHiddenOf(method: string, what: 'rows' | 'columns', r: RangeImpl, hide: boolean): void {
    if (!(r instanceof RangeImpl))
      throw this.ctx.error(`The parameters (${typeName(r)}) don't match the method signature for SpreadsheetApp.Sheet.${method}.`);
    const a = r._area();
    if (what === 'rows') this.setHidden(method, what, a.r1, a.r2 - a.r1 + 1, hide);
    else this.setHidden(method, what, a.c1, a.c2 - a.c1 + 1, hide);
  }
  private setHidden(method: string, what: 'rows' | 'columns', start: number, n: number, hide: boolean): void {
    this.ctx.mutate(method);
    checkInt(this.ctx, method, start, n);
    this.checkSpan(what, start, n);
    const set = what === 'rows' ? this._m.hiddenRows : this._m.hiddenCols;
    for (let i = start; i < start + n; i++) hide ? set.add(i) : set.delete(i);
  }
  /**
   * Chosen: the fitted width is 7 px per character of the longest display value plus 10 px
   * padding, at least 21 px (Sheets measures rendered text; no public formula).
   */
  autoResizeColumns(startColumn: number, numColumns: number): SheetImpl {
    this.ctx.write('autoResizeColumns', 0);
    checkInt(this.ctx, 'autoResizeColumns', startColumn, numColumns);
    const m = this._m;
    if (startColumn < 1 || numColumns < 1 || startColumn + numColumns - 1 > m.maxCols)
      throw this.ctx.error('Those columns are out of bounds.');
    for (let c = startColumn; c < startColumn + numColumns; c++) {
      let longest = 0;
      for (const row of m.rows) {
        const cell = row?.[c - 1];
        if (cell) for (const line of formatValue(cell.v, cell.fmt).split('\n')) longest = Math.max(longest, line.length);
      }
      m.colWidths.set(c, Math.max(21, longest * 7 + 10));
    }
    return this;
  }
  autoResizeColumn(columnPosition: number): SheetImpl {
    return this.autoResizeColumns(columnPosition, 1);
  }
  getFilter(): FilterImpl | null {
    this.ctx.call();
    return this._m.filter ? new FilterImpl(this.s, this._m) : null;
  }
  setConditionalFormatRules(rules: ConditionalFormatRuleImpl[]): void {
    this.ctx.mutate('setConditionalFormatRules');
    if (!Array.isArray(rules))
      throw this.ctx.error(
        `The parameters (${typeName(rules)}) don't match the method signature for SpreadsheetApp.Sheet.setConditionalFormatRules.`,
      );
    this._m.cfRules = [...rules];
  }
  getConditionalFormatRules(): ConditionalFormatRuleImpl[] {
    this.ctx.call();
    // Rules loaded from an .xlsx file become rule objects of the script on first read.
    this._m.cfRules = this._m.cfRules.map((r) => {
      const l = r as LoadedConditionalRule;
      if (!l || l.loaded !== true) return r;
      const ranges = l.d.ranges.map((g) => this.s.range(this._m, g._r, g._c, g._nr, g._nc));
      return new ConditionalFormatRuleImpl(this.ctx, { ...l.d, values: [...l.d.values], ranges });
    });
    return this.ctx.arr(this._m.cfRules as ConditionalFormatRuleImpl[]);
  }
  /** Google: a sheet protection covers the whole sheet (also rows added later). */
  protect(): ProtectionImpl {
    this.ctx.mutate('protect');
    const m = this._m;
    const whole = { sheet: m, r1: 1, c1: 1, r2: m.maxRows, c2: m.maxCols, open: { r1: true, c1: true, r2: true, c2: true } };
    return new ProtectionImpl(this.s, newProtection(this.wb, 'SHEET', whole, this.ctx.state.current?.user ?? this.wb.owner));
  }
  getProtections(type: string): ProtectionImpl[] {
    this.ctx.call();
    return this.ctx.arr(
      protectionsOf(this.wb)
        .filter((p) => p.type === String(type) && p.area.sheet === this._m)
        .map((p) => new ProtectionImpl(this.s, p)),
    );
  }
  getNamedRanges(): NamedRangeImpl[] {
    this.ctx.call();
    return this.ctx.arr(
      [...this.wb.namedRanges.values()].filter((nr) => nr.area.sheet === this._m).map((nr) => new NamedRangeImpl(this.s, nr)),
    );
  }
  getActiveRange(): RangeImpl | null {
    this.ctx.call();
    const a = this.wb.activeRange;
    return a && a.sheet === this._m ? this.s.rangeOf(a) : null;
  }
  setActiveRange(range: RangeImpl): RangeImpl {
    this.ctx.guard('setActiveRange');
    return range.activate();
  }
}

declare module './objects' {
  interface ObjectClasses {
    Sheet: typeof SheetImpl;
  }
}
