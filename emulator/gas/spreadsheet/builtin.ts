/**
 * Built-in formulas (`=B2*0.9`, `=VLOOKUP(...)`, `='Sheet 2'!A1`) computed by HyperFormula, a kept
 * formula engine. The engine mirrors the workbook: built-in formulas go in as formulas, every other
 * cell (plain values, and the results of custom-function formulas, which the script computes) as its
 * value. It is loaded only when a workbook first holds a built-in formula, so workbooks without any
 * never pay for it. HyperFormula is GPL-3.0; its 'gpl-v3' key is fine here because this runtime is a
 * development stand-in that is never shipped.
 */
import type { DetailedCellError, ExportedChange, HyperFormula as HyperFormulaT } from 'hyperformula';
import { formatValue, isAutomatic } from './format';
import { registerPictureFunctions } from './picture-functions';
import { Area, Cell, SheetModel, WorkbookCore, liveArea } from './model';
import { DATE_FORMAT, DATE_TIME_FORMAT, truncate15 } from './values';
import type { HF } from './plugin-kit';

let lib: HF | null = null;
function load(): HF {
  // Lazy: only workbooks with built-in formulas load the engine.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  if (!lib) {
    lib = require('hyperformula') as HF;
    registerPictureFunctions(lib);
  }
  return lib;
}

/** Whether this process has loaded the engine (tests check that workbooks without built-in formulas never do). */
export function builtinEngineLoaded(): boolean {
  return lib !== null;
}

/**
 * Google Sheets functions HyperFormula does not have. A formula using one shows #ERROR! with a
 * message saying the local runtime does not compute it (rather than #NAME?, which would claim
 * Sheets does not know it either).
 */
const SHEETS_ONLY = new Set(
  'ARRAY_CONSTRAIN CONTINUE DETECTLANGUAGE FLATTEN GOOGLEFINANCE GOOGLETRANSLATE IMPORTDATA IMPORTFEED IMPORTHTML IMPORTRANGE IMPORTXML ISEMAIL ISURL JOIN QUERY REGEXEXTRACT REGEXMATCH REGEXREPLACE SORTN TO_DATE TO_DOLLARS TO_PERCENT TO_PURE_NUMBER TO_TEXT LAMBDA MAP REDUCE SCAN BYROW BYCOL MAKEARRAY LET XMATCH CHOOSECOLS CHOOSEROWS TOCOL TOROW VSTACK HSTACK WRAPCOLS WRAPROWS'.split(
    ' ',
  ),
);

/** Sheets' wording for a function it does not know (the tooltip of a #NAME? cell). */
export function unknownFunctionMessage(name: string): string {
  return `Unknown function: '${name.toUpperCase()}'.`;
}

/** True when the formula text is a built-in formula (not a custom-function formula attached to the script). */
function isBuiltin(c: Cell | undefined): c is Cell & { f: string } {
  return !!c?.f && !c.cf;
}

class Engine {
  readonly hf: HyperFormulaT;
  /** Sheet model -> HyperFormula sheet id. */
  readonly ids = new Map<SheetModel, number>();
  /** Extent (rows, columns) of each sheet's content pushed so far, to bound later pushes. */
  readonly extent = new Map<SheetModel, { rows: number; cols: number }>();
  private namedKey = '';
  constructor(readonly wb: WorkbookCore) {
    const { HyperFormula } = load();
    // Built from the whole workbook at once: much faster than filling an empty engine
    // (10,000 rows with two formulas each: about 0.9 s against 2.2 s here).
    const sheets: Record<string, unknown[][]> = {};
    for (const m of wb.sheets) {
      const width = widest(m, 1, m.rows.length);
      const data: unknown[][] = [];
      for (let r = 1; r <= m.rows.length; r++) {
        const row: unknown[] = [];
        for (let c = 1; c <= width; c++) row.push(this.content(m.cell(r, c)));
        data.push(row);
      }
      sheets[m.name] = data;
      this.extent.set(m, { rows: m.rows.length, cols: width });
    }
    this.hf = HyperFormula.buildFromSheets(
      sheets as never,
      {
        licenseKey: 'gpl-v3',
        // Sheets' conventions (HyperFormula's "compatibility with Google Sheets" guide): 1899-12-30
        // epoch, no 1900 leap-year bug, ',' between arguments, case-insensitive text comparison.
        nullDate: { year: 1899, month: 12, day: 30 },
        leapYear1900: false,
        functionArgSeparator: ',',
        decimalSeparator: '.',
        thousandSeparator: '',
        useArrayArithmetic: false,
        maxRows: 10_000_000,
        maxColumns: 18_278,
        // TEXT(value, format) formats with the runtime's own number formats, the same code that makes
        // getDisplayValues, so TEXT(1234.5, "$#,##0.00") reads "$1,234.50" as in Sheets.
        stringifyCurrency: (value: number, fmt: string) => formatValue(value, fmt),
      },
      [
        // Sheets knows TRUE and FALSE as constants (HyperFormula's guide says to add them as names).
        { name: 'TRUE', expression: '=TRUE()' },
        { name: 'FALSE', expression: '=FALSE()' },
      ],
    );
    for (const m of wb.sheets) this.ids.set(m, this.hf.getSheetId(m.name)!);
  }

