/**
 * Rows the add-on skipped before the upload (no identifier, an unusable cost…) belong in the scan's
 * errors tab beside the rows the service could not use, so every row of the price list ends up in
 * some tab with its reason. startScan records them (document properties, one small record per scan,
 * cut to fit a property value: the count stays whole), the import writes them, Delete forgets them.
 */
import { notSentKey, PROPERTY_VALUE_MAX_BYTES } from '../../store/keys';

type Properties = GoogleAppsScript.Properties.Properties;

/** One skipped row: sheet row, the reason in words, the identifier cell as text. */
export type NotSentRow = [number, string, string];

export interface NotSent {
  /** All rows skipped (also those cut from `r`). */
  n: number;
  r: NotSentRow[];
}

/** The record of the rows skipped (blank rows are not rows of the list), cut to fit a property (pure). */
export function notSentRecord(
  skipped: ReadonlyArray<{ sheetRow: number; reason: string; message: string; identifier: string }>,
): NotSent | null {
  const rows = skipped
    .filter((s) => s.reason !== 'blank-row')
    .map((s): NotSentRow => [s.sheetRow, s.message.replace(/^Row \d+:\s*/, '').slice(0, 300), s.identifier.slice(0, 40)]);
  if (!rows.length) return null;
  const out: NotSent = { n: rows.length, r: rows };
  // Bytes, not characters: a property value holds 9 KB of UTF-8.
  const budget = PROPERTY_VALUE_MAX_BYTES - 512;
  while (out.r.length && utf8Length(JSON.stringify(out)) > budget) out.r = out.r.slice(0, Math.floor(out.r.length * 0.8));
  return out;
}

/** Bytes of a text in UTF-8 (what a property value's 9 KB counts). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c < 0xdc00 ? (i++, 4) : 3;
  }
  return n;
}

export function recordNotSent(props: Properties, scanId: number, record: NotSent | null): void {
  if (record) props.setProperty(notSentKey(scanId), JSON.stringify(record));
}

export function readNotSent(props: Properties, scanId: number): NotSent | null {
  const t = props.getProperty(notSentKey(scanId));
  if (!t) return null;
  try {
    const v = JSON.parse(t) as NotSent;
    return v && typeof v.n === 'number' && Array.isArray(v.r) ? v : null;
  } catch (_e) {
    return null;
  }
}

export function forgetNotSent(props: Properties, scanId: number): void {
  props.deleteProperty(notSentKey(scanId));
}

/** Rows for the errors tab (its first four columns: Sheet row, File line, Identifier, Reason), plus a line for rows cut. */
export function notSentRows(record: NotSent): Array<[number | '', string, string, string]> {
  const out: Array<[number | '', string, string, string]> = record.r.map(([row, message, id]) => [
    row,
    '',
    id,
    'Not sent (skipped before the upload): ' + message,
  ]);
  if (record.n > record.r.length)
    out.push(['', '', '', `…and ${record.n - record.r.length} more rows skipped before the upload (Preview in New scan lists them).`]);
  return out;
}
