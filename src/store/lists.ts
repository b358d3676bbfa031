import { sha256Tag } from '../apps-script';
/**
 * Where the lists sync keeps its state: every key, cache, sheet and lock name in one place.
 *
 * - The base (what sheet and service agreed on at the last sync) per list and per service account:
 *   a HIDDEN tab `_scan_base_<list>_<account>` (multipack as `mpack`, so every name fits the 31
 *   characters an .xlsx sheet name may have; the 33-character `_scan_base_multipack_<account>` of
 *   earlier versions is still read, and renamed on the next write), column A, as JSON chunks of [key, value] pairs up to
 *   45,000 characters a cell (Sheets holds 50,000), so 100,000 entries (~3 MB) take ~70 cells, one
 *   read and one write. Not in properties: a property store holds 500 KB.
 * - The account is a tag, never the key: 12 hex digits of SHA-256 of the API key
 *   (Utilities.computeDigest), so another account's base is never used and the key is not stored.
 * - Small bookkeeping in document properties, per account: the last result per list
 *   (`scan.lists.status.<account>`), the run under way (`scan.lists.run.<account>`), and when the
 *   automatic sync re-reads each list (`scan.lists.sched.<account>`: per list its interval, last
 *   sync, table fingerprint and pages; ~80 bytes a list; src/app/lists/schedule.ts).
 * - The user's automatic-sync choice: user property `scan.lists.auto.<spreadsheet id>`.
 * - The pacer's recent request times: the USER cache `scan.lists.pace.<account>` (2 minutes).
 * - One sync of a document at a time: the document lock (store/locks.ts), shared with imports.
 * - A support and test knob: script property `scan.listsTuning` {budgetMs, deadlineMs}.
 */
export const BASE_TAB_PREFIX = '_scan_base_';
export const STATUS_PREFIX = 'scan.lists.status.';
export const RUN_PREFIX = 'scan.lists.run.';
export const SCHEDULE_PREFIX = 'scan.lists.sched.';
export const AUTO_PREFIX = 'scan.lists.auto.';
export const PACE_PREFIX = 'scan.lists.pace.';
export const PACE_TTL_S = 120;
/** Script property {budgetMs, deadlineMs}: a support and test knob, absent normally. */
export const LISTS_TUNING_PROPERTY = 'scan.listsTuning';
/** Characters of JSON per base cell (Sheets' limit is 50,000 a cell). */
export const BASE_CHUNK_CHARS = 45_000;

/** 12 hex digits of SHA-256 of the key: names the account without holding the key. */
export function accountTag(apiKey: string): string {
  return sha256Tag(apiKey);
}

/** Short list names in base tab names: `_scan_base_` + list + `_` + 12 hex digits stays within 31 characters. */
const BASE_TAB_LIST: { [listId: string]: string } = { multipack: 'mpack' };
/** An .xlsx sheet name (what a Sheets download and the headless runner save) holds at most 31 characters. */
export const SHEET_NAME_MAX_XLSX = 31;

export function baseTabName(listId: string, account: string): string {
  return BASE_TAB_PREFIX + (BASE_TAB_LIST[listId] ?? listId) + '_' + account;
}

/**
 * Names the base tab had before it fitted 31 characters: the full old name (kept by Sheets) and that
 * name cut to 31 characters (what an .xlsx download of it holds). Empty when the name never changed.
 */
export function legacyBaseTabNames(listId: string, account: string): string[] {
  const old = BASE_TAB_PREFIX + listId + '_' + account;
  if (old === baseTabName(listId, account)) return [];
  return old.length > SHEET_NAME_MAX_XLSX ? [old, old.slice(0, SHEET_NAME_MAX_XLSX)] : [old];
}

/** The base tab of a list and account: its current name, else a legacy one; null when there is none. */
function findBaseSheet(ss: Spreadsheet, listId: string, account: string): GoogleAppsScript.Spreadsheet.Sheet | null {
  const sh = ss.getSheetByName(baseTabName(listId, account));
  if (sh) return sh;
  for (const name of legacyBaseTabNames(listId, account)) {
    const old = ss.getSheetByName(name);
    if (old) return old;
  }
  return null;
}

/** The base as cells of JSON (pure). */
export function encodeBase(entries: ReadonlyMap<string, string>): string[] {
  const cells: string[] = [];
  let part: string[] = [];
  let size = 2;
  entries.forEach((v, k) => {
    const item = JSON.stringify([k, v]);
    if (part.length && size + item.length + 1 > BASE_CHUNK_CHARS) {
      cells.push('[' + part.join(',') + ']');
      part = [];
      size = 2;
    }
    part.push(item);
    size += item.length + 1;
  });
  if (part.length) cells.push('[' + part.join(',') + ']');
  return cells;
}

/** Cells of JSON back into the base; an unreadable base is null (the next sync is a first sync, which only merges). */
export function decodeBase(cells: readonly unknown[]): Map<string, string> | null {
  const out = new Map<string, string>();
  try {
    for (const c of cells) {
      if (c === '' || c === null || c === undefined) continue;
      const arr = JSON.parse(String(c));
      if (!Array.isArray(arr)) return null;
      for (const pair of arr) {
        if (!Array.isArray(pair) || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') return null;
        out.set(pair[0], pair[1]);
      }
    }
  } catch (_e) {
    return null;
  }
  return out;
}

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/** The base of a list for an account; null when there is none (first sync). One read. */
export function readBase(ss: Spreadsheet, listId: string, account: string): Map<string, string> | null {
  const sh = findBaseSheet(ss, listId, account);
  if (!sh) return null;
  const n = sh.getLastRow();
  if (n < 1) return new Map();
  return decodeBase(
    sh
      .getRange(1, 1, n, 1)
      .getValues()
      .map((r) => r[0]),
  );
}

/** Replaces the base (one write, plus one clear when it shrank). The tab is made hidden on first use. */
export function writeBase(ss: Spreadsheet, listId: string, account: string, entries: ReadonlyMap<string, string>): void {
  const name = baseTabName(listId, account);
  let sh = findBaseSheet(ss, listId, account);
  if (!sh) {
    sh = ss.insertSheet(name);
    sh.hideSheet();
  } else if (sh.getName() !== name) sh.setName(name); // a legacy name moves to the one that fits an .xlsx file

  // JSON text never starts with = + - @ ' #, so it is stored as is (and is read back as the same text).
  const cells = encodeBase(entries).map((c) => [c]);
  if (!cells.length) cells.push(['[]']);
  // The grid is exactly the base (every cell counts against the spreadsheet's 10,000,000, empty ones too).
  const rows = sh.getMaxRows();
  if (rows < cells.length) sh.insertRowsAfter(rows, cells.length - rows);
  sh.getRange(1, 1, cells.length, 1).setValues(cells);
  if (rows > cells.length) sh.deleteRows(cells.length + 1, rows - cells.length);
  if (sh.getMaxColumns() > 1) sh.deleteColumns(2, sh.getMaxColumns() - 1);
}

/** Status line of a list this account never synced. */
export const ACCOUNT_FALLBACK_NOTE = 'not synced yet with this account';
