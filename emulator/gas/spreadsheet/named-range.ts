/** The NamedRange object a script sees. */
import { NamedRangeModel } from './model';
import { Objects } from './objects';
import { RangeImpl } from './range';
import { invalidNameMessage, isValidRangeName, typeName } from './checks';

export class NamedRangeImpl {
  constructor(
    private readonly s: Objects,
    private readonly nr: NamedRangeModel,
  ) {}
  toString(): string {
    return 'NamedRange';
  }
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
