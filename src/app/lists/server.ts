/**
 * The lists sync's server functions (sidebar, menu, trigger) and its run: per list, read the table,
 * the base and the service, plan (plan.ts), then apply: sends first, then ONE sheet write, then
 * the base. Re-planning after a cut-off gives only the work left (plan.ts), so the checkpoint is
 * small: the lists finished in the run under way. One sync per document at a time (document lock).
 */
import { BulkPacer, type PaceStore } from '../../api/bulk-pacer';
import { OutOfTimeError, type PacedContext } from '../../api/bulk';
import { ApiProblemError } from '../../api/problems';
import {
  activeSpreadsheet,
  clientDeps,
  documentProperties,
  formatInSpreadsheetZone,
  userProperties,
  scriptProperties,
  userCache,
  spreadsheetUi,
} from '../../apps-script';
import { asSidebarCall, loadSettings, serviceSettings } from '../context';
import {
  ACCOUNT_FALLBACK_NOTE,
  accountTag,
  LISTS_TUNING_PROPERTY,
  PACE_PREFIX,
  PACE_TTL_S,
  BASE_CHUNK_CHARS,
  readBase,
  RUN_PREFIX,
  SCHEDULE_PREFIX,
  STATUS_PREFIX,
  writeBase,
} from '../../store/lists';
import { LIST_KINDS, listKind, readRows, SEP, splitKey, type ListKind } from './kinds';
import { guardVerdict, planSync, sameEntries, type Side } from './plan';
import { coverRows, createTable, findTable, noChanges, tableFingerprint, tableRows, writeTable, type SheetChanges } from './sheet';
import { afterSync, decodeSchedule, dueLists, IMPORT_RESERVE_MS, MIN_SYNC_MS, type Schedule } from './schedule';
import { applySends, readServiceEntries } from './service';
import { autoKey, autoSyncEnabled } from './auto';
import { ensureImportTrigger, triggerNotice, type TriggerState } from '../trigger/install';
import { withDocumentLock } from '../../store/locks';
import { readNoDocument } from '../trigger/no-document';
import { dailyQuotaOf } from '../trigger/quota-errors';
import { listsQuotaNotice, readTriggerDay, TRIGGER_DAY_BUDGET_MS, TRIGGER_RESERVE_MS } from '../trigger/quota';
import { refreshResultTabs } from '../actions/marks';
import { CELL_MAX_CHARS, cutText } from '../../domain/sheet/safe';
import type { ListReport, ListsStatus, ListState, RestoreResult, SyncReport } from './protocol';

/** What a run allows itself within Google's 6 minutes (the rest: the sheet write, the base, the checkpoint). */
export const DEFAULT_TUNING = { budgetMs: 4 * 60 * 1000, deadlineMs: 5 * 60 * 1000 };
const LISTED = 100;
/** Problems that fail one list, not the sync: the list reports them and the others go on. */
const LIST_PROBLEMS = ['validation', 'forbidden', 'not-found', 'bad-response'];

export interface SyncEnv {
  ss: GoogleAppsScript.Spreadsheet.Spreadsheet;
  account: string;
  marketplace: string;
  ctx: PacedContext;
  startedAt: number;
  budgetMs: number;
  stats: { requests: number; rateLimited: number };
  /** The automatic sync (its schedule lengthens a quiet list's interval; schedule.ts). */
  automatic?: boolean;
  /** Each list's table fingerprint as this run read it. */
  fingerprints: Map<string, string>;
}

function readTuning(): { budgetMs: number; deadlineMs: number } {
  const raw = scriptProperties().getProperty(LISTS_TUNING_PROPERTY);
  const t = { ...DEFAULT_TUNING };
  if (raw) {
    try {
      const v = JSON.parse(raw);
      if (typeof v.budgetMs === 'number' && v.budgetMs > 0) t.budgetMs = v.budgetMs;
      if (typeof v.deadlineMs === 'number' && v.deadlineMs > 0) t.deadlineMs = v.deadlineMs;
    } catch (_e) {
      // unreadable knob: defaults
    }
  }
  return t;
}

