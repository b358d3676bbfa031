/**
 * Apps Script checks every call against the method's declared overloads (count and types of the
 * arguments) before running it, and refuses a call matching none with "The parameters (<types>)
 * don't match the method signature for SpreadsheetApp.<Class>.<method>." (recorded on Google by
 * gas-fakes test/testsheets.js, e.g. `range.setNotes("foo")`, `range.copyTo()`; the type names as
 * Google writes them: String, number, Boolean, null, Object, number[], Object[][]).
 *
 * This module holds the overloads of the SpreadsheetApp methods the add-on calls and their
 * neighbours, and wraps those methods of the implementation classes with the check (applied once
 * when services.ts loads). Methods not listed are not checked here.
 */

type Cls = { prototype: Record<string, unknown>; name: string };
/** Type names of a parameter: String, Integer/Number (numbers), Boolean, Object (anything), Object[] (an array), Object[][] (an array of arrays), or a class key. */
type Param = string;
/** One overload: its parameters; a trailing `?` marks an optional one. */
type Overload = Param[];

/** How Google names the type of an argument in the message. */
export function argTypeName(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) {
    if (v.length && v.every((x) => Array.isArray(x))) return 'Object[][]';
    if (v.length && v.every((x) => typeof x === 'number')) return 'number[]';
    if (v.length && v.every((x) => typeof x === 'string')) return 'String[]';
    return 'Object[]';
  }
  if (typeof v === 'string') return 'String';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'Boolean';
  if (Object.prototype.toString.call(v) === '[object Date]') return 'Date';
  return 'Object';
}

const N = 'Number';
const S = 'String';
const B = 'Boolean';
const O = 'Object';
/** String, or null to reset (setBackground(null), setFontWeight(null), setNote(null) as documented). */
const SN = 'String|null';

const RANGE: Record<string, Overload[]> = {
  getA1Notation: [[]],
  getRow: [[]],
  getColumn: [[]],
  getNumRows: [[]],
  getNumColumns: [[]],
  getLastRow: [[]],
  getLastColumn: [[]],
  getHeight: [[]],
  getWidth: [[]],
  getSheet: [[]],
  activate: [[]],
  getValue: [[]],
  getValues: [[]],
  getDisplayValue: [[]],
  getDisplayValues: [[]],
  getFormula: [[]],
  getFormulas: [[]],
  getNote: [[]],
  getNotes: [[]],
  getNumberFormat: [[]],
  getNumberFormats: [[]],
  getBackground: [[]],
  getBackgrounds: [[]],
  getRichTextValue: [[]],
  getRichTextValues: [[]],
  getDataValidation: [[]],
  getDataValidations: [[]],
  isBlank: [[]],
  clearContent: [[]],
  clearFormat: [[]],
  clearDataValidations: [[]],
  clear: [[], [O]],
  createFilter: [[]],
  getFilter: [[]],
  merge: [[]],
  mergeAcross: [[]],
  mergeVertically: [[]],
  breakApart: [[]],
  isPartOfMerge: [[]],
  getMergedRanges: [[]],
  setValue: [[O]],
  setValues: [['Object[][]']],
  setFormula: [[S]],
  setFormulas: [['Object[][]']],
  setNote: [[SN]],
  setNotes: [['Object[][]']],
  setNumberFormat: [[S]],
  setNumberFormats: [['Object[][]']],
  setBackground: [[SN]],
  setBackgrounds: [['Object[][]']],
  setFontWeight: [[SN]],
  setFontWeights: [['Object[][]']],
  setFontColor: [[SN]],
  setHorizontalAlignment: [[SN]],
  setWrap: [[B]],
  setRichTextValue: [['RichTextValue']],
  setRichTextValues: [['Object[][]']],
  setDataValidation: [['DataValidation|null']],
  getFormulaR1C1: [[]],
  getFormulasR1C1: [[]],
  setFormulaR1C1: [[S]],
  setFormulasR1C1: [['Object[][]']],
  getNextDataCell: [[S]],
  getDataRegion: [[], [S]],
  createTextFinder: [[S]],
  insertCells: [[S]],
  deleteCells: [[S]],
  removeDuplicates: [[], ['Object[]']],
  sort: [[O]],
  randomize: [[]],
  trimWhitespace: [[]],
  autoFill: [['Range', S]],
  copyTo: [['Range'], ['Range', O], ['Range', S, B]],
  moveTo: [['Range']],
  autoFillToNeighbor: [[S]],
  getCell: [[N, N]],
  offset: [
    [N, N],
    [N, N, N],
    [N, N, N, N],
  ],
};

