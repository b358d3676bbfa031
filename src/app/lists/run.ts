/**
 * A sync run over the lists (every list, one list, or the automatic sync's due ones) with its
 * checkpoint: re-planning after a cut-off gives only the work left (plan.ts), so the checkpoint is
 * small: the lists finished in the run under way. One sync per document at a time (document lock).
 * After an applied run: the status, the schedule, and the result tabs' mark columns.
 */
import { problemOf, ranOutOfTime } from '../../api/exceptions';
import { documentProperties } from '../../apps-script';
import { RUN_PREFIX, SCHEDULE_PREFIX } from '../../store/lists';
import { withDocumentLock } from '../../store/locks';
import { cutText } from '../../domain/sheet/safe';
import { dailyQuotaOf } from '../quota-errors';
import { LIST_KINDS, listKind, type ListKind } from './kinds';
import type { Side } from './plan';
import { afterSync, decodeSchedule, type Schedule } from './schedule';
import { emptyReport, syncList } from './sync-list';
import { readJson, saveStatus } from './status';
import { refreshResultTabs } from './marks';
import type { SyncEnv } from './environment';
import type { ListReport, SyncReport } from './protocol';

/** Problems that fail one list, not the sync: the list reports them and the others go on. */
const LIST_PROBLEMS = ['validation', 'forbidden', 'not-found', 'bad-response'];
/** What a second sync of this document is told. */
export const SYNC_BUSY_MESSAGE = 'Another sync (or import) is running in this spreadsheet right now. Try again when it has finished.';

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

/** One sync of this document at a time (the document lock, shared with imports: they write the same document). */
export function withListsLock<T>(body: () => T): T {
  return withDocumentLock(body, 2000, SYNC_BUSY_MESSAGE);
}

export function readSchedule(account: string): Schedule {
  return decodeSchedule(documentProperties().getProperty(SCHEDULE_PREFIX + account));
}

/** A list changed nothing on either side (its interval may lengthen). */
function quiet(r: ListReport): boolean {
  const c = (x: { added: number; changed: number; deleted: number }) => x.added + x.changed + x.deleted;
  return c(r.toService) + c(r.toSheet) === 0;
}

type RunOptions = { apply: boolean; confirmDeletions: boolean; only?: string; lists?: string[]; resolutions?: { [key: string]: Side } };

/** A run under way: its checkpoint, the lists it takes, the schedule it updates, the reports so far. */
interface Run {
  env: SyncEnv;
  opts: RunOptions;
  props: GoogleAppsScript.Properties.Properties;
  runKey: string;
  state: RunState;
  kinds: ListKind[];
  schedule: Schedule | null;
  reports: ListReport[];
}

/**
 * Runs (or continues) a sync of every list (`lists`: only those, for the automatic sync; a run
 * under way keeps its own); stops before the time limit with done:false. A daily quota of Google
 * stops it the same way (checkpoint and schedule kept) and is thrown on.
 */
export function runSync(env: SyncEnv, opts: RunOptions): SyncReport {
  const run = startRun(env, opts);
  let doneHere = 0;
  for (const kind of run.kinds) {
    const kept = run.state.done.indexOf(kind.id) >= 0 ? run.state.reports[kind.id] : undefined;
    if (kept) {
      run.reports.push(kept);
      continue;
    }
    // Every run finishes at least one list, so a sync always gets on.
    if (doneHere > 0 && Date.now() - env.startedAt > env.budgetMs) return outOfTime(run);
    const r = syncOne(run, kind);
    if (r === null) return outOfTime(run);
    recordList(run, kind, r);
    doneHere++;
  }
  if (opts.apply) finishRun(run);
  return runReport(run);
}

