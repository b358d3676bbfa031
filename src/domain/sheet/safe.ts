/**
 * Guard for every value written into a sheet with setValue(s)/appendRow: text from a supplier or the
 * service must be stored as exactly that text, never as a formula and never re-read as a number, date
 * or boolean (Sheets parses written strings like typed input: "=..." is a formula, "007" becomes 7,
 * "1/2" a date, "TRUE" a boolean, "#N/A" an error). A leading apostrophe makes Sheets store the rest
 * as text, and the apostrophe itself is not part of the stored value.
 *
 * Rule (decided): a string gets the apostrophe when, after any leading whitespace, it starts with
 * = + - @ (formula triggers; leading whitespace is included because some imports trim it away
 * later), or starts with ' or #, or contains any digit (anything Sheets could read as a number, date,
 * time, percent or currency has one), or is TRUE/FALSE in any case. Text without these needs none,
 * so ordinary words stay as they are. Numbers, booleans and Dates stay what they are; null, undefined,
 * NaN and infinities become '' (Sheets would show them as errors).
 * Do not give cells written with these values the plain-text number format '@': in a plain-text
 * cell the apostrophe may be kept as a character (the local runtime keeps it).
 *
 * Size (issue 26): Sheets refuses a whole write when one cell holds more than 50,000 characters
 * ("Your input contains more than the maximum of 50000 characters in a single cell."), so one
 * oversized note or title from outside would stop an import or a sync. Every text written through
 * safeText is held within the limit (apostrophe included): a longer one is cut, never inside a
 * character (a surrogate pair stays whole), and ends with a visible mark "… [cut: 60,000
 * characters]" giving the original length. Objects where text was declared are read as their
 * text (textOf), never as "[object Object]".
 * Pure; nothing runs at load time.
 */
import { count } from '../../../contract/numbers';

/** Sheets' limit of characters in one cell (Google's "Files you can store in Google Drive" page). */
export const CELL_MAX_CHARS = 50000;

/** The text's first `max` UTF-16 units at most, never ending inside a character (no lone high surrogate). */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max);
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end);
}

/** A cell Sheets shows empty: nothing, or only spaces. */
export function isBlankCell(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
}

/** Bytes of a text in UTF-8 (what a property's 9 KB, a cache value's 100 KB and an upload count); Apps Script has no text encoder of the Web platform. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      n += 4; // a surrogate pair is one 4-byte character
      i++;
    } else n += 3;
  }
  return n;
}

/** Characters (code points) of a text. */
function codePoints(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/**
 * The text within `room` UTF-16 units (a cell's 50,000 by default): as it is when it fits, else cut
 * and marked "… [cut: N characters]" (N = the original's characters).
 */
export function fitCell(text: string, room: number = CELL_MAX_CHARS): string {
  if (text.length <= room) return text;
  const mark = ' … [cut: ' + count(codePoints(text)) + ' characters]';
  return cutText(text, room - mark.length) + mark;
}

/**
 * A value from outside where text was declared, as text: strings as they are, finite numbers and
 * booleans as written, a list as its items' texts joined by ", ", an object by its name/value/text/
 * title/label member, else as its JSON; null, undefined, NaN and infinities as ''.
 */
export function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value))
    return value
      .map(textOf)
      .filter((t) => t !== '')
      .join(', ');
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    for (const k of ['name', 'value', 'text', 'title', 'label', 'display_name']) {
      const x = o[k];
      if (typeof x === 'string' || (typeof x === 'number' && isFinite(x))) return String(x);
    }
    try {
      return JSON.stringify(value) || '';
    } catch (_e) {
      return '';
    }
  }
  return String(value);
}

/** True when Sheets would run this text as a formula if written as-is. */
export function isFormulaLike(text: string): boolean {
  return /^\s*[=+\-@]/.test(text);
}

/** True when the text needs the apostrophe to be stored as exactly this text. */
export function needsTextGuard(text: string): boolean {
  if (text === '') return false;
  return isFormulaLike(text) || /^['#]/.test(text) || /\d/.test(text) || /^(true|false)$/i.test(text.trim());
}

/** The text to write so that Sheets stores `text` unchanged. */
export function safeText(text: string): string {
  // The apostrophe counts towards the cell's limit too; a cut text ends in digits, so it is guarded.
  const t = text.length > CELL_MAX_CHARS - (needsTextGuard(text) ? 1 : 0) ? fitCell(text, CELL_MAX_CHARS - 1) : text;
  return needsTextGuard(t) ? "'" + t : t;
}

/** The value to write for one cell: guarded text, numbers/booleans/Dates as they are, '' for nothing. */
export function safeCellValue(value: unknown): string | number | boolean | Date {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return isFinite(value) ? value : '';
  if (typeof value === 'boolean') return value;
  if (value instanceof Date || Object.prototype.toString.call(value) === '[object Date]') return value as Date;
  if (typeof value === 'string') return safeText(value);
  return safeText(textOf(value));
}

/** safeCellValue over a whole 2D block (a new array; the input is not changed). */
export function safeBlock(rows: readonly (readonly unknown[])[]): (string | number | boolean | Date)[][] {
  return rows.map((row) => row.map(safeCellValue));
}
