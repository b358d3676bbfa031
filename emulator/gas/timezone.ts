/**
 * The wall-clock time of an instant in an IANA time zone, read with Intl (one formatter per zone,
 * kept): what Utilities.formatDate (dateformat.ts) and the spreadsheet's serial dates
 * (spreadsheet/values.ts) both need.
 */

export interface WallClock {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number; // 0-23
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Wall-clock fields of instant `ms` in `tz` (whole seconds). Throws Intl's RangeError for an unknown zone. */
export function wallClock(ms: number, tz: string): WallClock {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(tz, f);
  }
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour % 24, minute: parts.minute, second: parts.second };
}

/** Offset of `tz` from UTC at instant `ms`, in ms (positive east of Greenwich). */
export function tzOffsetMs(ms: number, tz: string): number {
  if (tz === 'Etc/UTC' || tz === 'UTC' || tz === 'GMT' || tz === 'Etc/GMT') return 0;
  const w = wallClock(ms, tz);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000;
}
