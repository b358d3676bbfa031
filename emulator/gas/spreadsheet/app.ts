/** The SpreadsheetApp global: entry points, builders and enums. */
import { Ctx } from './context';
import { requireScope } from '../scopes';
import type { Objects } from './objects';
import { SelectionImpl } from './selection';
import type { SheetImpl } from './sheet';
import type { RangeImpl } from './range';
import type { SpreadsheetImpl } from './spreadsheet';
import { BooleanCriteria, ConditionalFormatRuleBuilderImpl, InterpolationType, RichTextValueBuilderImpl } from './rules';
import { CellImageBuilderImpl } from './cell-image';
import { UiImpl } from './ui';
import { DataValidationBuilderImpl, DataValidationCriteria } from './validation';
import { ProtectionType } from './protection';
import { Dimension, Direction } from './navigation';
import { AutoFillSeries } from './autofill';
import { CopyPasteType } from './copy-cells';

export class SpreadsheetAppImpl {
  readonly BooleanCriteria = BooleanCriteria;
  readonly InterpolationType = InterpolationType;
  readonly DataValidationCriteria = DataValidationCriteria;
  readonly ProtectionType = ProtectionType;
  readonly Dimension = Dimension;
  readonly Direction = Direction;
  readonly AutoFillSeries = AutoFillSeries;
  readonly CopyPasteType = CopyPasteType;
  constructor(private readonly s: Objects) {}
  private get ctx(): Ctx {
    return this.s.ctx;
  }

  /**
   * Chosen: in AuthMode.NONE (onOpen of an add-on not yet used in this document) the document
   * cannot be accessed; only getUi() (to add menus) works.
   */
  private doc(method: string): SpreadsheetImpl | null {
    if (this.ctx.state.current?.authMode === 'NONE')
      throw this.ctx.error(
        `You do not have permission to call SpreadsheetApp.${method}. Required permissions: https://www.googleapis.com/auth/spreadsheets.currentonly`,
      );
    requireScope(this.ctx.state, `SpreadsheetApp.${method}`);
    this.ctx.call();
    // A time-driven trigger without an active document (RuntimeOptions.triggerDocument 'none').
    if (!this.ctx.state.hasDocument()) return null;
    return this.s.spreadsheet;
  }
  getActive(): SpreadsheetImpl | null {
    return this.doc('getActive');
  }
  getActiveSpreadsheet(): SpreadsheetImpl | null {
    return this.doc('getActiveSpreadsheet');
  }
  getActiveSheet(): SheetImpl | null {
    return this.doc('getActiveSheet')?.getActiveSheet() ?? null;
  }
  getActiveRange(): RangeImpl | null {
    return this.doc('getActiveRange')?.getActiveRange() ?? null;
  }
  getCurrentCell(): RangeImpl | null {
    return this.doc('getCurrentCell')?.getActiveCell() ?? null;
  }
  getSelection(): SelectionImpl | null {
    return this.doc('getSelection') ? new SelectionImpl(this.s) : null;
  }
  setActiveSheet(sheet: SheetImpl): SheetImpl {
    return this.present(this.doc('setActiveSheet'), 'setActiveSheet').setActiveSheet(sheet);
  }
  setActiveRange(range: RangeImpl): RangeImpl {
    return this.present(this.doc('setActiveRange'), 'setActiveRange').setActiveRange(range);
  }
  /** Chosen wording: setting a selection with no document open. */
  private present(ss: SpreadsheetImpl | null, method: string): SpreadsheetImpl {
    if (!ss) throw this.ctx.error(`Cannot call SpreadsheetApp.${method}() without an active spreadsheet.`);
    return ss;
  }
  /** Opening by id/URL needs the full spreadsheets scope, which custom functions never have. */
  openById(id: string): SpreadsheetImpl {
    this.checkOpen('openById');
    if (id !== this.ctx.wb.id)
      throw this.ctx.error('Unexpected error while getting the method or property openById on object SpreadsheetApp.');
    return this.s.spreadsheet;
  }
  openByUrl(url: string): SpreadsheetImpl {
    this.checkOpen('openByUrl');
    const m = /\/spreadsheets\/d\/([^/]+)/.exec(String(url));
    if (!m || m[1] !== this.ctx.wb.id)
      throw this.ctx.error('Unexpected error while getting the method or property openByUrl on object SpreadsheetApp.');
    return this.s.spreadsheet;
  }
  private checkOpen(method: string): void {
    const cur = this.ctx.state.current;
    if (cur && (cur.kind === 'custom-function' || cur.authMode === 'NONE' || cur.authMode === 'CUSTOM_FUNCTION'))
      throw this.ctx.error(
        `You do not have permission to call SpreadsheetApp.${method}. Required permissions: https://www.googleapis.com/auth/spreadsheets`,
      );
    requireScope(this.ctx.state, `SpreadsheetApp.${method}`);
    this.ctx.call();
  }
  /** Changes are applied immediately here, so flush only costs its call. */
  flush(): void {
    this.ctx.call();
  }
  /**
   * Google's message when there is no user interface to show things in: custom functions and
   * time-driven triggers (the runtime runs those as 'installable-trigger' executions).
   */
  getUi(): UiImpl {
    const kind = this.ctx.state.current?.kind;
    if (kind === 'custom-function' || kind === 'installable-trigger')
      throw this.ctx.error('Cannot call SpreadsheetApp.getUi() from this context.');
    requireScope(this.ctx.state, 'SpreadsheetApp.getUi');
    this.ctx.call();
    return new UiImpl(this.ctx);
  }
  newConditionalFormatRule(): ConditionalFormatRuleBuilderImpl {
    this.ctx.call();
    return new ConditionalFormatRuleBuilderImpl(this.ctx);
  }
  newDataValidation(): DataValidationBuilderImpl {
    this.ctx.call();
    return new DataValidationBuilderImpl(this.ctx);
  }
  newCellImage(): CellImageBuilderImpl {
    this.ctx.call();
    return new CellImageBuilderImpl(this.ctx);
  }
  newRichTextValue(): RichTextValueBuilderImpl {
    this.ctx.call();
    return new RichTextValueBuilderImpl(this.ctx);
  }
}
