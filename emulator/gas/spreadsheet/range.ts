/**
 * The Range object a script sees. As in every Spreadsheet object, each call charges the cost model
 * (reads, writes, other calls) and mutating calls are refused inside custom functions.
 */
import { offsetFormula } from './a1';
import { formulaFromR1C1, formulaToR1C1 } from './r1c1';
import { Dimension, Direction, dataRegion, nextDataCell } from './navigation';
import { overflow, shiftCells } from './shift-cells';
import { TextFinderImpl } from './text-finder';
import { AutoFillSeries, continueLine } from './autofill';
import { type SortKey, sortedOrder } from './sort';
import { CopyPasteType, cloneCell, copyFormat, copyValue } from './copy-cells';
import { Ctx } from './context';
import { afterWrite, formulaWritten, reindex } from './formulas';
import {
  Area,
  OpenSides,
  areaA1,
  CELL_CHARS_MESSAGE,
  MAX_CELL_CHARS,
  Cell,
  MergeModel,
  SheetModel,
  type ValidationModel,
  isEmptyCell,
} from './model';
import { RichTextValueImpl } from './rules';
import { CellImageImpl, storedCellImage } from './cell-image';
import { DataValidationCriteria, DataValidationImpl, checkboxValues } from './validation';
import { ProtectionImpl, checkEditable, protect as newProtection } from './protection';
import { AUTOMATIC_FORMAT } from './values';
import type { Objects, SheetObject } from './objects';
import { FilterImpl } from './filter';
import { typeName } from './checks';

const COLORS: Record<string, string> = {
  black: '#000000',
  white: '#ffffff',
  red: '#ff0000',
  green: '#008000',
  blue: '#0000ff',
  yellow: '#ffff00',
  orange: '#ffa500',
  gray: '#808080',
  grey: '#808080',
  purple: '#800080',
  cyan: '#00ffff',
  magenta: '#ff00ff',
  lime: '#00ff00',
  pink: '#ffc0cb',
  brown: '#a52a2a',
  silver: '#c0c0c0',
  navy: '#000080',
};

/** Colours are reported as lowercase #rrggbb like Sheets does. */
export function normalizeColor(c: string): string {
  const s = String(c).trim().toLowerCase();
  if (COLORS[s]) return COLORS[s];
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(s);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`;
  return s;
}

/** Google's checks for 2D input: an array of rows, rows counted first, then each row's columns. */
function checkGrid(ctx: Ctx, method: string, data: unknown, rows: number, cols: number): unknown[][] {
  if (!Array.isArray(data))
    throw ctx.error(`The parameters (${typeName(data)}) don't match the method signature for SpreadsheetApp.Range.${method}.`);
  if (data.length !== rows)
    throw ctx.error(
      `The number of rows in the data does not match the number of rows in the range. The data has ${data.length} but the range has ${rows}.`,
    );
  for (const row of data) {
    if (!Array.isArray(row))
      throw ctx.error(`The parameters (${typeName(data)}) don't match the method signature for SpreadsheetApp.Range.${method}.`);
    if (row.length !== cols)
      throw ctx.error(
        `The number of columns in the data does not match the number of columns in the range. The data has ${row.length} but the range has ${cols}.`,
      );
  }
  return data as unknown[][];
}

function overlaps(g: MergeModel, a: MergeModel): boolean {
  return g.r1 <= a.r2 && a.r1 <= g.r2 && g.c1 <= a.c2 && a.c1 <= g.c2;
}
function inside(g: MergeModel, a: MergeModel): boolean {
  return g.r1 >= a.r1 && g.r2 <= a.r2 && g.c1 >= a.c1 && g.c2 <= a.c2;
}
// ---- Range ------------------------------------------------------------------------------------------

type Grid<T> = T[][];

export class RangeImpl {
  constructor(
    private readonly s: Objects,
    /** @internal */ readonly _m: SheetModel,
    /** @internal */ readonly _r: number,
    /** @internal */ readonly _c: number,
    private readonly nr0: number,
    private readonly nc0: number,
    /** @internal Sides left open in its A1 notation (A:A, 2:2, A2:A): they follow the sheet's size. */
    readonly _open: OpenSides | undefined = undefined,
  ) {}
  /** @internal */
  get _nr(): number {
    return this._open?.r2 ? Math.max(0, this._m.maxRows - this._r + 1) : this.nr0;
  }
  /** @internal */
  get _nc(): number {
    return this._open?.c2 ? Math.max(0, this._m.maxCols - this._c + 1) : this.nc0;
  }
  private get ctx() {
    return this.s.ctx;
  }
  private get wb() {
    return this.s.ctx.wb;
  }
  /** @internal */
  _area(): Area {
    const a: Area = { sheet: this._m, r1: this._r, c1: this._c, r2: this._r + this._nr - 1, c2: this._c + this._nc - 1 };
    if (this._open) a.open = { ...this._open };
    return a;
  }
  private cells(): number {
    return this._nr * this._nc;
  }
  /** A 2D array of the script's realm. */
  private map<T>(f: (c: Cell | undefined) => T): Grid<T> {
    const A = this.ctx.state.realm.Array;
    const out = new A(this._nr) as Grid<T>;
    for (let i = 0; i < this._nr; i++) {
      const row = this._m.rows[this._r - 1 + i];
      const o = new A(this._nc) as T[];
      for (let j = 0; j < this._nc; j++) o[j] = f(row?.[this._c - 1 + j]);
      out[i] = o;
    }
    return out;
  }
  private first(): Cell | undefined {
    return this._m.cell(this._r, this._c);
  }
  /** Applies f to every cell of the range (creating cells). */
  private each(f: (c: Cell, i: number, j: number) => void): void {
    for (let i = 0; i < this._nr; i++) for (let j = 0; j < this._nc; j++) f(this._m.ensure(this._r + i, this._c + j), i, j);
  }

