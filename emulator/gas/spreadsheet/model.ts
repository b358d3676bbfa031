/**
 * The in-memory workbook: sheets of sparse cells, named ranges, filters, conditional format rules.
 * Values are stored the way Sheets stores them (dates as serial numbers with a date format), and
 * user input is turned into values the way Sheets does it (see writeInput).
 */
import { cellA1, columnLetters, rangeA1 } from './a1';
import {
  AUTOMATIC_FORMAT,
  DATE_TIME_FORMAT,
  TEXT_FORMAT,
  dateToSerial,
  isDate,
  isDateFormat,
  parseTyped,
  serialParts,
  serialToDate,
  Stored,
} from './values';
import { formatValue, isAutomatic } from './format';

/** A data validation rule as a cell holds it (validation.ts makes the script's objects of it). */
export interface ValidationModel {
  type: string;
  values: unknown[];
  allowInvalid: boolean;
  helpText: string | null;
}

/** One argument of a custom-function call; `text` is how it is written in the formula. */
export type Arg = { text: string } & (
  | { kind: 'lit'; value: unknown }
  | {
      kind: 'ref';
      sheetName?: string;
      r1: number | null;
      c1: number | null;
      r2: number | null;
      c2: number | null;
      single: boolean;
      deleted?: boolean;
    }
  | { kind: 'name'; name: string }
);

/** A custom-function formula anchored in a cell (formulas.ts evaluates it). */
export class CustomFormula {
  /** Result rows of the last evaluation (null when it failed, then `error` says why). */
  result: unknown[][] | null = null;
  error: { code: string; message: string } | null = null;
  /** Area currently covered by the spilled result (anchor included). */
  rows = 1;
  cols = 1;
  constructor(
    public sheet: SheetModel,
    public r: number,
    public c: number,
    readonly name: string,
    readonly args: Arg[],
  ) {}
}

export interface LinkRun {
  start: number;
  end: number;
  url: string;
}

/** An in-cell image as a cell holds it (cell-image.ts makes the script's objects of it). */
export interface CellImageModel {
  url: string | null;
  title: string | null;
  description: string | null;
}

export interface Cell {
  /** Value; undefined or '' is empty. */
  v?: Stored;
  /** Formula text including the leading '='. */
  f?: string;
  /** Number format; undefined means Automatic. */
  fmt?: string;
  note?: string;
  bg?: string;
  bold?: boolean;
  color?: string;
  halign?: string;
  wrap?: boolean;
  /** Link runs of a rich-text value (v is then the text). */
  links?: LinkRun[];
  /**
   * Quote prefix: the text was written with a leading apostrophe, which Sheets does not keep in the
   * value but as the cell's "quote prefix" (an .xlsx download holds it as quotePrefix="1" on the style).
   */
  q?: boolean;
  /** Message of an error value (#ERROR!, #REF!). */
  err?: string;
  /** Data validation rule (checkbox, value list, ...). */
  dv?: ValidationModel;
  /** Custom-function formula anchored here. */
  cf?: CustomFormula;
  /** Set on cells filled by the spill of a custom function's array result. */
  spilledFrom?: CustomFormula;
  /** Size of an array formula loaded from a file, claimed as spill when the formula is recalculated. */
  loadedSpill?: { rows: number; cols: number };
  /** An in-cell image (the cell's value; v is then empty). */
  img?: CellImageModel;
}

export interface Area {
  sheet: SheetModel;
  r1: number;
  c1: number;
  r2: number;
  c2: number;
  /**
   * Sides left out in the A1 notation it was made from (`A:A`, `2:2`, `A2:A`, `B:D`): an open end
   * (`r2`/`c2`) reaches the sheet's last row/column whatever the sheet's size (see liveArea), an
   * omitted start (`r1`/`c1`) is row/column 1 but is not written in getA1Notation (as in Sheets).
   */
  open?: OpenSides;
}

export interface OpenSides {
  r1?: boolean;
  c1?: boolean;
  r2?: boolean;
  c2?: boolean;
}

/** The cells an area covers now: an open end reaches the sheet's current last row/column. */
export function liveArea(a: Area): Area {
  if (!a.open) return a;
  return { ...a, r2: a.open.r2 ? a.sheet.maxRows : a.r2, c2: a.open.c2 ? a.sheet.maxCols : a.c2 };
}

/** A1 notation of an area, keeping open notation (`A:A`, `2:2`, `A2:A`) as Sheets does. */
export function areaA1(a: Area): string {
  const live = liveArea(a);
  if (!a.open) return rangeA1(live.r1, live.c1, live.r2, live.c2);
  const o = a.open;
  const p1 = (o.c1 ? '' : columnLetters(live.c1)) + (o.r1 ? '' : String(live.r1));
  const p2 = (o.c2 ? '' : columnLetters(live.c2)) + (o.r2 ? '' : String(live.r2));
  return `${p1}:${p2}`;
}

