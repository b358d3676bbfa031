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
 * Pure; nothing runs at load time.
 */

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
  return needsTextGuard(text) ? "'" + text : text;
}

/** The value to write for one cell: guarded text, numbers/booleans/Dates as they are, '' for nothing. */
export function safeCellValue(value: unknown): string | number | boolean | Date {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return isFinite(value) ? value : '';
  if (typeof value === 'boolean') return value;
  if (value instanceof Date || Object.prototype.toString.call(value) === '[object Date]') return value as Date;
  if (typeof value === 'string') return safeText(value);
  return safeText(String(value));
}

/** safeCellValue over a whole 2D block (a new array; the input is not changed). */
export function safeBlock(rows: readonly (readonly unknown[])[]): (string | number | boolean | Date)[][] {
  return rows.map((row) => row.map(safeCellValue));
}
