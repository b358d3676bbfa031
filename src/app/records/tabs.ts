/**
 * Which tabs of this spreadsheet belong to an imported scan: a small record per scan in the document
 * properties (tabKey in src/store/keys.ts), by sheet id, so a renamed tab is still found.
 */
import { tabKey, tabKeyIds } from '../../store/keys';
import { record } from '../../store/records';
import { readErrorsNote, readScanNote } from '../../domain/result-tabs/changes';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Properties = GoogleAppsScript.Properties.Properties;

/** Where an imported scan's tabs are (document properties, per scan). */
export interface TabRecord {
  /** The full result tab (-1: none yet, only a filtered one). */
  sheetId: number;
  errorsSheetId: number | null;
  /** The tab of the last filtered import, kept apart from the full one. */
  filteredSheetId?: number;
  /** What the full import found, in words (summaryText), for the Scans list. */
  summary?: string;
  /** The scan's marketplace code (row actions key their entries by it); older records lack it. */
  marketplace?: string;
  /** Product rows the full import wrote: a tab with another count was edited (Compare then reads the service). */
  rows?: number;
  /** The full import's "<name> – Overview" tab (issue 36); older records lack it. */
  overviewSheetId?: number;
}

const TABS = record<TabRecord, [number]>(tabKey, {
  decode: (v) => {
    const r = v as TabRecord | null;
    return r && typeof r.sheetId === 'number' ? r : null;
  },
});

export function readTabRecord(props: Properties, scanId: number): TabRecord | null {
  return TABS.get(props, scanId);
}

/**
 * Every scan's tab record in ONE property read (getProperties): reading them one by one made each
 * preview, start and import growth cost a read per scan ever imported here (200 scans: past the
 * 50,000 property reads a day of Google's quotas page within one day).
 */
export function allTabRecords(props: Properties): Array<{ scanId: number; record: TabRecord }> {
  const all = props.getProperties();
  const out: Array<{ scanId: number; record: TabRecord }> = [];
  for (const scanId of tabKeyIds(Object.keys(all))) {
    const record = TABS.parse(all[tabKey(scanId)]);
    if (record) out.push({ scanId, record });
  }
  return out;
}

export function writeTabRecord(props: Properties, scanId: number, record: TabRecord): void {
  TABS.put(props, record, scanId);
}

export function forgetTabRecord(props: Properties, scanId: number): void {
  TABS.remove(props, scanId);
}

/** The result tab of a scan when it was imported and still exists (see tabFinder). */
export function resultSheetName(ss: Spreadsheet, props: Properties, scanId: number, find: TabFinder = tabFinder(ss)): string | null {
  const r = readTabRecord(props, scanId);
  const s = r ? sheetById(ss, r.sheetId) || sheetById(ss, r.filteredSheetId ?? null) : null;
  if (s) return s.getName();
  const t = find(scanId);
  return t ? (t.full || t.filtered)!.getName() : null;
}

/** A scan's tabs found by the notes the import writes on their first header cell. */
export interface NotedTabs {
  full: Sheet | null;
  filtered: Sheet | null;
  errors: Sheet | null;
  marketplace: string;
  rows: number;
}
export type TabFinder = (scanId: number) => NotedTabs | null;

/**
 * The tabs of a scan by the note on their first header cell, for a document whose records are gone
 * (saved as .xlsx and opened again, a copy of the spreadsheet: the notes travel with the tabs, the
 * document properties do not). Reads every tab's note once, on the first question (one call a tab).
 */
export function tabFinder(ss: Spreadsheet): TabFinder {
  let found: Map<number, NotedTabs> | null = null;
  return (scanId) => {
    if (!found) {
      found = new Map();
      const entry = (id: number) => {
        let t = found!.get(id);
        if (!t) found!.set(id, (t = { full: null, filtered: null, errors: null, marketplace: '', rows: 0 }));
        return t;
      };
      for (const sheet of ss.getSheets()) {
        const note = sheet.getRange(1, 1).getNote();
        if (!note) continue;
        const result = readScanNote(note);
        if (result) {
          const t = entry(result.scanId);
          if (result.filtered) t.filtered = t.filtered || sheet;
          else if (!t.full) {
            t.full = sheet;
            t.marketplace = result.marketplace;
            t.rows = result.rows;
          }
          continue;
        }
        const errorsOf = readErrorsNote(note);
        if (errorsOf !== null) entry(errorsOf).errors = entry(errorsOf).errors || sheet;
      }
    }
    const t = found.get(scanId);
    return t && (t.full || t.filtered) ? t : null;
  };
}

/**
 * A scan imported here whose tab record is gone but whose tabs are still here (found by their notes):
 * the record is written again, so a new import replaces those tabs instead of making a second copy.
 */
export function adoptNotedTabs(ss: Spreadsheet, props: Properties, scanId: number): void {
  const r = readTabRecord(props, scanId);
  if (r && (sheetById(ss, r.sheetId) || sheetById(ss, r.filteredSheetId ?? null))) return;
  const t = tabFinder(ss)(scanId);
  if (!t) return;
  writeTabRecord(props, scanId, {
    sheetId: t.full ? t.full.getSheetId() : -1,
    errorsSheetId: t.full && t.errors ? t.errors.getSheetId() : null,
    ...(t.filtered ? { filteredSheetId: t.filtered.getSheetId() } : {}),
    ...(t.marketplace ? { marketplace: t.marketplace } : {}),
    ...(t.full ? { rows: t.rows } : {}),
  });
}

/** The summary of a scan's full import here, or null. */
export function resultSummary(props: Properties, scanId: number): string | null {
  const r = readTabRecord(props, scanId);
  return r && typeof r.summary === 'string' ? r.summary : null;
}

/** A tab by its sheet id, or null. */
export function sheetById(ss: Spreadsheet, id: number | null): Sheet | null {
  if (id === null) return null;
  const sheets = ss.getSheets();
  for (const s of sheets) if (s.getSheetId() === id) return s;
  return null;
}

/** The result tabs (full and filtered) of this document, with their scan's record. */
export function resultTabs(ss: Spreadsheet, props: Properties): Array<{ scanId: number; sheet: Sheet; record: TabRecord }> {
  const out: Array<{ scanId: number; sheet: Sheet; record: TabRecord }> = [];
  const sheets = ss.getSheets();
  for (const { scanId, record } of allTabRecords(props)) {
    for (const id of [record.sheetId, record.filteredSheetId]) {
      const s = id === undefined ? null : sheets.find((x) => x.getSheetId() === id);
      if (s) out.push({ scanId, sheet: s, record });
    }
  }
  return out;
}
