/**
 * Cell values as Sheets stores them: numbers (dates are numbers with a date format, like in Sheets),
 * strings and booleans; how typed input becomes a value; and the 15-significant-digit limit.
 */
import { tzOffsetMs } from '../timezone';

/** What a cell holds. Dates are serial numbers (days since 1899-12-30 in the spreadsheet's time zone). */
export type Stored = number | string | boolean;

/** The format Apps Script reports for a cell whose format is "Automatic". */
export const AUTOMATIC_FORMAT = '0.###############';
export const TEXT_FORMAT = '@';
export const DATE_FORMAT = 'M/d/yyyy';
export const DATE_TIME_FORMAT = 'M/d/yyyy H:mm:ss';

const MS_PER_DAY = 86400000;
/** 1899-12-30T00:00:00Z, day 0 of Sheets' serial dates. */
const EPOCH_MS = Date.UTC(1899, 11, 30);

export function isDate(v: unknown): v is Date {
  // Dates from the script's vm context fail `instanceof Date`.
  return Object.prototype.toString.call(v) === '[object Date]';
}

/** A moment to the serial number that the spreadsheet's time zone shows for it. */
export function dateToSerial(d: Date, tz: string): number {
  const ms = d.getTime();
  return (ms + tzOffsetMs(ms, tz) - EPOCH_MS) / MS_PER_DAY;
}

/** A serial number (wall time in the spreadsheet's time zone) to the moment. */
export function serialToDate(serial: number, tz: string): Date {
  const wall = Math.round(serial * MS_PER_DAY) + EPOCH_MS;
  // Two passes settle the offset around DST changes.
  let ms = wall - tzOffsetMs(wall, tz);
  ms = wall - tzOffsetMs(ms, tz);
  return new Date(ms);
}

/** Wall-clock fields of a serial number (no time zone involved). */
export function serialParts(serial: number): {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
  ms: number;
  wd: number;
} {
  const wall = new Date(Math.round(serial * MS_PER_DAY) + EPOCH_MS);
  return {
    y: wall.getUTCFullYear(),
    mo: wall.getUTCMonth() + 1,
    d: wall.getUTCDate(),
    h: wall.getUTCHours(),
    mi: wall.getUTCMinutes(),
    s: wall.getUTCSeconds(),
    ms: wall.getUTCMilliseconds(),
    wd: wall.getUTCDay(),
  };
}