  /** Stores the engine's value in every built-in formula cell (a new engine); returns those cells. */
  applyAll(): Area[] {
    const out: Area[] = [];
    for (const [m, id] of this.ids)
      m.rows.forEach((row, ri) =>
        row?.forEach((cell, ci) => {
          if (!isBuiltin(cell) || this.customCall(cell)) return;
          const address = { sheet: id, row: ri, col: ci };
          this.store(cell, this.hf.getCellValue(address), address);
          out.push({ sheet: m, r1: ri + 1, c1: ci + 1, r2: ri + 1, c2: ci + 1 });
        }),
      );
    return out;
  }

  private customCall(cell: Cell): boolean {
    return cell.v === '#ERROR!' && !!cell.err?.startsWith('The local runtime does not compute a custom function');
  }

  sheetOf(id: number): SheetModel | undefined {
    for (const [m, i] of this.ids) if (i === id) return m;
    return undefined;
  }

  /** Brings sheets (added, removed, renamed) and named ranges in line with the workbook. */
  reconcile(): ExportedChange[] {
    const out: ExportedChange[] = [];
    const renamed: string[] = [];
    for (const [m, id] of [...this.ids])
      if (!this.wb.sheets.includes(m)) {
        append(out, this.hf.removeSheet(id));
        this.ids.delete(m);
        this.extent.delete(m);
      }
    for (const m of this.wb.sheets) {
      const id = this.ids.get(m);
      if (id === undefined) {
        const name = this.hf.addSheet(m.name);
        this.ids.set(m, this.hf.getSheetId(name)!);
        this.extent.set(m, { rows: 0, cols: 0 });
        append(out, this.push({ sheet: m, r1: 1, c1: 1, r2: m.rows.length, c2: widest(m, 1, m.rows.length) }));
      } else if (this.hf.getSheetName(id) !== m.name) {
        renamed.push(this.hf.getSheetName(id)!);
        this.hf.renameSheet(id, m.name);
      }
    }
    if (renamed.length) this.refreshFormulaText(null, renamed);
    append(out, this.syncNamedRanges());
    return out;
  }

  /** Named ranges become named expressions, so `=SUM(Prices)` works as in Sheets. */
  private syncNamedRanges(): ExportedChange[] {
    const want = [...this.wb.namedRanges.values()]
      .filter((nr) => nr.broken || this.ids.has(nr.area.sheet))
      .map((nr) => {
        // A name whose sheet was deleted reads #REF!, as in Sheets.
        if (nr.broken) return [nr.name, '=#REF!'] as const;
        const a = liveArea(nr.area);
        const q = `'${a.sheet.name.replace(/'/g, "''")}'`;
        // The live extent: the key changes when an open range's sheet grows, so the name follows it.
        return [nr.name, `=${q}!$${col(a.c1)}$${a.r1}:$${col(a.c2)}$${a.r2}`] as const;
      });
    const key = JSON.stringify(want);
    if (key === this.namedKey) return [];
    this.namedKey = key;
    const out: ExportedChange[] = [];
    // A name that stays is changed in place, so the formulas using it recalculate (removing and adding it left them on the old cells).
    const wanted = new Set(want.map(([name]) => name.toUpperCase()));
    const have = new Set<string>();
    for (const n of this.hf.listNamedExpressions()) {
      if (n === 'TRUE' || n === 'FALSE') continue;
      if (wanted.has(n.toUpperCase())) have.add(n.toUpperCase());
      else append(out, this.hf.removeNamedExpression(n));
    }
    for (const [name, expr] of want) {
      try {
        append(out, have.has(name.toUpperCase()) ? this.hf.changeNamedExpression(name, expr) : this.hf.addNamedExpression(name, expr));
      } catch {
        // A name HyperFormula refuses (its naming rules are stricter than Sheets'): formulas using it show #NAME?.
      }
    }
    return out;
  }

