/**
 * Compile-time check that every public method of the implementation exists, under the same name,
 * in @types/google-apps-script (nothing invented). Types only; nothing runs.
 */
import type { SpreadsheetAppImpl } from './app';
import type { FilterImpl } from './filter';
import type { NamedRangeImpl } from './named-range';
import type { ProtectionImpl } from './protection';
import type { RangeImpl } from './range';
import type { SelectionImpl } from './selection';
import type { SheetImpl } from './sheet';
import type { SpreadsheetImpl } from './spreadsheet';
import type {
  BooleanConditionImpl,
  ConditionalFormatRuleBuilderImpl,
  ConditionalFormatRuleImpl,
  RichTextValueBuilderImpl,
  RichTextValueImpl,
} from './rules';
import type { MenuImpl, UiImpl } from './ui';
import type { TextFinderImpl } from './text-finder';
import type { DataValidationBuilderImpl, DataValidationImpl } from './validation';

// toString is every Apps Script object's (it returns the class name), though @types does not list it.
type Methods<T> = Exclude<{ [K in keyof T]: T[K] extends (...a: never[]) => unknown ? K : never }[keyof T], `_${string}` | 'toString'>;
type Within<Impl, Google> = Exclude<Methods<Impl>, keyof Google>;
/** Resolves to true only when nothing is left over. */
type None<T extends never> = T;

export type Checks = [
  None<Within<SpreadsheetAppImpl, GoogleAppsScript.Spreadsheet.SpreadsheetApp>>,
  None<Within<SpreadsheetImpl, GoogleAppsScript.Spreadsheet.Spreadsheet>>,
  None<Within<SheetImpl, GoogleAppsScript.Spreadsheet.Sheet>>,
  None<Within<RangeImpl, GoogleAppsScript.Spreadsheet.Range>>,
  None<Within<NamedRangeImpl, GoogleAppsScript.Spreadsheet.NamedRange>>,
  None<Within<FilterImpl, GoogleAppsScript.Spreadsheet.Filter>>,
  None<Within<ProtectionImpl, GoogleAppsScript.Spreadsheet.Protection>>,
  None<Within<SelectionImpl, GoogleAppsScript.Spreadsheet.Selection>>,
  None<Within<RichTextValueImpl, GoogleAppsScript.Spreadsheet.RichTextValue>>,
  None<Within<RichTextValueBuilderImpl, GoogleAppsScript.Spreadsheet.RichTextValueBuilder>>,
  None<Within<ConditionalFormatRuleImpl, GoogleAppsScript.Spreadsheet.ConditionalFormatRule>>,
  None<Within<ConditionalFormatRuleBuilderImpl, GoogleAppsScript.Spreadsheet.ConditionalFormatRuleBuilder>>,
  None<Within<BooleanConditionImpl, GoogleAppsScript.Spreadsheet.BooleanCondition>>,
  None<Within<DataValidationImpl, GoogleAppsScript.Spreadsheet.DataValidation>>,
  None<Within<DataValidationBuilderImpl, GoogleAppsScript.Spreadsheet.DataValidationBuilder>>,
  None<Within<UiImpl, GoogleAppsScript.Base.Ui>>,
  None<Within<MenuImpl, GoogleAppsScript.Base.Menu>>,
  None<Within<TextFinderImpl, GoogleAppsScript.Spreadsheet.TextFinder>>,
];
