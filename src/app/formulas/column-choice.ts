/**
 * Pure choices of "Convert selected column" that need no Apps Script: which conversion a column
 * asks for, whether its first selected cell is a header, and how much of a converted chunk is
 * final (rows that ran out of time are left for the next execution, never written as failures).
 */
import { identify, type IdKind } from '../../domain/ids';
import { expectationForHeader } from '../../domain/price-list/prepare';
import { COLUMN_FUNCTIONS, type ColumnFunction } from './column-job';
import { failedText } from '../../custom-functions/messages';

/** The first selected cell is a header when it is text that is no identifier at all (e.g. "UPC", "Barcode"). */
export function looksLikeHeader(first: unknown): boolean {
  if (typeof first !== 'string' || first.trim() === '') return false;
  const r = identify(first, 'any');
  return !r.ok && r.reason === 'not-an-identifier' && /[A-Za-z]/.test(first);
}

const BY_KIND: Partial<Record<IdKind, ColumnFunction>> = {
  ASIN: 'IDENTIFIERS_FROM_ASIN',
  'ISBN-10': 'ASIN_FROM_ISBN',
  'ISBN-13': 'ASIN_FROM_ISBN',
  UPC: 'ASIN_FROM_UPC',
  'UPC-E': 'ASIN_FROM_UPC',
  EAN: 'ASIN_FROM_EAN',
  JAN: 'ASIN_FROM_EAN',
  'EAN-8': 'ASIN_FROM_EAN',
  'GTIN-14': 'ASIN_FROM_EAN',
};

/**
 * The conversion a column asks for: a header naming one kind decides (UPC, EAN, ISBN, ASIN);
 * otherwise the most frequent kind among the first `sample` readable values. ASIN columns get
 * IDENTIFIERS_FROM_ASIN (every kind, one column each). Undefined when nothing is readable.
 */
export function chooseConversion(header: string | undefined, values: readonly unknown[], sample = 500): ColumnFunction | undefined {
  const want = header ? expectationForHeader(header) : 'any';
  if (want === 'upc') return 'ASIN_FROM_UPC';
  if (want === 'ean') return 'ASIN_FROM_EAN';
  if (want === 'isbn') return 'ASIN_FROM_ISBN';
  if (want === 'asin') return 'IDENTIFIERS_FROM_ASIN';
  const votes = new Map<ColumnFunction, number>();
  let seen = 0;
  for (const v of values) {
    if (seen >= sample) break;
    if (v === '' || v === null || v === undefined) continue;
    seen++;
    const r = identify(v, want);
    const fn = r.ok ? BY_KIND[r.kind] : undefined;
    if (fn) votes.set(fn, (votes.get(fn) ?? 0) + 1);
  }
  let best: ColumnFunction | undefined;
  for (const [fn, n] of votes) if (best === undefined || n > votes.get(best)!) best = fn;
  return best;
}

/** A conversion name from the sidebar, or undefined when it is none of the nine. */
export function parseConversion(name: unknown): ColumnFunction | undefined {
  const s = String(name ?? '')
    .trim()
    .toUpperCase();
  return (COLUMN_FUNCTIONS as readonly string[]).indexOf(s) >= 0 ? (s as ColumnFunction) : undefined;
}

/** What a cell says when its row's conversion ran out of the time given. */
export const OUT_OF_TIME_TEXT = failedText({ kind: 'out-of-time', message: '' });

/** Cell texts of problems that a later attempt may not have (busy, service error, no answer). */
function isTransient(text: string): boolean {
  return (
    text === OUT_OF_TIME_TEXT ||
    text === failedText({ kind: 'rate-limited', message: '' }) ||
    text === failedText({ kind: 'timeout', message: '' }) ||
    text.indexOf(failedText({ kind: 'server', message: '' }).replace(/ ; recalculate later$/, '')) === 0
  );
}

/**
 * How many leading rows of a converted chunk are final. Rows from the first one whose conversion
 * ran out of time are not: the next execution converts them (so none is lost, none written twice
 * with different content). When the chunk used up its whole budget (`budgetSpent`), a row that
 * failed with a passing problem (429, 5xx, no answer) counts as unfinished too: its retries were
 * cut short by the time, not given up by the retry policy.
 */
export function finalRows(values: readonly (readonly string[])[], budgetSpent = false): number {
  for (let i = 0; i < values.length; i++) {
    if (values[i].some((v) => v === OUT_OF_TIME_TEXT || (budgetSpent && isTransient(v)))) return i;
  }
  return values.length;
}
