/** The Selection object (SpreadsheetApp.getSelection()): the active range, sheet and current cell. */
import { Objects, activeRange, activeSheet } from './objects';
import { SheetImpl } from './sheet';
import { RangeImpl } from './range';

export class SelectionImpl {
  /** The class name, as every Apps Script object's toString() gives it. */
  toString(): string {
    return 'Selection';
  }
  constructor(private readonly s: Objects) {}
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
