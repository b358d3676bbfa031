/**
 * The last row actions of a user in one spreadsheet, for Undo: the USER cache (a session's memory,
 * 6 hours at most; per user, so one editor never undoes another's), key
 * `scan.actions.<spreadsheet id>`, one JSON value of at most ~99 KB (the cache's limit). The newest
 * actions are kept; older ones are dropped when the value would grow past the limit or past
 * ACTIONS_KEPT. An action too large to keep is simply not undoable (the caller says so).
 */
import { CACHE_VALUE_MAX_BYTES } from './keys';
import { parseJson } from '../api/read';
import { userCache } from '../apps-script';
import { utf8Length } from '../domain/sheet/safe';

export const ACTIONS_PREFIX = 'scan.actions.';
export const ACTIONS_TTL_S = 6 * 3600;
export const ACTIONS_KEPT = 10;

export interface ActionRecord {
  id: string;
  /** ISO time. */
  at: string;
  action: string;
  list: string;
  summary: string;
  /** [key, before, after] per changed entry; null: no entry. */
  changes: Array<[string, string | null, string | null]>;
  undone?: boolean;
}

function key(spreadsheetId: string): string {
  return ACTIONS_PREFIX + spreadsheetId;
}

export function readActions(spreadsheetId: string): ActionRecord[] {
  try {
    const v = parseJson(userCache().get(key(spreadsheetId)));
    return Array.isArray(v) ? (v as ActionRecord[]) : [];
  } catch (_e) {
    return [];
  }
}

/** Keeps the newest records that fit; answers whether the newest (the first record) was kept. */
export function writeActions(spreadsheetId: string, records: ActionRecord[]): boolean {
  // UTF-8 takes up to 3 bytes a character: the blob is measured only when that could matter.
  const bytes = (t: string) => (t.length * 3 <= CACHE_VALUE_MAX_BYTES ? t.length : utf8Length(t));
  let kept = records.slice(0, ACTIONS_KEPT);
  let text = JSON.stringify(kept);
  while (kept.length && bytes(text) > CACHE_VALUE_MAX_BYTES) {
    kept = kept.slice(0, -1);
    text = JSON.stringify(kept);
  }
  userCache().put(key(spreadsheetId), text, ACTIONS_TTL_S);
  return kept.length > 0 && records.length > 0 && kept[0].id === records[0].id;
}
