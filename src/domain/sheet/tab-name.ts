/**
 * The one maker of names for tabs the add-on creates (result, filtered, errors, Negotiate, PO,
 * download and list tabs, staging tabs): within 31 characters and unique in the spreadsheet.
 *
 * Why 31: Sheets allows 100 characters, but an .xlsx file (what File > Download gives, and what the
 * headless runner saves) holds at most 31, and no \ / ? * [ ] : nor an apostrophe at either end. A
 * longer name is cut in the download, and two cut names can collide; the headless runner refuses to
 * save it. So every name the add-on makes fits an .xlsx file.
 *
 * What is kept when a name is too long (decided): the kind suffix the caller gives (" – errors",
 * " (filtered)", " – PO" …) and the uniqueness counter " (2)" stay whole; so does an informative
 * tail of the name (a date, a time, short groups in brackets, a "– kind"), as long as 3 characters
 * of the beginning still fit; the middle is cut, by character (never half of an emoji), and the cut
 * is shown by "…". Unique case-insensitively, as Sheets compares tab names.
 * Pure; nothing runs at load time.
 */
import { cutText } from './safe';

/** Characters an .xlsx sheet name holds (Excel's limit; the headless runner's saveXlsx refuses more). */
export const TAB_NAME_MAX = 31;

/** The mark of a cut name. */
const CUT = '…';

/** Trailing tokens worth keeping whole: a date, a time, "(2)"/"(filtered)"/"(CSV)", "– errors". */
const TAIL_TOKEN = /\s+(?:\d{4}-\d{2}-\d{2}|\d{1,2}[.:]\d{2}(?:[.:]\d{2})?|\([^()]{1,12}\)|–\s[^\s–]{1,12})$/;

/** One line, no character an .xlsx sheet name cannot hold, no apostrophe at either end. */
export function cleanTabName(name: string): string {
  return String(name == null ? '' : name)
    .replace(/[\\/]/g, '-')
    .replace(/:/g, '.')
    .replace(/\[/g, '(')
    .replace(/\]/g, ')')
    .replace(/[?*]/g, '')
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^'+|'+$/g, '')
    .trim();
}

/** The name within `room` UTF-16 units: as it is, else its beginning, "…" and its informative tail. */
export function fitName(name: string, room: number): string {
  if (name.length <= room) return name;
  if (room <= 1) return cutText(name, room);
  // Split off the tail tokens, then give back the leftmost ones while the tail leaves no room for 3
  // characters of the beginning and the mark.
  const tokens: string[] = [];
  let head = name;
  for (let m = TAIL_TOKEN.exec(head); m && m.index > 0; m = TAIL_TOKEN.exec(head)) {
    tokens.unshift(m[0].replace(/^\s+/, ' '));
    head = head.slice(0, m.index);
  }
  while (tokens.length && tokens.join('').length + 3 + CUT.length > room) head += tokens.shift();
  const tail = tokens.join('');
  // A name cut before ends with the mark already: one mark is enough.
  const start = cutText(head, room - tail.length - CUT.length)
    .replace(/[\s…]+$/, '')
    .trimEnd();
  return start + CUT + tail;
}

/**
 * A tab name within 31 characters, not among `taken` (compared case-insensitively): `name` (cleaned;
 * `fallback` when it is empty) + `suffix`, else with " (2)", " (3)" … after the suffix, the name cut
 * to leave room for both.
 */
export function tabName(name: string, taken: readonly string[], options: { suffix?: string; fallback?: string } = {}): string {
  const suffix = options.suffix ? cleanTabName('x' + options.suffix).slice(1) : '';
  const stem = cleanTabName(name) || cleanTabName(options.fallback || '') || 'Sheet';
  const lower = new Set(taken.map((t) => t.toLowerCase()));
  for (let n = 1; ; n++) {
    const counter = n === 1 ? '' : ' (' + n + ')';
    const candidate = fitName(stem, TAB_NAME_MAX - suffix.length - counter.length) + suffix + counter;
    if (!lower.has(candidate.toLowerCase())) return candidate;
  }
}