  // -- position --
  getA1Notation(): string {
    this.ctx.call();
    return areaA1(this._area());
  }
  getRow(): number {
    this.ctx.call();
    return this._r;
  }
  getRowIndex(): number {
    return this.getRow();
  }
  getColumn(): number {
    this.ctx.call();
    return this._c;
  }
  getNumRows(): number {
    this.ctx.call();
    return this._nr;
  }
  getHeight(): number {
    return this.getNumRows();
  }
  getNumColumns(): number {
    this.ctx.call();
    return this._nc;
  }
  getWidth(): number {
    return this.getNumColumns();
  }
  getLastRow(): number {
    this.ctx.call();
    return this._r + this._nr - 1;
  }
  getLastColumn(): number {
    this.ctx.call();
    return this._c + this._nc - 1;
  }
  getSheet(): SheetObject {
    this.ctx.call();
    return this.s.sheet(this._m);
  }
  getCell(row: number, column: number): RangeImpl {
    this.ctx.call();
    if (row < 1 || column < 1 || row > this._nr || column > this._nc)
      throw this.ctx.error('The coordinates of the range are outside the dimensions of the sheet.');
    return this.s.range(this._m, this._r + row - 1, this._c + column - 1);
  }
  offset(rowOffset: number, columnOffset: number, numRows?: number, numColumns?: number): RangeImpl {
    this.ctx.call();
    const r = this._r + rowOffset;
    const c = this._c + columnOffset;
    const nr = numRows ?? this._nr;
    const nc = numColumns ?? this._nc;
    if (r < 1) throw this.ctx.error('The starting row of the range is too small.');
    if (c < 1) throw this.ctx.error('The starting column of the range is too small.');
    if (nr < 1) throw this.ctx.error('The number of rows in the range must be at least 1.');
    if (nc < 1) throw this.ctx.error('The number of columns in the range must be at least 1.');
    if (r + nr - 1 > this._m.maxRows || c + nc - 1 > this._m.maxCols)
      throw this.ctx.error('The coordinates of the range are outside the dimensions of the sheet.');
    return this.s.range(this._m, r, c, nr, nc);
  }
  activate(): RangeImpl {
    this.ctx.mutate('activate');
    this.wb.activeSheet = this._m;
    this.wb.activeRange = this._area();
    return this;
  }
  isBlank(): boolean {
    this.ctx.read(this.cells());
    return this.map((c) => isEmptyCell(c)).every((r) => r.every(Boolean));
  }

  // -- values --
  getValue(): unknown {
    this.ctx.read(1);
    return this.valueOf(this.first());
  }
  getValues(): unknown[][] {
    this.ctx.read(this.cells());
    return this.map((c) => this.valueOf(c));
  }
  /** A cell's value; an in-cell image is a CellImage (Google's cell-image page). */
  private valueOf(c: Cell | undefined): unknown {
    return c?.img ? storedCellImage(this.ctx, c.img) : this.wb.readValue(c);
  }
  getDisplayValue(): string {
    this.ctx.read(1);
    return this.wb.readDisplay(this.first());
  }
  getDisplayValues(): string[][] {
    this.ctx.read(this.cells());
    return this.map((c) => this.wb.readDisplay(c));
  }
  /** Writes the value into every cell of the range. */
  setValue(value: unknown): RangeImpl {
    this.ctx.write('setValue', this.cells());
    this.writeAll((i, j) => value);
    return this;
  }
  setValues(values: unknown[][]): RangeImpl {
    const data = checkGrid(this.ctx, 'setValues', values, this._nr, this._nc);
    this.ctx.write('setValues', this.cells());
    this.writeAll((i, j) => data[i][j]);
    return this;
  }
  /** Google: until its editors are changed, a new protection mirrors the spreadsheet's permissions. */
  protect(): ProtectionImpl {
    this.ctx.mutate('protect');
    return new ProtectionImpl(this.s, newProtection(this.wb, 'RANGE', this._area(), this.ctx.state.current?.user ?? this.wb.owner));
  }

  // -- data validation (checkboxes, value lists) --
  setDataValidation(rule: DataValidationImpl | null): RangeImpl {
    if (rule !== null && !(rule instanceof DataValidationImpl))
      throw this.ctx.error(
        `The parameters (${typeName(rule)}) don't match the method signature for SpreadsheetApp.Range.setDataValidation.`,
      );
    this.ctx.write('setDataValidation', this.cells());
    checkEditable(this.ctx, this._area());
    this.each((c) => (c.dv = rule ? rule._v : undefined));
    return this;
  }
  setDataValidations(rules: Array<Array<DataValidationImpl | null>>): RangeImpl {
    const data = checkGrid(this.ctx, 'setDataValidations', rules, this._nr, this._nc);
    for (const row of data)
      for (const r of row)
        if (r !== null && !(r instanceof DataValidationImpl))
          throw this.ctx.error(
            `The parameters (${typeName(rules)}) don't match the method signature for SpreadsheetApp.Range.setDataValidations.`,
          );
    this.ctx.write('setDataValidations', this.cells());
    this.each((c, i, j) => (c.dv = (data[i][j] as DataValidationImpl | null)?._v));
    return this;
  }
  getDataValidation(): DataValidationImpl | null {
    this.ctx.read(1);
    const v = this.first()?.dv;
    return v ? new DataValidationImpl(this.ctx, v) : null;
  }
  getDataValidations(): Grid<DataValidationImpl | null> {
    this.ctx.read(this.cells());
    return this.map((c) => (c?.dv ? new DataValidationImpl(this.ctx, c.dv) : null));
  }
  clearDataValidations(): RangeImpl {
    this.ctx.write('clearDataValidations', this.cells());
    for (let i = 0; i < this._nr; i++)
      for (let j = 0; j < this._nc; j++) {
        const c = this._m.cell(this._r + i, this._c + j);
        if (c) c.dv = undefined;
      }
    return this;
  }
  /** Google: checkbox rule on every cell, and every cell set to the unchecked value (FALSE by default). */
  insertCheckboxes(checkedValue?: unknown, uncheckedValue?: unknown): RangeImpl {
    const values = arguments.length === 0 ? [] : arguments.length === 1 ? [checkedValue] : [checkedValue, uncheckedValue];
    const rule: ValidationModel = { type: DataValidationCriteria.CHECKBOX, values, allowInvalid: true, helpText: null };
    const { unchecked } = checkboxValues(rule);
    this.ctx.write('insertCheckboxes', this.cells());
    this.each((c) => (c.dv = rule));
    this.writeAll(() => unchecked);
    return this;
  }
  /** Google: removes the checkbox rules, and the values of cells that held the checked or unchecked value. */
  removeCheckboxes(): RangeImpl {
    this.ctx.write('removeCheckboxes', this.cells());
    checkEditable(this.ctx, this._area());
    const cleared: Area[] = [];
    for (let i = 0; i < this._nr; i++)
      for (let j = 0; j < this._nc; j++) {
        const c = this._m.cell(this._r + i, this._c + j);
        if (!c?.dv || c.dv.type !== DataValidationCriteria.CHECKBOX) continue;
        const { checked, unchecked } = checkboxValues(c.dv);
        c.dv = undefined;
        if (!c.f && (c.v === checked || c.v === unchecked)) {
          this.wb.clearContent(c);
          cleared.push({ sheet: this._m, r1: this._r + i, c1: this._c + j, r2: this._r + i, c2: this._c + j });
        }
      }
    if (cleared.length) afterWrite(this.wb, cleared);
    return this;
  }
  check(): RangeImpl {
    return this.setChecked('check', true);
  }
  uncheck(): RangeImpl {
    return this.setChecked('uncheck', false);
  }
  /** Google: only cells holding the checked or unchecked value of their checkbox change. */
  private setChecked(method: string, on: boolean): RangeImpl {
    this.ctx.write(method, this.cells());
    checkEditable(this.ctx, this._area());
    const changed: Area[] = [];
    for (let i = 0; i < this._nr; i++)
      for (let j = 0; j < this._nc; j++) {
        const r = this._r + i;
        const col = this._c + j;
        const c = this._m.cell(r, col);
        if (!c?.dv || c.dv.type !== DataValidationCriteria.CHECKBOX || c.f) continue;
        const { checked, unchecked } = checkboxValues(c.dv);
        const now = c.v ?? '';
        if (now !== checked && now !== unchecked) continue;
        this.wb.writeInput(this._m, r, col, on ? checked : unchecked);
        changed.push({ sheet: this._m, r1: r, c1: col, r2: r, c2: col });
      }
    if (changed.length) afterWrite(this.wb, changed);
    return this;
  }
  /** true when every cell is a checked checkbox, false when every one is unchecked, else null (Google). */
  isChecked(): boolean | null {
    this.ctx.read(this.cells());
    let all: boolean | null = null;
    for (let i = 0; i < this._nr; i++)
      for (let j = 0; j < this._nc; j++) {
        const c = this._m.cell(this._r + i, this._c + j);
        if (!c?.dv || c.dv.type !== DataValidationCriteria.CHECKBOX) return null;
        const { checked, unchecked } = checkboxValues(c.dv);
        const now = c.v ?? '';
        const state = now === checked ? true : now === unchecked ? false : null;
        if (state === null || (all !== null && all !== state)) return null;
        all = state;
      }
    return all;
  }