/** The run's checkpoint (a run under way is continued), the lists it takes and the schedule. */
function startRun(env: SyncEnv, opts: RunOptions): Run {
  const props = documentProperties();
  const runKey = RUN_PREFIX + env.account;
  let kinds = opts.only ? [listKind(opts.only)] : LIST_KINDS.slice();
  let state: RunState | null = opts.apply && !opts.only ? readJson<RunState>(props, runKey) : null;
  if (state && (!Array.isArray(state.done) || Date.now() - state.t > 6 * 3600_000)) state = null;
  if (!state) state = { t: Date.now(), done: [], reports: {}, lists: opts.lists };
  // The user's own sync takes every list, also when it continues an automatic one.
  else if (!opts.lists) delete state.lists;
  const only = state.lists;
  if (only) kinds = kinds.filter((k) => only.indexOf(k.id) >= 0);
  const schedule = opts.apply ? readSchedule(env.account) : null;
  return { env, opts, props, runKey, state, kinds, schedule, reports: [] };
}

function saveSchedule(run: Run): void {
  if (run.schedule) run.props.setProperty(SCHEDULE_PREFIX + run.env.account, JSON.stringify(run.schedule));
}

/** The time is used up: the checkpoint and schedule are kept, and the seller told what is left. */
function outOfTime(run: Run): SyncReport {
  const { opts, env } = run;
  if (opts.apply && !opts.only) run.props.setProperty(run.runKey, JSON.stringify(run.state));
  saveSchedule(run);
  const left = run.kinds.filter((k) => run.state.done.indexOf(k.id) < 0).map((k) => k.title);
  return {
    done: false,
    preview: !opts.apply,
    lists: run.reports,
    message: `The time for one run is used up; ${left.join(', ')} ${left.length === 1 ? 'is' : 'are'} left. Sync again to continue (nothing is sent twice).`,
    requests: env.stats.requests,
    rateLimited: env.stats.rateLimited,
  };
}

/** One list's report; null when the time ran out. A daily quota is thrown on, after the checkpoint. */
function syncOne(run: Run, kind: ListKind): ListReport | null {
  const { opts } = run;
  try {
    return syncList(run.env, kind, { apply: opts.apply, confirmDeletions: opts.confirmDeletions, resolutions: opts.resolutions });
  } catch (e) {
    if (ranOutOfTime(e)) return null;
    if (dailyQuotaOf(e)) {
      // Nothing more gets through today: keep what is done (the writes may be refused too; then
      // re-planning finds the same work left), and let the caller say so.
      try {
        outOfTime(run);
      } catch (_e) {
        // property writes refused as well
      }
      throw e;
    }
    // What concerns this list only (a refused request, no access to a marketplace) does not stop the others.
    const problem = problemOf(e);
    if (problem && LIST_PROBLEMS.indexOf(problem.kind) >= 0) return emptyReport(kind, 'problem', problem.message);
    // A write Sheets refused in this list's tabs fails this list; the service's problems (key, busy) stop the sync.
    if (!problem && e instanceof Error)
      return emptyReport(
        kind,
        'problem',
        `This list could not be written into the sheet: ${cutText(e.message, 300)} The other lists go on.`,
      );
    throw e;
  }
}

/** A finished list: in the reports, the checkpoint and its schedule. */
function recordList(run: Run, kind: ListKind, r: ListReport): void {
  run.reports.push(r);
  if (run.opts.apply) {
    run.state.done.push(kind.id);
    run.state.reports[kind.id] = trim(r);
  }
  if (run.schedule)
    run.schedule[kind.id] = afterSync(
      run.schedule[kind.id],
      run.env.automatic === true && quiet(r),
      Math.max(r.sheetEntries, r.serviceEntries),
      run.env.fingerprints.get(kind.id) ?? '',
      Date.now(),
    );
}

/** After an applied run: the checkpoint goes, the status and schedule are saved, the result tabs refreshed. */
function finishRun(run: Run): void {
  const { env, props, reports } = run;
  props.deleteProperty(run.runKey);
  saveStatus(env.account, reports);
  saveSchedule(run);
  // The result tabs show what the lists now say (List tags, List note, List): after the user's
  // sync, and after an automatic one that changed something (a quiet one leaves the tables as they were).
  if (env.automatic !== true || reports.some((r) => !quiet(r))) refreshResultTabs(env.ss, props, env.marketplace);
}

function runReport(run: Run): SyncReport {
  const { opts, env, reports } = run;
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
