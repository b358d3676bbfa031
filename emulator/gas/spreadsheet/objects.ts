/**
 * One runtime's Spreadsheet objects: makes the Spreadsheet, Sheet and Range objects a script sees
 * (one Sheet object per sheet), resolves A1 notation, and knows the active sheet and range.
 *
 * Google's objects refer to each other (a Range's getSheet(), a Sheet's getRange(), a Protection's
 * getRange()), yet their files form layers without an import circle: every class's file may import
 * this one, and this one imports none of them. The three classes it makes are handed to it by
 * index.ts; their types are the entries their own files add to `ObjectClasses` (declaration merging).
 */
import { parseA1 } from './a1';
import { parseR1C1 } from './r1c1';
import type { Ctx } from './context';
import { type Area, type OpenSides, type SheetModel, liveArea } from './model';
import { typeName } from './checks';

/** The classes Objects makes, by kind: spreadsheet.ts, sheet.ts and range.ts each add their own. */
export interface ObjectClasses {}
/** The objects it makes, for the files below their classes' own. */
export type SpreadsheetObject = InstanceType<ObjectClasses['Spreadsheet']>;
export type SheetObject = InstanceType<ObjectClasses['Sheet']>;
export type RangeObject = InstanceType<ObjectClasses['Range']>;

export class Objects {
  private sheetWrappers = new Map<SheetModel, SheetObject>();
  readonly spreadsheet: SpreadsheetObject;
  constructor(
    readonly ctx: Ctx,
    /** @internal */ readonly _classes: ObjectClasses,
  ) {
    this.spreadsheet = new _classes.Spreadsheet(this);
  }
  sheet(m: SheetModel): SheetObject {
    let s = this.sheetWrappers.get(m);
    if (!s) this.sheetWrappers.set(m, (s = new this._classes.Sheet(this, m)));
    return s;
  }
  range(m: SheetModel, r: number, c: number, nr = 1, nc = 1, open?: OpenSides): RangeObject {
    return new this._classes.Range(this, m, r, c, nr, nc, open);
  }
  /** The model of a Sheet/Range object given by the script. */
  modelOf(x: unknown, method: string): SheetModel {
    if (x instanceof this._classes.Sheet) return x._m;
    if (x instanceof this._classes.Range) return x._m;
    throw this.ctx.error(`The parameters (${typeName(x)}) don't match the method signature for ${method}.`);
  }
  /** Resolves A1 notation (with optional sheet name) to an area; `Range not found` when it is not one. */
  area(a1: string, defaultSheet: SheetModel): Area {
    // Google's reference (Sheet.getRange(a1Notation)): "A1 notation or R1C1 notation"; absolute R1C1 here.
    const ref = typeof a1 === 'string' ? (parseA1(a1) ?? parseR1C1(a1)) : null;
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
  /** Whether the script handed a Range object. */
  isRange(x: unknown): x is RangeObject {
    return x instanceof this._classes.Range;
  }
  rangeOf(a: Area): RangeObject {
    const l = liveArea(a);
    return this.range(a.sheet, l.r1, l.c1, l.r2 - l.r1 + 1, l.c2 - l.c1 + 1, a.open);
  }
}

export function activeSheet(s: Objects): SheetModel {
  const wb = s.ctx.wb;
  if (wb.evaluating) return wb.evaluating.sheet;
  if (!wb.activeSheet || !wb.sheets.includes(wb.activeSheet)) wb.activeSheet = wb.sheets[0];
  return wb.activeSheet;
}

/** The active range; inside a custom function, the cell that calls it. Defaults to A1 of the active sheet. */
export function activeRange(s: Objects): RangeObject {
  const wb = s.ctx.wb;
  if (wb.evaluating) return s.range(wb.evaluating.sheet, wb.evaluating.r, wb.evaluating.c);
  const sh = activeSheet(s);
  const a = wb.activeRange;
  if (a && a.sheet === sh) return s.rangeOf(a);
  return s.range(sh, 1, 1);
}
