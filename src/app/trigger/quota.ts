/**
 * Google's daily per-user quotas, as the hourly trigger meets them (consumer accounts: 20,000 URL
 * Fetch calls, 50,000 property reads/writes, 90 minutes of trigger runtime a day; quotas page).
 * Past a quota Google fails every further call until its day ends, "24 hours after the first
 * request" — a moment the add-on cannot know (the quota is shared by every script of the account).
 *
 * - A daily-quota error caught by the trigger stops it cleanly (the import checkpoint stays) and is
 *   remembered with a resume time 24 hours on, the latest Google can reset; hourly runs before then
 *   do nothing. The sidebar shows it on each finished scan waiting for import.
 * - The trigger measures its own runtime per 24-hour window and gives an import only what is left
 *   of the consumer 90 minutes (the add-on cannot tell a Workspace account), so Google does not cut
 *   it off mid-import; with the budget spent it stops the same way.
 *
 * Both records are per USER (quotas are), in user properties; when property writes are themselves
 * refused, the user cache holds the stop instead (CacheService has no daily quota).
 */
import { userCache, userProperties } from '../../apps-script';
import { QUOTA_STOP_KEY, TRIGGER_DAY_KEY } from '../../store/keys';
import { record } from '../../store/records';
import { TRIGGER_DAY_BUDGET_MS } from '../../domain/time-budgets';
import { QUOTA_WHAT, type QuotaKind } from '../quota-errors';

export { dailyQuotaOf, type QuotaKind } from '../quota-errors';
// The lists' quota notice (src/app/lists/status.ts) reads these here.
export { TRIGGER_DAY_BUDGET_MS, TRIGGER_RESERVE_MS } from '../../domain/time-budgets';

export const DAY_MS = 24 * 3600_000;

export interface QuotaStop {
  /** Which quota. */
  q: QuotaKind;
  /** When it stopped the trigger (ms). */
  at: number;
  /** Not before this (ms) does the trigger try again. */
  until: number;
}

/** The stop; one unreadable reads as none. */
const STOP = record<QuotaStop>(QUOTA_STOP_KEY, {
  decode: (v) => {
    const r = v as QuotaStop | null;
    return r && (r.q === 'urlfetch' || r.q === 'properties' || r.q === 'runtime') && typeof r.at === 'number' && typeof r.until === 'number'
      ? { q: r.q, at: r.at, until: r.until }
      : null;
  },
});

function userCacheOrNull(): GoogleAppsScript.Cache.Cache | null {
  try {
    return userCache();
  } catch (_e) {
    return null;
  }
}

/** Remembers the stop; never throws (a refused write falls back to the user cache, for at most 6 h). */
export function recordQuotaStop(stop: QuotaStop): void {
  try {
    STOP.put(userProperties(), stop);
    return;
  } catch (_e) {
    // property writes refused too
  }
  try {
    userCacheOrNull()?.put(QUOTA_STOP_KEY, STOP.encode(stop), 21600);
  } catch (_e) {
    // nothing more to do: the next run meets the quota again and stops the same way
  }
}

/** The recorded stop (also one whose time has passed), or null. Never throws. */
export function readQuotaStop(): QuotaStop | null {
  let stop: QuotaStop | null = null;
  try {
    stop = STOP.get(userProperties());
  } catch (_e) {
    // reads refused: the cache may know
  }
  if (!stop) {
    try {
      stop = STOP.parse(userCacheOrNull()?.get(QUOTA_STOP_KEY));
    } catch (_e) {
      stop = null;
    }
  }
  return stop;
}

/** Forgets the stop once past it. Never throws. */
export function clearQuotaStop(): void {
  try {
    STOP.remove(userProperties());
    userCacheOrNull()?.remove(QUOTA_STOP_KEY);
  } catch (_e) {
    // left for later: it has expired anyway
  }
}

/** A stop of `q` caught at `at`: Google resets within 24 hours. */
export function quotaStop(q: QuotaKind, at: number): QuotaStop {
  return { q, at, until: at + DAY_MS };
}

/** What the sidebar shows ("… at 14:05 …, resumes after 14:05 on Nov 26 …"); `fmt` formats a time. */
export function quotaStopNotice(stop: QuotaStop, fmt: (ms: number, pattern: string) => string): string {
  const at = fmt(stop.at, 'HH:mm');
  const until = fmt(stop.until, 'HH:mm') + ' on ' + fmt(stop.until, 'MMM d');
  return `Automatic import stopped by Google's daily quota (${QUOTA_WHAT[stop.q]}) at ${at}; it resumes after ${until}. Nothing was lost: the import continues where it stopped, or import it from Scans.`;
}

/** The stop in force at `now` as the Lists view says it, or null. Never throws. */
export function listsQuotaNotice(now: number, fmt: (ms: number, pattern: string) => string): string | null {
  const stop = readQuotaStop();
  if (!stop || now >= stop.until) return null;
  return `Automatic sync stopped by Google's daily quota (${QUOTA_WHAT[stop.q]}) at ${fmt(stop.at, 'HH:mm')}; it resumes after ${fmt(stop.until, 'HH:mm')} on ${fmt(stop.until, 'MMM d')}. Nothing was lost: it continues where it stopped.`;
}

/** The stop in force at `now` as the sidebar says it, or null. Never throws. */
export function currentQuotaNotice(now: number, fmt: (ms: number, pattern: string) => string): string | null {
  const stop = readQuotaStop();
  return stop && now < stop.until ? quotaStopNotice(stop, fmt) : null;
}

/** The trigger's own runtime in its current 24-hour window. */
export interface TriggerDay {
  /** Window start (ms): the first run measured. */
  s: number;
  /** Modelled ms spent by the trigger in this window. */
  ms: number;
}

const DAY = record<TriggerDay>(TRIGGER_DAY_KEY, {
  decode: (v) => {
    const r = v as TriggerDay | null;
    return r && typeof r.s === 'number' && typeof r.ms === 'number' ? { s: r.s, ms: r.ms } : null;
  },
});

export function readTriggerDay(now: number): TriggerDay {
  try {
    const v = DAY.get(userProperties());
    if (v && now < v.s + DAY_MS) return v;
  } catch (_e) {
    // none, unreadable or refused: a new window
  }
  return { s: now, ms: 0 };
}

/** Adds a run's time (one write). Never throws: losing one run's figure only makes the budget looser. */
export function addTriggerSpend(day: TriggerDay, ms: number): void {
  try {
    DAY.put(userProperties(), { s: day.s, ms: day.ms + Math.max(0, ms) });
  } catch (_e) {
    // see above
  }
}

/** What is left of the day's trigger budget. */
export function triggerBudgetLeft(day: TriggerDay): number {
  return TRIGGER_DAY_BUDGET_MS - day.ms;
}
