/// <reference types="google-apps-script" />
/**
 * The in-memory workbook and the SpreadsheetApp service of the local Apps Script runtime.
 * Public surface used by the runtime assembly (emulator/gas); see README.md in this folder.
 */
import { promises as fs } from 'fs';
import type { RuntimeState } from '../execution';
import { cellA1, parseA1 } from './a1';
import { SpreadsheetAppImpl } from './app';
import { Ctx } from './context';
import { parseCsv, toCsvText } from './csv';
import { afterWrite, attachFormulas, formulaWritten, recalculateAll } from './formulas';
import { markLoaded } from './builtin';
import { Area, Cell, DEFAULT_COLUMNS, DEFAULT_ROWS, SheetModel, WorkbookCore, WorkbookOptions } from './model';
import { Objects } from './objects';
import { RangeImpl } from './range';
import { SheetImpl } from './sheet';
import { SpreadsheetImpl } from './spreadsheet';
import { RichTextValueImpl } from './rules';
import { DataValidationImpl } from './validation';
import { applySignatures } from './signatures';
import { loadXlsx, saveXlsx } from './xlsx';

export type { WorkbookOptions } from './model';
export { CELL_LIMIT_MESSAGE, cellLimitMessage, MAX_CELLS, CELL_CHARS_MESSAGE, MAX_CELL_CHARS } from './model';

// Every listed method refuses calls that match none of its overloads, as Apps Script does.
applySignatures(
  { Range: RangeImpl as never, Sheet: SheetImpl as never, Spreadsheet: SpreadsheetImpl as never },
  {
    Range: RangeImpl as never,
    Sheet: SheetImpl as never,
    RichTextValue: RichTextValueImpl as never,
    DataValidation: DataValidationImpl as never,
  },
  (self, message) => (self as { s: Objects }).s.ctx.error(message),
);

/** Everything about one cell, read without charging the cost model (for tests and tools). */
export interface CellSnapshot {
  value: unknown;
  display: string;
  formula: string;
  format: string;
  note: string;
  background: string;
  bold: boolean;
  links: Array<{ start: number; end: number; url: string }>;
  /** Message behind a #ERROR!/#REF! value, else null. */
  error: string | null;
  /** Text written with a leading apostrophe (Sheets' quote prefix; not part of the value). */
  quotePrefix: boolean;
}

export class Workbook extends WorkbookCore {
  /** A new spreadsheet has one empty sheet "Sheet1" (1000 x 26); `empty: true` starts with none. */
  constructor(opts: WorkbookOptions & { empty?: boolean } = {}) {
    super(opts);
    if (!opts.empty) this.addSheet('Sheet1');
  }

  static async fromXlsx(data: Buffer | string, opts: WorkbookOptions = {}): Promise<Workbook> {
    const wb = new Workbook({
      name: typeof data === 'string' ? data.replace(/^.*[\\/]/, '').replace(/\.xlsx$/i, '') : undefined,
      ...opts,
      empty: true,
    });
    await loadXlsx(wb, data);
    markLoaded(wb);
    // The file's own id (a document saved here keeps its id) unless the caller names one.
    if (opts.id) wb.id = opts.id;
    if (wb.sheets.length === 0) wb.addSheet('Sheet1');
    return wb;
  }

  /** Imports CSV like Sheets does: every field is parsed like typed input (so "0123" becomes 123). */
  static fromCsv(text: string, sheetName: string, opts: WorkbookOptions = {}): Workbook {
    const wb = new Workbook({ ...opts, empty: true });
    const rows = parseCsv(text);
    const width = rows.reduce((m, r) => Math.max(m, r.length), 0);
    // Chosen: the imported sheet has at least the default 1000 x 26 cells.
    const sh = wb.addSheet(sheetName, undefined, Math.max(DEFAULT_ROWS, rows.length), Math.max(DEFAULT_COLUMNS, width));
    rows.forEach((row, i) => row.forEach((f, j) => f !== '' && wb.writeInput(sh, i + 1, j + 1, f)));
    return wb;
  }

  async toXlsx(): Promise<Buffer> {
    return saveXlsx(this);
  }

  async saveXlsx(path: string): Promise<void> {
    await fs.writeFile(path, await this.toXlsx());
  }

  /** Display values as CSV, like Sheets' "Download as CSV" (chosen: CRLF line ends, per RFC 4180). */
  toCsv(sheetName: string): string {
    const sh = this.requireSheet(sheetName);
    const rows: string[][] = [];
    const lr = sh.lastRow();
    const lc = sh.lastColumn();
    for (let r = 1; r <= lr; r++) {
      const out: string[] = [];
      for (let c = 1; c <= lc; c++) out.push(this.readDisplay(sh.cell(r, c)));
      rows.push(out);
    }
    return toCsvText(rows);
  }

