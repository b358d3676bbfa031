/**
 * States a test or a benchmark must plant because no entry point makes them when asked: a support
 * knob no seller sets, and Google's daily quotas as other runs of the day left them. Each is a
 * property's `[key, value]`, the key named by this folder's own modules (keys.ts, lists.ts), so it is
 * spelled once (test/build/hand-keys.test.ts). Nothing in the add-on imports this module: the
 * bundle is without it. Everything else is reached through the entry points.
 */
import { QUOTA_STOP_KEY, TRIGGER_DAY_KEY } from './keys';
import { LISTS_TUNING_PROPERTY } from './lists';

/** A property to plant: its key and its text. */
export type PlantedProperty = [key: string, value: string];

/** Script property: the lists sync's time budget and deadline per run (`{}`: the defaults). */
export function plantListsTuning(tuning: { budgetMs?: number; deadlineMs?: number }): PlantedProperty {
  return [LISTS_TUNING_PROPERTY, JSON.stringify(tuning)];
}

/** User property: a daily quota of Google (`q`, as src/app/trigger/quota.ts names it) stopped the user's hourly trigger at `at`, until `until`. */
export function plantQuotaStop(stop: { q: 'urlfetch' | 'properties' | 'runtime'; at: number; until: number }): PlantedProperty {
  return [QUOTA_STOP_KEY, JSON.stringify(stop)];
}

/** User property: the hourly trigger's runtime `ms` spent in the 24-hour window that began at `s`. */
export function plantTriggerDay(day: { s: number; ms: number }): PlantedProperty {
  return [TRIGGER_DAY_KEY, JSON.stringify(day)];
}
