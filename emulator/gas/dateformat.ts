/**
 * Java SimpleDateFormat patterns in a given time zone, as Utilities.formatDate uses them.
 * An unknown time zone falls back to GMT, as Java's TimeZone.getTimeZone does.
 */
import { wallClock, type WallClock } from './timezone';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

interface Fields extends WallClock {
  ms: number;
  weekday: number; // 0 = Sunday
  offsetMin: number; // local - UTC
  zoneShort: string;
  zoneLong: string;
}

// Building an Intl.DateTimeFormat costs far more than using one, and scripts format dates by the
// thousand: each zone is checked once, and each zone's name formatter is built once.
const zonesChecked = new Map<string, boolean>();
const zoneNameFormatters = new Map<string, Intl.DateTimeFormat>();

function validZone(tz: string): boolean {
  let known = zonesChecked.get(tz);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      known = true;
    } catch {
      known = false;
    }
    zonesChecked.set(tz, known);
  }
  return known;
}

/** "GMT+2", "GMT-05:30", "UTC+1" as a fixed offset in minutes, or null. */
function fixedOffset(tz: string): number | null {
  const m = /^(?:GMT|UTC)([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(tz.trim());
  if (!m) return null;
  const v = Number(m[2]) * 60 + Number(m[3] ?? 0);
  return m[1] === '-' ? -v : v;
}

/** The zone's name as Intl gives it for that instant ("EST", "Eastern Standard Time", "GMT+5:30"). */
function zoneName(date: Date, zone: string, style: 'short' | 'long'): string {
  const key = `${style} ${zone}`;
  let f = zoneNameFormatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: style });
    zoneNameFormatters.set(key, f);
  }
  return f.formatToParts(date).find((p) => p.type === 'timeZoneName')?.value ?? '';
}

function fieldsAt(date: Date, timeZone: string): Fields {
  const t = date.getTime();
  const fixed = fixedOffset(timeZone);
  const zone = fixed === null && validZone(timeZone) ? timeZone : null;
  if (zone === null) {
    const off = fixed ?? 0;
    const d = new Date(t + off * 60000);
    const name = off === 0 ? 'GMT' : `GMT${offsetText(off, true)}`;
    return {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      second: d.getUTCSeconds(),
      ms: d.getUTCMilliseconds(),
      weekday: d.getUTCDay(),
      offsetMin: off,
      zoneShort: name,
      zoneLong: off === 0 ? 'Greenwich Mean Time' : name,
    };
  }
  const { year, month, day, hour, minute, second } = wallClock(t, zone);
  const ms = ((t % 1000) + 1000) % 1000;
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const offsetMin = Math.round((asUtc - t) / 60000);
  let zoneShort = zoneName(date, zone, 'short');
  if (/^GMT[+-]/.test(zoneShort)) zoneShort = `GMT${offsetText(offsetMin, true)}`;
  return {
    year,
    month,
    day,
    hour,
    minute,
    second,
    ms,
    weekday: new Date(Date.UTC(year, month - 1, day)).getUTCDay(),
    offsetMin,
    zoneShort,
    zoneLong: zoneName(date, zone, 'long'),
  };
}

function pad(n: number, width: number): string {
  const s = String(Math.abs(n));
  return (n < 0 ? '-' : '') + (s.length >= width ? s : '0'.repeat(width - s.length) + s);
}

function dayOfYear(f: Fields): number {
  return Math.round((Date.UTC(f.year, f.month - 1, f.day) - Date.UTC(f.year, 0, 1)) / 86400000) + 1;
}

/**
 * Week of year and week year as Java's GregorianCalendar counts them in the US locale (Apps Script
 * formats with Java's en_US defaults): weeks start on Sunday and week 1 is the week holding 1 January
 * (minimal days 1). So Tuesday 31 Dec 2024 is in week 1 of week year 2025. Not ISO 8601.
 */
function usWeek(f: Fields): { week: number; weekYear: number } {
  const day = Date.UTC(f.year, f.month - 1, f.day);
  const sundayOf = (t: number) => t - new Date(t).getUTCDay() * 86400000;
  const weekStart = sundayOf(day);
  // The week holding 1 January of the next year is week 1 of that year.
  const nextYearWeek1 = sundayOf(Date.UTC(f.year + 1, 0, 1));
  if (weekStart >= nextYearWeek1) return { week: 1, weekYear: f.year + 1 };
  const week1 = sundayOf(Date.UTC(f.year, 0, 1));
  return { week: Math.round((weekStart - week1) / (7 * 86400000)) + 1, weekYear: f.year };
}

