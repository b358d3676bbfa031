/**
 * Re-scan schedules, pure: when a remembered supplier list (src/domain/price-list/memory.ts) is scanned again.
 * A rule is daily, weekly (ISO weekday 1 = Monday … 7 = Sunday) or monthly (day 1–28, so every
 * month has it), at an hour of the spreadsheet's time zone. A slot is one such moment; the trigger
 * runs the latest slot not yet claimed (src/app/results/schedule-run.ts). Times are computed from the
 * zone's offset at the moment asked (`offsetMin`): a slot on the night a clock changes may move
 * by that hour.
 */

export type Every = 'd' | 'w' | 'm';

export interface ScheduleRule {
  f: Every;
  /** Weekday (1–7) for weekly, day of month (1–28) for monthly, 0 for daily. */
  d: number;
  /** Hour 0–23. */
  h: number;
}

const DAY_MS = 24 * 3600_000;
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** Reads the sidebar's choice ("d@9", "w1@9", "m1@9"); null when it is not one. */
export function parseRule(text: unknown): ScheduleRule | null {
  const m = /^([dwm])(\d{0,2})@(\d{1,2})$/.exec(String(text || ''));
  if (!m) return null;
  const f = m[1] as Every;
  const d = m[2] === '' ? 0 : Number(m[2]);
  const h = Number(m[3]);
  if (h > 23) return null;
  if (f === 'd' && d !== 0) return null;
  if (f === 'w' && !(d >= 1 && d <= 7)) return null;
  if (f === 'm' && !(d >= 1 && d <= 28)) return null;
  return { f, d, h };
}

export function ruleText(r: ScheduleRule): string {
  return r.f + (r.f === 'd' ? '' : String(r.d)) + '@' + r.h;
}

function ordinal(n: number): string {
  const s = n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th';
  return n + s;
}

/** "every Monday at 09:00" */
export function ruleLabel(r: ScheduleRule): string {
  const at = ' at ' + (r.h < 10 ? '0' : '') + r.h + ':00';
  if (r.f === 'd') return 'every day' + at;
  if (r.f === 'w') return 'every ' + WEEKDAYS[r.d - 1] + at;
  return 'every month on the ' + ordinal(r.d) + at;
}

/** The choices the sidebar's select offers (value, label): daily, each weekday, the 1st of the month, at `hour`. */
export function ruleChoices(hour: number): { value: string; label: string }[] {
  const rules: ScheduleRule[] = [{ f: 'd', d: 0, h: hour }];
  for (let d = 1; d <= 7; d++) rules.push({ f: 'w', d, h: hour });
  rules.push({ f: 'm', d: 1, h: hour });
  return rules.map((r) => ({ value: ruleText(r), label: ruleLabel(r) }));
}

/** The latest slot at or before `t` (ms, UTC); `offsetMin` is the zone's offset from UTC at a moment. */
export function lastSlot(r: ScheduleRule, t: number, offsetMin: (ms: number) => number): number {
  const off = offsetMin(t) * 60_000;
  const local = new Date(t + off);
  // Midnight (local) of the local day, expressed as a "local ms" on the UTC axis.
  const day0 = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  let slot: number;
  if (r.f === 'd') {
    slot = day0 + r.h * 3600_000;
    if (slot > t + off) slot -= DAY_MS;
  } else if (r.f === 'w') {
    const iso = ((local.getUTCDay() + 6) % 7) + 1;
    slot = day0 - ((iso - r.d + 7) % 7) * DAY_MS + r.h * 3600_000;
    if (slot > t + off) slot -= 7 * DAY_MS;
  } else {
    slot = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), r.d) + r.h * 3600_000;
    if (slot > t + off) slot = Date.UTC(local.getUTCFullYear(), local.getUTCMonth() - 1, r.d) + r.h * 3600_000;
  }
  return slot - offsetMin(slot - off) * 60_000;
}

/** The first slot after `t`. */
export function nextSlot(r: ScheduleRule, t: number, offsetMin: (ms: number) => number): number {
  // Step past the latest slot by the rule's period (a month is at most 31 days), then take the latest again.
  const span = r.f === 'd' ? DAY_MS : r.f === 'w' ? 7 * DAY_MS : 31 * DAY_MS;
  let probe = t + span;
  let s = lastSlot(r, probe, offsetMin);
  while (s <= t) {
    probe += DAY_MS;
    s = lastSlot(r, probe, offsetMin);
  }
  // The latest slot before probe may be a later one than the first after t: walk back.
  let prev = lastSlot(r, s - 1, offsetMin);
  while (prev > t) {
    s = prev;
    prev = lastSlot(r, s - 1, offsetMin);
  }
  return s;
}

/** Reads "+0100" / "-0530" (SimpleDateFormat 'Z') as minutes. */
export function offsetFromZ(z: string): number {
  const m = /^([+-])(\d{2})(\d{2})$/.exec(z);
  if (!m) return 0;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}
