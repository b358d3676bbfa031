/** The Filter object a script sees: criteria are kept, rows are not hidden. */
import { SheetModel } from './model';
import type { Objects, RangeObject } from './objects';

export class FilterImpl {
  constructor(
    private readonly s: Objects,
    private readonly m: SheetModel,
  ) {}
  toString(): string {
    return 'Filter';
  }
  private get ctx() {
    return this.s.ctx;
  }
  private f() {
    if (!this.m.filter) throw this.ctx.error('This filter has been removed.'); // chosen wording
    return this.m.filter;
  }
  getRange(): RangeObject {
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