function paceStore(account: string): PaceStore {
  const cache = userCache();
  const key = PACE_PREFIX + account;
  return {
    load() {
      try {
        const v = JSON.parse(cache.get(key) || '[]');
        return Array.isArray(v) ? v : [];
      } catch (_e) {
        return [];
      }
    },
    save(times) {
      cache.put(key, JSON.stringify(times), PACE_TTL_S);
    },
  };
}

export function gasSyncEnv(): SyncEnv {
  const s = loadSettings();
  const settings = serviceSettings(s);
  const deps = clientDeps();
  const startedAt = Date.now();
  const tuning = readTuning();
  const account = accountTag(settings.apiKey);
  const stats = { requests: 0, rateLimited: 0 };
  const pacer = new BulkPacer(deps.now, deps.sleep, paceStore(account));
  return {
    ss: activeSpreadsheet(),
    account,
    marketplace: s.marketplace,
    ctx: { settings, deps, pacer, deadline: startedAt + tuning.deadlineMs, stats },
    startedAt,
    budgetMs: tuning.budgetMs,
    stats,
    fingerprints: new Map(),
  };
}

const zero = () => ({ added: 0, changed: 0, deleted: 0 });

function emptyReport(kind: ListKind, state: ListState, message: string): ListReport {
  return {
    list: kind.id,
    title: kind.title,
    rangeName: kind.rangeName,
    sheetName: null,
    state,
    message,
    firstSync: false,
    sheetEntries: 0,
    serviceEntries: 0,
    toService: zero(),
    toSheet: zero(),
    conflictCount: 0,
    conflicts: [],
    refusedCount: 0,
    refused: [],
    entries: [],
    serviceDeletions: 0,
    sheetDeletions: 0,
  };
}

/** Entries named in a report (the counts say how many there are in all). */
const LISTED_ENTRIES = 20;

/** A value for people: parts joined by " · ", long text cut (the sidebar shows it; the sheet has it all). */
const readable = (s: string | null) => {
  if (s === null) return null;
  const t = s.split(SEP).join(' · ');
  return t.length > 500 ? t.slice(0, 499) + '…' : t;
};
function label(kind: ListKind, key: string, value: string | null): string {
  if (kind.id === 'notes') {
    const v = value ? splitKey(value) : [];
    return (v.length >= 2 ? v[0] + ' · ' + v[1] : '') + (key.indexOf('id:') === 0 ? ' · note ' + key.slice(3) : ' · new note');
  }
  return readable(key) as string;
}

export interface ListOptions {
  apply: boolean;
  confirmDeletions: boolean;
  resolutions?: { [key: string]: Side };
  /** Instead of syncing: put the entries the sync would delete at the service back into the sheet. */
  restore?: boolean;
}

