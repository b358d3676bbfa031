/**
 * One runtime's Spreadsheet objects: makes and caches the Sheet objects, makes Ranges, resolves A1 notation, and knows the active sheet and range.
 */
import { parseA1 } from './a1';
import { Ctx } from './context';
import { Area, OpenSides, liveArea, SheetModel } from './model';
import { SpreadsheetImpl } from './spreadsheet';
import { SheetImpl } from './sheet';
import { RangeImpl } from './range';
import { typeName } from './checks';

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

export function activeSheet(s: Services): SheetModel {
  const wb = s.ctx.wb;
  if (wb.evaluating) return wb.evaluating.sheet;
  if (!wb.activeSheet || !wb.sheets.includes(wb.activeSheet)) wb.activeSheet = wb.sheets[0];
  return wb.activeSheet;
}

/** The active range; inside a custom function, the cell that calls it. Defaults to A1 of the active sheet. */
export function activeRange(s: Services): RangeImpl {
  const wb = s.ctx.wb;
  if (wb.evaluating) return s.range(wb.evaluating.sheet, wb.evaluating.r, wb.evaluating.c);
  const sh = activeSheet(s);
  const a = wb.activeRange;
  if (a && a.sheet === sh) return s.rangeOf(a);
  return s.range(sh, 1, 1);
}