  private writeAll(v: (i: number, j: number) => unknown): void {
    checkEditable(this.ctx, this._area());
    // Checked before anything is written, so a refused write changes nothing.
    for (let i = 0; i < this._nr; i++)
      for (let j = 0; j < this._nc; j++) {
        const x = v(i, j);
        if (typeof x === 'string' && x.length > MAX_CELL_CHARS) throw this.ctx.error(CELL_CHARS_MESSAGE);
      }
    const formulas: Array<[number, number]> = [];
    for (let i = 0; i < this._nr; i++)
      for (let j = 0; j < this._nc; j++) {
        const x = v(i, j);
        if (x instanceof CellImageImpl) this.wb.writeImage(this._m, this._r + i, this._c + j, x._m);
        else if (this.wb.writeInput(this._m, this._r + i, this._c + j, x)) formulas.push([this._r + i, this._c + j]);
      }
    const areas = [this._area()];
    for (const [r, c] of formulas) areas.push(...formulaWritten(this.wb, this._m, r, c));
    afterWrite(this.wb, areas);
  }

  // -- formulas --
  getFormula(): string {
    this.ctx.read(1);
    return this.wb.readFormula(this.first());
  }
  getFormulas(): string[][] {
    this.ctx.read(this.cells());
    return this.map((c) => this.wb.readFormula(c));
  }
  /**
   * Chosen: a formula without the leading '=' gets one; '' clears the cell. On a range of several
   * cells the formula is the top-left cell's and its relative references move with each cell, as
   * Google documents for Range.setFormula (=A1 on B5:C6 gives =A1, =B1 / =A2, =B2 relative to B5).
   */
  setFormula(formula: string): RangeImpl {
    this.ctx.write('setFormula', this.cells());
    const f = String(formula ?? '');
    const top = f === '' ? '' : f.startsWith('=') ? f : `=${f}`;
    this.writeAll((i, j) => (top === '' ? '' : offsetFormula(top, i, j)));
    return this;
  }
  setFormulas(formulas: string[][]): RangeImpl {
    const data = checkGrid(this.ctx, 'setFormulas', formulas, this._nr, this._nc);
    this.ctx.write('setFormulas', this.cells());
    this.writeAll((i, j) => {
      const f = String(data[i][j] ?? '');
      return f === '' ? '' : f.startsWith('=') ? f : `=${f}`;
    });
    return this;
  }