/** One list: read, plan and (when asked) apply. Throws OutOfTimeError when the time ran out. */
export function syncList(env: SyncEnv, kind: ListKind, opts: ListOptions): ListReport {
  const found = findTable(env.ss, kind);
  if (!found.ok) return emptyReport(kind, found.missing ? 'not-set-up' : 'problem', found.message);
  const t = found.table;
  env.fingerprints.set(kind.id, t.fingerprint);
  const report = emptyReport(kind, 'preview', '');
  report.sheetName = t.sheet.getName();
  const hasMarketplace = t.columns.marketplace !== undefined;
  const read = readRows(kind, tableRows(t), env.marketplace);
  const base = readBase(env.ss, kind.id, env.account);
  const marketplaces = new Set<string>([env.marketplace]);
  read.entries.forEach((_v, k) => marketplaces.add(splitKey(k)[0]));
  if (base) base.forEach((_v, k) => marketplaces.add(splitKey(k)[0]));
  const serviceAll = readServiceEntries(env.ctx, kind.id, hasMarketplace ? null : env.marketplace, Array.from(marketplaces).sort());
  // A table without a Marketplace column holds the default marketplace only.
  const service = new Map<string, string>();
  serviceAll.forEach((v, k) => {
    const mp = kind.id === 'notes' ? splitKey(v)[0] : splitKey(k)[0];
    if (hasMarketplace || mp === env.marketplace) service.set(k, v);
  });
  // Notes: a new row (no id) equal to a note on the service that no row names is that note
  // (a first sync, or a create whose id did not reach the sheet before a cut-off).
  const sheet = new Map(read.entries);
  const adoptedRows = new Map<number, string>();
  if (kind.id === 'notes') {
    const free = new Map<string, string[]>();
    service.forEach((v, k) => {
      if (!sheet.has(k)) free.set(v, (free.get(v) || []).concat([k]));
    });
    read.entries.forEach((v, k) => {
      if (k.indexOf('new:') !== 0) return;
      const ids = free.get(v);
      if (!ids || !ids.length) return;
      const id = ids.shift() as string;
      sheet.delete(k);
      sheet.set(id, v);
      const row = Number(k.slice(4));
      adoptedRows.set(row, id);
      read.rowsOf.set(id, [row]);
    });
  }
  const tooLong = oversizedEntries(kind, service, sheet, read.rowsOf);
  for (const o of tooLong) read.held.add(o.key);
  const plan = planSync({ base, sheet, service, held: read.held, resolutions: opts.resolutions });
  const guard = guardVerdict(plan);
  report.firstSync = base === null;
  report.sheetEntries = sheet.size;
  report.serviceEntries = service.size;
  for (const e of plan.sendUpsert) service.has(e.key) ? report.toService.changed++ : report.toService.added++;
  report.toService.deleted = plan.sendDelete.length;
  for (const e of plan.writeUpsert) sheet.has(e.key) ? report.toSheet.changed++ : report.toSheet.added++;
  report.toSheet.deleted = plan.writeDelete.length;
  report.conflictCount = plan.conflicts.length;
  report.conflicts = plan.conflicts.slice(0, LISTED).map((c) => ({
    key: c.key,
    label: label(kind, c.key, c.sheet ?? c.service ?? c.base),
    row: (read.rowsOf.get(c.key) || [null])[0],
    base: readable(c.base),
    sheet: readable(c.sheet),
    service: readable(c.service),
  }));
  const refused = read.refused.concat(tooLong.filter((o) => o.row !== null).map((o) => ({ row: o.row as number, reason: o.reason })));
  refused.sort((a, b) => a.row - b.row);
  report.refusedCount = refused.length;
  report.refused = refused.slice(0, LISTED);
  // Entries of the service too long for the sheet that no row holds: named in the list's message.
  const unwritten = tooLong.filter((o) => o.row === null);
  const cut = (t: string) => (t.length > 80 ? cutText(t, 79) + '…' : t);
  const named: ListReport['entries'] = [];
  const name = (to: 'service' | 'sheet', change: 'added' | 'changed' | 'deleted', key: string, value: string | null) => {
    if (named.length < LISTED_ENTRIES) named.push({ to, change, label: cut(label(kind, key, value)) });
  };
  // Deletions first: they are what a seller checks before confirming.
  for (const e of plan.sendDelete) name('service', 'deleted', e.key, e.value);
  for (const key of plan.writeDelete) name('sheet', 'deleted', key, sheet.get(key) ?? null);
  for (const e of plan.sendUpsert) name('service', service.has(e.key) ? 'changed' : 'added', e.key, e.value);
  for (const e of plan.writeUpsert) name('sheet', sheet.has(e.key) ? 'changed' : 'added', e.key, e.value);
  report.entries = named;
  report.serviceDeletions = guard.serviceDeletions;
  report.sheetDeletions = guard.sheetDeletions;
  const work = plan.sendUpsert.length + plan.sendDelete.length + plan.writeUpsert.length + plan.writeDelete.length;
  if (opts.restore) {
    // The rows that left the sheet come back with the service's values; the next sync then has nothing to delete.
    const back: SheetChanges = { update: new Map(), remove: new Set(), append: [] };
    for (const e of plan.sendDelete) back.append.push(kind.cells(e.key, service.get(e.key) ?? e.value));
    if (back.append.length) writeTable(env.ss, kind, t, back);
    report.state = 'unchanged';
    report.toService = zero();
    report.toSheet = { added: back.append.length, changed: 0, deleted: 0 };
    report.message = summary(report, false);
    return report;
  }
  if (guard.blocked && !opts.confirmDeletions) {
    report.state = 'blocked';
    report.message = guard.message;
    return report;
  }
  if (!opts.apply) {
    report.state = 'preview';
    report.message = summary(report, true) + unwrittenText(unwritten);
    return report;
  }
  // 1. the service
  const sent = applySends(env.ctx, kind.id, plan.sendUpsert, plan.sendDelete, service);
  const nextBase = plan.nextBase;
  const changes: SheetChanges = { update: new Map(), remove: new Set(), append: [] };
  sent.renamed.forEach((id, key) => {
    const v = nextBase.get(key);
    nextBase.delete(key);
    if (v !== undefined) nextBase.set(id, v);
    for (const row of read.rowsOf.get(key) || (key.indexOf('new:') === 0 ? [Number(key.slice(4))] : []))
      changes.update.set(row, { id: id.slice(3) });
  });
  adoptedRows.forEach((id, row) => changes.update.set(row, { id: id.slice(3) }));
  // 2. the sheet, in one write
  for (const e of plan.writeUpsert) {
    const cells = kind.cells(e.key, e.value);
    const rows = read.rowsOf.get(e.key);
    if (rows && rows.length) for (const r of rows) changes.update.set(r, cells);
    else changes.append.push(cells);
  }
  for (const key of plan.writeDelete) for (const r of read.rowsOf.get(key) || []) changes.remove.add(r);
  if (!noChanges(changes)) writeTable(env.ss, kind, t, changes);
  else coverRows(env.ss, kind, t);
  // 3. the base
  // An empty base means the same as none (both merge), so an empty list costs no tab.
  if (!sameEntries(base, nextBase) && !(base === null && nextBase.size === 0)) writeBase(env.ss, kind.id, env.account, nextBase);
  report.state = plan.conflicts.length ? 'conflicts' : work ? 'synced' : 'unchanged';
  report.message = summary(report, false) + unwrittenText(unwritten);
  return report;
}

