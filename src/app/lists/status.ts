/**
 * What the Lists view shows: per list its last sync (time, words, state, entries) for this
 * account, kept in a document property and updated by every sync and row action; whether a run is
 * unfinished; and whether the automatic sync runs, or why not and until when.
 */
import { activeSpreadsheet, documentProperties, formatInSpreadsheetZone } from '../../apps-script';
import { loadSettings } from '../context';
import { ACCOUNT_FALLBACK_NOTE, accountTag, RUN_PREFIX, STATUS_PREFIX } from '../../store/lists';
import { LIST_KINDS } from './kinds';
import { IMPORT_RESERVE_MS, MIN_SYNC_MS } from './schedule';
import { autoSyncEnabled } from '../trigger/auto-sync';
import { ensureImportTrigger, triggerNotice, type TriggerState } from '../trigger/install';
import { readNoDocument } from '../trigger/no-document';
import { listsQuotaNotice, readTriggerDay, TRIGGER_DAY_BUDGET_MS, TRIGGER_RESERVE_MS } from '../trigger/quota';
import type { ListReport, ListsStatus, ListState } from './protocol';

export function readJson<T>(props: GoogleAppsScript.Properties.Properties, key: string): T | null {
  const t = props.getProperty(key);
  if (!t) return null;
  try {
    return JSON.parse(t) as T;
  } catch (_e) {
    return null;
  }
}

/** `at` '' : the list was written by a row action but never synced by this account. */
type StatusMap = { [list: string]: { at: string; result: string; state: ListState | null; count: number } };

/**
 * A row action (or its undo) wrote a list, in the sheet and at the service alike: the status says so,
 * with the entries the table has now, so the Lists view no longer says "not synced yet" over a
 * filled list. The last sync's time and state stay.
 */
export function noteListWritten(account: string, list: string, count: number, result: string): void {
  updateStatus(account, (status) => {
    const prev = status[list];
    status[list] = { at: prev ? prev.at : '', result: result.slice(0, 300), state: prev ? prev.state : null, count };
  });
}

export function saveStatus(account: string, reports: ListReport[]): void {
  updateStatus(account, (status) => {
    const at = new Date().toISOString();
    for (const r of reports) {
      if (r.state === 'preview') continue;
      status[r.list] = {
        at,
        result: r.message.slice(0, 300),
        state: r.state,
        count:
          r.state === 'synced' || r.state === 'unchanged' || r.state === 'conflicts'
            ? r.sheetEntries + r.toSheet.added - r.toSheet.deleted
            : r.sheetEntries,
      };
    }
  });
}

/** One read and one write of the account's status property around `change`. */
function updateStatus(account: string, edit: (status: StatusMap) => void): void {
  const props = documentProperties();
  const status = readJson<StatusMap>(props, STATUS_PREFIX + account) || {};
  edit(status);
  props.setProperty(STATUS_PREFIX + account, JSON.stringify(status));
}

/** The Lists view's status (the hourly trigger made again when the automatic sync is on and it is missing). */
export function readListsStatus(): ListsStatus {
  // "On" only with the hourly trigger in place: the user's choice stays, and the trigger is made
  // again here when it is missing (refused before for the 20-trigger limit, or removed).
  const auto: TriggerState | 'off' = autoSyncEnabled() ? ensureImportTrigger() : 'off';
  const ss = activeSpreadsheet();
  const s = loadSettings();
  const account = s.apiKey ? accountTag(s.apiKey) : '';
  const props = documentProperties();
  const status = account ? readJson<StatusMap>(props, STATUS_PREFIX + account) || {} : {};
  return {
    lists: LIST_KINDS.map((k) => {
      const range = ss.getRangeByName(k.rangeName);
      const st = status[k.id];
      return {
        list: k.id,
        title: k.title,
        rangeName: k.rangeName,
        sheetName: range ? range.getSheet().getName() : null,
        count: st ? st.count : null,
        lastSync: st && st.at ? st.at : null,
        lastResult: st ? st.result : ACCOUNT_FALLBACK_NOTE,
        state: st ? st.state : null,
      };
    }),
    autoSync: auto === 'on',
    unfinished: account ? props.getProperty(RUN_PREFIX + account) !== null : false,
    notice: auto === 'on' ? autoSyncNotice() : auto === 'off' ? null : triggerNotice(auto),
  };
}
/** Why the automatic sync is not running now, and until when (the Lists view shows it), or null. */
function autoSyncNotice(): string | null {
  const t = Date.now();
  const fmt = (ms: number, pattern: string) => formatInSpreadsheetZone(new Date(ms), pattern);
  const stopped = listsQuotaNotice(t, fmt);
  if (stopped) return stopped;
  // The hourly trigger ran without this spreadsheet (../trigger/no-document.ts): nothing was synced.
  const noDoc = readNoDocument();
  if (noDoc)
    return `Automatic sync did not run: the hourly trigger ran at ${fmt(noDoc.at, 'HH:mm')} on ${fmt(noDoc.at, 'MMM d')} without access to this spreadsheet (Google did not open it for the trigger). Press Sync now to sync.`;
  const day = readTriggerDay(t);
  if (TRIGGER_DAY_BUDGET_MS - day.ms - TRIGGER_RESERVE_MS - IMPORT_RESERVE_MS >= MIN_SYNC_MS) return null;
  const until = day.s + 24 * 3600_000;
  return `Automatic sync waits: the rest of today's trigger time (Google allows 90 minutes a day) is kept for imports. It resumes after ${fmt(until, 'HH:mm')} on ${fmt(until, 'MMM d')}.`;
}