  // -- formats --
  getNumberFormat(): string {
    this.ctx.read(1);
    return this.wb.readFormat(this.first());
  }
  getNumberFormats(): string[][] {
    this.ctx.read(this.cells());
    return this.map((c) => this.wb.readFormat(c));
  }
  setNumberFormat(numberFormat: string): RangeImpl {
    this.ctx.write('setNumberFormat', this.cells());
    const f = String(numberFormat);
    this.each((c) => (c.fmt = f === AUTOMATIC_FORMAT || f.toLowerCase() === 'general' || f === '' ? undefined : f));
    return this;
  }
  setNumberFormats(numberFormats: string[][]): RangeImpl {
    const data = checkGrid(this.ctx, 'setNumberFormats', numberFormats, this._nr, this._nc);
    this.ctx.write('setNumberFormats', this.cells());
    this.each((c, i, j) => {
      const f = String(data[i][j] ?? '');
      c.fmt = f === AUTOMATIC_FORMAT || f === '' || f.toLowerCase() === 'general' ? undefined : f;
    });
    return this;
  }
  getNote(): string {
    this.ctx.read(1);
    return this.first()?.note ?? '';
  }
  getNotes(): string[][] {
    this.ctx.read(this.cells());
    return this.map((c) => c?.note ?? '');
  }
  setNote(note: string | null): RangeImpl {
    this.ctx.write('setNote', this.cells());
    const n = note === null || note === undefined || note === '' ? undefined : String(note);
    this.each((c) => (c.note = n));
    return this;
  }
  setNotes(notes: (string | null)[][]): RangeImpl {
    const data = checkGrid(this.ctx, 'setNotes', notes, this._nr, this._nc);
    this.ctx.write('setNotes', this.cells());
    this.each((c, i, j) => {
      const n = data[i][j];
      c.note = n === null || n === undefined || n === '' ? undefined : String(n);
    });
    return this;
  }
  clearNote(): RangeImpl {
    return this.setNote(null);
  }
  getBackground(): string {
    this.ctx.read(1);
    return this.first()?.bg ?? '#ffffff';
  }
  getBackgrounds(): string[][] {
    this.ctx.read(this.cells());
    return this.map((c) => c?.bg ?? '#ffffff');
  }
  setBackground(color: string | null): RangeImpl {
    this.ctx.write('setBackground', this.cells());
    const bg = color === null || color === undefined || color === '' ? undefined : normalizeColor(color);
    this.each((c) => (c.bg = bg === '#ffffff' ? undefined : bg));
    return this;
  }
  setBackgrounds(colors: (string | null)[][]): RangeImpl {
    const data = checkGrid(this.ctx, 'setBackgrounds', colors, this._nr, this._nc);
    this.ctx.write('setBackgrounds', this.cells());
    this.each((c, i, j) => {
      const v = data[i][j];
      const bg = v === null || v === undefined || v === '' ? undefined : normalizeColor(String(v));
      c.bg = bg === '#ffffff' ? undefined : bg;
    });
    return this;
  }
  getFontWeight(): string {
    this.ctx.read(1);
    return this.first()?.bold ? 'bold' : 'normal';
  }
  getFontWeights(): string[][] {
    this.ctx.read(this.cells());
    return this.map((c) => (c?.bold ? 'bold' : 'normal'));
  }
  setFontWeight(fontWeight: string | null): RangeImpl {
    this.ctx.write('setFontWeight', this.cells());
    const b = fontWeight === 'bold';
    this.each((c) => (c.bold = b || undefined));
    return this;
  }
  setFontWeights(fontWeights: (string | null)[][]): RangeImpl {
    const data = checkGrid(this.ctx, 'setFontWeights', fontWeights, this._nr, this._nc);
    this.ctx.write('setFontWeights', this.cells());
    this.each((c, i, j) => (c.bold = data[i][j] === 'bold' || undefined));
    return this;
  }
  getFontColor(): string {
    this.ctx.read(1);
    return this.first()?.color ?? '#000000';
  }
  setFontColor(color: string | null): RangeImpl {
    this.ctx.write('setFontColor', this.cells());
    const v = color === null || color === undefined || color === '' ? undefined : normalizeColor(color);
    this.each((c) => (c.color = v === '#000000' ? undefined : v));
    return this;
  }
  /** Chosen: the default alignment reads 'general' (Sheets aligns by value type). */
  getHorizontalAlignment(): string {
    this.ctx.read(1);
    return this.first()?.halign ?? 'general';
  }
  setHorizontalAlignment(alignment: string | null): RangeImpl {
    this.ctx.write('setHorizontalAlignment', this.cells());
    const a =
      alignment === null || alignment === undefined || alignment === 'normal' || alignment === 'general'
        ? undefined
        : String(alignment).toLowerCase();
    if (a !== undefined && !['left', 'center', 'right'].includes(a)) throw this.ctx.error(`Invalid argument: alignment`); // chosen wording
    this.each((c) => (c.halign = a));
    return this;
  }
  getWrap(): boolean {
    this.ctx.read(1);
    return this.first()?.wrap ?? false;
  }
  setWrap(isWrapEnabled: boolean): RangeImpl {
    this.ctx.write('setWrap', this.cells());
    this.each((c) => (c.wrap = isWrapEnabled ? true : undefined));
    return this;
  }

  // -- rich text --
  private rich(c: Cell | undefined): RichTextValueImpl | null {
    const v = c?.v;
    // Google returns null when the cell value is not text; chosen: an empty cell gives empty text.
    if (v !== undefined && typeof v !== 'string') return null;
    if (c?.err) return null;
    return new RichTextValueImpl(this.ctx, v ?? '', c?.links ?? []);
  }
  getRichTextValue(): RichTextValueImpl | null {
    this.ctx.read(1);
    return this.rich(this.first());
  }
  getRichTextValues(): (RichTextValueImpl | null)[][] {
    this.ctx.read(this.cells());
    return this.map((c) => this.rich(c));
  }
  /** The text is stored as text (never parsed), with its link runs. */
  setRichTextValue(value: RichTextValueImpl): RangeImpl {
    this.ctx.write('setRichTextValue', this.cells());
    this.writeRich(() => value);
    return this;
  }
  setRichTextValues(values: RichTextValueImpl[][]): RangeImpl {
    const data = checkGrid(this.ctx, 'setRichTextValues', values, this._nr, this._nc);
    this.ctx.write('setRichTextValues', this.cells());
    this.writeRich((i, j) => data[i][j] as RichTextValueImpl);
    return this;
  }
  private writeRich(v: (i: number, j: number) => RichTextValueImpl): void {
    for (let i = 0; i < this._nr; i++)
      for (let j = 0; j < this._nc; j++) {
        const rtv = v(i, j);
        if (!(rtv instanceof RichTextValueImpl))
          throw this.ctx.error(
            `The parameters (${typeName(rtv)}) don't match the method signature for SpreadsheetApp.Range.setRichTextValue.`,
          );
        if (rtv.getText().length > MAX_CELL_CHARS) throw this.ctx.error(CELL_CHARS_MESSAGE);
      }
    this.each((c, i, j) => {
      const rtv = v(i, j);
      this.wb.clearContent(c);
      const text = rtv.getText();
      c.v = text === '' ? undefined : text;
      const links = rtv._linkRuns();
      c.links = links.length ? links : undefined;
    });
    afterWrite(this.wb, [this._area()]);
  }