interface Oversized {
  key: string;
  /** The sheet row that holds the entry's key, or null (the entry would be a new row). */
  row: number | null;
  reason: string;
}

/**
 * Entries of the service that the sheet cannot hold: a cell over Sheets' 50,000 characters (a note
 * or brand of 60,000), or a base record over a base cell. Each is HELD (not written, not sent, not
 * deleted, base kept), so one such entry fails that entry only, never the list's one sheet write.
 */
function oversizedEntries(
  kind: ListKind,
  service: ReadonlyMap<string, string>,
  sheet: ReadonlyMap<string, string>,
  rowsOf: ReadonlyMap<string, number[]>,
): Oversized[] {
  const out: Oversized[] = [];
  service.forEach((v, k) => {
    if (sheet.get(k) === v) return;
    if (k.length + v.length < BASE_CHUNK_CHARS / 2) return;
    const cells = kind.cells(k, v);
    let longest = 0;
    let field = '';
    for (const f of Object.keys(cells)) {
      const c = cells[f];
      if (typeof c === 'string' && c.length > longest) {
        longest = c.length;
        field = f;
      }
    }
    // (the apostrophe that guards a text counts towards the cell, so one character less)
    if (longest <= CELL_MAX_CHARS - 1 && JSON.stringify([k, v]).length <= BASE_CHUNK_CHARS) return;
    const col = kind.columns.find((c) => c.field === field);
    const rows = rowsOf.get(k);
    out.push({
      key: k,
      row: rows && rows.length ? rows[0] : null,
      reason: `the service's ${col ? col.header : 'entry'} for this row has ${longest.toLocaleString('en-US')} characters, more than a cell holds (${CELL_MAX_CHARS.toLocaleString('en-US')}): not synced; shorten it in the service`,
    });
  });
  return out;
}