function offsetText(off: number, withColon: boolean): string {
  const sign = off < 0 ? '-' : '+';
  const a = Math.abs(off);
  return sign + pad(Math.floor(a / 60), 2) + (withColon ? ':' : '') + pad(a % 60, 2);
}

function field(letter: string, count: number, f: Fields): string {
  switch (letter) {
    case 'G':
      return 'AD';
    case 'y':
      return count === 2 ? pad(f.year % 100, 2) : pad(f.year, count);
    case 'Y': {
      // The week year (Java 7+): differs from y in the last days of December and the first of January.
      const y = usWeek(f).weekYear;
      return count === 2 ? pad(y % 100, 2) : pad(y, count);
    }
    case 'M':
    case 'L':
      if (count >= 4) return MONTHS[f.month - 1];
      if (count === 3) return MONTHS[f.month - 1].slice(0, 3);
      return pad(f.month, count);
    case 'd':
      return pad(f.day, count);
    case 'D':
      return pad(dayOfYear(f), count);
    case 'w':
      return pad(usWeek(f).week, count);
    case 'W':
      return pad(Math.ceil((f.day + new Date(Date.UTC(f.year, f.month - 1, 1)).getUTCDay()) / 7), count);
    case 'F':
      return pad(Math.ceil(f.day / 7), count);
    case 'E':
      return count >= 4 ? DAYS[f.weekday] : DAYS[f.weekday].slice(0, 3);
    case 'u':
      return pad(f.weekday === 0 ? 7 : f.weekday, count);
    case 'a':
      return f.hour < 12 ? 'AM' : 'PM';
    case 'H':
      return pad(f.hour, count);
    case 'k':
      return pad(f.hour === 0 ? 24 : f.hour, count);
    case 'K':
      return pad(f.hour % 12, count);
    case 'h':
      return pad(f.hour % 12 === 0 ? 12 : f.hour % 12, count);
    case 'm':
      return pad(f.minute, count);
    case 's':
      return pad(f.second, count);
    case 'S':
      return pad(f.ms, count);
    case 'z':
      return count >= 4 ? f.zoneLong : f.zoneShort;
    case 'Z':
      return offsetText(f.offsetMin, false);
    case 'X':
      if (count > 3) throw new Error(`invalid ISO 8601 format: length=${count}`);
      if (f.offsetMin === 0) return 'Z';
      if (count === 1) return offsetText(f.offsetMin, false).slice(0, 3);
      return offsetText(f.offsetMin, count >= 3);
    default:
      throw new Error(`Illegal pattern character '${letter}'`);
  }
}

/** Formats like java.text.SimpleDateFormat(pattern) with setTimeZone(timeZone). */
export function formatSimpleDate(date: Date, timeZone: string, pattern: string): string {
  // Java checks the whole pattern when it is compiled, before formatting anything.
  checkPattern(pattern);
  const f = fieldsAt(date, timeZone);
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === "'") {
      // Quoted literal text; '' is a literal quote, inside or outside quotes.
      if (pattern[i + 1] === "'") {
        out += "'";
        i += 2;
        continue;
      }
      i++;
      let closed = false;
      while (i < pattern.length) {
        if (pattern[i] === "'") {
          if (pattern[i + 1] === "'") {
            out += "'";
            i += 2;
            continue;
          }
          i++;
          closed = true;
          break;
        }
        out += pattern[i++];
      }
      // Java's SimpleDateFormat refuses the pattern itself.
      if (!closed) throw new Error('Unterminated quote');
      continue;
    }
    if (/[A-Za-z]/.test(c)) {
      let n = 1;
      while (pattern[i + n] === c) n++;
      out += field(c, n, f);
      i += n;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

const PATTERN_LETTERS = 'GyYMLwWDdFEuaHkKhmsSzZX';

/** Throws what java.text.SimpleDateFormat's constructor throws for a bad pattern. */
function checkPattern(pattern: string): void {
  let quoted = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "'") {
      if (pattern[i + 1] === "'") i++;
      else quoted = !quoted;
      continue;
    }
    if (!quoted && /[A-Za-z]/.test(c) && !PATTERN_LETTERS.includes(c)) throw new Error(`Illegal pattern character '${c}'`);
  }
  if (quoted) throw new Error('Unterminated quote');
}