  // -- clearing --
  /** @internal */
  _clear(o: { contentsOnly?: boolean; formatOnly?: boolean; commentsOnly?: boolean; validationsOnly?: boolean }): void {
    const contents = !o.formatOnly && !o.commentsOnly && !o.validationsOnly;
    const formats = !o.contentsOnly && !o.commentsOnly && !o.validationsOnly;
    // Google: clear() with no option also removes data validation rules; validationsOnly only them.
    const validations = !!o.validationsOnly || (!o.contentsOnly && !o.formatOnly && !o.commentsOnly);
    checkEditable(this.ctx, this._area());
    for (let i = 0; i < this._nr; i++) {
      const row = this._m.rows[this._r - 1 + i];
      if (!row) continue;
      for (let j = 0; j < this._nc; j++) {
        const c = row[this._c - 1 + j];
        if (!c) continue;
        if (contents) this.wb.clearContent(c);
        if (formats) this.wb.clearFormat(c);
        // Google: clear() with no options also removes data validation rules.
        if (validations) c.dv = undefined;
        if (o.commentsOnly) c.note = undefined;
      }
    }
    if (contents) afterWrite(this.wb, [this._area()]);
  }
  /** Chosen: clear() keeps notes (clear({commentsOnly: true}) removes them). */
  clear(options?: { contentsOnly?: boolean; formatOnly?: boolean; commentsOnly?: boolean; validationsOnly?: boolean }): RangeImpl {
    this.ctx.write('clear', this.cells());
    this._clear(options ?? {});
    return this;
  }
  clearContent(): RangeImpl {
    this.ctx.write('clearContent', this.cells());
    this._clear({ contentsOnly: true });
    return this;
  }
  clearFormat(): RangeImpl {
    this.ctx.write('clearFormat', this.cells());
    this._clear({ formatOnly: true });
    return this;
  }

  // -- merged cells (gas-fakes test/testsheets.js "Range Merging Methods", recorded on Google) --
  /** Merges the range into one cell: the top-left value stays, the other cells are emptied. */
  merge(): RangeImpl {
    this._merge('merge', [this._area()]);
    return this;
  }
  /** One merge per row of the range. */
  mergeAcross(): RangeImpl {
    const a = this._area();
    const parts: MergeModel[] = [];
    for (let r = a.r1; r <= a.r2; r++) parts.push({ r1: r, c1: a.c1, r2: r, c2: a.c2 });
    this._merge('mergeAcross', parts);
    return this;
  }
  /** One merge per column of the range. */
  mergeVertically(): RangeImpl {
    const a = this._area();
    const parts: MergeModel[] = [];
    for (let c = a.c1; c <= a.c2; c++) parts.push({ r1: a.r1, c1: c, r2: a.r2, c2: c });
    this._merge('mergeVertically', parts);
    return this;
  }
  private _merge(method: string, parts: MergeModel[]): void {
    this.ctx.write(method, this.cells());
    checkEditable(this.ctx, this._area());
    const a = this._area();
    this.partialMergeCheck(a);
    const m = this._m;
    m.merges = m.merges.filter((g) => !inside(g, a));
    const areas: Area[] = [];
    for (const p of parts) {
      if (p.r1 === p.r2 && p.c1 === p.c2) continue;
      m.merges.push({ ...p });
      for (let r = p.r1; r <= p.r2; r++)
        for (let c = p.c1; c <= p.c2; c++) {
          if (r === p.r1 && c === p.c1) continue;
          const cell = m.cell(r, c);
          if (cell) this.wb.clearContent(cell);
        }
      areas.push({ sheet: m, ...p });
    }
    afterWrite(this.wb, areas);
  }
  /** Chosen wording (the Sheets UI's): a merge may not cut through an existing one. */
  private partialMergeCheck(a: MergeModel): void {
    for (const g of this._m.merges)
      if (overlaps(g, a) && !inside(g, a)) throw this.ctx.error('You must select all cells in a merged cell to merge or unmerge them.');
  }
  /** Splits every merge inside the range; the cells stay as they are (the others blank). */
  breakApart(): RangeImpl {
    this.ctx.write('breakApart', 0);
    const a = this._area();
    this.partialMergeCheck(a);
    this._m.merges = this._m.merges.filter((g) => !inside(g, a));
    return this;
  }
  isPartOfMerge(): boolean {
    this.ctx.call();
    const a = this._area();
    return this._m.merges.some((g) => overlaps(g, a));
  }
  getMergedRanges(): RangeImpl[] {
    this.ctx.call();
    const a = this._area();
    return this.ctx.arr(
      this._m.merges.filter((g) => overlaps(g, a)).map((g) => this.s.range(this._m, g.r1, g.c1, g.r2 - g.r1 + 1, g.c2 - g.c1 + 1)),
    );
  }

  toString(): string {
    return 'Range';
  }

  // -- R1C1 (gas-fakes test/testsheets.js "R1C1 Formula Notation") --
  getFormulaR1C1(): string | null {
    this.ctx.read(1);
    const f = this.wb.readFormula(this.first());
    return f === '' ? null : formulaToR1C1(f, this._r, this._c);
  }
  getFormulasR1C1(): string[][] {
    this.ctx.read(this.cells());
    const A = this.ctx.state.realm.Array;
    const out = new A(this._nr) as string[][];
    for (let i = 0; i < this._nr; i++) {
      out[i] = new A(this._nc) as string[];
      for (let j = 0; j < this._nc; j++) {
        const f = this.wb.readFormula(this._m.cell(this._r + i, this._c + j));
        out[i][j] = f === '' ? '' : formulaToR1C1(f, this._r + i, this._c + j);
      }
    }
    return out;
  }
  /** Each cell gets the formula as seen from it; like setFormula, text without '=' gets one. */
  setFormulaR1C1(formula: string): RangeImpl {
    this.ctx.write('setFormulaR1C1', this.cells());
    const f = String(formula ?? '');
    const r1c1 = f === '' ? '' : f.startsWith('=') ? f : `=${f}`;
    this.writeAll((i, j) => (r1c1 === '' ? '' : formulaFromR1C1(r1c1, this._r + i, this._c + j)));
    return this;
  }
  setFormulasR1C1(formulas: string[][]): RangeImpl {
    const data = checkGrid(this.ctx, 'setFormulasR1C1', formulas, this._nr, this._nc);
    this.ctx.write('setFormulasR1C1', this.cells());
    this.writeAll((i, j) => {
      const f = String(data[i][j] ?? '');
      return f === '' ? '' : formulaFromR1C1(f.startsWith('=') ? f : `=${f}`, this._r + i, this._c + j);
    });
    return this;
  }

