/**
 * The sidebar's contract for the Lists view (re-exported from ../protocol.ts). Plain data only.
 */
/** The six lists, by id: named once, in contract/lists.ts (the sidebar takes it from here). */
export type { ListId } from '../../../contract/lists';
import type { ListId } from '../../../contract/lists';

export interface ListCounts {
  added: number;
  changed: number;
  deleted: number;
}

export interface ListConflictView {
  /** The entry's key, as resolveConflicts takes it. */
  key: string;
  /** The key for people ("US · B000000001"). */
  label: string;
  /** Sheet row of the entry, when it is in the sheet. */
  row: number | null;
  base: string | null;
  sheet: string | null;
  service: string | null;
}

export interface ListRefusedView {
  row: number;
  reason: string;
}

/** One entry a sync changes (or would), for people. */
export interface ListEntryView {
  /** Where the change goes: the service, or the sheet's table. */
  to: 'service' | 'sheet';
  change: 'added' | 'changed' | 'deleted';
  /** The entry for people ("US · Acme"), cut to 80 characters. */
  label: string;
}

export type ListState = 'not-set-up' | 'problem' | 'preview' | 'synced' | 'blocked' | 'conflicts' | 'unchanged';

export interface ListReport {
  list: ListId;
  title: string;
  rangeName: string;
  sheetName: string | null;
  state: ListState;
  /** One line for people. */
  message: string;
  firstSync: boolean;
  sheetEntries: number;
  serviceEntries: number;
  toService: ListCounts;
  toSheet: ListCounts;
  conflictCount: number;
  /** At most 100 listed. */
  conflicts: ListConflictView[];
  refusedCount: number;
  /** At most 100 listed. */
  refused: ListRefusedView[];
  /** The first entries changed (deletions first), at most 20; the counts above give how many more. */
  entries: ListEntryView[];
  /** Deletions the guard counted (blocked when state is 'blocked'). */
  serviceDeletions: number;
  sheetDeletions: number;
}

export interface SyncReport {
  /** false: the time ran out; call syncNow again to continue. */
  done: boolean;
  preview: boolean;
  lists: ListReport[];
  message: string;
  /** Requests made by this call and 429 answers among them. */
  requests: number;
  rateLimited: number;
}

export interface ListStatusView {
  list: ListId;
  title: string;
  rangeName: string;
  sheetName: string | null;
  /** Entries at the last sync (null: never synced by this account). */
  count: number | null;
  /** ISO time of the last sync, or null. */
  lastSync: string | null;
  lastResult: string;
  state: ListState | null;
}

export interface ListsStatus {
  lists: ListStatusView[];
  /** The automatic sync is on AND its hourly trigger is in place (never true when Google refused the trigger: `notice` says why). */
  autoSync: boolean;
  /** A sync cut off by the time limit waits to be continued. */
  unfinished: boolean;
  /** Why the automatic sync is not running now (a daily quota of Google, the day's trigger time kept for imports, or no trigger: Google's 20 per person) and what to do; null otherwise. */
  notice: string | null;
}

/** The Lists view's server functions (ServerFunctions in ../protocol.ts extends this). */
export interface ListsServerFunctions {
  /** "Set up lists": a tab with a header row and a named range for every list that has none (a user may name their own table instead). */
  setUpLists(): ListsStatus;
  /** Per list: named range and tab, entries, and this account's last sync; the automatic-sync choice; a run cut off that waits to be continued. Retries a refused trigger while automatic sync is chosen. */
  getListsStatus(): ListsStatus;
  /** What a sync would do, per list: to send, to write, conflicts (both values), refused rows (sheet row, reason), deletions the guard counts. Changes nothing. */
  previewSync(): SyncReport;
  /**
   * Three-way sync of every list with the user's own key, one sync per document (document lock). A
   * list that would delete more than 50 entries and 20 % of a side is blocked until `confirmDeletions`.
   * done:false: call again to continue. Design: src/app/lists/README.md.
   */
  syncNow(confirmDeletions?: boolean): SyncReport;
  /** Keeps one side's value for those conflicts, then syncs that list. */
  resolveConflicts(list: ListId, keys: string[] | 'all', side: 'sheet' | 'service'): SyncReport;
  /** Selects a sheet row (the links of refused rows). */
  selectRow(sheetName: string, row: number): { ok: boolean };
  /**
   * Automatic sync on the one hourly trigger (shared with the import, kept while on). `autoSync` is
   * true only with the trigger in place: when Google refuses it the choice is kept, `notice` says why
   * and what frees one, and each getListsStatus tries again.
   */
  setAutoSync(on: boolean): ListsStatus;
  /**
   * The entries a sync would delete at the service because their rows left the sheet (what the deletion
   * guard stops) are put back into the list's table (the named range), with the service's values.
   */
  restoreListEntries(list: ListId): RestoreResult;
}

export interface RestoreResult {
  restored: number;
  /** Where they went and what comes next, for people. */
  message: string;
  status: ListsStatus;
}
