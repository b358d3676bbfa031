/**
 * Supplier memory, pure: what a scan of a supplier's list leaves behind (its column roles and
 * options, keyed by the sheet and the header row's names), how the next New scan recognises the list
 * and gets them back, and how the memory stays within a property value. Storage is src/store/suppliers.ts;
 * the sheet side is src/app/scan/memory.ts. Nothing runs at load time.
 *
 * Identity: a supplier's list is its header row. The signature is a hash of the header's normalised
 * names, sorted, so the same list is recognised however its rows or columns are reordered, with rows
 * added, and in another sheet (a new week's file put into the document). Roles are kept by header
 * name (names repeated in the header are told apart by their order), never by column position. A
 * header that differs in any name is another list: it is not recognised (the form then says the
 * header changed, when this very sheet was scanned before with another header).
 *
 * What a later schedule needs to send "the same range with the remembered roles and options" is in
 * an entry: the sheet id and name, the range and whether it was a selection, the header's sheet row,
 * the roles by name (`rolesFor`), the options as the form sent them, and New scan's column choice.
 */
import { normalizeHeader } from './header';
import { COLUMN_ROLES, type ColumnRole } from './mapping';
import { utf8Length } from '../sheet/safe';
import type { ScanOptionsInput } from './attributes';

/** The form's options a supplier keeps (the scan name is not one: it is per scan). */
export const REMEMBERED_OPTIONS = [
  'marketplace',
  'supplierDiscount',
  'prepCost',
  'multipackPrepCost',
  'multipackOverride',
  'multipackOverrideQuantity',
  'pullHistoricalData',
  'pictures',
  'monthsOfCover',
  'shareRule',
  'targetRoi',
  'maxDiscount',
] as const;

export type RememberedOptions = Partial<Omit<ScanOptionsInput, 'name'>>;

/** One remembered supplier list (short member names: this is what is stored). */
export interface SupplierEntry {
  /** Signature of the header's names (hex). */
  h: string;
  /** Sheet id (Sheet.getSheetId) and name when last scanned. */
  s: number;
  n: string;
  /** When last scanned, ms. */
  t: number;
  /** The range read and whether it was the user's selection; the header's sheet row. */
  a: string;
  sel: boolean;
  hr: number;
  /** Role by header-name key (only columns that had a role other than ignore). */
  r: Record<string, ColumnRole>;
  /** The options as the form sent them. */
  o: RememberedOptions;
  /** The scan last sent from it (its card offers "Scan this list again"); absent when not known. */
  i?: number;
  /** New scan's "All columns" (a request field, not an option: the result tab's shape); absent: the essential columns. */
  c?: 'all';
}

/** Longest header-name key kept (a header cell can be long; the signature still uses the whole name). */
const NAME_KEY_MAX = 40;
/** Longest option text kept (the form's inputs are short; anything longer is not an input the form made). */
const OPTION_TEXT_MAX = 24;
const SHEET_NAME_MAX = 100;
const RANGE_MAX = 30;

/** 53-bit string hash (cyrb53) as hex: collisions among a user's few dozen headers are out of reach. */
function hash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16);
}

/**
 * The header's identity: its signature and one key per column (the normalised name, cut, with "#2",
 * "#3" … for a name repeated). A column with a blank header is named by what the form shows for it.
 */
export function headerIdentity(names: readonly string[]): { signature: string; keys: string[] } {
  const normal = names.map((n) => normalizeHeader(String(n || '')));
  const seen: Record<string, number> = {};
  const keys = normal.map((n) => {
    const base = n.slice(0, NAME_KEY_MAX);
    seen[base] = (seen[base] || 0) + 1;
    return seen[base] > 1 ? base + '#' + seen[base] : base;
  });
  return { signature: hash(normal.slice().sort().join('\u0001')), keys };
}

/** The remembered roles for a header with these names, column by column ('ignore' where none was kept). */
export function rolesFor(entry: SupplierEntry, names: readonly string[]): ColumnRole[] {
  return headerIdentity(names).keys.map((k) => entry.r[k] || 'ignore');
}

