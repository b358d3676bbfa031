/**
 * The result tabs show what the lists say about each row: columns Tags, Note and List ("blocked
 * brand", "blocked ASIN", "not a match"), read from the list tables (no API call). Columns are
 * found by header; missing ones are added after the tab's last column. Per tab: one header read,
 * one read per ASIN/Brand/Identifier column, one write of the three columns (when side by side).
 * Rows are never removed: a blocked row stays where the user may have annotated it.
 */
import { LIST_KINDS, type ListId } from './kinds';
import { findTable, tableRows } from './sheet';
import { readRows } from './kinds';
import { safeText } from '../../domain/sheet/safe';
import { resultTabs } from '../records/tabs';
import { MARK_HEADERS, marksOf, notesByAsin, resultColumnsOf, resultRows, type ListFacts } from './mark-plan';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Properties = GoogleAppsScript.Properties.Properties;

/** The lists' entries as facts (2 reads a list; a list without a table says nothing). */
export function readFacts(ss: Spreadsheet, defaultMarketplace: string): ListFacts {
  const entries = (id: ListId): Map<string, string> => {
    const kind = LIST_KINDS.find((k) => k.id === id)!;
    const found = findTable(ss, kind);
    return found.ok ? readRows(kind, tableRows(found.table), defaultMarketplace).entries : new Map();
  };
  const set = (m: Map<string, string>) => new Set(Array.from(m.keys()));
  return {
    tags: entries('tags'),
    notes: notesByAsin(entries('notes')),
    brands: set(entries('brands')),
    asins: set(entries('asins')),
    matches: entries('matches'),
  };
}

/** Writes Tags, Note and List of every row of one result tab. Answers the rows marked. */
export function refreshTab(sheet: Sheet, marketplace: string, facts: ListFacts): number {
  const lastRow = sheet.getLastRow();
  const lastCol = sheet.getLastColumn();
  if (lastRow < 1 || lastCol < 1) return 0;
  const header = sheet.getRange(1, 1, 1, lastCol).getValues()[0];
  const cols = resultColumnsOf(header);
  if (cols.asin < 0) return 0;
  // Missing mark columns go after the last column, in the order Tags, Note, List.
  let next = lastCol;
  const added: string[] = [];
  for (const f of ['tags', 'note', 'mark'] as const) {
    if (cols[f] < 0) {
      cols[f] = next++;
      added.push(MARK_HEADERS[f]);
    }
  }
  if (added.length) {
    if (sheet.getMaxColumns() < next) sheet.insertColumnsAfter(sheet.getMaxColumns(), next - sheet.getMaxColumns());
    const h = sheet.getRange(1, lastCol + 1, 1, added.length);
    h.setValues([added]);
    h.setFontWeight('bold');
    widenFilter(sheet, next, lastRow);
  }
  const n = lastRow - 1;
  if (n < 1) return 0;
  const column = (c: number): unknown[] =>
    c >= 0
      ? sheet
          .getRange(2, c + 1, n, 1)
          .getValues()
          .map((r) => r[0])
      : new Array(n).fill('');
  const asin = column(cols.asin);
  const brand = column(cols.brand);
  const identifier = column(cols.identifier);
  const rows = resultRows(
    { asin: 0, brand: 1, identifier: 2, tags: -1, note: -1, mark: -1 },
    asin.map((a, i) => [a, brand[i], identifier[i]]),
    2,
  );
  const marks = rows.map((r) => marksOf(r, marketplace, facts));
  let marked = 0;
  for (const m of marks) if (m.mark) marked++;
  const text = (s: string) => safeText(s);
  if (cols.note === cols.tags + 1 && cols.mark === cols.tags + 2) {
    sheet.getRange(2, cols.tags + 1, n, 3).setValues(marks.map((m) => [text(m.tags), text(m.note), text(m.mark)]));
  } else {
    for (const f of ['tags', 'note', 'mark'] as const) sheet.getRange(2, cols[f] + 1, n, 1).setValues(marks.map((m) => [text(m[f])]));
  }
  return marked;
}

/**
 * The import's filter covers the tab's columns; a sort through it would leave columns outside it
 * behind, so the marks would no longer sit beside their rows. A filter's range cannot grow: it is
 * made again over the wider range, with its criteria (once, when the mark columns are added).
 */
function widenFilter(sheet: Sheet, columns: number, lastRow: number): void {
  const filter = sheet.getFilter();
  if (!filter) return;
  const r = filter.getRange();
  if (r.getLastColumn() >= columns) return;
  const criteria: Array<[number, GoogleAppsScript.Spreadsheet.FilterCriteria]> = [];
  for (let c = r.getColumn(); c <= r.getLastColumn(); c++) {
    const k = filter.getColumnFilterCriteria(c);
    if (k) criteria.push([c, k]);
  }
  filter.remove();
  const wider = sheet
    .getRange(r.getRow(), r.getColumn(), Math.max(r.getNumRows(), lastRow - r.getRow() + 1), columns - r.getColumn() + 1)
    .createFilter();
  for (const [c, k] of criteria) wider.setColumnFilterCriteria(c, k);
}

/** Refreshes every result tab of this document (after a sync, or an action). */
export function refreshResultTabs(ss: Spreadsheet, props: Properties, defaultMarketplace: string, facts?: ListFacts): number {
  const tabs = resultTabs(ss, props);
  if (!tabs.length) return 0;
  const f = facts ?? readFacts(ss, defaultMarketplace);
  let n = 0;
  for (const t of tabs) n += refreshTab(t.sheet, t.record.marketplace || defaultMarketplace, f);
  return n;
}