function wallSerial(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number {
  return (Date.UTC(y, mo - 1, d, h, mi, s) - EPOCH_MS) / MS_PER_DAY;
}

/**
 * Sheets keeps 15 significant digits and drops the rest (it truncates: typing 12345678901234567
 * stores 12345678901234500).
 */
export function truncate15(n: number): number {
  if (!Number.isFinite(n) || n === 0) return n;
  const [mant, exp] = Math.abs(n).toExponential().split('e');
  const digits = mant.replace('.', '');
  if (digits.length <= 15) return n;
  const kept = `${digits[0]}.${digits.slice(1, 15)}e${exp}`;
  return (n < 0 ? -1 : 1) * Number(kept);
}

/** Truncates the digit string of a typed number to 15 significant digits before converting. */
function numberFromDigits(intPart: string, frac: string, exp: number): number {
  const all = (intPart + frac).replace(/^0+/, '');
  const lead = (intPart + frac).length - all.length; // leading zeros removed
  if (all.length === 0) return 0;
  const kept = all.slice(0, 15);
  // Position of the decimal point relative to the first significant digit.
  const pointPos = intPart.length - lead + exp;
  return Number(`0.${kept}e${pointPos}`);
}

export interface Parsed {
  value: Stored;
  /** Number format Sheets applies for this kind of input (currency, percent, date), if any. */
  format?: string;
}

const NUM = /^([+-]?)(\d+(?:,\d{3})*|\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
const CURRENCY_SYMBOLS: Record<string, string> = { $: '"$"#,##0.00', '€': '"€"#,##0.00', '£': '"£"#,##0.00', '¥': '"¥"#,##0' };

function parseNumber(s: string): { n: number; grouped: boolean; decimals: number; exp: boolean } | null {
  const m = NUM.exec(s);
  if (!m) return null;
  const [, sign, intRaw, frac = '', exp] = m;
  if (!intRaw && !frac) return null;
  const grouped = intRaw.includes(',');
  if (grouped && exp !== undefined) return null;
  const n = numberFromDigits(intRaw.replace(/,/g, '') || '0', frac, exp ? Number(exp) : 0);
  return { n: sign === '-' ? -n : n, grouped, decimals: frac.length, exp: exp !== undefined };
}

/** Format Sheets gives typed scientific notation ("1.5e3"); chosen: Sheets' own "Scientific" format. */
export const SCIENTIFIC_FORMAT = '0.00E+00';

/** The format a typed plain number brings: thousands separators or scientific notation. */
function numberFormat(num: { grouped: boolean; decimals: number; exp: boolean }): string | undefined {
  // Chosen: typed thousands separators give #,##0 (or #,##0.00 with decimals), as Sheets shows them.
  if (num.grouped) return num.decimals ? '#,##0.00' : '#,##0';
  // Chosen: "1.5e3" is 1500 shown as 1.50E+03 (Sheets shows typed E-notation in scientific form; the
  // exact format is not documented).
  if (num.exp) return SCIENTIFIC_FORMAT;
  return undefined;
}

/**
 * Parses a string the way Sheets parses typed input (en_US locale): numbers, currency, percent,
 * booleans, dates and times. Anything else stays text. The caller handles '=' (formula),
 * the leading apostrophe and the plain-text format. `year` is the current year in the spreadsheet's
 * time zone, for dates typed without one ("12/5", "Jan 5").
 */
export function parseTyped(raw: string, year: number = new Date().getUTCFullYear()): Parsed {
  const s = raw.trim();
  if (s === '') return { value: raw };
  // Fast path: text that cannot start a number, currency, date (month names) or boolean stays text.
  if (!/^[\d+\-.$€£¥(tTfFjJmMaAsSoOnNdD]/.test(s)) return { value: raw };
  const upper = s.toUpperCase();
  if (upper === 'TRUE') return { value: true };
  if (upper === 'FALSE') return { value: false };

  const num = parseNumber(s);
  if (num) return { value: num.n, format: numberFormat(num) };

  // Chosen (Sheets documents no rule; accounting notation as spreadsheets read it): "(1,234)" is -1234.
  const neg = /^\((.+)\)$/.exec(s);
  if (neg) {
    const p = parseNumber(neg[1]);
    if (p && !/^[+-]/.test(neg[1])) return { value: p.n === 0 ? 0 : -p.n, format: numberFormat(p) };
  }

  // Percent: "10%", "12.5 %".
  const pm = /^(.*?)\s*%$/.exec(s);
  if (pm) {
    const p = parseNumber(pm[1]);
    if (p) return { value: truncate15(p.n / 100), format: p.decimals ? '0.00%' : '0%' };
  }

  // Currency: "$2.99", "-$2.99", "$-2.99", "2.99 €" (symbol before or after).
  const cm = /^([+-]?)\s*([$€£¥])\s*([+-]?[\d.,]+(?:[eE][+-]?\d+)?)$/.exec(s) ?? /^([+-]?)([\d.,]+)\s*([$€£¥])$/.exec(s);
  if (cm) {
    const symbol = /[$€£¥]/.exec(cm[2]) ? cm[2] : cm[3];
    const numText = symbol === cm[2] ? cm[3] : cm[2];
    const p = parseNumber(numText);
    if (p) {
      const neg = cm[1] === '-';
      const fmt = symbol === cm[2] ? CURRENCY_SYMBOLS[symbol] : `#,##0.00" ${symbol}"`;
      return { value: neg ? -p.n : p.n, format: fmt };
    }
  }

  const d = parseDateTime(s, year);
  if (d) return d;
  return { value: raw };
}

function validDate(y: number, mo: number, d: number): boolean {
  if (mo < 1 || mo > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

function parseTime(t: string): { h: number; mi: number; s: number; hasSec: boolean } | null {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?$/.exec(t);
  if (!m) return null;
  let h = Number(m[1]);
  const mi = Number(m[2]);
  const s = m[3] ? Number(m[3]) : 0;
  if (m[4]) {
    if (h < 1 || h > 12) return null;
    const pm = m[4].toUpperCase() === 'PM';
    h = (h % 12) + (pm ? 12 : 0);
  }
  if (h > 23 || mi > 59 || s > 59) return null;
  return { h, mi, s, hasSec: m[3] !== undefined };
}

const MONTH_NAMES = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** A month's full name or its three-letter abbreviation (any case), with the format letters that show it that way. */
function monthByName(w: string): { mo: number; fmt: string } | null {
  const l = w.toLowerCase();
  const full = MONTH_NAMES.indexOf(l);
  if (full >= 0) return { mo: full + 1, fmt: 'mmmm' };
  const short = MONTH_NAMES.findIndex((m) => m.slice(0, 3) === l);
  return short >= 0 ? { mo: short + 1, fmt: 'mmm' } : null;
}

/** A typed year: four digits, or one or two (chosen pivot: below 30 is 20xx, else 19xx). */
function fullYear(t: string): number {
  const y = Number(t);
  return t.length <= 2 ? y + (y < 30 ? 2000 : 1900) : y;
}

/**
 * Dates with a month name (en_US): "Jan 5", "January 5, 2024", "Jan 5 2024", "5 Jan", "5 Jan 2024",
 * "5 January 2024". Without a year: the current one. Chosen: the cell gets a format that shows the
 * date the way it was typed (mmm d, mmmm d, yyyy, d mmm yyyy, ...); Sheets documents none.
 */
function parseNamedDate(s: string, year: number): Parsed | null {
  let m = /^([A-Za-z]+)\.? (\d{1,2})(?:(,)? (\d{4}))?$/.exec(s);
  if (m) {
    const mon = monthByName(m[1]);
    if (!mon) return null;
    const y = m[4] ? Number(m[4]) : year;
    const d = Number(m[2]);
    if (!validDate(y, mon.mo, d)) return null;
    return { value: wallSerial(y, mon.mo, d), format: `${mon.fmt} d` + (m[4] ? `${m[3] ?? ''} yyyy` : '') };
  }
  m = /^(\d{1,2}) ([A-Za-z]+)\.?(?:,? (\d{4}))?$/.exec(s);
  if (m) {
    const mon = monthByName(m[2]);
    if (!mon) return null;
    const y = m[3] ? Number(m[3]) : year;
    const d = Number(m[1]);
    if (!validDate(y, mon.mo, d)) return null;
    return { value: wallSerial(y, mon.mo, d), format: `d ${mon.fmt}` + (m[3] ? ' yyyy' : '') };
  }
  return null;
}

/**
 * ISO-like (2024-01-15, 2024/01/15, with optional time), US (1/15/2024, 1/2/3 = M/d/y, and 12/5 =
 * M/d of the current year) and month-name dates ("Jan 5", "January 5, 2024", "5 Jan 2024"); times
 * (13:45, 1:45 PM). `year`: the current year, for dates typed without one.
 */
export function parseDateTime(s: string, year: number = new Date().getUTCFullYear()): Parsed | null {
  let m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](.+))?$/.exec(s);
  let y: number, mo: number, d: number, timeText: string | undefined, dateFormat: string;
  if (m) {
    y = Number(m[1]);
    mo = Number(m[2]);
    d = Number(m[3]);
    timeText = m[4];
    // Chosen: ISO input keeps an ISO-looking format.
    dateFormat = 'yyyy-mm-dd';
  } else if ((m = /^(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{1,2})(?: (.+))?$/.exec(s))) {
    mo = Number(m[1]);
    d = Number(m[2]);
    y = fullYear(m[3]);
    timeText = m[4];
    dateFormat = DATE_FORMAT;
  } else if ((m = /^(\d{1,2})\/(\d{1,2})$/.exec(s))) {
    // M/d: a date of the current year, as in Sheets. Chosen: shown as typed, format M/d.
    mo = Number(m[1]);
    d = Number(m[2]);
    y = year;
    dateFormat = 'M/d';
  } else {
    const named = parseNamedDate(s, year);
    if (named) return named;
    const t = parseTime(s);
    if (!t) return null;
    return { value: wallSerial(1899, 12, 30, t.h, t.mi, t.s), format: t.hasSec ? 'h:mm:ss am/pm' : 'h:mm am/pm' };
  }
  if (!validDate(y, mo, d)) return null;
  if (timeText === undefined) return { value: wallSerial(y, mo, d), format: dateFormat };
  const t = parseTime(timeText.replace(/Z$/, ''));
  if (!t) return null;
  return { value: wallSerial(y, mo, d, t.h, t.mi, t.s), format: dateFormat === DATE_FORMAT ? DATE_TIME_FORMAT : 'yyyy-mm-dd H:mm:ss' };
}

/** True when a number format shows dates or times (so getValue returns a Date). */
export function isDateFormat(fmt: string | undefined): boolean {
  if (!fmt) return false;
  // Drop quoted text, escapes and colour/condition brackets (but not elapsed-time [h]).
  const f = fmt
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[(?![hms]+\])[^\]]*\]/gi, '');
  return /[dyhs]/i.test(f) || /(^|[^0#?])m/i.test(f.replace(/am\/pm|a\/p/gi, ''));
}
