/**
 * Spreadsheet, Sheet, Range, NamedRange and Filter: the objects a script sees. Each call charges the
 * cost model (reads, writes, other calls) and mutating calls are refused inside custom functions.
 */
import { cellA1, columnLetters, offsetFormula, parseA1, quoteSheetName } from './a1';
import { Ctx } from './context';
import { afterWrite, formulaWritten, reindex, sheetRenamed, shiftReferences } from './formulas';
import {
  Area,
  OpenSides,
  areaA1,
  liveArea,
  CELL_CHARS_MESSAGE,
  MAX_CELL_CHARS,
  Cell,
  DEFAULT_COLUMNS,
  DEFAULT_ROWS,
  DEFAULT_COLUMN_WIDTH,
  MAX_COLUMNS,
  MergeModel,
  NamedRangeModel,
  SheetModel,
  isEmptyCell,
} from './model';
import { ConditionalFormatRuleImpl, RichTextValueImpl } from './rules';
import { DataValidationCriteria, DataValidationImpl, ValidationModel, checkboxValues } from './validation';
import { ProtectionModel, checkEditable, mayEdit, protect as newProtection, protectionsOf, removeProtection } from './protection';
import { formatValue } from './format';
import { AUTOMATIC_FORMAT } from './values';
import type { LoadedConditionalRule } from './xlsx';
import { applySignatures } from './signatures';

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

/** Sheets' rules for range names. */
export function isValidRangeName(name: string): boolean {
  if (typeof name !== 'string' || name.length < 1 || name.length > 250) return false;
  if (!/^[\p{L}_][\p{L}\p{N}_]*$/u.test(name)) return false;
  if (/^(true|false)/i.test(name)) return false; // Google: must not start with the words "true" or "false"
  if (/^[A-Za-z]{1,3}\d+$/.test(name)) return false; // A1-like
  if (/^[Rr]\d*[Cc]\d*$/.test(name)) return false; // R1C1-like
  return true;
}