/** "; 1 entry of the service not written: …" for entries too long for a cell that no row holds. */
function unwrittenText(list: readonly Oversized[]): string {
  if (!list.length) return '';
  const first = readable(list[0].key) as string;
  return `; ${list.length} entr${list.length === 1 ? 'y' : 'ies'} of the service not written, longer than a cell holds (${CELL_MAX_CHARS.toLocaleString('en-US')} characters): ${cutText(first, 60)}${list.length > 1 ? ' and more' : ''}`;
}

function summary(r: ListReport, preview: boolean): string {
  const s = r.toService;
  const w = r.toSheet;
  const parts = [
    `${preview ? 'to send' : 'sent'}: ${s.added} added, ${s.changed} changed, ${s.deleted} deleted`,
    `${preview ? 'to write' : 'written'}: ${w.added} added, ${w.changed} changed, ${w.deleted} deleted`,
  ];
  if (r.conflictCount) parts.push(`${r.conflictCount} conflict${r.conflictCount === 1 ? '' : 's'}`);
  if (r.refusedCount) parts.push(`${r.refusedCount} row${r.refusedCount === 1 ? '' : 's'} refused`);
  return (r.firstSync ? 'first sync (merge); ' : '') + parts.join('; ');
}

// ---- runs, checkpoint, status ----------------------------------------------------------------

interface RunState {
  t: number;
  done: string[];
  reports: { [list: string]: ListReport };
  /** The lists of an automatic run (the due ones); absent: every list. */
  lists?: string[];
}

/** A finished list in the checkpoint: counts and message only (a property holds 9 KB; notes can be 10,000 characters). */
function trim(r: ListReport): ListReport {
  // The named entries of a list the guard stopped stay: the sidebar shows them next to "put them back".
  return { ...r, conflicts: [], refused: [], entries: r.state === 'blocked' ? r.entries : [] };
}

function readJson<T>(props: GoogleAppsScript.Properties.Properties, key: string): T | null {
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
  const props = documentProperties();
  const status = readJson<StatusMap>(props, STATUS_PREFIX + account) || {};
  const prev = status[list];
  status[list] = { at: prev ? prev.at : '', result: result.slice(0, 300), state: prev ? prev.state : null, count };
  props.setProperty(STATUS_PREFIX + account, JSON.stringify(status));
}

function saveStatus(account: string, reports: ListReport[]): void {
  const props = documentProperties();
  const status = readJson<StatusMap>(props, STATUS_PREFIX + account) || {};
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
  props.setProperty(STATUS_PREFIX + account, JSON.stringify(status));
}

/** What a second sync of this document is told. */
export const SYNC_BUSY_MESSAGE = 'Another sync (or import) is running in this spreadsheet right now. Try again when it has finished.';

/** One sync of this document at a time (the document lock, shared with imports: they write the same document). */
export function withListsLock<T>(body: () => T): T {
  return withDocumentLock(body, 2000, SYNC_BUSY_MESSAGE);
}

function readSchedule(account: string): Schedule {
  return decodeSchedule(documentProperties().getProperty(SCHEDULE_PREFIX + account));
}

/** A list changed nothing on either side (its interval may lengthen). */
function quiet(r: ListReport): boolean {
  const c = (x: { added: number; changed: number; deleted: number }) => x.added + x.changed + x.deleted;
  return c(r.toService) + c(r.toSheet) === 0;
}

/**
 * Runs (or continues) a sync of every list (`lists`: only those, for the automatic sync; a run
 * under way keeps its own); stops before the time limit with done:false. A daily quota of Google
 * stops it the same way (checkpoint and schedule kept) and is thrown on.
 */