const SHEET: Record<string, Overload[]> = {
  getName: [[]],
  setName: [[S]],
  getSheetId: [[]],
  getIndex: [[]],
  getParent: [[]],
  getRange: [[S], [N, N], [N, N, N], [N, N, N, N]],
  getDataRange: [[]],
  getLastRow: [[]],
  getLastColumn: [[]],
  getMaxRows: [[]],
  getMaxColumns: [[]],
  insertRowBefore: [[N]],
  insertRowAfter: [[N]],
  insertRowsBefore: [[N, N]],
  insertRowsAfter: [[N, N]],
  insertColumnBefore: [[N]],
  insertColumnAfter: [[N]],
  insertColumnsBefore: [[N, N]],
  insertColumnsAfter: [[N, N]],
  deleteRow: [[N]],
  deleteRows: [[N, N]],
  deleteColumn: [[N]],
  deleteColumns: [[N, N]],
  appendRow: [['Object[]']],
  setFrozenRows: [[N]],
  setFrozenColumns: [[N]],
  getFrozenRows: [[]],
  getFrozenColumns: [[]],
  hideSheet: [[]],
  showSheet: [[]],
  isSheetHidden: [[]],
  activate: [[]],
  setColumnWidth: [[N, N]],
  setColumnWidths: [[N, N, N]],
  autoResizeColumn: [[N]],
  autoResizeColumns: [[N, N]],
  getFilter: [[]],
  setRowHeight: [[N, N]],
  setRowHeights: [[N, N, N]],
  setRowHeightsForced: [[N, N, N]],
  getRowHeight: [[N]],
  hideRows: [[N], [N, N]],
  showRows: [[N], [N, N]],
  hideColumns: [[N], [N, N]],
  showColumns: [[N], [N, N]],
  hideRow: [['Range']],
  unhideRow: [['Range']],
  hideColumn: [['Range']],
  unhideColumn: [['Range']],
  isRowHiddenByUser: [[N]],
  isColumnHiddenByUser: [[N]],
  createTextFinder: [[S]],
  sort: [[N], [N, B]],
  setConditionalFormatRules: [['Object[]']],
  getConditionalFormatRules: [[]],
  getActiveRange: [[]],
  setActiveRange: [['Range']],
  getNamedRanges: [[]],
  clear: [[], [O]],
  clearContents: [[]],
  clearFormats: [[]],
};

const SPREADSHEET: Record<string, Overload[]> = {
  getId: [[]],
  getName: [[]],
  getUrl: [[]],
  getOwner: [[]],
  getSpreadsheetTimeZone: [[]],
  getSpreadsheetLocale: [[]],
  getSheets: [[]],
  getNumSheets: [[]],
  getSheetByName: [[S]],
  getSheetById: [[N]],
  insertSheet: [[], [S], [N], [O], [S, N], [S, O], [N, O], [S, N, O]],
  deleteSheet: [['Sheet']],
  setActiveSheet: [['Sheet'], ['Sheet', B]],
  getActiveSheet: [[]],
  getActiveRange: [[]],
  getActiveCell: [[]],
  setActiveRange: [['Range']],
  getRange: [[S]],
  getRangeByName: [[S]],
  setNamedRange: [[S, 'Range']],
  removeNamedRange: [[S]],
  getNamedRanges: [[]],
  toast: [[S], [S, S], [S, S, N]],
  createTextFinder: [[S]],
  getDataRange: [[]],
  getLastRow: [[]],
  getLastColumn: [[]],
};

function matches(p: Param, v: unknown, classes: Record<string, Cls>): boolean {
  return p.split('|').some((t) => {
    switch (t) {
      case 'Object':
        return true;
      case 'null':
        return v === null || v === undefined;
      case 'String':
        return typeof v === 'string';
      case 'Number':
        return typeof v === 'number';
      case 'Boolean':
        return typeof v === 'boolean';
      case 'Object[]':
        return Array.isArray(v);
      case 'Object[][]':
        return Array.isArray(v) && v.every((row) => Array.isArray(row));
      default: {
        const c = classes[t];
        return !!c && v instanceof (c as unknown as new (...a: unknown[]) => unknown);
      }
    }
  });
}

function fits(overloads: Overload[], args: unknown[], classes: Record<string, Cls>): boolean {
  return overloads.some((o) => o.length === args.length && o.every((p, i) => matches(p, args[i], classes)));
}

/**
 * Wraps the listed methods of each class with the overload check. `error(self, message)` makes the
 * script's Exception from an instance (its service context).
 */
export function applySignatures(
  targets: { Range: Cls; Sheet: Cls; Spreadsheet: Cls },
  classes: Record<string, Cls>,
  error: (self: unknown, message: string) => Error,
): void {
  const table: Array<[Cls, string, Record<string, Overload[]>]> = [
    [targets.Range, 'Range', RANGE],
    [targets.Sheet, 'Sheet', SHEET],
    [targets.Spreadsheet, 'Spreadsheet', SPREADSHEET],
  ];
  for (const [cls, label, methods] of table) {
    for (const [name, overloads] of Object.entries(methods)) {
      const original = cls.prototype[name];
      if (typeof original !== 'function') continue;
      const method = `SpreadsheetApp.${label}.${name}`;
      cls.prototype[name] = function (this: unknown, ...args: unknown[]) {
        if (!fits(overloads, args, classes))
          throw error(this, `The parameters (${args.map(argTypeName).join(',')}) don't match the method signature for ${method}.`);
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      };
    }
  }
}

/** The overload table, for tests that hold it against what the add-on calls. */
export const SIGNATURES = { Range: RANGE, Sheet: SHEET, Spreadsheet: SPREADSHEET };
