/**
 * Cell text quoted in a message: whole when short, else its start with a visible mark of what was
 * cut ("…" and the full length), so a 50,000-character cell never becomes a 50,000-character
 * message. Never splits a surrogate pair (an emoji stays whole or goes). Pure.
 */
import { cutText } from '../sheet/safe';
import { commas } from '../../../contract/numbers';

/** Characters of a cell quoted in messages before it is cut. */
export const QUOTE_CHARS = 60;

/** `"text"`, or `"start…" (50,000 characters)` when longer than `max`. */
export function quoteCell(text: string, max = QUOTE_CHARS): string {
  if (text.length <= max) return '"' + text + '"';
  return '"' + cutText(text, max) + '…" (' + commas(text.length) + ' characters)';
}

/** The text itself when short, else its start and the mark ("…" and the full length), for fields shown as values. */
export function shortCell(text: string, max = QUOTE_CHARS): string {
  if (text.length <= max) return text;
  return cutText(text, max) + '… (' + commas(text.length) + ' characters)';
}
