/**
 * Range.sort's order, as Sheets sorts: numbers (and dates) before text before booleans, text without
 * regard to case, empty cells last whatever the direction (gas-fakes test/testsheetsvalues.js
 * "assorted data manipulation": sorting [.., false], [.., 10], [.., 15] descending puts false first).
 */
export interface SortKey {
  /** 0-based column within the range. */
  col: number;
  ascending: boolean;
}

function rank(v: unknown): number {
  if (typeof v === 'number' || Object.prototype.toString.call(v) === '[object Date]') return 0;
  if (typeof v === 'string') return 1;
  return 2;
}

function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 0) return Number(a) - Number(b);
  if (ra === 1) return (a as string).toLowerCase().localeCompare((b as string).toLowerCase());
  return Number(a) - Number(b);
}

/** Stable order of row indexes of `rows` by the keys. */
export function sortedOrder(rows: unknown[][], keys: SortKey[]): number[] {
  const empty = (v: unknown) => v === '' || v === null || v === undefined;
  return rows
    .map((_, i) => i)
    .sort((i, j) => {
      for (const k of keys) {
        const [a, b] = [rows[i][k.col], rows[j][k.col]];
        if (empty(a) || empty(b)) {
          if (empty(a) && empty(b)) continue;
          return empty(a) ? 1 : -1;
        }
        const c = compareValues(a, b);
        if (c !== 0) return k.ascending ? c : -c;
      }
      return i - j;
    });
}