  /** What the engine gets for one model cell. */
  content(c: Cell | undefined): unknown {
    if (isBuiltin(c) && this.callsCustom(c.f)) {
      // Not computed here (see errorOf): the engine gets nothing, the cell says why.
      const name = this.callsCustom(c.f)!;
      c.v = '#ERROR!';
      c.err = `The local runtime does not compute a custom function (${name}) inside another formula.`;
      return null;
    }
    return content(c);
  }

  /** The custom function (of the script) a built-in formula calls, if any. */
  private callsCustom(f: string): string | null {
    const hooks = this.wb.hooks;
    if (!hooks) return null;
    const text = f.replace(/"(?:[^"]|"")*"/g, '""');
    for (const m of text.matchAll(/([A-Za-z_][A-Za-z0-9_.]*)\s*\(/g))
      if (hooks.isCustomFunction(m[1]) || hooks.isCustomFunction(m[1].toUpperCase())) return m[1].toUpperCase();
    return null;
  }

  /** Pushes the model's cells of `area` into the engine; returns the engine's changes. */
  push(area: Area): ExportedChange[] {
    return this.hf.batch(() => this.setCells(area));
  }

  /**
   * Pushes the cells of every area in ONE batch, so the engine computes each formula once, after the
   * last cell is in (a batch per area recomputed a formula and all that follow it once per area
   * touching them: a block of 20 chained formulas written by one setValues, 230 times). Areas already
   * inside one pushed before (a write's block, then each of its formula cells) are not pushed again.
   */
  pushAll(areas: Area[]): ExportedChange[] {
    const blocks: Area[] = [];
    const cells = new Set<string>();
    const todo: Area[] = [];
    for (const a of areas) {
      if (!this.ids.has(a.sheet)) continue;
      if (blocks.some((b) => b.sheet === a.sheet && b.r1 <= a.r1 && a.r2 <= b.r2 && b.c1 <= a.c1 && a.c2 <= b.c2)) continue;
      if (a.r1 === a.r2 && a.c1 === a.c2) {
        const key = `${this.ids.get(a.sheet)}:${a.r1}:${a.c1}`;
        if (cells.has(key)) continue;
        cells.add(key);
      } else blocks.push(a);
      todo.push(a);
    }
    if (!todo.length) return [];
    return this.hf.batch(() => {
      for (const a of todo) this.setCells(a);
    });
  }

  /** Sets the model's cells of `area` in the engine (inside a batch). */
  private setCells(area: Area): void {
    const id = this.ids.get(area.sheet);
    if (id === undefined) return;
    const m = area.sheet;
    const ext = this.extent.get(m)!;
    const r2 = Math.min(area.r2, Math.max(m.rows.length, ext.rows));
    if (r2 < area.r1) return;
    const c2 = Math.min(area.c2, Math.max(widest(m, area.r1, r2), ext.cols));
    if (c2 < area.c1) return;
    const data: unknown[][] = [];
    for (let r = area.r1; r <= r2; r++) {
      const row: unknown[] = [];
      for (let c = area.c1; c <= c2; c++) row.push(this.content(m.cell(r, c)));
      data.push(row);
    }
    ext.rows = Math.max(ext.rows, r2);
    ext.cols = Math.max(ext.cols, c2);
    this.hf.setCellContents({ sheet: id, row: area.r1 - 1, col: area.c1 - 1 }, data as never);
  }

  /** Applies the engine's new values to the built-in formula cells; returns the cells that changed. */
  apply(changes: ExportedChange[]): Area[] {
    const out: Area[] = [];
    for (const ch of changes) {
      if (!('address' in ch) || !ch.address) continue;
      const m = this.sheetOf(ch.address.sheet);
      if (!m) continue;
      const r = ch.address.row + 1;
      const c = ch.address.col + 1;
      const cell = m.cell(r, c);
      if (!isBuiltin(cell)) continue; // a spill of an engine array result is not modelled
      if (this.customCall(cell)) continue;
      this.store(cell, ch.newValue, ch.address);
      out.push({ sheet: m, r1: r, c1: c, r2: r, c2: c });
    }
    return out;
  }