export interface MergeModel {
  r1: number;
  c1: number;
  r2: number;
  c2: number;
}

export interface FilterModel {
  r1: number;
  c1: number;
  r2: number;
  c2: number;
  criteria: Map<number, unknown>;
}

export const DEFAULT_ROWS = 1000;
export const DEFAULT_COLUMNS = 26;
export const DEFAULT_COLUMN_WIDTH = 100;
/** A new sheet's row height in pixels (gas-fakes test/testsheetsvalues.js reads getRowHeight before and after setRowHeight). */
export const DEFAULT_ROW_HEIGHT = 21;
export const MAX_CELLS = 10_000_000;
export const MAX_COLUMNS = 18_278;

/** Sheets' limit on the characters of one cell, and its message. */
export const MAX_CELL_CHARS = 50000;
export const CELL_CHARS_MESSAGE = `Your input contains more than the maximum of ${MAX_CELL_CHARS} characters in a single cell.`;

export const CELL_LIMIT_MESSAGE = cellLimitMessage(MAX_CELLS);

/** Google's message when a grid would grow past the spreadsheet's cell limit (the limit in it). */
export function cellLimitMessage(limit: number): string {
  return `This action would increase the number of cells in the workbook above the limit of ${limit} cells.`;
}

export function isEmptyCell(c: Cell | undefined): boolean {
  return !c || ((c.v === undefined || c.v === '') && !c.f && !c.img);
}

export class SheetModel {
  rows: (Cell | undefined)[][] = [];
  maxRows = DEFAULT_ROWS;
  maxCols = DEFAULT_COLUMNS;
  hidden = false;
  frozenRows = 0;
  frozenCols = 0;
  colWidths = new Map<number, number>();
  rowHeights = new Map<number, number>();
  /** Rows and columns hidden by the user (hideRows/hideColumns), 1-based. */
  hiddenRows = new Set<number>();
  hiddenCols = new Set<number>();
  filter: FilterModel | null = null;
  /** Conditional format rules (opaque to the model; built by the service layer). */
  cfRules: unknown[] = [];
  /** Merged cells: the value is the top-left cell's, the other cells are blank (as in Sheets). */
  merges: MergeModel[] = [];
  constructor(
    readonly workbook: WorkbookCore,
    public name: string,
    readonly id: number,
  ) {}

  cell(r: number, c: number): Cell | undefined {
    return this.rows[r - 1]?.[c - 1];
  }

  ensure(r: number, c: number): Cell {
    let row = this.rows[r - 1];
    if (!row) row = this.rows[r - 1] = [];
    let cell = row[c - 1];
    if (!cell) cell = row[c - 1] = {};
    return cell;
  }

  /** Last row with a value or formula (0 when empty). */
  lastRow(): number {
    for (let r = this.rows.length; r >= 1; r--) {
      const row = this.rows[r - 1];
      if (row && row.some((c) => !isEmptyCell(c))) return r;
    }
    return 0;
  }

  lastColumn(): number {
    let max = 0;
    for (const row of this.rows) {
      if (!row) continue;
      for (let c = row.length; c > max; c--) {
        if (!isEmptyCell(row[c - 1])) {
          max = c;
          break;
        }
      }
    }
    return max;
  }

  cellCount(): number {
    return this.maxRows * this.maxCols;
  }
}

export interface WorkbookOptions {
  name?: string;
  owner?: string;
  timeZone?: string;
  id?: string;
  locale?: string;
  /**
   * The file lives in a shared drive: the drive owns it, so Spreadsheet.getOwner() is null
   * (Spreadsheet reference, getOwner: "null if the spreadsheet is in a shared drive").
   */
  sharedDrive?: boolean;
  /**
   * Cells the spreadsheet may hold (every cell of every sheet's grid, empty ones included). Default
   * Google's 10,000,000; tests lower it so that a full spreadsheet is cheap to build.
   */
  cellLimit?: number;
  /**
   * Whether inserted rows and columns take their neighbour's formats (default true: Google's Sheets
   * API page says so for InsertDimensionRequest; Apps Script's pages are silent). False is the other
   * world, where they come in blank: code that relies on either must be right in both.
   */
  insertInheritsFormats?: boolean;
}