  /** Re-evaluates every custom-function formula (what reopening the spreadsheet does). */
  recalculate(): void {
    recalculateAll(this);
  }

  sheetNames(): string[] {
    return this.sheets.map((s) => s.name);
  }

  requireSheet(name: string): SheetModel {
    const sh = this.sheetByName(name);
    if (!sh) throw new Error(`No sheet named "${name}" in workbook "${this.name}".`);
    return sh;
  }

  private at(sheet: string, a1: string): { sh: SheetModel; r: number; c: number } {
    const sh = this.requireSheet(sheet);
    const ref = parseA1(a1);
    if (!ref || ref.r1 === null || ref.c1 === null) throw new Error(`Not a cell reference: ${a1}`);
    return { sh, r: ref.r1, c: ref.c1 };
  }

  /** Raw access to one cell, without cost. */
  cell(sheet: string, a1: string): CellSnapshot {
    const { sh, r, c } = this.at(sheet, a1);
    const cell: Cell | undefined = sh.cell(r, c);
    return {
      value: this.readValue(cell),
      display: this.readDisplay(cell),
      formula: this.readFormula(cell),
      format: this.readFormat(cell),
      note: cell?.note ?? '',
      background: cell?.bg ?? '#ffffff',
      bold: !!cell?.bold,
      links: (cell?.links ?? []).map((l) => ({ ...l })),
      error: cell?.err ?? null,
      quotePrefix: !!cell?.q,
    };
  }

  /** Values of a sheet's data range (rows 1..lastRow, columns 1..lastColumn), without cost. */
  values(sheet: string): unknown[][] {
    const sh = this.requireSheet(sheet);
    const out: unknown[][] = [];
    for (let r = 1; r <= sh.lastRow(); r++) {
      const row: unknown[] = [];
      for (let c = 1; c <= sh.lastColumn(); c++) row.push(this.readValue(sh.cell(r, c)));
      out.push(row);
    }
    return out;
  }

  /**
   * Types into a cell as a user would (parsed like typed input; '=' starts a formula, which is
   * evaluated when hooks are attached). For setting up tests and tools; no cost is charged.
   */
  type(sheet: string, a1: string, input: unknown): void {
    const { sh, r, c } = this.at(sheet, a1);
    const areas: Area[] = [{ sheet: sh, r1: r, c1: c, r2: r, c2: c }];
    if (this.writeInput(sh, r, c, input)) areas.push(...formulaWritten(this, sh, r, c));
    afterWrite(this, areas);
  }

  a1(r: number, c: number): string {
    return cellA1(r, c);
  }
}

export interface SpreadsheetHooks {
  /** Runs a custom function as its own execution (the runtime does that); returns its result or throws (the cell then shows #ERROR! with that message). */
  callCustomFunction(name: string, args: unknown[]): unknown;
  /** True when the loaded script declares a top-level function of that name usable as custom function. */
  isCustomFunction(name: string): boolean;
  /** Optional: makes Dates in the script's realm (so `instanceof Date` holds inside the vm). Default: Node's Date. */
  createDate?(ms: number): Date;
  /** Optional: the name under which createAddonMenu() menus are recorded. Default "Add-on". */
  addonMenuName?: string;
  /**
   * Optional: runs one wave of a recalculation — the custom-function calls Sheets starts at the same
   * time. `body` makes the wave's calls, in order, through `call`; the runtime uses this to model
   * concurrency (at most 30 simultaneous executions per user; the extras fail) and to run them side
   * by side on the clock. Without it the calls go through callCustomFunction one after another.
   */
  recalculationWave?(body: (call: (name: string, args: unknown[]) => unknown) => void): void;
}

/** The SpreadsheetApp global for one runtime. */
export function createSpreadsheetApp(
  state: RuntimeState,
  workbook: Workbook,
  hooks: SpreadsheetHooks,
): GoogleAppsScript.Spreadsheet.SpreadsheetApp {
  workbook.hooks = hooks;
  // Typed dates without a year take the current one from the virtual clock.
  workbook.now = () => state.clock.now();
  if (workbook.sheets.length === 0) workbook.addSheet('Sheet1');
  attachFormulas(workbook);
  const objects = new Objects(new Ctx(state, workbook, hooks), { Spreadsheet: SpreadsheetImpl, Sheet: SheetImpl, Range: RangeImpl });
  // The implementation covers the members listed in README.md; the cast is the typing boundary.
  return new SpreadsheetAppImpl(objects) as unknown as GoogleAppsScript.Spreadsheet.SpreadsheetApp;
}