function typeName(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'Object[]';
  if (typeof v === 'string') return 'String';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'Boolean';
  return 'Object';
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

function checkInt(ctx: Ctx, method: string, ...ns: unknown[]): void {
  for (const n of ns)
    if (typeof n !== 'number' || !Number.isInteger(n))
      throw ctx.error(
        `The parameters (${ns.map(typeName).join(',')}) don't match the method signature for SpreadsheetApp.Sheet.${method}.`,
      );
}

function overlaps(g: MergeModel, a: MergeModel): boolean {
  return g.r1 <= a.r2 && a.r1 <= g.r2 && g.c1 <= a.c2 && a.c1 <= g.c2;
}
function inside(g: MergeModel, a: MergeModel): boolean {
  return g.r1 >= a.r1 && g.r2 <= a.r2 && g.c1 >= a.c1 && g.c2 <= a.c2;
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

export class Services {
  private sheetWrappers = new Map<SheetModel, SheetImpl>();
  readonly spreadsheet: SpreadsheetImpl;
  constructor(readonly ctx: Ctx) {
    this.spreadsheet = new SpreadsheetImpl(this);
  }
  sheet(m: SheetModel): SheetImpl {
    let s = this.sheetWrappers.get(m);
    if (!s) this.sheetWrappers.set(m, (s = new SheetImpl(this, m)));
    return s;
  }
  range(m: SheetModel, r: number, c: number, nr = 1, nc = 1, open?: OpenSides): RangeImpl {
    return new RangeImpl(this, m, r, c, nr, nc, open);
  }
  /** The model of a Sheet/Range object given by the script. */
  modelOf(x: unknown, method: string): SheetModel {
    if (x instanceof SheetImpl) return x._m;
    if (x instanceof RangeImpl) return x._m;
    throw this.ctx.error(`The parameters (${typeName(x)}) don't match the method signature for ${method}.`);
  }
  /** Resolves A1 notation (with optional sheet name) to an area; `Range not found` when it is not one. */
  area(a1: string, defaultSheet: SheetModel): Area {
    const ref = typeof a1 === 'string' ? parseA1(a1) : null;
    if (!ref) throw this.ctx.error('Range not found');
    const sheet = ref.sheetName === undefined ? defaultSheet : this.ctx.wb.sheetByName(ref.sheetName);
    if (!sheet) throw this.ctx.error('Range not found');
    const area: Area = { sheet, r1: ref.r1 ?? 1, c1: ref.c1 ?? 1, r2: ref.r2 ?? sheet.maxRows, c2: ref.c2 ?? sheet.maxCols };
    if (area.r2 > sheet.maxRows || area.c2 > sheet.maxCols || area.r1 > sheet.maxRows || area.c1 > sheet.maxCols)
      throw this.ctx.error('The coordinates of the range are outside the dimensions of the sheet.');
    // Open notation (A:A, 2:2, A2:A) is kept: the range reaches the sheet's end however it grows.
    if (ref.r1 === null || ref.c1 === null || ref.r2 === null || ref.c2 === null)
      area.open = { r1: ref.r1 === null, c1: ref.c1 === null, r2: ref.r2 === null, c2: ref.c2 === null };
    return area;
  }
  rangeOf(a: Area): RangeImpl {
    const l = liveArea(a);
    return this.range(a.sheet, l.r1, l.c1, l.r2 - l.r1 + 1, l.c2 - l.c1 + 1, a.open);
  }
}

// ---- Spreadsheet ------------------------------------------------------------------------------

class UserImpl {
  constructor(private readonly email: string) {}
  getEmail(): string {
    return this.email;
  }
}

export class SpreadsheetImpl {
  constructor(private readonly s: Services) {}
  private get ctx() {
    return this.s.ctx;
  }
  private get wb() {
    return this.s.ctx.wb;
  }
  getId(): string {
    this.ctx.call();
    return this.wb.id;
  }
  getName(): string {
    this.ctx.call();
    return this.wb.name;
  }
  rename(newName: string): void {
    this.ctx.mutate('rename');
    this.wb.name = String(newName);
  }
  getUrl(): string {
    this.ctx.call();
    return `https://docs.google.com/spreadsheets/d/${this.wb.id}/edit`;
  }
  /** null for a file in a shared drive (Google's Spreadsheet.getOwner() reference). */
  getOwner(): UserImpl | null {
    this.ctx.call();
    return this.wb.sharedDrive ? null : new UserImpl(this.wb.owner);
  }
  getSpreadsheetTimeZone(): string {
    this.ctx.call();
    return this.wb.timeZone;
  }
  setSpreadsheetTimeZone(tz: string): void {
    this.ctx.mutate('setSpreadsheetTimeZone');
    this.wb.timeZone = tz;
  }
  getSpreadsheetLocale(): string {
    this.ctx.call();
    return this.wb.locale;
  }
  getSheets(): SheetImpl[] {
    this.ctx.call();
    return this.ctx.arr(this.wb.sheets.map((m) => this.s.sheet(m)));
  }
  getNumSheets(): number {
    this.ctx.call();
    return this.wb.sheets.length;
  }
  getSheetByName(name: string): SheetImpl | null {
    this.ctx.call();
    const m = this.wb.sheetByName(name);
    return m ? this.s.sheet(m) : null;
  }
  getSheetById(id: number): SheetImpl | null {
    this.ctx.call();
    const m = this.wb.sheets.find((x) => x.id === id);
    return m ? this.s.sheet(m) : null;
  }
  /**
   * insertSheet(), insertSheet(index), insertSheet(name), insertSheet(name, index).
   * Chosen: without an index the new sheet goes right after the active sheet; it becomes active.
   */
  insertSheet(a?: string | number, b?: number): SheetImpl {
    this.ctx.write('insertSheet', 0);
    this.wb.checkGrowth((m) => this.ctx.error(m), DEFAULT_ROWS * DEFAULT_COLUMNS);
    let name: string | undefined;
    let index: number | undefined;
    if (typeof a === 'number') index = a;
    else if (a !== undefined) {
      name = String(a);
      index = b;
    }
    if (name !== undefined) checkSheetName(this.ctx, name, null);
    const at = index ?? (this.wb.activeSheet ? this.wb.sheets.indexOf(this.wb.activeSheet) + 1 : this.wb.sheets.length);
    const m = this.wb.addSheet(name ?? this.wb.uniqueSheetName(), at);
    this.wb.activeSheet = m;
    this.wb.activeRange = null;
    // Formulas naming this sheet (#REF! until now) resolve.
    afterWrite(this.wb, []);
    return this.s.sheet(m);
  }
  deleteSheet(sheet: SheetImpl): void {
    this.ctx.write('deleteSheet', 0);
    const m = this.s.modelOf(sheet, 'SpreadsheetApp.Spreadsheet.deleteSheet');
    // Chosen wording (Sheets refuses to delete the last sheet).
    if (this.wb.sheets.length === 1) throw this.ctx.error("You can't remove all the sheets in a document.");
    const i = this.wb.sheets.indexOf(m);
    if (i < 0) throw this.ctx.error('Sheet not found');
    this.wb.sheets.splice(i, 1);
    // Sheets keeps a named range of a deleted sheet; it reads #REF! from then on.
    for (const nr of this.wb.namedRanges.values()) if (nr.area.sheet === m) nr.broken = true;
    if (this.wb.activeSheet === m) {
      this.wb.activeSheet = this.wb.sheets[Math.max(0, i - 1)];
      this.wb.activeRange = null;
    }
    afterWrite(this.wb, [{ sheet: m, r1: 1, c1: 1, r2: m.maxRows, c2: m.maxCols }]);
  }
  setActiveSheet(sheet: SheetImpl): SheetImpl {
    // A custom function cannot move the user's selection: set* is refused there like any write (chosen
    // for the activate family: Google documents only "set* does not work").
    this.ctx.mutate('setActiveSheet');
    const m = this.s.modelOf(sheet, 'SpreadsheetApp.Spreadsheet.setActiveSheet');
    this.wb.activeSheet = m;
    this.wb.activeRange = null;
    return this.s.sheet(m);
  }
  getActiveSheet(): SheetImpl {
    this.ctx.call();
    return this.s.sheet(activeSheet(this.s));
  }
  getActiveRange(): RangeImpl {
    this.ctx.call();
    return activeRange(this.s);
  }
  getActiveCell(): RangeImpl {
    this.ctx.call();
    const r = activeRange(this.s);
    return this.s.range(r._m, r._r, r._c);
  }
  setActiveRange(range: RangeImpl): RangeImpl {
    this.ctx.mutate('setActiveRange');
    return range.activate();
  }
  getRange(a1: string): RangeImpl {
    this.ctx.call();
    return this.s.rangeOf(this.s.area(a1, activeSheet(this.s)));
  }
  getRangeByName(name: string): RangeImpl | null {
    this.ctx.call();
    const nr = this.wb.namedRanges.get(name);
    return nr && !nr.broken ? this.s.rangeOf(nr.area) : null;
  }
  /** Names a range (replacing a range of that name). Names follow Sheets' rules. */
  setNamedRange(name: string, range: RangeImpl): void {
    this.ctx.mutate('setNamedRange');
    if (!isValidRangeName(name)) throw this.ctx.error(invalidNameMessage(name));
    if (!(range instanceof RangeImpl))
      throw this.ctx.error(
        `The parameters (String,${typeName(range)}) don't match the method signature for SpreadsheetApp.Spreadsheet.setNamedRange.`,
      );
    this.wb.namedRanges.set(name, { name, area: range._area() });
    // Formulas using the name follow it (built-in ones recalculate on the next sync of the engine).
    afterWrite(this.wb, []);
  }
  getNamedRanges(): NamedRangeImpl[] {
    this.ctx.call();
    return this.ctx.arr([...this.wb.namedRanges.values()].filter((nr) => !nr.broken).map((nr) => new NamedRangeImpl(this.s, nr)));
  }
  getProtections(type: string): ProtectionImpl[] {
    this.ctx.call();
    return this.ctx.arr(
      protectionsOf(this.wb)
        .filter((p) => p.type === String(type))
        .map((p) => new ProtectionImpl(this.s, p)),
    );
  }
  /** Chosen: removing a name that does not exist does nothing. */
  removeNamedRange(name: string): void {
    this.ctx.mutate('removeNamedRange');
    this.wb.namedRanges.delete(name);
  }
  toast(msg: string, title?: string, timeoutSeconds?: number): void {
    this.ctx.mutate('toast');
    this.ctx.state.uiEvents.push({
      kind: 'toast',
      message: String(msg ?? ''),
      title: title === undefined || title === null ? '' : String(title),
      timeoutSeconds: timeoutSeconds ?? 5,
    });
  }
  // A few Sheet methods Google also offers on Spreadsheet (they act on the active sheet).
  getDataRange(): RangeImpl {
    return this.s.sheet(activeSheet(this.s)).getDataRange();
  }
  getLastRow(): number {
    return this.s.sheet(activeSheet(this.s)).getLastRow();
  }
  getLastColumn(): number {
    return this.s.sheet(activeSheet(this.s)).getLastColumn();
  }
  appendRow(rowContents: unknown[]): SheetImpl {
    return this.s.sheet(activeSheet(this.s)).appendRow(rowContents);
  }
}

function invalidNameMessage(name: string): string {
  // Chosen wording; Sheets' UI says the name must follow these rules.
  return `Invalid range name "${name}". Names may contain only letters, numbers and underscores, must be 1-250 characters, must not start with a number or the words "true" or "false", and must not look like a cell reference (A1 or R1C1).`;
}

/** Longest sheet (tab) name Sheets accepts. */
export const MAX_SHEET_NAME_LENGTH = 100;

function checkSheetName(ctx: Ctx, name: string, self: SheetModel | null): void {
  const wb = ctx.wb;
  // Chosen wording for the empty name.
  if (name.trim() === '') throw ctx.error('Sheet names cannot be empty.');
  // Sheets caps a tab's name at 100 characters (UTF-16 units, as the UI counts); wording chosen.
  if (name.length > MAX_SHEET_NAME_LENGTH) throw ctx.error(`The sheet name cannot be longer than ${MAX_SHEET_NAME_LENGTH} characters.`);
  const other = wb.sheetByNameCi(name);
  if (other && other !== self) throw ctx.error(`A sheet with the name "${name}" already exists. Please enter another name.`);
}

function activeSheet(s: Services): SheetModel {
  const wb = s.ctx.wb;
  if (wb.evaluating) return wb.evaluating.sheet;
  if (!wb.activeSheet || !wb.sheets.includes(wb.activeSheet)) wb.activeSheet = wb.sheets[0];
  return wb.activeSheet;
}

/** The active range; inside a custom function, the cell that calls it. Defaults to A1 of the active sheet. */
function activeRange(s: Services): RangeImpl {
  const wb = s.ctx.wb;
  if (wb.evaluating) return s.range(wb.evaluating.sheet, wb.evaluating.r, wb.evaluating.c);
  const sh = activeSheet(s);
  const a = wb.activeRange;
  if (a && a.sheet === sh) return s.rangeOf(a);
  return s.range(sh, 1, 1);
}

export class SelectionImpl {
  constructor(private readonly s: Services) {}
  getActiveRange(): RangeImpl {
    this.s.ctx.call();
    return activeRange(this.s);
  }
  getActiveSheet(): SheetImpl {
    this.s.ctx.call();
    return this.s.sheet(activeSheet(this.s));
  }
  getCurrentCell(): RangeImpl {
    this.s.ctx.call();
    const r = activeRange(this.s);
    return this.s.range(r._m, r._r, r._c);
  }
}

// ---- Named ranges -------------------------------------------------------------------------------

export class NamedRangeImpl {
  constructor(
    private readonly s: Services,
    private readonly nr: NamedRangeModel,
  ) {}
  private get ctx() {
    return this.s.ctx;
  }
  getName(): string {
    this.s.ctx.call();
    return this.nr.name;
  }
  setName(name: string): NamedRangeImpl {
    this.s.ctx.mutate('setName');
    if (!isValidRangeName(name)) throw this.ctx.error(invalidNameMessage(name));
    const map = this.s.ctx.wb.namedRanges;
    map.delete(this.nr.name);
    this.nr.name = name;
    map.set(name, this.nr);
    return this;
  }
  getRange(): RangeImpl {
    this.s.ctx.call();
    return this.s.rangeOf(this.nr.area);
  }
  setRange(range: RangeImpl): NamedRangeImpl {
    this.s.ctx.mutate('setRange');
    if (!(range instanceof RangeImpl))
      throw this.ctx.error(`The parameters (${typeName(range)}) don't match the method signature for SpreadsheetApp.NamedRange.setRange.`);
    this.nr.area = range._area();
    return this;
  }
  remove(): void {
    this.s.ctx.mutate('remove');
    this.s.ctx.wb.namedRanges.delete(this.nr.name);
  }
}

// ---- Protection -----------------------------------------------------------------------------------

export class ProtectionImpl {
  constructor(
    private readonly s: Services,
    private readonly p: ProtectionModel,
  ) {}
  private get ctx() {
    return this.s.ctx;
  }
  private emails(x: unknown, method: string): string[] {
    const one = (v: unknown): string => {
      if (typeof v === 'string') return v;
      if (v instanceof UserImpl) return v.getEmail();
      if (v && typeof (v as { getEmail?: unknown }).getEmail === 'function') return String((v as { getEmail(): string }).getEmail());
      throw this.ctx.error(`The parameters (${typeName(v)}) don't match the method signature for SpreadsheetApp.Protection.${method}.`);
    };
    return Array.isArray(x) ? x.map(one) : [one(x)];
  }
  /** The list Google starts from when the script first changes editors: the owner and the protection's creator. */
  private editors(): Set<string> {
    if (!this.p.editors) this.p.editors = new Set([this.ctx.wb.owner, this.p.creator]);
    return this.p.editors;
  }
  addEditor(emailOrUser: unknown): ProtectionImpl {
    this.ctx.mutate('addEditor');
    for (const e of this.emails(emailOrUser, 'addEditor')) this.editors().add(e);
    return this;
  }
  addEditors(emails: string[]): ProtectionImpl {
    this.ctx.mutate('addEditors');
    for (const e of this.emails(emails, 'addEditors')) this.editors().add(e);
    return this;
  }
  /** Chosen: the owner and the user running the script stay editors (nobody can lock themselves out). */
  removeEditor(emailOrUser: unknown): ProtectionImpl {
    return this.drop('removeEditor', emailOrUser);
  }
  removeEditors(emailsOrUsers: unknown[]): ProtectionImpl {
    return this.drop('removeEditors', emailsOrUsers);
  }
  private drop(method: string, x: unknown): ProtectionImpl {
    this.ctx.mutate(method);
    const me = this.ctx.state.current?.user ?? this.ctx.wb.owner;
    const set = this.editors();
    for (const e of this.emails(x, method)) if (e !== this.ctx.wb.owner && e !== me) set.delete(e);
    return this;
  }
  getEditors(): UserImpl[] {
    this.ctx.call();
    const list = this.p.editors ? [...this.p.editors] : [...new Set([this.ctx.wb.owner, this.p.creator])];
    return this.ctx.arr(list.map((e) => new UserImpl(e)));
  }
  canEdit(): boolean {
    this.ctx.call();
    return mayEdit(this.ctx.wb, this.p, this.ctx.state.current?.user ?? this.ctx.wb.owner);
  }
  canDomainEdit(): boolean {
    this.ctx.call();
    return this.p.domainEdit;
  }
  setDomainEdit(editable: boolean): ProtectionImpl {
    this.ctx.mutate('setDomainEdit');
    this.p.domainEdit = !!editable;
    if (!editable) this.editors();
    return this;
  }
  getDescription(): string {
    this.ctx.call();
    return this.p.description;
  }
  setDescription(description: string): ProtectionImpl {
    this.ctx.mutate('setDescription');
    this.p.description = String(description);
    return this;
  }
  isWarningOnly(): boolean {
    this.ctx.call();
    return this.p.warningOnly;
  }
  setWarningOnly(warningOnly: boolean): ProtectionImpl {
    this.ctx.mutate('setWarningOnly');
    this.p.warningOnly = !!warningOnly;
    return this;
  }
  getProtectionType(): string {
    this.ctx.call();
    return this.p.type;
  }
  getRange(): RangeImpl {
    this.ctx.call();
    return this.s.rangeOf(this.p.area);
  }
  getRangeName(): string | null {
    this.ctx.call();
    return null;
  }
  getUnprotectedRanges(): RangeImpl[] {
    this.ctx.call();
    return this.ctx.arr(this.p.unprotected.map((a) => this.s.rangeOf(a)));
  }
  /** Google: only for sheet protections (chosen wording for a range protection). */
  setUnprotectedRanges(ranges: RangeImpl[]): ProtectionImpl {
    this.ctx.mutate('setUnprotectedRanges');
    if (this.p.type !== 'SHEET') throw this.ctx.error('Unprotected ranges can only be set on a sheet protection.');
    this.p.unprotected = (Array.isArray(ranges) ? ranges : []).map((r) => {
      if (!(r instanceof RangeImpl))
        throw this.ctx.error(
          `The parameters (${typeName(ranges)}) don't match the method signature for SpreadsheetApp.Protection.setUnprotectedRanges.`,
        );
      return r._area();
    });
    return this;
  }
  remove(): void {
    this.ctx.mutate('remove');
    removeProtection(this.ctx.wb, this.p);
  }
}

// ---- Filter ---------------------------------------------------------------------------------------

export class FilterImpl {
  constructor(
    private readonly s: Services,
    private readonly m: SheetModel,
  ) {}
  private get ctx() {
    return this.s.ctx;
  }
  private f() {
    if (!this.m.filter) throw this.ctx.error('This filter has been removed.'); // chosen wording
    return this.m.filter;
  }
  getRange(): RangeImpl {
    this.s.ctx.call();
    const f = this.f();
    return this.s.range(this.m, f.r1, f.c1, f.r2 - f.r1 + 1, f.c2 - f.c1 + 1);
  }
  remove(): void {
    this.s.ctx.mutate('remove');
    this.f();
    this.m.filter = null;
  }
  /** Criteria are kept as given (the runtime does not hide rows). */
  setColumnFilterCriteria(columnPosition: number, filterCriteria: unknown): FilterImpl {
    this.s.ctx.mutate('setColumnFilterCriteria');
    const f = this.f();
    if (columnPosition < f.c1 || columnPosition > f.c2) throw this.ctx.error('The column position is out of bounds of the filter range.'); // chosen wording
    if (filterCriteria === null || filterCriteria === undefined) f.criteria.delete(columnPosition);
    else f.criteria.set(columnPosition, filterCriteria);
    return this;
  }
  getColumnFilterCriteria(columnPosition: number): unknown {
    this.s.ctx.call();
    return this.f().criteria.get(columnPosition) ?? null;
  }
  removeColumnFilterCriteria(columnPosition: number): FilterImpl {
    return this.setColumnFilterCriteria(columnPosition, null);
  }
}

// ---- Sheet ------------------------------------------------------------------------------------------

export class SheetImpl {
  constructor(
    private readonly s: Services,
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
  getParent(): SpreadsheetImpl {
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
  private insertRowsAt(method: string, at: number, n: number): void {
    this.ctx.write(method, 0);
    checkInt(this.ctx, method, at, n);
    if (n < 1) throw this.ctx.error('The number of rows to insert must be at least 1.'); // chosen wording
    if (at < 1 || at > this._m.maxRows + 1) throw this.ctx.error('Those rows are out of bounds.');
    this.wb.checkGrowth((m) => this.ctx.error(m), n * this._m.maxCols);
    const m = this._m;
    if (m.rows.length >= at) m.rows.splice(at - 1, 0, ...new Array(n));
    m.maxRows += n;
    this.shift('row', at, n);
  }
  private deleteRowsAt(at: number, n: number): void {
    this.ctx.write('deleteRows', 0);
    checkInt(this.ctx, 'deleteRows', at, n);
    const m = this._m;
    if (at < 1 || n < 1 || at + n - 1 > m.maxRows) throw this.ctx.error('Those rows are out of bounds.');
    if (n === m.maxRows) throw this.ctx.error("You can't delete all the rows on the sheet."); // chosen wording
    checkEditable(this.ctx, { sheet: m, r1: at, c1: 1, r2: at + n - 1, c2: m.maxCols });
    m.rows.splice(at - 1, n);
    m.maxRows -= n;
    this.shift('row', at, -n);
  }
  private insertColumnsAt(method: string, at: number, n: number): void {
    this.ctx.write(method, 0);
    checkInt(this.ctx, method, at, n);
    const m = this._m;
    if (n < 1) throw this.ctx.error('The number of columns to insert must be at least 1.'); // chosen wording
    if (at < 1 || at > m.maxCols + 1) throw this.ctx.error('Those columns are out of bounds.');
    if (m.maxCols + n > MAX_COLUMNS)
      throw this.ctx.error(`This action would increase the number of columns in the sheet above the limit of ${MAX_COLUMNS}.`); // chosen wording
    this.wb.checkGrowth((m) => this.ctx.error(m), n * m.maxRows);
    for (const row of m.rows) if (row && row.length >= at) row.splice(at - 1, 0, ...new Array(n));
    const widths = new Map<number, number>();
    for (const [c, w] of m.colWidths) widths.set(c >= at ? c + n : c, w);
    m.colWidths = widths;
    m.maxCols += n;
    this.shift('col', at, n);
  }
  private deleteColumnsAt(at: number, n: number): void {
    this.ctx.write('deleteColumns', 0);
    checkInt(this.ctx, 'deleteColumns', at, n);
    const m = this._m;
    if (at < 1 || n < 1 || at + n - 1 > m.maxCols) throw this.ctx.error('Those columns are out of bounds.');
    if (n === m.maxCols) throw this.ctx.error("You can't delete all the columns on the sheet."); // chosen wording
    for (const row of m.rows) if (row) row.splice(at - 1, n);
    const widths = new Map<number, number>();
    for (const [c, w] of m.colWidths)
      if (c < at) widths.set(c, w);
      else if (c >= at + n) widths.set(c - n, w);
    m.colWidths = widths;
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
    this.insertRowsAt('insertRowBefore', beforePosition, 1);
    return this;
  }
  insertRowAfter(afterPosition: number): SheetImpl {
    this.insertRowsAt('insertRowAfter', afterPosition + 1, 1);
    return this;
  }
  insertRowsBefore(beforePosition: number, howMany: number): SheetImpl {
    this.insertRowsAt('insertRowsBefore', beforePosition, howMany);
    return this;
  }
  insertRowsAfter(afterPosition: number, howMany: number): SheetImpl {
    this.insertRowsAt('insertRowsAfter', afterPosition + 1, howMany);
    return this;
  }
  insertRows(rowIndex: number, numRows?: number): void {
    this.insertRowsAt('insertRows', rowIndex, numRows ?? 1);
  }
  deleteRow(rowPosition: number): SheetImpl {
    this.deleteRowsAt(rowPosition, 1);
    return this;
  }
  deleteRows(rowPosition: number, howMany: number): void {
    this.deleteRowsAt(rowPosition, howMany);
  }
  insertColumnBefore(beforePosition: number): SheetImpl {
    this.insertColumnsAt('insertColumnBefore', beforePosition, 1);
    return this;
  }
  insertColumnAfter(afterPosition: number): SheetImpl {
    this.insertColumnsAt('insertColumnAfter', afterPosition + 1, 1);
    return this;
  }
  insertColumnsBefore(beforePosition: number, howMany: number): SheetImpl {
    this.insertColumnsAt('insertColumnsBefore', beforePosition, howMany);
    return this;
  }
  insertColumnsAfter(afterPosition: number, howMany: number): SheetImpl {
    this.insertColumnsAt('insertColumnsAfter', afterPosition + 1, howMany);
    return this;
  }
  insertColumns(columnIndex: number, numColumns?: number): void {
    this.insertColumnsAt('insertColumns', columnIndex, numColumns ?? 1);
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

// ---- Range ------------------------------------------------------------------------------------------

type Grid<T> = T[][];

export class RangeImpl {
  constructor(
    private readonly s: Services,
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
  getSheet(): SheetImpl {
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
    return this.wb.readValue(this.first());
  }
  getValues(): unknown[][] {
    this.ctx.read(this.cells());
    return this.map((c) => this.wb.readValue(c));
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
      for (let j = 0; j < this._nc; j++)
        if (this.wb.writeInput(this._m, this._r + i, this._c + j, v(i, j))) formulas.push([this._r + i, this._c + j]);
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

export { columnLetters, cellA1, quoteSheetName };

// Every listed method refuses calls that match none of its overloads, as Apps Script does.
applySignatures(
  { Range: RangeImpl as never, Sheet: SheetImpl as never, Spreadsheet: SpreadsheetImpl as never },
  {
    Range: RangeImpl as never,
    Sheet: SheetImpl as never,
    RichTextValue: RichTextValueImpl as never,
    DataValidation: DataValidationImpl as never,
  },
  (self, message) => (self as { s: Services }).s.ctx.error(message),
);
