/**
 * The add-on's hourly trigger handler (installed by ../app/trigger/install.ts), an entry point on top
 * of the features it runs, and what it spends Google's day on: the sidebar-closed path. It imports
 * this user's finished scans recorded in this document (../app/results/import-due.ts, with its
 * backing off and giving up), runs the re-scan schedules, then the automatic lists sync
 * (../app/lists/hourly-sync.ts) with what is left.
 *
 * Google's daily quotas (../app/trigger/quota.ts): a daily-quota error stops the run cleanly (the
 * import checkpoint stays, the failure does not count against the scan) and is remembered, with the
 * resume time, for the sidebar; runs before that time do nothing. The trigger also measures its
 * own runtime and gives imports only what is left of the day's 90 minutes.
 */
import { hasActiveDocument, now } from '../apps-script';
import { recordNoDocument, recordWithDocument } from '../app/trigger/no-document';
import { WORK_COST } from '../app/results/import-plan';
import { importDue } from '../app/results/import-due';
import {
  addTriggerSpend,
  clearQuotaStop,
  dailyQuotaOf,
  DAY_MS,
  quotaStop,
  readQuotaStop,
  readTriggerDay,
  recordQuotaStop,
  triggerBudgetLeft,
  type QuotaKind,
} from '../app/trigger/quota';
import { TRIGGER_RESERVE_MS } from '../domain/time-budgets';
import { autoSyncLists } from '../app/lists/hourly-sync';
import { runSchedules } from '../app/results/schedule-run';
import { noteTriggerAuthorization } from '../app/trigger/authorization';
import { isLockBusy } from '../store/locks';

/**
 * Trigger handler: for each of the user's recorded scans that is due, imports the finished ones
 * (continuing an import cut short by the time limit), toasts each one done, forgets scans the
 * service no longer knows, counts failures (results/import-due.ts), and removes the trigger when no
 * scan is left that it may still import.
 */
export function importFinishedScans(e?: { triggerUid?: unknown }): void {
  const t0 = now();
  // Granular consent, or a new version asking for more: recorded for the sidebar, never thrown; what
  // still has its permissions runs (each feature asks for its own before its calls).
  noteTriggerAuthorization(t0);
  // The event of a time-driven trigger names it (triggerUid): how a run without its document finds
  // which spreadsheet it was for (no-document.ts). Absent when run by hand.
  const uid = e && typeof e.triggerUid === 'string' ? e.triggerUid : '';
  // Without its document (Google does not promise one to an add-on's trigger) nothing here can run:
  // recorded for the next sidebar open, which does the work (no-document.ts).
  if (!hasActiveDocument()) {
    recordNoDocument(t0, uid);
    return;
  }
  recordWithDocument(uid, t0);
  const stopped = readQuotaStop();
  // Google's day is not over yet: nothing would get through (or the day's runtime is spent).
  if (stopped && t0 < stopped.until) return;
  const day = readTriggerDay(t0);
  const left = triggerBudgetLeft(day);
  if (left < TRIGGER_RESERVE_MS) {
    recordQuotaStop({ q: 'runtime', at: t0, until: day.s + DAY_MS });
    return;
  }
  if (stopped) clearQuotaStop();
  let outOfBudget = false;
  const end = t0 + left - TRIGGER_RESERVE_MS;
  try {
    outOfBudget = part('imports', () => importDue(end), false);
    // Re-scans on a schedule: Changes of the scheduled scans just imported, then any slot due.
    part('schedules', () => runSchedules(end), undefined);
    // The automatic lists sync (when the user turned it on) shares this trigger and its day's budget.
    // Imports go first; the sync gets what is left of the day's budget less what is kept for imports.
    if (!outOfBudget) part('lists sync', () => autoSyncLists(end), undefined);
  } catch (e) {
    const q = dailyQuotaOf(e);
    if (!q) throw e;
    stopForQuota(q);
  } finally {
    // The start-up before this function ran is not on its clock: WORK_COST.startMs stands for it.
    addTriggerSpend(day, now() - t0 + WORK_COST.startMs);
  }
  // The day's budget ran out with work left: say so, and wait for the next window.
  if (outOfBudget && triggerBudgetLeft(readTriggerDay(now())) < TRIGGER_RESERVE_MS)
    recordQuotaStop({ q: 'runtime', at: now(), until: day.s + DAY_MS });
}

/**
 * One part of the run (imports, schedules, lists sync): a lock that stayed busy (another run writing
 * this document) stops only that part, which the next hour does; the other parts still run.
 */
function part<T>(name: string, body: () => T, busy: T): T {
  try {
    return body();
  } catch (e) {
    if (!isLockBusy(e)) throw e;
    console.log('hourly run: the ' + name + ' waited too long for this spreadsheet (another run was writing it); left to the next run.');
    return busy;
  }
}

function stopForQuota(q: QuotaKind): void {
  const stop = quotaStop(q, now());
  console.log('automatic import stopped by a daily quota of Google (' + q + ') until ' + new Date(stop.until).toISOString());
  recordQuotaStop(stop);
}