export interface NamedRangeModel {
  name: string;
  area: Area;
  /**
   * Its sheet was deleted: Sheets keeps the name and it reads #REF! (issue 20's report of Google);
   * chosen: getRangeByName answers null for it and getNamedRanges leaves it out (no Range can be made).
   */
  broken?: boolean;
}

/** Hooks the formula engine needs; set by createSpreadsheetApp. */
export interface EngineHooks {
  callCustomFunction(name: string, args: unknown[]): unknown;
  isCustomFunction(name: string): boolean;
  createDate?(ms: number): Date;
  /** Optional: runs one wave of a recalculation (see SpreadsheetHooks); without it calls run one after another, unlimited. */
  recalculationWave?(body: (call: (name: string, args: unknown[]) => unknown) => void): void;
}

export class WorkbookCore {
  id: string;
  name: string;
  owner: string;
  /** In a shared drive: no owner (getOwner() null). */
  sharedDrive: boolean;
  timeZone: string;
  locale: string;
  /** See WorkbookOptions.cellLimit. */
  cellLimit: number;
  /** See WorkbookOptions.insertInheritsFormats. */
  insertInheritsFormats: boolean;
  sheets: SheetModel[] = [];
  namedRanges = new Map<string, NamedRangeModel>();
  activeSheet: SheetModel | null = null;
  activeRange: Area | null = null;
  hooks: EngineHooks | null = null;
  /** The formula whose custom function is running (its cell is the active range then). */
  evaluating: CustomFormula | null = null;
  /** "Now" for typed input without a year ("12/5"); the runtime sets its virtual clock here. */
  now: () => number = () => Date.now();
  /**
   * What Google keeps with this document outside its cells (the runtime's document state: document
   * properties, triggers, ...). Opaque here: the runtime bound to the workbook supplies it at a save,
   * xlsx.ts writes it into the file's custom XML part, and a load puts it in `loadedState` for the
   * next runtime (emulator/gas/document-state.ts).
   */
  documentState: (() => unknown) | null = null;
  loadedState: unknown = null;
  private nextSheetId = 0;

  constructor(opts: WorkbookOptions = {}) {
    this.id = opts.id ?? `local-${Math.random().toString(36).slice(2, 12)}`;
    this.name = opts.name ?? 'Untitled spreadsheet';
    this.owner = opts.owner ?? 'owner@example.com';
    this.sharedDrive = !!opts.sharedDrive;
    // Chosen: a new local spreadsheet is in UTC unless told otherwise.
    this.timeZone = opts.timeZone ?? 'Etc/UTC';
    this.locale = opts.locale ?? 'en_US';
    this.cellLimit = opts.cellLimit ?? MAX_CELLS;
    this.insertInheritsFormats = opts.insertInheritsFormats ?? true;
  }

  totalCells(): number {
    return this.sheets.reduce((s, sh) => s + sh.cellCount(), 0);
  }

  /** Throws Google's message when growing by `extra` cells would pass the cell limit (10,000,000 unless lowered). */
  checkGrowth(mkError: (message: string) => Error, extra: number): void {
    if (extra > 0 && this.totalCells() + extra > this.cellLimit) throw mkError(cellLimitMessage(this.cellLimit));
  }

  /** The sheets' ids and the counter of the next one, as a saved file keeps them (xlsx.ts). */
  sheetIds(): { ids: Array<[string, number]>; next: number } {
    return { ids: this.sheets.map((s) => [s.name, s.id]), next: this.nextSheetId };
  }

  /** A loaded file's own sheet ids: Sheets keeps a sheet's id for the life of the sheet, and records name them. */
  restoreSheetIds(ids: Array<[string, number]>, next: number): void {
    const byName = new Map(ids);
    for (const sh of this.sheets) {
      const id = byName.get(sh.name);
      if (Number.isInteger(id)) (sh as { id: number }).id = id!;
    }
    if (Number.isInteger(next)) this.nextSheetId = Math.max(this.nextSheetId, next);
  }

  addSheet(name: string, index?: number, rows = DEFAULT_ROWS, cols = DEFAULT_COLUMNS): SheetModel {
    this.checkGrowth((m) => new Error(m), rows * cols);
    // Sheets numbers the first sheet 0 and gives later ones other ids; chosen: a counter.
    const sh = new SheetModel(this, name, this.nextSheetId === 0 ? 0 : this.nextSheetId * 1000 + 7);
    this.nextSheetId++;
    sh.maxRows = rows;
    sh.maxCols = cols;
    if (index === undefined || index >= this.sheets.length) this.sheets.push(sh);
    else this.sheets.splice(Math.max(0, index), 0, sh);
    if (!this.activeSheet) this.activeSheet = sh;
    return sh;
  }