  // -- moving over data (Ctrl+arrow, Ctrl+A) --
  getNextDataCell(direction: string): RangeImpl {
    this.ctx.read(this._m.maxRows);
    if (!Object.values(Direction).includes(direction as never))
      throw this.ctx.error(
        `The parameters (${typeName(direction)}) don't match the method signature for SpreadsheetApp.Range.getNextDataCell.`,
      );
    const at = nextDataCell(this._m, this._r, this._c, direction);
    return this.s.range(this._m, at.r, at.c);
  }
  getDataRegion(dimension?: string): RangeImpl {
    this.ctx.read(this.cells());
    if (dimension !== undefined && !Object.values(Dimension).includes(dimension as never))
      throw this.ctx.error(
        `The parameters (${typeName(dimension)}) don't match the method signature for SpreadsheetApp.Range.getDataRegion.`,
      );
    const a = this._area();
    const b = dataRegion(this._m, a, dimension);
    return this.s.range(this._m, b.r1, b.c1, b.r2 - b.r1 + 1, b.c2 - b.c1 + 1);
  }
  createTextFinder(findText: string): TextFinderImpl {
    this.ctx.call();
    const box = { r1: this._r, c1: this._c, r2: this._r + this._nr - 1, c2: this._c + this._nc - 1 };
    return new TextFinderImpl(this.s, () => [{ sheet: this._m, box }], String(findText));
  }

  // -- cells shifted (gas-fakes test/testsheets.js "Range.deleteCells and Range.insertCells") --
  /** Chosen: when the shifted data would fall off the sheet, the sheet grows by what is needed. */
  insertCells(shiftDimension: string): RangeImpl {
    const dim = this.shiftDimension('insertCells', shiftDimension);
    const a = this._area();
    const grow = overflow(this._m, a, dim);
    if (grow > 0) {
      this.wb.checkGrowth((m) => this.ctx.error(m), grow * (dim === 'ROWS' ? this._m.maxCols : this._m.maxRows));
      if (dim === 'ROWS') this._m.maxRows += grow;
      else this._m.maxCols += grow;
    }
    this.moveCells(dim, true);
    return this;
  }
  deleteCells(shiftDimension: string): void {
    this.moveCells(this.shiftDimension('deleteCells', shiftDimension), false);
  }
  private shiftDimension(method: string, d: unknown): 'ROWS' | 'COLUMNS' {
    this.ctx.write(method, this.cells());
    if (d !== 'ROWS' && d !== 'COLUMNS')
      throw this.ctx.error(`The parameters (${typeName(d)}) don't match the method signature for SpreadsheetApp.Range.${method}.`);
    return d;
  }
  private moveCells(dim: 'ROWS' | 'COLUMNS', insert: boolean): void {
    const a = this._area();
    const moved: Area = dim === 'ROWS' ? { ...a, r2: this._m.maxRows, open: undefined } : { ...a, c2: this._m.maxCols, open: undefined };
    checkEditable(this.ctx, moved);
    shiftCells(this._m, a, dim, insert);
    reindex(this.wb, this._m);
    afterWrite(this.wb, [moved]);
  }

  /**
   * Keeps the first of each set of rows whose values (in the given sheet columns, default all)
   * are equal, moved up in order; the rows below are cleared. Returns the range of rows kept
   * (gas-fakes test/testsheetsvalues.js "assorted data manipulation", removeDuplicates).
   */
  removeDuplicates(columnsToCompare?: number[]): RangeImpl {
    this.ctx.write('removeDuplicates', this.cells());
    const cols = columnsToCompare ?? Array.from({ length: this._nc }, (_, j) => this._c + j);
    for (const c of cols)
      if (typeof c !== 'number' || c < this._c || c >= this._c + this._nc) throw this.ctx.error(`Cell reference out of range`); // chosen wording
    checkEditable(this.ctx, this._area());
    const seen = new Set<string>();
    const kept: Array<Array<Cell | undefined>> = [];
    for (let i = 0; i < this._nr; i++) {
      // Sheets API DeleteDuplicatesRequest (what removeDuplicates does): "Rows with identical values but
      // different letter cases, formatting, or formulas are considered to be duplicates."
      const key = JSON.stringify(
        cols.map((c) => {
          const v = this.wb.readValue(this._m.cell(this._r + i, c));
          return typeof v === 'string' ? v.toLowerCase() : v;
        }),
      );
      if (seen.has(key)) continue;
      seen.add(key);
      kept.push(Array.from({ length: this._nc }, (_, j) => this._m.cell(this._r + i, this._c + j)));
    }
    for (let i = 0; i < this._nr; i++)
      for (let j = 0; j < this._nc; j++) {
        const cell = kept[i]?.[j];
        if (!cell && !this._m.rows[this._r + i - 1]) continue;
        this._m.rows[this._r + i - 1] ??= [];
        this._m.rows[this._r + i - 1][this._c + j - 1] = cell;
      }
    reindex(this.wb, this._m);
    afterWrite(this.wb, [this._area()]);
    return this.s.range(this._m, this._r, this._c, Math.max(1, kept.length), this._nc);
  }