  private store(cell: Cell, v: unknown, address: { sheet: number; row: number; col: number }): void {
    cell.err = undefined;
    if (v === null || v === undefined || v === '') {
      cell.v = v === '' ? '' : undefined;
      return;
    }
    if (typeof v === 'object' && 'value' in (v as object) && 'type' in (v as object)) {
      const e = v as DetailedCellError;
      const [code, message] = this.errorOf(e);
      if (code === null) {
        cell.v = undefined;
        return;
      }
      cell.v = code;
      cell.err = message;
      return;
    }
    if (typeof v === 'number') {
      cell.v = Number.isFinite(v) ? truncate15(v) : '#NUM!';
      // Sheets gives date results (TODAY(), DATE(...)) a date format when the cell has none.
      // (Asked only of formulas that can make dates: the engine's type query is slow on 10,000s of cells.)
      if (isAutomatic(cell.fmt) && DATE_FUNCTIONS.test(cell.f ?? '')) {
        const t = this.hf.getCellValueDetailedType(address as never);
        if (t === 'NUMBER_DATE') cell.fmt = DATE_FORMAT;
        else if (t === 'NUMBER_DATETIME') cell.fmt = DATE_TIME_FORMAT;
      }
      return;
    }
    cell.v = v as string | boolean;
  }

  /** Sheets' error code and message for an engine error; code null = no value (see below). */
  private errorOf(e: DetailedCellError): [string | null, string] {
    if (e.type === 'NAME') {
      const fn = /^Function name (.+) not recognized\.$/.exec(e.message)?.[1];
      const named = /^Named expression (.+) not recognized\.$/.exec(e.message)?.[1];
      if (fn) {
        const hooks = this.wb.hooks;
        // Without a script attached, a custom-function formula waits as text (attachFormulas claims it).
        if (!hooks) return [null, ''];
        if (hooks.isCustomFunction(fn) || hooks.isCustomFunction(fn.toUpperCase()))
          return ['#ERROR!', `The local runtime does not compute a custom function (${fn.toUpperCase()}) inside another formula.`];
        if (SHEETS_ONLY.has(fn.toUpperCase()))
          return ['#ERROR!', `${fn.toUpperCase()} is a Google Sheets function the local runtime does not compute.`];
        return ['#NAME?', unknownFunctionMessage(fn)];
      }
      if (named) return ['#NAME?', `Unknown range name: '${named.toUpperCase()}'.`];
      return ['#NAME?', e.message];
    }
    if (e.type === 'ERROR' && /^Parsing error/.test(e.message)) return ['#ERROR!', 'Formula parse error.'];
    if (e.type === 'REF' && /Sheet does not exist/.test(e.message)) return ['#REF!', 'Unresolved sheet name.'];
    if (e.type === 'CYCLE') return ['#REF!', 'Circular dependency detected. To resolve with iterative calculation, see File > Settings.'];
    // Other messages are the engine's own (Sheets words them per function; chosen).
    return [e.value, e.message || defaultMessage(e.value)];
  }