  sheetByName(name: string): SheetModel | null {
    return this.sheets.find((s) => s.name === name) ?? null;
  }

  /** Sheet names are unique regardless of case in Sheets. */
  sheetByNameCi(name: string): SheetModel | null {
    const l = name.toLowerCase();
    return this.sheets.find((s) => s.name.toLowerCase() === l) ?? null;
  }

  uniqueSheetName(): string {
    for (let i = this.sheets.length + 1; ; i++) if (!this.sheetByNameCi(`Sheet${i}`)) return `Sheet${i}`;
  }

  makeDate(ms: number): Date {
    return this.hooks?.createDate ? this.hooks.createDate(ms) : new Date(ms);
  }

  // ---- values -------------------------------------------------------------------------------

  /** What getValue returns for a cell. */
  readValue(c: Cell | undefined): Stored | Date {
    if (!c || c.v === undefined) return '';
    if (typeof c.v === 'number' && isDateFormat(c.fmt)) return this.makeDate(serialToDate(c.v, this.timeZone).getTime());
    return c.v;
  }

  readDisplay(c: Cell | undefined): string {
    if (!c) return '';
    return formatValue(c.v, c.fmt);
  }

  readFormula(c: Cell | undefined): string {
    return c?.f ?? '';
  }

  readFormat(c: Cell | undefined): string {
    return c?.fmt ?? AUTOMATIC_FORMAT;
  }

  /**
   * Writes a value like setValue: '=...' becomes a formula, strings are parsed like typed input
   * unless the format is plain text or the string starts with an apostrophe.
   * Returns true when a formula was written (the caller evaluates it).
   */
  writeInput(sheet: SheetModel, r: number, col: number, raw: unknown): boolean {
    const c = sheet.ensure(r, col);
    c.f = undefined;
    c.err = undefined;
    c.links = undefined;
    c.spilledFrom = undefined;
    c.q = undefined;
    c.img = undefined;
    if (c.cf) c.cf = undefined;
    if (raw === null || raw === undefined || raw === '') {
      c.v = undefined;
      return false;
    }
    if (typeof raw === 'string') {
      if (c.fmt === TEXT_FORMAT) {
        // Chosen: in a plain-text cell even '=...' stays text, as when typed into one.
        c.v = raw;
        return false;
      }
      if (raw.startsWith("'")) {
        c.v = raw.slice(1);
        c.q = true;
        return false;
      }
      if (raw.length > 1 && raw.startsWith('=')) {
        c.f = raw;
        c.v = undefined;
        return true;
      }
      const p = parseTyped(raw, serialParts(dateToSerial(new Date(this.now()), this.timeZone)).y);
      c.v = p.value;
      // Chosen: the input's format (currency, percent, date) replaces only an Automatic format, or a
      // non-date format when a date is typed.
      if (p.format && (isAutomatic(c.fmt) || (isDateFormat(p.format) && !isDateFormat(c.fmt)))) c.fmt = p.format;
      return false;
    }
    if (typeof raw === 'number') {
      // Sheets keeps a number given to setValue(s) as the double it is (0.9829461476765573 reads back
      // as written); only typed text is cut to 15 digits. Chosen: NaN and infinities become #NUM!.
      c.v = Number.isFinite(raw) ? raw : '#NUM!';
      return false;
    }
    if (typeof raw === 'boolean') {
      c.v = raw;
      return false;
    }
    if (isDate(raw)) {
      c.v = dateToSerial(raw, this.timeZone);
      if (!isDateFormat(c.fmt)) c.fmt = DATE_TIME_FORMAT;
      return false;
    }
    // Chosen: other objects are stored as their string form, unparsed.
    c.v = String(raw);
    return false;
  }

  /** Empties a cell's content (value, formula, links, spill state) and keeps its formatting. */
  clearContent(c: Cell): void {
    c.v = undefined;
    c.f = undefined;
    c.err = undefined;
    c.links = undefined;
    c.cf = undefined;
    c.spilledFrom = undefined;
    c.q = undefined;
    c.img = undefined;
  }

  /** Puts an in-cell image in a cell: it replaces the value or formula, as setValue does. */
  writeImage(sheet: SheetModel, r: number, col: number, img: CellImageModel): void {
    this.writeInput(sheet, r, col, '');
    sheet.ensure(r, col).img = { ...img };
  }

  clearFormat(c: Cell): void {
    c.fmt = undefined;
    c.bg = undefined;
    c.bold = undefined;
    c.color = undefined;
    c.halign = undefined;
    c.wrap = undefined;
  }

  a1Of(sheet: SheetModel, r: number, c: number): string {
    return cellA1(r, c);
  }
}
