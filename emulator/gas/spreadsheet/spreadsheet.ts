/**
 * The Spreadsheet object a script sees. Like every Spreadsheet object, each call charges the cost
 * model (reads, writes, other calls) and mutating calls are refused inside custom functions.
 */
import { TextFinderImpl } from './text-finder';
import { afterWrite } from './formulas';
import { DEFAULT_COLUMNS, DEFAULT_ROWS } from './model';
import { ProtectionImpl, protectionsOf } from './protection';
import { Objects, activeRange, activeSheet } from './objects';
import { UserImpl } from './user';
import { NamedRangeImpl } from './named-range';
import { SheetImpl } from './sheet';
import { RangeImpl } from './range';
import { checkSheetName, invalidNameMessage, isValidRangeName, typeName } from './checks';

export class SpreadsheetImpl {
  constructor(private readonly s: Objects) {}
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
  toString(): string {
    return 'Spreadsheet';
  }
  /** Searches every sheet, in the order of the tabs. */
  createTextFinder(findText: string): TextFinderImpl {
    this.ctx.call();
    return new TextFinderImpl(this.s, () => this.wb.sheets.map((sheet) => ({ sheet, box: null })), String(findText));
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

declare module './objects' {
  interface ObjectClasses {
    Spreadsheet: typeof SpreadsheetImpl;
  }
}
