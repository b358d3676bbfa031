/**
 * The lists' sidebar server functions, thin: each checks its arguments and calls the run
 * (run.ts), one list (sync-list.ts) or the status (status.ts). The menu's "Sync lists now" is
 * menu.ts; the hourly trigger's automatic sync is hourly-sync.ts.
 */
import { activeSpreadsheet, userProperties } from '../../apps-script';
import { asSidebarCall } from '../context';
import { autoKey } from '../trigger/auto-sync';
import { LIST_KINDS, listKind } from './kinds';
import type { Side } from './plan';
import { createTable } from './sheet';
import { gasSyncEnv } from './environment';
import { syncList } from './sync-list';
import { runSync, withListsLock } from './run';
import { readListsStatus } from './status';
import type { ListsStatus, RestoreResult, SyncReport } from './protocol';

/** "Set up lists": a tab with header and named range for each list that has none. */
export function setUpLists(): ListsStatus {
  return asSidebarCall(() => {
    const ss = activeSpreadsheet();
    for (const kind of LIST_KINDS) if (!ss.getRangeByName(kind.rangeName)) createTable(ss, kind);
    return getListsStatus();
  });
}

export function previewSync(): SyncReport {
  return asSidebarCall(() => withListsLock(() => runSync(gasSyncEnv(), { apply: false, confirmDeletions: false })));
}

export function syncNow(confirmDeletions?: boolean): SyncReport {
  return asSidebarCall(() => withListsLock(() => runSync(gasSyncEnv(), { apply: true, confirmDeletions: confirmDeletions === true })));
}

/** Keeps the sheet's or the service's value for the given conflicting entries (or all) of one list, and syncs that list. */
export function resolveConflicts(list: string, keys: string[] | 'all', side: 'sheet' | 'service'): SyncReport {
  return asSidebarCall(() => {
    if (side !== 'sheet' && side !== 'service') throw new Error('Choose "sheet" or "service".');
    const kind = listKind(list);
    const resolutions: { [key: string]: Side } = {};
    if (keys === 'all') resolutions['*'] = side;
    else if (Array.isArray(keys)) for (const k of keys) resolutions[String(k)] = side;
    else throw new Error('Name the entries to resolve, or "all".');
    return withListsLock(() => runSync(gasSyncEnv(), { apply: true, confirmDeletions: false, only: kind.id, resolutions }));
  });
}

export function getListsStatus(): ListsStatus {
  return asSidebarCall(readListsStatus);
}

/** Puts the entries the deletion guard stopped (rows that left the sheet, still at the service) back into the list's table. */
export function restoreListEntries(list: string): RestoreResult {
  return asSidebarCall(() => {
    const kind = listKind(list);
    const r = withListsLock(() => syncList(gasSyncEnv(), kind, { apply: false, confirmDeletions: false, restore: true }));
    if (r.state === 'not-set-up' || r.state === 'problem') throw new Error(r.message);
    const n = r.toSheet.added;
    const message = n
      ? `${n} ${n === 1 ? 'entry was' : 'entries were'} put back into ${kind.rangeName} (tab ${r.sheetName}). The next sync deletes nothing there.`
      : `Nothing to put back into ${kind.rangeName}: every entry of the service is in the sheet.`;
    return { restored: n, message, status: getListsStatus() };
  });
}

/** Selects a row of a tab (a refused row's link in the sidebar). */
export function selectRow(sheetName: string, row: number): { ok: boolean } {
  return asSidebarCall(() => {
    const sh = activeSpreadsheet().getSheetByName(String(sheetName));
    const r = Math.floor(Number(row));
    if (!sh || !(r >= 1)) throw new Error(`There is no row ${row} in a tab named "${sheetName}".`);
    sh.activate();
    sh.getRange(r, 1, 1, Math.max(1, sh.getLastColumn())).activate();
    return { ok: true };
  });
}

/** Turns the automatic hourly sync on or off for this user and document (shares the import trigger). */
export function setAutoSync(on: boolean): ListsStatus {
  return asSidebarCall(() => {
    // The choice is kept even when Google refuses the trigger: the status then says it is not
    // running and why, and the next Lists visit tries again.
    if (on) userProperties().setProperty(autoKey(), '1');
    else userProperties().deleteProperty(autoKey());
    return getListsStatus();
  });
}
