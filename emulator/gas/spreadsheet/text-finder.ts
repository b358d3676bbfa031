/**
 * The TextFinder a Spreadsheet, Sheet or Range creates (createTextFinder). As recorded on Google
 * (gas-fakes test/testsheetstext.js "spreadsheet textfinder"): it searches what cells show, case
 * and diacritics mattering unless told otherwise; a formula cell is matched on its result unless
 * matchFormulaText(true), then on its formula text; cells are visited row by row, sheet by sheet.
 */
import type { Box } from './navigation';
import type { SheetModel } from './model';
import type { Objects, RangeObject } from './objects';
import { typeName } from './checks';

export interface SearchScope {
  sheet: SheetModel;
  /** The box searched; null = the sheet's whole grid. */
  box: Box | null;
}

function stripDiacritics(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '');
}
function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class TextFinderImpl {
  private opts = { matchCase: false, entireCell: false, regex: false, formulaText: false, diacritics: false };
  private startAfter: { sheet: SheetModel; r: number; c: number } | null = null;
  private current: { sheet: SheetModel; r: number; c: number } | null = null;
  constructor(
    private readonly s: Objects,
    private readonly scopes: () => SearchScope[],
    private readonly text: string,
  ) {}
  private get ctx() {
    return this.s.ctx;
  }
  toString(): string {
    return 'TextFinder';
  }
  private flag(method: string, v: unknown): boolean {
    this.ctx.call();
    if (typeof v !== 'boolean')
      throw this.ctx.error(`The parameters (${typeName(v)}) don't match the method signature for SpreadsheetApp.TextFinder.${method}.`);
    return v;
  }
  matchCase(matchCase: boolean): TextFinderImpl {
    this.opts.matchCase = this.flag('matchCase', matchCase);
    return this;
  }
  matchEntireCell(entireCell: boolean): TextFinderImpl {
    this.opts.entireCell = this.flag('matchEntireCell', entireCell);
    return this;
  }
  useRegularExpression(useRegEx: boolean): TextFinderImpl {
    this.opts.regex = this.flag('useRegularExpression', useRegEx);
    return this;
  }
  matchFormulaText(matchFormulaText: boolean): TextFinderImpl {
    this.opts.formulaText = this.flag('matchFormulaText', matchFormulaText);
    return this;
  }
  ignoreDiacritics(ignoreDiacritics: boolean): TextFinderImpl {
    this.opts.diacritics = this.flag('ignoreDiacritics', ignoreDiacritics);
    return this;
  }
  /** The search starts after this cell (Google: "starting search after the given cell range"). */
  startFrom(startRange: RangeObject): TextFinderImpl {
    this.ctx.call();
    if (!this.s.isRange(startRange))
      throw this.ctx.error(
        `The parameters (${typeName(startRange)}) don't match the method signature for SpreadsheetApp.TextFinder.startFrom.`,
      );
    this.startAfter = { sheet: startRange._m, r: startRange._r, c: startRange._c };
    this.current = null;
    return this;
  }

  private pattern(global: boolean): RegExp {
    let src = this.opts.regex ? this.text : escapeRegExp(this.opts.diacritics ? stripDiacritics(this.text) : this.text);
    if (this.opts.entireCell) src = `^(?:${src})$`;
    return new RegExp(src, (global ? 'g' : '') + (this.opts.matchCase ? '' : 'i') + 'u');
  }
  /** What a cell is matched on (with diacritics stripped when asked). */
  private subject(m: SheetModel, r: number, c: number): { text: string; formula: boolean } {
    const cell = m.cell(r, c);
    const formula = this.opts.formulaText && !!cell?.f;
    const text = formula ? cell!.f! : this.ctx.wb.readDisplay(cell);
    return { text: this.opts.diacritics ? stripDiacritics(text) : text, formula };
  }
  /** Every matching cell in search order. */
  private matches(): Array<{ sheet: SheetModel; r: number; c: number }> {
    const re = this.pattern(false);
    const out: Array<{ sheet: SheetModel; r: number; c: number }> = [];
    for (const sc of this.scopes()) {
      const m = sc.sheet;
      const b = sc.box ?? { r1: 1, c1: 1, r2: m.lastRow(), c2: m.lastColumn() };
      this.ctx.read(Math.max(0, b.r2 - b.r1 + 1) * Math.max(0, b.c2 - b.c1 + 1));
      for (let r = b.r1; r <= b.r2; r++)
        for (let c = b.c1; c <= b.c2; c++) {
          const { text } = this.subject(m, r, c);
          if (text !== '' && re.test(text)) out.push({ sheet: m, r, c });
        }
    }
    return out;
  }
  private rangeAt(x: { sheet: SheetModel; r: number; c: number } | null): RangeObject | null {
    return x ? this.s.range(x.sheet, x.r, x.c) : null;
  }
  private order(x: { sheet: SheetModel; r: number; c: number }): [number, number, number] {
    return [this.ctx.wb.sheets.indexOf(x.sheet), x.r, x.c];
  }
  private after(a: { sheet: SheetModel; r: number; c: number }, b: { sheet: SheetModel; r: number; c: number }): number {
    const [x, y] = [this.order(a), this.order(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  }
  findAll(): RangeObject[] {
    return this.ctx.arr(this.matches().map((x) => this.rangeAt(x)!));
  }
  /** The next match after the current one (or the start cell); null when there is none. */
  findNext(): RangeObject | null {
    const from = this.current ?? this.startAfter;
    const all = this.matches();
    const next = from ? all.find((x) => this.after(x, from) > 0) : all[0];
    if (next) this.current = next;
    return this.rangeAt(next ?? null);
  }
  findPrevious(): RangeObject | null {
    const from = this.current ?? this.startAfter;
    const all = this.matches();
    const prev = from ? [...all].reverse().find((x) => this.after(x, from) < 0) : all[all.length - 1];
    if (prev) this.current = prev;
    return this.rangeAt(prev ?? null);
  }
  getCurrentMatch(): RangeObject | null {
    this.ctx.call();
    return this.rangeAt(this.current);
  }
  /** Replaces the text matched in every matching cell; returns how many cells changed. */
  replaceAllWith(replaceText: string): number {
    let n = 0;
    for (const x of this.matches()) if (this.replaceIn(x, String(replaceText))) n++;
    return n;
  }
  /** Replaces the matched text in the current match; returns 1, or 0 without a current match. */
  replaceWith(replaceText: string): number {
    return this.current && this.replaceIn(this.current, String(replaceText)) ? 1 : 0;
  }
  private replaceIn(x: { sheet: SheetModel; r: number; c: number }, replaceText: string): boolean {
    const { text, formula } = this.subject(x.sheet, x.r, x.c);
    const re = this.pattern(true);
    const out = text.replace(re, this.opts.regex ? replaceText : replaceText.replace(/\$/g, '$$$$'));
    const range = this.s.range(x.sheet, x.r, x.c);
    if (formula) range.setFormula(out);
    else range.setValue(out);
    return true;
  }
}
