/**
 * A downloaded file's rows as cells (pure): CSV and JSON to a grid whose code-like columns stay
 * text (guarded) and quantities become numbers; the name of the download's Drive file (its tab's name: src/domain/sheet/tab-name.ts).
 */
import { parseCsv } from '../../domain/price-list/csv';
import { cutText, safeText } from '../../domain/sheet/safe';

/** "Name (scan 12).csv", without characters Drive users trip over. */
export function fileNameFor(scanName: string, scanId: number, ext: string): string {
  const clean = cutText(
    scanName
      .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
    100,
  );
  return (clean || 'Scan') + ' (scan ' + scanId + ').' + ext;
}

/** Columns whose numbers are codes, not quantities: kept as text so no zero or digit is lost. */
const CODE_COLUMN = /(identifier|asin|upc|ean|isbn|gtin|jan|sku|input|title|name|brand)/i;
const PLAIN_NUMBER = /^-?(0|[1-9]\d{0,14})(\.\d+)?$/;

/** CSV text to cells: numbers as numbers in quantity columns, everything else as guarded text. */
export function csvGrid(text: string): unknown[][] {
  const rows = parseCsv(text.replace(/^\uFEFF/, ''));
  if (!rows.length) return [];
  const header = rows[0].map((h) => String(h));
  const codes = header.map((h) => CODE_COLUMN.test(h));
  const out: unknown[][] = [header.map((h) => safeText(h))];
  for (let i = 1; i < rows.length; i++) {
    const r = rows[i];
    if (r.length === 1 && r[0] === '') continue;
    out.push(header.map((_h, j) => cellOf(r[j], codes[j])));
  }
  return out;
}

/** The `'` the service puts before formula-like CSV text (OWASP CSV injection): taken off to show the supplier's text. */
const NEUTRALISED = /^'(?=[ "']*[=+\-@\t\r])/;

function cellOf(v: unknown, code: boolean): unknown {
  if (v === undefined || v === null || v === '') return '';
  // Exactly one apostrophe, then the text guard below keeps it from becoming a formula.
  const s = String(v).replace(NEUTRALISED, '');
  if (!code && PLAIN_NUMBER.test(s)) return Number(s);
  return safeText(s);
}

/** Flattens one JSON value under a dotted prefix, as the service's CSV does. */
function flatten(v: unknown, prefix: string, out: Map<string, unknown>): void {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    for (const k of Object.keys(v as object)) flatten((v as Record<string, unknown>)[k], prefix ? prefix + '.' + k : k, out);
    return;
  }
  // The supplier's custom columns: one column each (as in the service's CSV), by position.
  if (Array.isArray(v) && /(^|\.)custom_columns$/.test(prefix)) {
    v.forEach((x, i) => out.set(prefix + '.' + (i + 1), x));
    return;
  }
  out.set(prefix, v);
}

/** A JSON array of objects to cells: dotted columns in order of first appearance. */
export function jsonGrid(text: string): unknown[][] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (_e) {
    throw new Error('The Scan Service sent a JSON file the add-on cannot read.');
  }
  if (!Array.isArray(data)) throw new Error('The Scan Service sent a JSON file the add-on cannot read.');
  const flat = data.map((item) => {
    const m = new Map<string, unknown>();
    flatten(item, '', m);
    return m;
  });
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const m of flat) for (const k of m.keys()) if (!seen.has(k)) seen.add(k), columns.push(k);
  const codes = columns.map((c) => CODE_COLUMN.test(c));
  const out: unknown[][] = [columns.map((c) => safeText(c))];
  for (const m of flat) {
    out.push(
      columns.map((c, j) => {
        const v = m.get(c);
        if (v === undefined || v === null) return '';
        if (typeof v === 'boolean') return v;
        if (typeof v === 'number') return !isFinite(v) ? '' : codes[j] ? safeText(String(v)) : v;
        if (Array.isArray(v)) return safeText(v.every((x) => typeof x === 'string') ? v.join('|') : JSON.stringify(v));
        return safeText(String(v));
      }),
    );
  }
  return out;
}
