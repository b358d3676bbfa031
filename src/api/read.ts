/**
 * Tolerant reading of the Scan Service's answers. The document leaves parts "not shown" and the
 * real service may differ from the local stand-in, so: unknown members are ignored, and known
 * alternatives are accepted (a `data` wrapper or a bare value, upper or lower case keys, a single
 * string where an array is expected). A difference from the real service is a change here only.
 */
import type { ValidationRow } from './types';

type Json = unknown;

export function isObject(v: Json): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A number from a number or numeric text; 0 for anything else (absent, null, NaN). */
export function numberOf(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return isFinite(n) ? n : 0;
}

/** Parses JSON; undefined when there is no text or it is not JSON (also for stored records: src/store/records.ts). */
export function parseJson(text: string | null | undefined): Json | undefined {
  if (text === '' || text === undefined || text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch (_e) {
    return undefined;
  }
}

/** Removes a `{ data: ... }` envelope if that is all there is of substance. */
export function unwrapData(v: Json): Json {
  if (isObject(v) && 'data' in v && (isObject(v.data) || Array.isArray(v.data))) {
    const others = Object.keys(v).filter((k) => k !== 'data' && k !== 'meta' && k !== 'message' && k !== 'status' && k !== 'success');
    if (others.length === 0) return v.data;
  }
  return v;
}

/** A string list from an array of strings/numbers, a single string, or a number. Empty entries dropped. */
export function stringList(v: Json): string[] {
  const items = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
  const out: string[] = [];
  for (const it of items) {
    if (typeof it === 'string' || typeof it === 'number') {
      const s = String(it).trim();
      if (s !== '') out.push(s);
    }
  }
  return out;
}

/** Case-insensitive header lookup over getHeaders() (whose values may be strings or arrays). */
export function headerValue(headers: object, name: string): string | undefined {
  const want = name.toLowerCase();
  for (const [k, v] of Object.entries(headers ?? {})) {
    if (k.toLowerCase() === want) return Array.isArray(v) ? String(v[0]) : String(v);
  }
  return undefined;
}

/** Error body: `message` (or `error`/`detail`) and `errors` rows, as a list or as a field->messages map. */
export function readErrorBody(text: string): { message?: string; errors?: ValidationRow[] } {
  const v = parseJson(text);
  if (!isObject(v)) return {};
  const msg = [v.message, v.error, v.detail, v.title].find((m) => typeof m === 'string') as string | undefined;
  const rows: ValidationRow[] = [];
  if (Array.isArray(v.errors)) {
    for (const e of v.errors) {
      if (isObject(e)) {
        rows.push({
          index: typeof e.index === 'number' ? e.index : -1,
          field: typeof e.field === 'string' ? e.field : '',
          message: typeof e.message === 'string' ? e.message : '',
        });
      } else if (typeof e === 'string') rows.push({ index: -1, field: '', message: e });
    }
  } else if (isObject(v.errors)) {
    // Laravel-style { "ids.3": ["The ids.3 field is invalid."] }.
    for (const [field, msgs] of Object.entries(v.errors)) {
      const m = /\.(\d+)(\.|$)/.exec(field);
      for (const one of stringList(msgs)) rows.push({ index: m ? Number(m[1]) : -1, field, message: one });
    }
  }
  return { message: msg, errors: rows.length ? rows : undefined };
}

/**
 * Finds which of our inputs a response key stands for. Exact match first; otherwise the same
 * identifier written differently (case, spaces, hyphens, leading zeros as in UPC-12 vs EAN-13).
 */
export function keyMatcher(inputs: readonly string[]): (key: string) => string | undefined {
  const exact = new Set(inputs);
  const loose = new Map<string, string>();
  for (const i of inputs) loose.set(looseForm(i), i);
  return (key: string) => (exact.has(key) ? key : loose.get(looseForm(key)));
}

function looseForm(id: string): string {
  const s = String(id).toUpperCase().replace(/[\s-]/g, '');
  return /^\d+$/.test(s) ? s.replace(/^0+/, '') : s;
}

/** Strings, or candidate objects `{ asin: 'B0..', ... }` (one entry each). */
function candidates(val: Json): string[] {
  if (Array.isArray(val) && val.some(isObject)) return val.flatMap((x) => (isObject(x) ? stringList(x.asin ?? x.ASIN) : stringList(x)));
  return stringList(val);
}

const NON_BOOK_ASIN = /^B[0-9A-Z]{9}$/;

/**
 * One convert answer [ASIN..., other identifiers...] split in two (convert.yaml x-decision: every
 * matching ASIN first, best-ranked first, then the other identifiers). The ASINs are the first
 * element (always: the document's "first the ASIN") and every ASIN-shaped element ("B" + 9 letters
 * or digits) right after it, up to the first element that is not one. Decision: a 10-digit element
 * after the first is taken for an ISBN-10 (another identifier), because a book's ASIN and its
 * ISBN-10 cannot be told apart. Values are trimmed and ASINs upper-cased; repeats dropped.
 */
export function splitConvertAnswer(list: readonly string[]): { asins: string[]; others: string[] } {
  const asins: string[] = [];
  const others: string[] = [];
  let leading = true;
  list.forEach((v, i) => {
    const s = String(v).trim();
    if (s === '') return;
    const upper = s.toUpperCase();
    if (leading && (i === 0 || NON_BOOK_ASIN.test(upper))) {
      if (asins.indexOf(upper) < 0) asins.push(upper);
      return;
    }
    leading = false;
    if (others.indexOf(s) < 0) others.push(s);
  });
  return { asins, others };
}

/**
 * POST /api/v3/convert answer -> map from our input to [ASIN..., other identifiers...].
 * Accepts the documented object keyed by input, a `data` envelope, and a list of
 * `{ id|input|identifier, asin|asins|result }` rows. Inputs not in the answer are not in the map.
 * Undefined when the body is not a readable shape at all.
 */
export function readConvertResponse(body: Json, inputs: readonly string[]): Map<string, string[]> | undefined {
  const v = unwrapData(body);
  const match = keyMatcher(inputs);
  const out = new Map<string, string[]>();
  const add = (key: string, values: string[]) => {
    const input = match(key);
    if (input === undefined || values.length === 0) return;
    const prev = out.get(input);
    if (!prev) {
      out.set(input, values);
      return;
    }
    // Two response keys for one input (written differently): ASINs of both first, then the rest.
    const a = splitConvertAnswer(prev);
    const b = splitConvertAnswer(values);
    const union = (x: string[], y: string[]) => x.concat(y.filter((v) => x.indexOf(v) < 0));
    out.set(input, union(union(a.asins, b.asins), union(a.others, b.others)));
  };
  if (isObject(v)) {
    for (const [k, val] of Object.entries(v)) {
      add(k, candidates(val));
    }
    return out;
  }
  if (Array.isArray(v)) {
    for (const row of v) {
      if (!isObject(row)) continue;
      const key = [row.id, row.input, row.identifier, row.code].find((x) => typeof x === 'string' || typeof x === 'number');
      if (key === undefined) continue;
      add(String(key), candidates(row.asins ?? row.asin ?? row.result ?? row.results));
    }
    return out;
  }
  return undefined;
}

/**
 * POST /api/v3/asin-convert answer -> map from our ASIN to { kind (lower case) -> identifiers }.
 * Accepts the documented shape, a `data` envelope, upper-case kind names, single strings, and a
 * list of `{ asin, upc: [...], ... }` rows.
 */
export function readAsinConvertResponse(body: Json, asins: readonly string[]): Map<string, Record<string, string[]>> | undefined {
  const v = unwrapData(body);
  const match = keyMatcher(asins);
  const out = new Map<string, Record<string, string[]>>();
  const add = (key: string, kinds: Json) => {
    const asin = match(key);
    if (asin === undefined || !isObject(kinds)) return;
    const rec: Record<string, string[]> = out.get(asin) ?? {};
    for (const [kind, vals] of Object.entries(kinds)) {
      const k = kind.toLowerCase();
      if (k === 'asin') continue;
      const list = stringList(vals);
      if (list.length) rec[k] = (rec[k] ?? []).concat(list.filter((x) => (rec[k] ?? []).indexOf(x) < 0));
    }
    out.set(asin, rec);
  };
  if (isObject(v)) {
    for (const [k, val] of Object.entries(v)) add(k, val);
    return out;
  }
  if (Array.isArray(v)) {
    for (const row of v)
      if (isObject(row) && (typeof row.asin === 'string' || typeof row.ASIN === 'string')) add(String(row.asin ?? row.ASIN), row);
    return out;
  }
  return undefined;
}
