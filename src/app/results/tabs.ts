/**
 * Which tabs of this spreadsheet belong to an imported scan: a small record per scan in the document
 * properties (tabKey in src/store/keys.ts), by sheet id, so a renamed tab is still found.
 */
import { tabKey } from '../../store/keys';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Properties = GoogleAppsScript.Properties.Properties;

/** Where an imported scan's tabs are (document properties, per scan). */
export interface TabRecord {
  sheetId: number;
  errorsSheetId: number | null;
}

export function readTabRecord(props: Properties, scanId: number): TabRecord | null {
  const t = props.getProperty(tabKey(scanId));
  if (!t) return null;
  try {
    const r = JSON.parse(t) as TabRecord;
    return typeof r.sheetId === 'number' ? r : null;
  } catch (_e) {
    return null;
  }
}

export function writeTabRecord(props: Properties, scanId: number, record: TabRecord): void {
  props.setProperty(tabKey(scanId), JSON.stringify(record));
}

export function forgetTabRecord(props: Properties, scanId: number): void {
  props.deleteProperty(tabKey(scanId));
}

/** The result tab of a scan when it was imported and still exists. */
export function resultSheetName(ss: Spreadsheet, props: Properties, scanId: number): string | null {
  const r = readTabRecord(props, scanId);
  if (!r) return null;
  const s = sheetById(ss, r.sheetId);
  return s ? s.getName() : null;
}

/** A tab by its sheet id, or null. */
export function sheetById(ss: Spreadsheet, id: number | null): Sheet | null {
  if (id === null) return null;
  const sheets = ss.getSheets();
  for (const s of sheets) if (s.getSheetId() === id) return s;
  return null;
}
