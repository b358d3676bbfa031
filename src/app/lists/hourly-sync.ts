/**
 * The automatic lists sync the hourly trigger runs (src/entry/hourly.ts), when the user turned it on
 * (../trigger/auto-sync.ts): only the lists due (schedule.ts), within the day's trigger budget less
 * what is kept for imports.
 */
import { documentProperties } from '../../apps-script';
import { loadSettings } from '../context';
import { RUN_PREFIX } from '../../store/lists';
import { dailyQuotaOf } from '../quota-errors';
import { autoSyncEnabled } from '../trigger/auto-sync';
import { LIST_KINDS, listKind } from './kinds';
import { dueLists, IMPORT_RESERVE_MS, MIN_SYNC_MS } from './schedule';
import { tableFingerprint } from './sheet';
import { gasSyncEnv } from './environment';
import { readSchedule, runSync, withListsLock } from './run';

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
