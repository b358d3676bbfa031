/**
 * One chunk of "Convert selected column": the same logic as the formulas, for rows the action read,
 * with the clicking user's own key and the chunk's time budget (FormulaDeps.budgetMs). Returns the
 * rows to write (no header) and their width; rows are in input order, one per input row.
 */
import type { ColumnFunction } from './column-job';
import {
  asinFromIds,
  identifiersFromAsins,
  idsFromAsins,
  TO_KINDS,
  type CellInput,
  type FormulaDeps,
  type ToKind,
} from '../../custom-functions/engine';

/** Header the action writes above the output when the selection had a header. */
export function outputHeader(fn: ColumnFunction, width: number): string[] {
  if (fn === 'IDENTIFIERS_FROM_ASIN') return TO_KINDS.slice();
  const name = fn.indexOf('ASIN_FROM_') === 0 ? 'ASIN' : fn.slice(0, fn.indexOf('_'));
  return Array.from({ length: width }, (_x, i) => (i === 0 ? name : name + ' ' + (i + 1)));
}

export function convertRows(
  fn: ColumnFunction,
  rows: CellInput[][],
  marketplace: string,
  matches: 'first' | 'all' | 'spill',
  deps: FormulaDeps,
): { values: string[][]; width: number } {
  const column = rows.map((r) => [r[0]]);
  let values: string[][];
  if (fn === 'IDENTIFIERS_FROM_ASIN') values = identifiersFromAsins(column, marketplace, deps).slice(1);
  else if (fn.indexOf('ASIN_FROM_') === 0)
    values = asinFromIds(fn.slice('ASIN_FROM_'.length) as 'UPC' | 'EAN' | 'ISBN', column, marketplace, matches, deps) as string[][];
  else values = idsFromAsins(fn.slice(0, fn.indexOf('_FROM_ASIN')) as ToKind, column, marketplace, matches, deps) as string[][];
  return { values, width: values.length ? values[0].length : 1 };
}