  /**
   * Sorts the rows of the range by sheet columns: a column number, {column, ascending}, or a list of
   * them (Google reference: Range.sort(sortSpecObj)); cells move whole, with their formats.
   */
  sort(sortSpecObj: unknown): RangeImpl {
    this.ctx.write('sort', this.cells());
    const specs = Array.isArray(sortSpecObj) ? sortSpecObj : [sortSpecObj];
    const keys: SortKey[] = specs.map((x) => {
      const o = typeof x === 'number' ? { column: x, ascending: true } : (x as { column?: unknown; ascending?: unknown });
      const column = o?.column;
      if (typeof column !== 'number' || column < this._c || column >= this._c + this._nc)
        throw this.ctx.error(`The parameters (${typeName(sortSpecObj)}) don't match the method signature for SpreadsheetApp.Range.sort.`);
      return { col: column - this._c, ascending: o.ascending === undefined ? true : Boolean(o.ascending) };
    });
    const values = Array.from({ length: this._nr }, (_, i) =>
      Array.from({ length: this._nc }, (_, j) => this.wb.readValue(this._m.cell(this._r + i, this._c + j))),
    );
    this.reorderRows(sortedOrder(values, keys));
    return this;
  }
  /** Shuffles the rows of the range (Google reference: Range.randomize). */
  randomize(): RangeImpl {
    this.ctx.write('randomize', this.cells());
    const order = Array.from({ length: this._nr }, (_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    this.reorderRows(order);
    return this;
  }
  /** Row i of the range becomes the row that was `order[i]`. */
  private reorderRows(order: number[]): void {
    checkEditable(this.ctx, this._area());
    const rows = order.map((i) => Array.from({ length: this._nc }, (_, j) => this._m.cell(this._r + i, this._c + j)));
    rows.forEach((cells, i) =>
      cells.forEach((cell, j) => {
        if (!cell && !this._m.rows[this._r + i - 1]) return;
        this._m.rows[this._r + i - 1] ??= [];
        this._m.rows[this._r + i - 1][this._c + j - 1] = cell;
      }),
    );
    reindex(this.wb, this._m);
    afterWrite(this.wb, [this._area()]);
  }
  /**
   * Trims each text cell and collapses runs of white space to one space; the result stays text
   * (gas-fakes test/testsheetsvalues.js "assorted data manipulation", trimWhitespace: "   =SUM(1,2)"
   * reads "=SUM(1,2)").
   */
  trimWhitespace(): RangeImpl {
    this.ctx.write('trimWhitespace', this.cells());
    checkEditable(this.ctx, this._area());
    for (let i = 0; i < this._nr; i++)
      for (let j = 0; j < this._nc; j++) {
        const cell = this._m.cell(this._r + i, this._c + j);
        if (cell && !cell.f && typeof cell.v === 'string') cell.v = cell.v.trim().replace(/\s+/g, ' ');
      }
    afterWrite(this.wb, [this._area()]);
    return this;
  }

  // -- copy and move (gas-fakes test/testsheets.js "Range.copyTo", "Range.moveTo") --
  /**
   * Copies the range to `destination`'s top-left corner: the whole source, however small the
   * destination; repeated as many whole times as fit when it is larger. Formulas move their relative
   * references. Options: {contentsOnly} (values and formulas, formats kept) or {formatOnly}; or a
   * CopyPasteType (PASTE_NORMAL, PASTE_VALUES: results only, PASTE_FORMAT) with transposed false.
   */
  copyTo(destination: RangeImpl, options?: unknown, transposed?: unknown): void {
    this.ctx.write('copyTo', this.cells());
    const mode = this.copyMode(destination, options, transposed);
    const d = destination._area();
    const reps = (n: number, of: number) => Math.max(1, Math.floor(n / of));
    const [rr, rc] = [reps(d.r2 - d.r1 + 1, this._nr), reps(d.c2 - d.c1 + 1, this._nc)];
    const target: Area = { sheet: d.sheet, r1: d.r1, c1: d.c1, r2: d.r1 + rr * this._nr - 1, c2: d.c1 + rc * this._nc - 1 };
    if (target.r2 > d.sheet.maxRows || target.c2 > d.sheet.maxCols)
      throw this.ctx.error('The coordinates of the range are outside the dimensions of the sheet.');
    checkEditable(this.ctx, target);
    const src = Array.from({ length: this._nr }, (_, i) =>
      Array.from({ length: this._nc }, (_, j) => cloneCell(this._m.cell(this._r + i, this._c + j))),
    );
    const values = mode === 'values' ? src.map((row) => row.map((c) => (c ? this.wb.readValue(c) : undefined))) : null;
    const written: Area[] = [target];
    for (let i = 0; i < rr * this._nr; i++)
      for (let j = 0; j < rc * this._nc; j++) {
        const [si, sj] = [i % this._nr, j % this._nc];
        const from = src[si][sj];
        const [r, c] = [d.r1 + i, d.c1 + j];
        if (!from && mode !== 'normal' && !d.sheet.cell(r, c)) continue;
        const to = d.sheet.ensure(r, c);
        if (mode === 'normal' || mode === 'format') copyFormat(to, from);
        if (mode === 'normal') {
          to.note = from?.note;
          to.dv = from?.dv;
        }
        if (mode === 'format') continue;
        copyValue(to, from);
        if (mode === 'values') to.v = values![si][sj] as Cell['v'];
        else if (from?.f && this.wb.writeInput(d.sheet, r, c, offsetFormula(from.f, r - (this._r + si), c - (this._c + sj))))
          written.push(...formulaWritten(this.wb, d.sheet, r, c));
      }
    reindex(this.wb, d.sheet);
    afterWrite(this.wb, written);
  }
  private copyMode(destination: unknown, options: unknown, transposed: unknown): 'normal' | 'contents' | 'values' | 'format' {
    const bad = () =>
      this.ctx.error(
        `The parameters (${[destination, options, transposed]
          .filter((x) => x !== undefined)
          .map(typeName)
          .join(',')}) don't match the method signature for SpreadsheetApp.Range.copyTo.`,
      );
    if (!this.s.isRange(destination)) throw bad();
    if (options === undefined) return 'normal';
    if (transposed !== undefined) {
      // copyTo(destination, copyPasteType, transposed)
      if (typeof transposed !== 'boolean' || typeof options !== 'string' || !(options in CopyPasteType)) throw bad();
      if (transposed) throw this.ctx.error('Transposed pasting is not supported by this runtime.'); // not modelled
      const m = {
        PASTE_NORMAL: 'normal',
        PASTE_NO_BORDERS: 'normal',
        PASTE_FORMULA: 'contents',
        PASTE_VALUES: 'values',
        PASTE_FORMAT: 'format',
      } as const;
      if (options in m) return m[options as keyof typeof m];
      throw this.ctx.error(`${options} is not supported by this runtime.`); // not modelled: validation, widths, conditional formats alone
    }
    // copyTo(destination, options). Google ignores what is not an options object, e.g. a type name
    // (issuetracker.google.com/issues/427192537, noted in gas-fakes test/testsheets.js "Range.copyTo").
    const o = (typeof options === 'object' && options !== null ? options : {}) as { contentsOnly?: unknown; formatOnly?: unknown };
    if (o.contentsOnly && o.formatOnly) throw bad(); // (chosen: both at once)
    return o.contentsOnly ? 'contents' : o.formatOnly ? 'format' : 'normal';
  }
  /**
   * Cuts the range and pastes it at `target`'s top-left corner, formats and all; what is left of
   * the source is cleared (formats too), also when the two overlap. Formula text moves unchanged.
   */
  moveTo(target: RangeImpl): void {
    this.ctx.write('moveTo', this.cells());
    if (!this.s.isRange(target))
      throw this.ctx.error(`The parameters (${typeName(target)}) don't match the method signature for SpreadsheetApp.Range.moveTo.`);
    const t = target._area();
    const dest: Area = { sheet: t.sheet, r1: t.r1, c1: t.c1, r2: t.r1 + this._nr - 1, c2: t.c1 + this._nc - 1 };
    if (dest.r2 > t.sheet.maxRows || dest.c2 > t.sheet.maxCols)
      throw this.ctx.error('The coordinates of the range are outside the dimensions of the sheet.');
    checkEditable(this.ctx, this._area());
    checkEditable(this.ctx, dest);
    const src = Array.from({ length: this._nr }, (_, i) =>
      Array.from({ length: this._nc }, (_, j) => cloneCell(this._m.cell(this._r + i, this._c + j))),
    );
    for (let i = 0; i < this._nr; i++)
      for (let j = 0; j < this._nc; j++) if (this._m.rows[this._r + i - 1]) this._m.rows[this._r + i - 1][this._c + j - 1] = undefined;
    const written: Area[] = [this._area(), dest];
    src.forEach((row, i) =>
      row.forEach((cell, j) => {
        const [r, c] = [dest.r1 + i, dest.c1 + j];
        if (!cell && !t.sheet.rows[r - 1]) return;
        t.sheet.rows[r - 1] ??= [];
        t.sheet.rows[r - 1][c - 1] = cell;
        if (cell?.f) {
          const f = cell.f;
          if (this.wb.writeInput(t.sheet, r, c, f)) written.push(...formulaWritten(this.wb, t.sheet, r, c));
        }
      }),
    );
    reindex(this.wb, this._m);
    if (t.sheet !== this._m) reindex(this.wb, t.sheet);
    afterWrite(this.wb, written);
  }

  // -- auto-fill (gas-fakes test/testsheets.js "Range.autoFill and autoFillToNeighbor") --
  /** Fills the part of `destination` outside this range, continuing each column (or row) of it. */
  autoFill(destination: RangeImpl, series: string): void {
    this.ctx.write('autoFill', this.cells());
    if (!this.s.isRange(destination) || !Object.values(AutoFillSeries).includes(series as never))
      throw this.ctx.error(
        `The parameters (${typeName(destination)},${typeName(series)}) don't match the method signature for SpreadsheetApp.Range.autoFill.`,
      );
    const src = this._area();
    const dst = destination._area();
    if (dst.sheet !== src.sheet || dst.r1 > src.r1 || dst.c1 > src.c1 || dst.r2 < src.r2 || dst.c2 < src.c2)
      throw this.ctx.error('The destination range must contain the source range.'); // gas-fakes records "destination range must contain the source range"
    const grows = [src.r1 - dst.r1, dst.r2 - src.r2, src.c1 - dst.c1, dst.c2 - src.c2].filter((d) => d > 0);
    if (grows.length > 1) throw this.ctx.error('AutoFill destination range must extend the source range in only one direction.');
    if (grows.length === 0) return;
    const [up, down, left] = [src.r1 - dst.r1, dst.r2 - src.r2, src.c1 - dst.c1];
    const vertical = up > 0 || down > 0;
    const backward = up > 0 || left > 0;
    const n = grows[0];
    const lines = vertical ? this._nc : this._nr;
    const len = vertical ? this._nr : this._nc;
    const targets: Array<{ r: number; c: number; v: unknown; from: Cell | undefined }> = [];
    for (let line = 0; line < lines; line++) {
      // Source cells in fill order: for a fill up or left, from the far end back.
      const at = (k: number) => {
        const idx = backward ? len - 1 - k : k;
        return vertical ? { r: this._r + idx, c: this._c + line } : { r: this._r + line, c: this._c + idx };
      };
      const cells = Array.from({ length: len }, (_, k) => this._m.cell(at(k).r, at(k).c));
      const place = (k: number) => {
        const d = backward ? -(k + 1) : len + k;
        return vertical ? { r: this._r + d, c: this._c + line } : { r: this._r + line, c: this._c + d };
      };
      if (cells.some((c) => c?.f)) {
        // Formulas are copied with their relative references moved, as a repeating pattern.
        for (let k = 0; k < n; k++) {
          const from = at(k % len);
          const to = place(k);
          const cell = cells[k % len];
          const v = cell?.f ? offsetFormula(cell.f, to.r - from.r, to.c - from.c) : this.wb.readValue(cell);
          targets.push({ ...to, v, from: cell });
        }
        continue;
      }
      const next = continueLine(
        cells.map((c) => this.wb.readValue(c)),
        n,
        series,
      );
      next.forEach((v, k) => targets.push({ ...place(k), v, from: cells[k % len] }));
    }
    const ext: Area = vertical
      ? { sheet: this._m, r1: up > 0 ? dst.r1 : src.r2 + 1, r2: up > 0 ? src.r1 - 1 : dst.r2, c1: src.c1, c2: src.c2 }
      : { sheet: this._m, r1: src.r1, r2: src.r2, c1: left > 0 ? dst.c1 : src.c2 + 1, c2: left > 0 ? src.c1 - 1 : dst.c2 };
    checkEditable(this.ctx, ext);
    const formulas: Area[] = [];
    for (const t of targets) {
      if (this.wb.writeInput(this._m, t.r, t.c, t.v)) formulas.push(...formulaWritten(this.wb, this._m, t.r, t.c));
      if (t.from?.fmt !== undefined) this._m.ensure(t.r, t.c).fmt = t.from.fmt;
    }
    afterWrite(this.wb, [ext, ...formulas]);
  }
  /**
   * Fills down to where the data of the column next to this range ends (Google: "based on neighboring
   * cells"); chosen: the longer of the columns left and right of it, read from this range's top.
   */
  autoFillToNeighbor(series: string): void {
    this.ctx.read(this._m.maxRows);
    const extent = (c: number) => {
      if (c < 1 || c > this._m.maxCols) return 0;
      let r = this._r;
      while (r + 1 <= this._m.maxRows && !isEmptyCell(this._m.cell(r + 1, c))) r++;
      return isEmptyCell(this._m.cell(this._r, c)) ? 0 : r;
    };
    const last = Math.max(extent(this._c - 1), extent(this._c + this._nc));
    const bottom = this._r + this._nr - 1;
    if (last <= bottom) return;
    this.autoFill(this.s.range(this._m, this._r, this._c, last - this._r + 1, this._nc), series);
  }

  // -- filter --
  createFilter(): FilterImpl {
    this.ctx.mutate('createFilter');
    if (this._m.filter) throw this.ctx.error("You can't create a filter in a sheet that already has a filter.");
    const a = this._area();
    this._m.filter = { r1: a.r1, c1: a.c1, r2: a.r2, c2: a.c2, criteria: new Map() };
    return new FilterImpl(this.s, this._m);
  }
  getFilter(): FilterImpl | null {
    this.ctx.call();
    return this._m.filter ? new FilterImpl(this.s, this._m) : null;
  }
}

declare module './objects' {
  interface ObjectClasses {
    Range: typeof RangeImpl;
  }
}
