/**
 * Data validation rules: SpreadsheetApp.newDataValidation(), the DataValidationCriteria enum and the
 * rule a range holds per cell (checkboxes TRUE/FALSE for the lists sync, value lists, numbers, text).
 * Rules are stored and read back; they do not reject values written by a script (not modelled).
 */
import type { Ctx } from './context';
import type { ValidationModel } from './model';

/** Values of SpreadsheetApp.DataValidationCriteria (compared by name, as scripts do with ==). */
export const DataValidationCriteria = Object.fromEntries(
  [
    'DATE_AFTER',
    'DATE_BEFORE',
    'DATE_BETWEEN',
    'DATE_EQUAL_TO',
    'DATE_IS_VALID_DATE',
    'DATE_NOT_BETWEEN',
    'DATE_ON_OR_AFTER',
    'DATE_ON_OR_BEFORE',
    'NUMBER_BETWEEN',
    'NUMBER_EQUAL_TO',
    'NUMBER_GREATER_THAN',
    'NUMBER_GREATER_THAN_OR_EQUAL_TO',
    'NUMBER_LESS_THAN',
    'NUMBER_LESS_THAN_OR_EQUAL_TO',
    'NUMBER_NOT_BETWEEN',
    'NUMBER_NOT_EQUAL_TO',
    'TEXT_CONTAINS',
    'TEXT_DOES_NOT_CONTAIN',
    'TEXT_EQUAL_TO',
    'TEXT_IS_VALID_EMAIL',
    'TEXT_IS_VALID_URL',
    'VALUE_IN_LIST',
    'VALUE_IN_RANGE',
    'CUSTOM_FORMULA',
    'CHECKBOX',
  ].map((k) => [k, k]),
) as Record<string, string>;

export class DataValidationImpl {
  /** The class name, as every Apps Script object's toString() gives it. */
  toString(): string {
    return 'DataValidation';
  }
  constructor(
    protected readonly ctx: Ctx,
    /** @internal */ readonly _v: ValidationModel,
  ) {}
  getCriteriaType(): string {
    return this._v.type;
  }
  getCriteriaValues(): unknown[] {
    return this.ctx.arr(this._v.values);
  }
  getAllowInvalid(): boolean {
    return this._v.allowInvalid;
  }
  getHelpText(): string {
    return this._v.helpText ?? '';
  }
  copy(): DataValidationBuilderImpl {
    return new DataValidationBuilderImpl(this.ctx, { ...this._v, values: [...this._v.values] });
  }
}

export class DataValidationBuilderImpl {
  /** The class name, as every Apps Script object's toString() gives it. */
  toString(): string {
    return 'DataValidationBuilder';
  }
  constructor(
    private readonly ctx: Ctx,
    private v: ValidationModel = { type: '', values: [], allowInvalid: true, helpText: null },
  ) {}
  private set(type: string, values: unknown[]): DataValidationBuilderImpl {
    this.v = { ...this.v, type, values };
    return this;
  }
  /** Google's builder: a rule without criteria cannot be built (chosen wording). */
  build(): DataValidationImpl {
    if (!this.v.type) throw this.ctx.error('The data validation rule has no criteria.');
    return new DataValidationImpl(this.ctx, { ...this.v, values: [...this.v.values] });
  }
  copy(): DataValidationBuilderImpl {
    return new DataValidationBuilderImpl(this.ctx, { ...this.v, values: [...this.v.values] });
  }
  getAllowInvalid(): boolean {
    return this.v.allowInvalid;
  }
  getCriteriaType(): string {
    return this.v.type;
  }
  getCriteriaValues(): unknown[] {
    return this.ctx.arr(this.v.values);
  }
  getHelpText(): string | null {
    return this.v.helpText;
  }
  /** No values: TRUE/FALSE; one: that value checked, '' unchecked; two: both. */
  requireCheckbox(...values: unknown[]): DataValidationBuilderImpl {
    return this.set(DataValidationCriteria.CHECKBOX, values.slice(0, 2));
  }
  requireValueInList(values: string[], showDropdown?: boolean): DataValidationBuilderImpl {
    if (!Array.isArray(values))
      throw this.ctx.error(
        "The parameters (String) don't match the method signature for SpreadsheetApp.DataValidationBuilder.requireValueInList.",
      );
    return this.set(DataValidationCriteria.VALUE_IN_LIST, [this.ctx.arr(values.map(String)), showDropdown ?? true]);
  }
  requireNumberBetween(start: number, end: number): DataValidationBuilderImpl {
    return this.set(DataValidationCriteria.NUMBER_BETWEEN, [start, end]);
  }
  requireNumberGreaterThan(n: number): DataValidationBuilderImpl {
    return this.set(DataValidationCriteria.NUMBER_GREATER_THAN, [n]);
  }
  requireNumberGreaterThanOrEqualTo(n: number): DataValidationBuilderImpl {
    return this.set(DataValidationCriteria.NUMBER_GREATER_THAN_OR_EQUAL_TO, [n]);
  }
  requireTextIsUrl(): DataValidationBuilderImpl {
    return this.set(DataValidationCriteria.TEXT_IS_VALID_URL, []);
  }
  requireTextIsEmail(): DataValidationBuilderImpl {
    return this.set(DataValidationCriteria.TEXT_IS_VALID_EMAIL, []);
  }
  setAllowInvalid(allowInvalidData: boolean): DataValidationBuilderImpl {
    this.v = { ...this.v, allowInvalid: !!allowInvalidData };
    return this;
  }
  setHelpText(helpText: string): DataValidationBuilderImpl {
    this.v = { ...this.v, helpText: String(helpText) };
    return this;
  }
}

/** The checked and unchecked values of a checkbox rule (Google's defaults: TRUE and FALSE). */
export function checkboxValues(v: ValidationModel): { checked: unknown; unchecked: unknown } {
  if (v.values.length === 0) return { checked: true, unchecked: false };
  if (v.values.length === 1) return { checked: v.values[0], unchecked: '' };
  return { checked: v.values[0], unchecked: v.values[1] };
}