export function runSync(
  env: SyncEnv,
  opts: { apply: boolean; confirmDeletions: boolean; only?: string; lists?: string[]; resolutions?: { [key: string]: Side } },
): SyncReport {
  const props = documentProperties();
  const runKey = RUN_PREFIX + env.account;
  let kinds = opts.only ? [listKind(opts.only)] : LIST_KINDS.slice();
  let run: RunState | null = opts.apply && !opts.only ? readJson<RunState>(props, runKey) : null;
  if (run && (!Array.isArray(run.done) || Date.now() - run.t > 6 * 3600_000)) run = null;
  if (!run) run = { t: Date.now(), done: [], reports: {}, lists: opts.lists };
  // The user's own sync takes every list, also when it continues an automatic one.
  else if (!opts.lists) delete run.lists;
  const only = run.lists;
  if (only) kinds = kinds.filter((k) => only.indexOf(k.id) >= 0);
  const schedule = opts.apply ? readSchedule(env.account) : null;
  const saveSchedule = () => {
    if (schedule) props.setProperty(SCHEDULE_PREFIX + env.account, JSON.stringify(schedule));
  };
  const reports: ListReport[] = [];
  let doneHere = 0;
  for (const kind of kinds) {
    if (run.done.indexOf(kind.id) >= 0 && run.reports[kind.id]) {
      reports.push(run.reports[kind.id]);
      continue;
    }
    const outOfTime = () => {
      if (opts.apply && !opts.only) props.setProperty(runKey, JSON.stringify(run));
      saveSchedule();
      const left = kinds.filter((k) => run!.done.indexOf(k.id) < 0).map((k) => k.title);
      return {
        done: false,
        preview: !opts.apply,
        lists: reports,
        message: `The time for one run is used up; ${left.join(', ')} ${left.length === 1 ? 'is' : 'are'} left. Sync again to continue (nothing is sent twice).`,
        requests: env.stats.requests,
        rateLimited: env.stats.rateLimited,
      };
    };
    // Every run finishes at least one list, so a sync always gets on.
    if (doneHere > 0 && Date.now() - env.startedAt > env.budgetMs) return outOfTime();
    let r: ListReport;
    try {
      r = syncList(env, kind, { apply: opts.apply, confirmDeletions: opts.confirmDeletions, resolutions: opts.resolutions });
    } catch (e) {
      if (e instanceof OutOfTimeError) return outOfTime();
      if (dailyQuotaOf(e)) {
        // Nothing more gets through today: keep what is done (the writes may be refused too; then
        // re-planning finds the same work left), and let the caller say so.
        try {
          outOfTime();
        } catch (_e) {
          // property writes refused as well
        }
        throw e;
      }
      // What concerns this list only (a refused request, no access to a marketplace) does not stop the others.
      if (e instanceof ApiProblemError && LIST_PROBLEMS.indexOf(e.problem.kind) >= 0) r = emptyReport(kind, 'problem', e.problem.message);
      // A write Sheets refused in this list's tabs fails this list; the service's problems (key, busy) stop the sync.
      else if (!(e instanceof ApiProblemError) && e instanceof Error)
        r = emptyReport(
          kind,
          'problem',
          `This list could not be written into the sheet: ${cutText(e.message, 300)} The other lists go on.`,
        );
      else throw e;
    }
    reports.push(r);
    doneHere++;
    if (opts.apply) {
      run.done.push(kind.id);
      run.reports[kind.id] = trim(r);
    }
    if (schedule)
      schedule[kind.id] = afterSync(
        schedule[kind.id],
        env.automatic === true && quiet(r),
        Math.max(r.sheetEntries, r.serviceEntries),
        env.fingerprints.get(kind.id) ?? '',
        Date.now(),
      );
  }
  if (opts.apply) {
    props.deleteProperty(runKey);
    saveStatus(env.account, reports);
    saveSchedule();
    // The result tabs show what the lists now say (List tags, List note, List): after the user's
    // sync, and after an automatic one that changed something (a quiet one leaves the tables as they were).
    if (env.automatic !== true || reports.some((r) => !quiet(r))) refreshResultTabs(env.ss, props, env.marketplace);
  }
  const blocked = reports.filter((r) => r.state === 'blocked').length;
  const conflicts = reports.reduce((n, r) => n + r.conflictCount, 0);
  const msg = [opts.apply ? 'Lists synced' : 'Preview'];
  if (blocked) msg.push(`${blocked} list${blocked === 1 ? '' : 's'} waiting for you to confirm deletions`);
  if (conflicts) msg.push(`${conflicts} conflict${conflicts === 1 ? '' : 's'} to resolve`);
  return {
    done: true,
    preview: !opts.apply,
    lists: reports,
    message: msg.join('; ') + '.',
    requests: env.stats.requests,
    rateLimited: env.stats.rateLimited,
  };
}