/** The options worth keeping, cut to what the form could have sent. */
export function rememberedOptions(options: Partial<ScanOptionsInput> | null | undefined): RememberedOptions {
  const o = (options || {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const keep = (v: unknown): unknown => {
    if (typeof v === 'boolean' || (typeof v === 'number' && isFinite(v))) return v;
    if (typeof v === 'string') return v.trim() === '' ? undefined : v.slice(0, OPTION_TEXT_MAX);
    return undefined;
  };
  for (const k of REMEMBERED_OPTIONS) {
    if (k === 'multipackPrepCost') {
      const m = o[k] as Record<string, unknown> | null | undefined;
      if (m && typeof m === 'object' && m.enabled === true)
        out[k] = { enabled: true, firstN: keep(m.firstN), costForFirstN: keep(m.costForFirstN), costForRest: keep(m.costForRest) };
      continue;
    }
    const v = keep(o[k]);
    if (v !== undefined) out[k] = v;
  }
  return out as RememberedOptions;
}

/** An entry for a scan just started: the header's names, each column's role, and the form's options. */
export function entryForScan(input: {
  names: readonly string[];
  roles: readonly ColumnRole[];
  options: Partial<ScanOptionsInput>;
  sheetId: number;
  sheetName: string;
  rangeA1: string;
  selection: boolean;
  headerRow: number;
  at: number;
  scanId?: number;
  /** The request's column choice ('all' or not). */
  columns?: unknown;
}): SupplierEntry {
  const { signature, keys } = headerIdentity(input.names);
  const r: Record<string, ColumnRole> = {};
  keys.forEach((k, i) => {
    const role = input.roles[i];
    if (role && role !== 'ignore' && COLUMN_ROLES.indexOf(role) >= 0) r[k] = role;
  });
  return {
    h: signature,
    s: input.sheetId,
    n: String(input.sheetName).slice(0, SHEET_NAME_MAX),
    t: input.at,
    a: String(input.rangeA1).slice(0, RANGE_MAX),
    sel: !!input.selection,
    hr: input.headerRow,
    r,
    o: rememberedOptions(input.options),
    ...(typeof input.scanId === 'number' && input.scanId > 0 ? { i: input.scanId } : {}),
    ...(input.columns === 'all' ? { c: 'all' as const } : {}),
  };
}

/** What the memory says about a header in a sheet. */
export type Recall =
  | { kind: 'recognised'; entry: SupplierEntry }
  /** This sheet was scanned before with another header (`entry`: that scan). */
  | { kind: 'header-changed'; entry: SupplierEntry }
  | { kind: 'unknown' };

/** "B:F" of "B5:F40" (the columns of a range), '' when unreadable. */
function columnsOf(a1: string): string {
  const m = /^([A-Z]+)\d*(?::([A-Z]+)\d*)?$/.exec(String(a1).toUpperCase());
  return m ? m[1] + ':' + (m[2] || m[1]) : '';
}

/**
 * The same header is recognised wherever it was scanned (this sheet's scan first, else the newest);
 * otherwise, when this sheet's newest scan read the same columns (both its whole data range, or
 * selections of the same columns) and had another header, the header changed. A scan of some
 * columns only says nothing about the header of the whole sheet.
 */
export function recall(
  entries: readonly SupplierEntry[],
  sheetId: number,
  names: readonly string[],
  block: { selection: boolean; rangeA1: string } = { selection: false, rangeA1: '' },
): Recall {
  const { signature } = headerIdentity(names);
  const same = entries.filter((e) => e.h === signature).sort((a, b) => Number(b.s === sheetId) - Number(a.s === sheetId) || b.t - a.t);
  if (same.length) return { kind: 'recognised', entry: same[0] };
  const here = entries.filter((e) => e.s === sheetId).sort((a, b) => b.t - a.t);
  const last = here[0];
  const sameColumns = last && (block.selection ? last.sel && columnsOf(last.a) === columnsOf(block.rangeA1) : !last.sel);
  return last && sameColumns ? { kind: 'header-changed', entry: last } : { kind: 'unknown' };
}

/**
 * The memory after a scan: the entry replaces the one with the same header (one per supplier list),
 * newest first; the oldest are dropped beyond `max` entries or when the JSON would pass `maxBytes`.
 * An entry too large alone (hundreds of long custom column names) keeps only its unique roles.
 */
export function remember(entries: readonly SupplierEntry[], entry: SupplierEntry, max: number, maxBytes: number): SupplierEntry[] {
  let fitted = entry;
  if (utf8Length(JSON.stringify([entry])) > maxBytes) {
    // A header of a few hundred long custom columns: its unique roles (at most 8) are what matters.
    const r: Record<string, ColumnRole> = {};
    for (const k of Object.keys(entry.r)) if (entry.r[k] !== 'custom') r[k] = entry.r[k];
    fitted = { ...entry, r };
  }
  let out = [fitted].concat(entries.filter((e) => e.h !== entry.h)).sort((a, b) => b.t - a.t);
  out = out.slice(0, Math.max(1, max));
  while (out.length > 1 && utf8Length(JSON.stringify(out)) > maxBytes) out = out.slice(0, -1);
  return out;
}

/** Stored entries (parsed JSON) back to entries; anything damaged is dropped (costing only itself). */
export function entriesOf(v: unknown): SupplierEntry[] {
  if (!Array.isArray(v)) return [];
  const out: SupplierEntry[] = [];
  for (const x of v) {
    if (!x || typeof x !== 'object') continue;
    const e = x as Record<string, unknown>;
    if (typeof e.h !== 'string' || typeof e.s !== 'number' || typeof e.t !== 'number' || !e.r || typeof e.r !== 'object') continue;
    const r: Record<string, ColumnRole> = {};
    for (const k of Object.keys(e.r as object)) {
      const role = (e.r as Record<string, unknown>)[k];
      if (typeof role === 'string' && (COLUMN_ROLES as readonly string[]).indexOf(role) >= 0) r[k] = role as ColumnRole;
    }
    out.push({
      h: e.h,
      s: e.s,
      n: typeof e.n === 'string' ? e.n : '',
      t: e.t,
      a: typeof e.a === 'string' ? e.a : '',
      sel: e.sel === true,
      hr: typeof e.hr === 'number' ? e.hr : 0,
      r,
      o: rememberedOptions(e.o as Partial<ScanOptionsInput>),
      ...(typeof e.i === 'number' ? { i: e.i } : {}),
      ...(e.c === 'all' ? { c: 'all' as const } : {}),
    });
  }
  return out;
}
