/**
 * The add-on's formula cells computed again, at once, when formulas are turned on here (issue 32
 * item 7: they kept saying "Formulas are off…" until a recalculation nothing mentioned).
 *
 * Google runs a custom function again when its arguments change or the spreadsheet recalculates
 * (guides/sheets/functions); a formula left as it is keeps its last result. So every cell whose
 * formula calls one of the add-on's functions is emptied, the change applied (SpreadsheetApp.flush),
 * and its own formula written back: a new formula, which Sheets evaluates. Only the formula text
 * the cell already had is written (nothing built from cell text). That an emptied and rewritten
 * formula runs again in Google is reported by users, not stated by Google's pages; the local
 * runtime evaluates every formula written.
 */
import * as customFunctions from '../../custom-functions/functions';
import { documentProperties, flushSpreadsheet } from '../../apps-script';
import { resultTabs } from '../records/tabs';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** A vertical run of formula cells in one column, written back with one call. */
interface Run {
  row: number;
  column: number;
  formulas: string[];
}

/** Whether a formula calls one of the add-on's functions. */
function callsAddOn(formula: string, names: readonly string[]): boolean {
  const upper = formula.toUpperCase();
  return names.some((n) => new RegExp('(^|[^A-Z0-9_.])' + n + '\\s*\\(').test(upper));
}

/** The add-on's formula cells of a sheet (one read), as vertical runs. */
function runsOf(sheet: Sheet, names: readonly string[]): Run[] {
  const range = sheet.getDataRange();
  const formulas = range.getFormulas();
  const runs: Run[] = [];
  for (let c = 0; c < (formulas[0] || []).length; c++) {
    let run: Run | null = null;
    for (let r = 0; r < formulas.length; r++) {
      const f = formulas[r][c];
      if (f && callsAddOn(f, names)) {
        if (run && run.row + run.formulas.length === r + 1) run.formulas.push(f);
        else runs.push((run = { row: r + 1, column: c + 1, formulas: [f] }));
      } else run = null;
    }
  }
  return runs;
}

/** Empties and rewrites every add-on formula of the spreadsheet; the number of formula cells rewritten. */
export function recomputeFormulaCells(ss: Spreadsheet): number {
  const names = Object.keys(customFunctions);
  // The add-on's result tabs hold values it wrote, and may be millions of cells: not read.
  const imported = resultTabs(ss, documentProperties()).map((t) => t.sheet.getSheetId());
  const found = ss
    .getSheets()
    .filter((sheet) => imported.indexOf(sheet.getSheetId()) < 0)
    .map((sheet) => ({ sheet, runs: runsOf(sheet, names) }));
  const all = found.flatMap((f) => f.runs.map((run) => ({ sheet: f.sheet, run })));
  if (!all.length) return 0;
  const cells = ({ sheet, run }: { sheet: Sheet; run: Run }) => sheet.getRange(run.row, run.column, run.formulas.length, 1);
  for (const x of all) cells(x).setFormulas(x.run.formulas.map(() => ['']));
  flushSpreadsheet();
  for (const x of all) cells(x).setFormulas(x.run.formulas.map((f) => [f]));
  flushSpreadsheet();
  return all.reduce((n, x) => n + x.run.formulas.length, 0);
}
