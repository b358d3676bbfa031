/**
 * The marks a result row shows from the list tables (columns List tags, List note, List), pure: the
 * result tab's columns found by header, its rows, and what the lists say about each. Row actions
 * (../actions) read the selected rows with the same column finder, the one result-tab reader's.
 *
 * Keys and values are the lists sync's own (kinds.ts), so a mark says what the next sync reads.
 */
import { findResultTab } from '../../domain/result-tabs/read';
import { shownText, headerKey, SEP, splitKey } from './kinds';

/** A selected row of a result tab, by header. */
export interface ResultRow {
  row: number;
  asin: string;
  brand: string;
  identifier: string;
}

/** Result-tab columns (0-based) the actions and marks use; -1 when absent. */
export interface ResultColumns {
  asin: number;
  brand: number;
  identifier: number;
  tags: number;
  note: number;
  mark: number;
}
/**
 * Headers of the mark columns. Not plain "Tags"/"Note": a scan's custom columns are the supplier's
 * own headers, and a price list with a "Note" column is common (its cells must never be overwritten).
 */
export const MARK_HEADERS = { tags: 'List tags', note: 'List note', mark: 'List' } as const;

/** ASIN, Brand and Identifier through the one result-tab reader (-1: absent, or no ASIN column); the mark columns are the lists'. */
export function resultColumnsOf(header: readonly unknown[]): ResultColumns {
  const norm = header.map(headerKey);
  const tab = findResultTab(header);
  const at = (key: string) => (tab ? (tab.columns.get(key) ?? -1) : -1);
  // The mark columns are the add-on's, added after every other column: the last of a name is ours.
  const last = (h: string) => norm.lastIndexOf(headerKey(h));
  return {
    asin: at('asin'),
    brand: at('brand'),
    identifier: at('identifier'),
    tags: last(MARK_HEADERS.tags),
    note: last(MARK_HEADERS.note),
    mark: last(MARK_HEADERS.mark),
  };
}

export function resultRows(cols: ResultColumns, values: readonly unknown[][], firstRow: number): ResultRow[] {
  const get = (r: readonly unknown[], c: number) => (c >= 0 ? shownText(r[c]) : '');
  return values.map((r, i) => ({
    row: firstRow + i,
    asin: get(r, cols.asin),
    brand: get(r, cols.brand),
    identifier: get(r, cols.identifier),
  }));
}

/** What the list tables say, per marketplace and ASIN / brand / pairing. */
export interface ListFacts {
  tags: ReadonlyMap<string, string>;
  /** marketplace\tASIN -> note texts. */
  notes: ReadonlyMap<string, string[]>;
  brands: ReadonlySet<string>;
  asins: ReadonlySet<string>;
  /** marketplace\tidentifier\tASIN -> TRUE / FALSE. */
  matches: ReadonlyMap<string, string>;
}

/** Notes keyed by marketplace and ASIN, from the notes table's entries (value: marketplace, ASIN, text). */
export function notesByAsin(entries: ReadonlyMap<string, string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  entries.forEach((v) => {
    const [mp, asin] = splitKey(v);
    const k = mp + SEP + asin;
    out.set(k, (out.get(k) || []).concat([v.slice(mp.length + asin.length + 2)]));
  });
  return out;
}

/** Tags, Note and List of one result row. */
export function marksOf(row: ResultRow, marketplace: string, facts: ListFacts): { tags: string; note: string; mark: string } {
  const k = marketplace + SEP + row.asin;
  const marks: string[] = [];
  if (row.brand && facts.brands.has(marketplace + SEP + row.brand)) marks.push('blocked brand');
  if (row.asin && facts.asins.has(k)) marks.push('blocked ASIN');
  if (row.asin && row.identifier && facts.matches.get(marketplace + SEP + row.identifier + SEP + row.asin) === 'FALSE')
    marks.push('not a match');
  const notes = row.asin ? facts.notes.get(k) : undefined;
  const note = notes ? notes.join('\n') : '';
  return {
    tags: row.asin ? (facts.tags.get(k) ?? '') : '',
    note: note.length > 5000 ? note.slice(0, 4999) + '…' : note,
    mark: marks.join(', '),
  };
}
