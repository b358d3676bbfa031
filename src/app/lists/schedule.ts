/**
 * When the AUTOMATIC sync re-reads a list (pure). The API has no "changed since", so learning that
 * a list did not change on the service means reading every page of it (a 50,000-row list: 50 pages,
 * more than the 30 a minute the bulk areas allow, ~69 s of trigger runtime). Instead each list has
 * an interval: after an automatic sync that changed nothing on either side it doubles (1, 2, 4, 8,
 * 16, 24 h at most); any change, a sync the user started, or an edit of the list's table (its
 * fingerprint: a digest of the table's values and range, one getValues, no URL Fetch) brings it back
 * to hourly. A list of more pages than one rate window is never re-read more often than every
 * LARGE_MIN_HOURS, edits included. Changes made on the service alone therefore reach the sheet
 * within the list's interval (at most a day; "Sync now" at once).
 */
export const HOUR_MS = 3600_000;
export const MAX_INTERVAL_HOURS = 24;
/** Pages of 1,000 above which a list is "large": more than the 30 requests a minute of one rate window. */
export const LARGE_PAGES = 30;
export const LARGE_MIN_HOURS = 4;
/** Google lets an hourly trigger drift; a list is due this much before its time. */
export const DRIFT_MS = 15 * 60_000;

export interface ListTiming {
  /** Interval in hours. */
  i: number;
  /** Last sync (ms). */
  at: number;
  /** Fingerprint of the table when that sync read it ('' when it had no table). */
  h: string;
  /** Pages of 1,000 the list had. */
  p: number;
}
export type Schedule = { [list: string]: ListTiming };

export function minHours(pages: number): number {
  return pages > LARGE_PAGES ? LARGE_MIN_HOURS : 1;
}

/** Due by time alone (no table read needed). A list never synced is due. */
export function dueByTime(t: ListTiming | undefined, now: number): boolean {
  if (!t) return true;
  return now - t.at + DRIFT_MS >= Math.max(t.i, minHours(t.p)) * HOUR_MS;
}

/** Not due by time, but its table changed: due once its minimum interval has passed. */
export function dueByEdit(t: ListTiming, fingerprint: string, now: number): boolean {
  return fingerprint !== t.h && now - t.at + DRIFT_MS >= minHours(t.p) * HOUR_MS;
}

/** The timing after a sync of the list; `quiet`: an automatic sync that changed nothing on either side. */
export function afterSync(prev: ListTiming | undefined, quiet: boolean, entries: number, fingerprint: string, now: number): ListTiming {
  const p = Math.ceil(entries / 1000);
  const i = quiet && prev ? Math.min(MAX_INTERVAL_HOURS, Math.max(prev.i * 2, minHours(p))) : minHours(p);
  return { i, at: now, h: fingerprint, p };
}

export function decodeSchedule(text: string | null): Schedule {
  if (!text) return {};
  try {
    const v = JSON.parse(text);
    const out: Schedule = {};
    if (v && typeof v === 'object') {
      for (const k of Object.keys(v)) {
        const t = v[k];
        if (t && typeof t.i === 'number' && typeof t.at === 'number' && typeof t.h === 'string' && typeof t.p === 'number') out[k] = t;
      }
    }
    return out;
  } catch (_e) {
    return {};
  }
}

/**
 * The trigger's day (src/app/trigger/quota.ts: 90 minutes, the consumer figure) is shared with the
 * imports, which go first: the automatic sync starts only while more than this much of the day is
 * left, and stops (at a checkpoint) where this much would be left.
 */
export const IMPORT_RESERVE_MS = 30 * 60_000;
/** Less time than this for the sync and it waits: a large list's pages alone take about a minute. */
export const MIN_SYNC_MS = 2 * 60_000;

/** Ids of the lists the automatic sync reads now; `fingerprint` (one getValues) is asked only of lists not due by time. */
export function dueLists(ids: readonly string[], schedule: Schedule, now: number, fingerprint: (id: string) => string): string[] {
  return ids.filter((id) => {
    const t = schedule[id];
    return dueByTime(t, now) || (t !== undefined && dueByEdit(t, fingerprint(id), now));
  });
}
