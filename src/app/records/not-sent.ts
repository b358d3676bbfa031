/**
 * Rows the add-on skipped before the upload (no identifier, an unusable cost…) belong in the scan's
 * errors tab beside the rows the service could not use, so every row of the price list ends up in
 * some tab with its reason. startScan records them (document properties, one small record per scan,
 * cut to fit a property value: the count stays whole), the import writes them, Delete forgets them.
 *
 * The document's property store holds 500 KB for everything, so these records must not pile up: a
 * full import deletes its record once the rows are in the errors tab (a re-import reads them back
 * from that tab), the newest NOT_SENT_FULL_RECORDS keep their rows, older ones only their count, and
 * none beyond NOT_SENT_MAX_RECORDS stay. When the store is full anyway, a checkpoint first shrinks
 * these records (withRoom) rather than fail.
 */
import { utf8Length } from '../../domain/sheet/safe';
import { notSentKey, notSentKeyIds, NOT_SENT_FULL_RECORDS, NOT_SENT_MAX_RECORDS, PROPERTY_VALUE_MAX_BYTES } from '../../store/keys';
import { record } from '../../store/records';

type Properties = GoogleAppsScript.Properties.Properties;

/** One skipped row: sheet row, the reason in words, the identifier cell as text. */
export type NotSentRow = [number, string, string];

export interface NotSent {
  /** All rows skipped (also those cut from `r`). */
  n: number;
  r: NotSentRow[];
}

const NOT_SENT = record<NotSent, [number]>(notSentKey, {
  decode: (v) => {
    const r = v as NotSent | null;
    return r && typeof r.n === 'number' && Array.isArray(r.r) ? r : null;
  },
});

/** The record of the rows skipped (blank rows are not rows of the list), cut to fit a property (pure). */
export function notSentRecord(
  skipped: ReadonlyArray<{ sheetRow: number; reason: string; message: string; identifier: string }>,
): NotSent | null {
  const rows = skipped
    .filter((s) => s.reason !== 'blank-row')
    .map((s): NotSentRow => [s.sheetRow, s.message.replace(/^Row \d+:\s*/, '').slice(0, 300), s.identifier.slice(0, 40)]);
  if (!rows.length) return null;
  return fitted({ n: rows.length, r: rows });
}

/** The record cut to fit one property value (the count stays whole). */
function fitted(out: NotSent): NotSent {
  // Bytes, not characters: a property value holds 9 KB of UTF-8.
  const budget = PROPERTY_VALUE_MAX_BYTES - 512;
  while (out.r.length && utf8Length(JSON.stringify(out)) > budget) out.r = out.r.slice(0, Math.floor(out.r.length * 0.8));
  return out;
}

/** Records a scan's skipped rows, then keeps the other scans' records within bounds. */
export function recordNotSent(props: Properties, scanId: number, record: NotSent | null): void {
  if (!record) return;
  withRoom(props, scanId, () => NOT_SENT.put(props, record, scanId));
  pruneNotSent(props, scanId, NOT_SENT_FULL_RECORDS - 1, NOT_SENT_MAX_RECORDS - 1);
}

/**
 * Keeps the not-sent records of scans other than `except` within bounds, newest (highest id) first:
 * the first `full` keep their rows, the next up to `max` only their count, the rest are deleted. Each
 * new record pushes at most one past a bound, so only the few records at the bounds are read.
 */
export function pruneNotSent(props: Properties, except: number, full: number, max: number, all = false): void {
  const ids = notSentKeyIds(props.getKeys())
    .filter((id) => id !== except)
    .sort((a, b) => b - a);
  ids.forEach((id, i) => {
    if (i >= max) NOT_SENT.remove(props, id);
    else if (i >= full && (all || i < full + 3)) {
      const r = readNotSent(props, id);
      if (!r) NOT_SENT.remove(props, id);
      else if (r.r.length) NOT_SENT.put(props, { n: r.n, r: [] }, id);
    }
  });
}

/** Google's answer when a property store is full (500 KB). */
export function isStoreFull(e: unknown): boolean {
  return /property storage quota/i.test(e instanceof Error ? e.message : String(e));
}

/**
 * Runs a property write; when the store is full, shrinks every other scan's not-sent record to its
 * count and writes again (a checkpoint or record must not fail for rows that are also in a tab or
 * were only for the record).
 */
export function withRoom(props: Properties, scanId: number, write: () => void): void {
  try {
    write();
  } catch (e) {
    if (!isStoreFull(e)) throw e;
    pruneNotSent(props, scanId, 0, NOT_SENT_MAX_RECORDS, true);
    write();
  }
}

export function readNotSent(props: Properties, scanId: number): NotSent | null {
  return NOT_SENT.get(props, scanId);
}

export function forgetNotSent(props: Properties, scanId: number): void {
  NOT_SENT.remove(props, scanId);
}

const NOT_SENT_REASON = 'Not sent (skipped before the upload): ';
const MORE_ROWS = /^…and (\d+) more rows? skipped before the upload/;

/** Rows for the errors tab (its first four columns: Sheet row, File line, Identifier, Reason), plus a line for rows cut. */
export function notSentRows(record: NotSent): Array<[number | '', string, string, string]> {
  const out: Array<[number | '', string, string, string]> = record.r.map(([row, message, id]) => [row, '', id, NOT_SENT_REASON + message]);
  if (record.n > record.r.length)
    out.push(['', '', '', `…and ${record.n - record.r.length} more rows skipped before the upload (Preview in New scan lists them).`]);
  return out;
}

/**
 * The record back from an errors tab's first four columns (what notSentRows wrote there), for a
 * re-import after the record was deleted; null when the tab has none (pure).
 */
export function notSentFromErrorRows(rows: ReadonlyArray<ReadonlyArray<unknown>>): NotSent | null {
  const r: NotSentRow[] = [];
  let more = 0;
  for (const row of rows) {
    const reason = String(row[3] ?? '');
    if (reason.indexOf(NOT_SENT_REASON) === 0) r.push([Number(row[0]) || 0, reason.slice(NOT_SENT_REASON.length), String(row[2] ?? '')]);
    else {
      const m = MORE_ROWS.exec(reason);
      if (m) more += Number(m[1]);
    }
  }
  return r.length || more ? fitted({ n: r.length + more, r }) : null;
}