  /**
   * After sheets were renamed or rows/columns moved, formula text follows its references (as in
   * Sheets). Only the formulas whose text can change are read back from the engine: those on `sheet`
   * (where rows or columns moved) and those naming one of `names` (the sheet moved in or the old
   * names of renamed sheets). Reading back every formula of the workbook, on each row insertion and
   * each sheet renamed, took 14 s of 40 imports' 22 s in a document keeping their overview tabs.
   */
  refreshFormulaText(sheet: SheetModel | null, names: string[]): void {
    // As a formula spells them: bare, or quoted with an apostrophe doubled.
    const spelled = names.flatMap((n) => [n.toLowerCase(), n.toLowerCase().replace(/'/g, "''")]);
    const naming = (f: string) => {
      const t = f.toLowerCase();
      return spelled.some((n) => t.includes(n));
    };
    for (const [m, id] of this.ids)
      m.rows.forEach((row, ri) =>
        row?.forEach((cell, ci) => {
          if (!isBuiltin(cell) || (m !== sheet && !naming(cell.f))) return;
          const f = this.hf.getCellFormula({ sheet: id, row: ri, col: ci });
          if (f !== undefined && f !== cell.f) cell.f = f;
        }),
      );
  }
}

function defaultMessage(code: string): string {
  switch (code) {
    case '#DIV/0!':
      return 'Function DIVIDE parameter 2 cannot be zero.';
    case '#N/A':
      return 'Value not available.';
    case '#REF!':
      return 'Reference does not exist.';
    case '#VALUE!':
      return 'Value cannot be coerced to the expected type.';
    case '#NUM!':
      return 'Number out of range.';
    default:
      return code;
  }
}

const DATE_FUNCTIONS = /\b(DATE|DATEVALUE|TODAY|NOW|EDATE|EOMONTH|WORKDAY|WORKDAY\.INTL|TIME|TIMEVALUE)\s*\(/i;

const ERROR_CODES = new Set(['#DIV/0!', '#N/A', '#NAME?', '#NUM!', '#REF!', '#VALUE!', '#NULL!', '#ERROR!']);

/** What the engine gets for one model cell. */
function content(c: Cell | undefined): unknown {
  if (!c) return null;
  if (isBuiltin(c)) return c.f;
  const v = c.v;
  if (v === undefined || v === '') return null;
  if (typeof v === 'string') {
    // An error value (a custom function's #ERROR!, a #NUM!) stays an error for formulas reading it;
    // any other text stays text (the apostrophe stops the engine from parsing "007" or "1/2").
    if (ERROR_CODES.has(v) && (c.err !== undefined || v === '#NUM!')) return v;
    return "'" + v;
  }
  return v;
}

/**
 * Appends `more` to `out`. Not `out.push(...more)`: a spread call overflows the stack past about
 * 100,000 changes (one 5,000-row write of 39 columns gives 195,000), and the overflow, caught below,
 * rebuilt the engine from the whole workbook on every such write.
 */
function append<T>(out: T[], more: readonly T[]): void {
  for (const x of more) out.push(x);
}

function widest(m: SheetModel, r1: number, r2: number): number {
  let w = 0;
  for (let r = r1; r <= r2; r++) w = Math.max(w, m.rows[r - 1]?.length ?? 0);
  return w;
}

function col(c: number): string {
  let s = '';
  for (let n = c; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

const engines = new WeakMap<WorkbookCore, Engine>();

/** True when the workbook holds a built-in formula (so the engine is needed). */
function holdsBuiltin(wb: WorkbookCore): boolean {
  return wb.sheets.some((s) => s.rows.some((row) => row?.some((c) => isBuiltin(c))));
}

/**
 * Workbooks loaded from a file: their built-in formulas are live from the first edit, as in any
 * spreadsheet program (without this, a value typed into a loaded file left its totals stale until a
 * script attached or a formula was written).
 */
const loadedFromFile = new WeakSet<WorkbookCore>();

/** Marks a workbook just loaded from a file (Workbook.fromXlsx). */
export function markLoaded(wb: WorkbookCore): void {
  loadedFromFile.add(wb);
}

/** The workbook's engine, created when `create` and the workbook needs one; null otherwise. */
function engineOf(wb: WorkbookCore, create: boolean): Engine | null {
  let e = engines.get(wb) ?? null;
  if (!e && create && holdsBuiltin(wb)) {
    e = new Engine(wb);
    engines.set(wb, e);
  }
  return e;
}

/**
 * The cells of `areas` changed (or a built-in formula was written into them, `written`): pushes them
 * into the engine and stores the recalculated results. Returns the built-in formula cells whose
 * value changed (which custom functions reading them must see).
 */
export function syncBuiltin(wb: WorkbookCore, areas: Area[], written: boolean): Area[] {
  const existed = engines.has(wb);
  const e = engineOf(wb, written || loadedFromFile.has(wb));
  if (!e) return [];
  try {
    if (!existed) return [...e.apply(e.reconcile()), ...e.applyAll()]; // a new engine holds the whole workbook
    const changes = e.reconcile();
    append(changes, e.pushAll(areas.filter((a) => wb.sheets.includes(a.sheet))));
    return e.apply(changes);
  } catch {
    // HyperFormula can fail to replace a formula that names a sheet it has not seen yet; starting
    // again from the workbook gives the same results.
    return rebuildBuiltin(wb);
  }
}

/** Rebuilds the engine from the workbook (a script attached, a reopen): every built-in formula is recomputed. */
export function rebuildBuiltin(wb: WorkbookCore): Area[] {
  engines.delete(wb);
  const e = engineOf(wb, true);
  if (!e) return [];
  return [...e.apply(e.reconcile()), ...e.applyAll()];
}

/** Rows or columns were inserted (n > 0) or deleted (n < 0) at `at` (1-based) of `sheet`, already in the model. */
export function shiftBuiltin(wb: WorkbookCore, sheet: SheetModel, dim: 'row' | 'col', at: number, n: number): Area[] {
  const e = engineOf(wb, false);
  if (!e) return [];
  const id = e.ids.get(sheet);
  if (id === undefined) return [];
  const ext = e.extent.get(sheet)!;
  let changes: ExportedChange[];
  if (dim === 'row') {
    changes = n > 0 ? e.hf.addRows(id, [at - 1, n]) : e.hf.removeRows(id, [at - 1, -n]);
    ext.rows = Math.max(0, ext.rows + n);
  } else {
    changes = n > 0 ? e.hf.addColumns(id, [at - 1, n]) : e.hf.removeColumns(id, [at - 1, -n]);
    ext.cols = Math.max(0, ext.cols + n);
  }
  e.refreshFormulaText(sheet, [sheet.name]);
  return e.apply(changes);
}
