/**
 * Cells used and left in this spreadsheet (every tab's max rows x max columns: Sheets counts empty
 * cells too), and which tabs are the add-on's results, with their sizes. Read before a scan is sent
 * and before an import grows a tab (src/domain/price-list/room.ts holds the limit and the words).
 */
import type { TabCells } from '../../domain/price-list/room';
import { count } from '../../../contract/numbers';
import { allTabRecords } from './tabs';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Properties = GoogleAppsScript.Properties.Properties;

export interface SpreadsheetRoom {
  limit: number;
  used: number;
  left: number;
  /** The add-on's result, filtered and errors tabs, with their cells. */
  resultTabs: TabCells[];
}

/** Two cheap calls per tab (getMaxRows, getMaxColumns) and one property read for all the tab records. */
export function readRoom(ss: Spreadsheet, props: Properties, limit: number): SpreadsheetRoom {
  const sheets = ss.getSheets();
  const cells = new Map<number, { name: string; cells: number }>();
  let used = 0;
  for (const s of sheets) {
    const n = s.getMaxRows() * s.getMaxColumns();
    used += n;
    cells.set(s.getSheetId(), { name: s.getName(), cells: n });
  }
  const resultTabs: TabCells[] = [];
  for (const { record: r } of allTabRecords(props)) {
    for (const id of [r.sheetId, r.filteredSheetId, r.errorsSheetId]) {
      const t = id === undefined || id === null ? undefined : cells.get(id);
      if (t) resultTabs.push(t);
    }
  }
  return { limit, used, left: Math.max(0, limit - used), resultTabs };
}

/** Cells used and left, without naming the result tabs: two cheap calls per tab. */
export function readUsedCells(ss: Spreadsheet, limit: number): SpreadsheetRoom {
  let used = 0;
  for (const s of ss.getSheets()) used += s.getMaxRows() * s.getMaxColumns();
  return { limit, used, left: Math.max(0, limit - used), resultTabs: [] };
}

/** Google's own refusal of a grid that would pass the cell limit (never shown as is). */
export function isCellLimitError(e: unknown): boolean {
  return /above the limit of \d+ cells/.test(String(e instanceof Error ? e.message : e));
}

/** The spreadsheet cannot take the next rows; the import's staging and checkpoint stay, so it continues later. */
export class SpreadsheetFullError extends Error {}

/** Words for a count of cells. */
export function cellsText(n: number): string {
  return count(n) + ' cell' + (n === 1 ? '' : 's');
}
