/**
 * The scan's own record, written by startScan (`scan.decide.<id>`), read by the import, forgotten by
 * Delete. It holds what the service is never told or may not echo back:
 * - the seller's decision options (months of cover, share rule, target ROI, largest discount), never
 *   sent; a scan started elsewhere gets the defaults;
 * - whether the result tab gets its picture column (New scan's "Pictures", `pictures: false` when off);
 * - what the add-on SENT (`sent`): the upload's mapping, the custom column names, the marketplace and
 *   the line count. The import labels the supplier's columns by these, not by the service's echo: the
 *   vendor's scan record has no `mapping` (service-silent-parts.md), and a column guessed from it lands
 *   under another header. The service's copy only checks that this record is the scan's (a reset
 *   service reuses ids);
 * - New scan's column choice (`columns`: 'all'; absent: the essential columns), never sent.
 */
import { decisionFromRecord, DEFAULT_DECISION, type DecisionOptions } from '../../domain/price-list/decide';
import { cutText, utf8Length } from '../../domain/sheet/safe';
import { decisionKey, PROPERTY_VALUE_MAX_BYTES } from '../../store/keys';
import { record } from '../../store/records';
import { isObject } from '../../api/read';
import { columnSetOf, type ColumnSet } from '../../domain/result-tabs/all-columns';

type Properties = GoogleAppsScript.Properties.Properties;

/** What the add-on uploaded for a scan: enough to import it without the service's mapping. */
export interface SentRecord {
  /** attributes.mapping as sent (0-based columns of the upload file). */
  mapping: Record<string, unknown>;
  /** options.custom_columns as sent, in mapping.custom_columns order (names cut to fit a property). */
  custom: string[];
  /** Marketplace code. */
  marketplace: string;
  /** Lines uploaded (rows of the file after its header). */
  lines: number;
}

/** A custom column name is a header cell (up to 50,000 characters): cut so the record stays one property. */
const NAME_MAX_CHARS = 200;

const DECISION = record<Record<string, unknown>, [number]>(decisionKey, { decode: (v) => (isObject(v) ? v : null) });

/** New scan's own choices for a scan: the picture column (on by default) and the column set. */
export interface ScanChoices {
  pictures: boolean;
  columns: ColumnSet;
}

export function recordScanSent(
  props: Properties,
  scanId: number,
  o: DecisionOptions,
  sent: SentRecord | null,
  choices: ScanChoices = { pictures: true, columns: 'essential' },
): void {
  const chosen = { ...o, pictures: choices.pictures, ...(choices.columns === 'all' ? { columns: choices.columns } : {}) };
  let rec: Record<string, unknown> = chosen;
  // Names are cut (never the mapping) until the record fits one property; a name cut to nothing reads "Custom N".
  for (let each = NAME_MAX_CHARS; sent; each = Math.floor(each / 2)) {
    const custom = sent.custom.map((n) => (n.length > each ? cutText(n, each) : n));
    rec = { ...chosen, sent: { ...sent, custom } };
    if (utf8Length(JSON.stringify(rec)) <= PROPERTY_VALUE_MAX_BYTES - 512 || each === 0) break;
  }
  DECISION.put(props, rec, scanId);
}

function readRecord(props: Properties, scanId: number): Record<string, unknown> | null {
  return DECISION.get(props, scanId);
}

export function readDecision(props: Properties, scanId: number): DecisionOptions {
  const r = readRecord(props, scanId);
  return r ? decisionFromRecord(r) : { ...DEFAULT_DECISION };
}

/** Whether the scan's result tab gets its picture column: on unless New scan recorded it off (a scan started elsewhere gets it). */
export function readPictures(props: Properties, scanId: number): boolean {
  const r = readRecord(props, scanId);
  return !(r && r.pictures === false);
}

/** New scan's column choice for the scan: the essential columns unless the record says all. */
export function readColumnSet(props: Properties, scanId: number): ColumnSet {
  const r = readRecord(props, scanId);
  return columnSetOf(r && r.columns);
}

/** What the add-on sent for the scan, or null (started elsewhere, by older code, or the record is damaged). */
export function readSent(props: Properties, scanId: number): SentRecord | null {
  const r = readRecord(props, scanId);
  const s = r && r.sent;
  if (!s || typeof s !== 'object') return null;
  const o = s as Record<string, unknown>;
  const mapping = o.mapping && typeof o.mapping === 'object' && !Array.isArray(o.mapping) ? (o.mapping as Record<string, unknown>) : null;
  if (!mapping || typeof mapping.id !== 'number' || typeof mapping.cost !== 'number') return null;
  const custom = Array.isArray(o.custom) ? o.custom.map(String) : [];
  const cols = Array.isArray(mapping.custom_columns) ? mapping.custom_columns : [];
  if (cols.length !== custom.length) return null;
  return { mapping, custom, marketplace: String(o.marketplace || ''), lines: typeof o.lines === 'number' ? o.lines : 0 };
}

export function forgetDecision(props: Properties, scanId: number): void {
  DECISION.remove(props, scanId);
}