// ---- server functions ------------------------------------------------------------------------

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
  return asSidebarCall(() => {
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
  });
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

/**
 * The automatic sync from the hourly trigger: applies, never confirms deletions; a problem is
 * logged. Only the lists due (schedule.ts), or the run under way; within `budgetEnd` (where the
 * day's trigger budget ends) less what is kept for imports. A daily quota of Google is thrown on.
 */
export function autoSyncLists(budgetEnd: number): void {
  if (!autoSyncEnabled() || !loadSettings().apiKey) return;
  const syncEnd = budgetEnd - IMPORT_RESERVE_MS;
  if (syncEnd - Date.now() < MIN_SYNC_MS) {
    console.log("automatic lists sync waits: the rest of the day's trigger time is kept for imports");
    return;
  }
  const t0 = Date.now();
  try {
    const r = withListsLock(() => {
      const env = gasSyncEnv();
      env.automatic = true;
      env.budgetMs = Math.min(env.budgetMs, syncEnd - env.startedAt);
      env.ctx.deadline = Math.min(env.ctx.deadline, syncEnd);
      const pending = documentProperties().getProperty(RUN_PREFIX + env.account) !== null;
      const ids = LIST_KINDS.map((k) => k.id);
      const due = pending ? ids : dueLists(ids, readSchedule(env.account), env.startedAt, (id) => tableFingerprint(env.ss, listKind(id)));
      return due.length ? runSync(env, { apply: true, confirmDeletions: false, lists: due }) : null;
    });
    // (its seconds in the log: the trigger's runtime is shared with imports)
    console.log(
      'automatic lists sync: ' +
        (r ? r.lists.map((l) => l.title).join(', ') + ': ' + r.message : 'no list due') +
        ` (${((Date.now() - t0) / 1000).toFixed(1)} s)`,
    );
  } catch (e) {
    // A daily quota of Google goes to the trigger, which stops until the quota's day is over.
    if (dailyQuotaOf(e)) throw e;
    console.log('automatic lists sync: ' + (e instanceof Error ? e.message : String(e)));
  }
}

/** Extensions > Sync lists now. */
export function menuSyncLists(): void {
  const ui = spreadsheetUi();
  const ss = activeSpreadsheet();
  let r: SyncReport;
  try {
    r = syncNow(false);
  } catch (e) {
    ui.alert('Sync lists', e instanceof Error ? e.message : String(e), ui.ButtonSet.OK);
    return;
  }
  const blocked = r.lists.filter((l) => l.state === 'blocked');
  if (blocked.length) {
    const answer = ui.alert('Confirm deletions', blocked.map((l) => l.title + ': ' + l.message).join('\n'), ui.ButtonSet.YES_NO);
    if (answer === ui.Button.YES) r = syncNow(true);
  }
  ss.toast(
    r.lists
      .filter((l) => l.state !== 'not-set-up')
      .map((l) => l.title + ': ' + l.message)
      .join('\n') || 'No list is set up: open Lists in the sidebar and choose Set up.',
    r.message,
    10,
  );
}
