/**
 * The six lists, one definition each: named range, tab, headers (with the spellings accepted when
 * reading a user's table), how a sheet row becomes an entry (key, value) or is refused with the
 * service's own rules, and how an entry becomes cells. Pure.
 *
 * Keys start with the marketplace code; parts are joined by a tab (no list value holds one after
 * trimming). Values are canonical text, so equal meanings compare equal: tags sorted and joined by
 * ", ", Units as a whole number, Match as TRUE/FALSE, presence-only lists ''.
 * Notes are the exception: a note is identified by its service id (the add-on's "Note ID" column);
 * its value is marketplace, ASIN and text; a row without id is a new note ("new:<row>").
 */
import { findMarketplace } from '../../../contract/marketplaces';
import type { ListId } from '../../../contract/lists';
import { identify } from '../../domain/ids';

/** The list kinds, named once in the contract (contract/lists.ts). */
export type { ListId };

export interface ColumnDef {
  field: string;
  /** Header written by "Set up lists". */
  header: string;
  /** Other header spellings accepted (compared without case and spaces). */
  aliases: string[];
  /** A table may lack it (Marketplace: the default marketplace is used). */
  optional?: boolean;
  /** Written as guarded text (identifiers keep their zeros). */
  text?: boolean;
}

export type Cells = { [field: string]: unknown };

export type RowReading =
  | { kind: 'blank' }
  | { kind: 'entry'; key: string; value: string }
  | { kind: 'refused'; reason: string; key?: string };

export interface ListKind {
  id: ListId;
  title: string;
  rangeName: string;
  tabName: string;
  columns: ColumnDef[];
  read(cells: Cells, marketplace: string, row: number): RowReading;
  /** Cells of an entry, by field (plain values; sheet.ts guards text). */
  cells(key: string, value: string): { [field: string]: string | number | boolean };
  /** How an entry is named to a seller (reports, conflicts); without it, by its key's parts. */
  label?(key: string, value: string | null): string;
  /** The marketplace of a service entry; without it, the first part of its key. */
  marketplaceOf?(key: string, value: string): string;
  /**
   * Entries the service keys itself (notes, by id): a new row equal to a service entry no row names
   * IS that entry (a first sync, or a create whose id did not reach the sheet before a cut-off).
   * Re-keys `sheet` and `rowsOf` in place; returns the adopted rows and their service keys.
   */
  adopt?(sheet: Map<string, string>, service: ReadonlyMap<string, string>, rowsOf: Map<string, number[]>): Map<number, string>;
}

export const SEP = '\t';
export const ASIN_MIN = 10;
export const ASIN_MAX = 25;
export const TEXT_MAX = 255;
export const TAG_NAME_MAX = 100;

const MARKETPLACE: ColumnDef = {
  field: 'marketplace',
  header: 'Marketplace',
  aliases: ['market', 'marketplace id', 'marketplace code'],
  optional: true,
};
const ASIN: ColumnDef = { field: 'asin', header: 'ASIN', aliases: [], text: true };

/** Cell text as the user sees it: numbers without exponent, trimmed. */
export function shownText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return isFinite(v) ? (Number.isInteger(v) ? v.toFixed(0) : String(v)) : '';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  return String(v).trim();
}

export function headerKey(h: unknown): string {
  return shownText(h)
    .toLowerCase()
    .replace(/[\s_\-]+/g, '');
}

/** The marketplace of a row: its cell, or the user's default when the cell or column is absent. */
function marketplaceOf(cells: Cells, fallback: string): { ok: true; code: string } | { ok: false; reason: string } {
  const raw = shownText(cells.marketplace);
  if (!raw) return { ok: true, code: fallback };
  const m = findMarketplace(raw);
  return m ? { ok: true, code: m.code } : { ok: false, reason: `unknown marketplace "${raw}"` };
}

function asinProblem(a: string): string | undefined {
  if (!a) return 'empty ASIN';
  if (a.length < ASIN_MIN || a.length > ASIN_MAX)
    return `ASIN "${a}" must be ${ASIN_MIN} to ${ASIN_MAX} characters long (it has ${a.length})`;
  return undefined;
}

/** A row's marketplace, then its ASIN: the key "<code><SEP><asin>", or the refusal of the first that fails. */
function marketplaceAsin(cells: Cells, fallback: string): { ok: true; key: string } | { ok: false; reason: string } {
  const m = marketplaceOf(cells, fallback);
  if (!m.ok) return m;
  const asin = shownText(cells.asin);
  const reason = asinProblem(asin);
  return reason ? { ok: false, reason } : { ok: true, key: m.code + SEP + asin };
}

function blank(cells: Cells, fields: string[]): boolean {
  return fields.every((f) => shownText(cells[f]) === '');
}

export function splitKey(key: string): string[] {
  return key.split(SEP);
}

/** Tag names of a cell: split on commas, trimmed, without repeats, sorted. */
export function tagNames(text: string): string[] {
  const out: string[] = [];
  for (const t of text.split(',')) {
    const n = t.trim();
    if (n && out.indexOf(n) < 0) out.push(n);
  }
  return out.sort();
}

function readBool(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  const t = shownText(v).toLowerCase();
  if (['true', 'yes', 'y', '1', 'match'].indexOf(t) >= 0) return true;
  if (['false', 'no', 'n', '0', 'no match'].indexOf(t) >= 0) return false;
  return undefined;
}

const tags: ListKind = {
  id: 'tags',
  title: 'Tags',
  rangeName: 'SCAN_TAGS',
  tabName: 'Scan tags',
  columns: [MARKETPLACE, ASIN, { field: 'tags', header: 'Tags', aliases: ['tag'] }],
  read(cells, fallback) {
    if (blank(cells, ['asin', 'tags'])) return { kind: 'blank' };
    const ma = marketplaceAsin(cells, fallback);
    if (!ma.ok) return { kind: 'refused', reason: ma.reason };
    const key = ma.key;
    const names = tagNames(shownText(cells.tags));
    const long = names.find((n) => n.length > TAG_NAME_MAX);
    if (long) return { kind: 'refused', reason: `tag "${long.slice(0, 20)}…" is over ${TAG_NAME_MAX} characters`, key };
    // An ASIN without tags has no entry (the service lists only ASINs with tags).
    if (!names.length) return { kind: 'blank' };
    return { kind: 'entry', key, value: names.join(', ') };
  },
  cells(key, value) {
    const [mp, asin] = splitKey(key);
    return { marketplace: mp, asin, tags: value };
  },
};

const notes: ListKind = {
  id: 'notes',
  title: 'Notes',
  rangeName: 'SCAN_NOTES',
  tabName: 'Scan notes',
  columns: [
    MARKETPLACE,
    ASIN,
    { field: 'note', header: 'Note', aliases: ['notes', 'text'] },
    { field: 'id', header: 'Note ID', aliases: ['noteid'], optional: true },
  ],
  read(cells, fallback, row) {
    if (blank(cells, ['asin', 'note'])) return { kind: 'blank' };
    const idText = shownText(cells.id);
    const key = /^\d+$/.test(idText) ? 'id:' + idText : 'new:' + row;
    const ma = marketplaceAsin(cells, fallback);
    if (!ma.ok) return { kind: 'refused', reason: ma.reason, key };
    const note = cells.note === null || cells.note === undefined ? '' : String(cells.note);
    if (!note.trim()) return { kind: 'refused', reason: 'empty note', key };
    if (note.length > 10_000) return { kind: 'refused', reason: 'note over 10,000 characters', key };
    return { kind: 'entry', key, value: ma.key + SEP + note };
  },
  cells(key, value) {
    const [mp, asin] = splitKey(value);
    const note = value.slice(mp.length + asin.length + 2);
    return { marketplace: mp, asin, note, id: key.indexOf('id:') === 0 ? key.slice(3) : '' };
  },
  label(key, value) {
    const v = value ? splitKey(value) : [];
    return (v.length >= 2 ? v[0] + ' · ' + v[1] : '') + (key.indexOf('id:') === 0 ? ' · note ' + key.slice(3) : ' · new note');
  },
  marketplaceOf: (_key, value) => splitKey(value)[0],
  adopt(sheet, service, rowsOf) {
    const free = new Map<string, string[]>();
    service.forEach((v, k) => {
      if (!sheet.has(k)) free.set(v, (free.get(v) || []).concat([k]));
    });
    const adopted = new Map<number, string>();
    new Map(sheet).forEach((v, k) => {
      if (k.indexOf('new:') !== 0) return;
      const ids = free.get(v);
      if (!ids || !ids.length) return;
      const id = ids.shift() as string;
      sheet.delete(k);
      sheet.set(id, v);
      const row = Number(k.slice(4));
      adopted.set(row, id);
      rowsOf.set(id, [row]);
    });
    return adopted;
  },
};

const brands: ListKind = {
  id: 'brands',
  title: 'Brand blocklist',
  rangeName: 'SCAN_BRAND_BLOCKLIST',
  tabName: 'Scan brand blocklist',
  columns: [MARKETPLACE, { field: 'brand', header: 'Brand', aliases: ['brands', 'brand name', 'name'], text: true }],
  read(cells, fallback) {
    if (blank(cells, ['brand'])) return { kind: 'blank' };
    const m = marketplaceOf(cells, fallback);
    if (!m.ok) return { kind: 'refused', reason: m.reason };
    const b = shownText(cells.brand);
    if (b.length > TEXT_MAX) return { kind: 'refused', reason: `brand is over ${TEXT_MAX} characters (it has ${b.length})` };
    return { kind: 'entry', key: m.code + SEP + b, value: '' };
  },
  cells(key) {
    const [mp, brand] = splitKey(key);
    return { marketplace: mp, brand };
  },
};

const asins: ListKind = {
  id: 'asins',
  title: 'ASIN blocklist',
  rangeName: 'SCAN_ASIN_BLOCKLIST',
  tabName: 'Scan ASIN blocklist',
  columns: [MARKETPLACE, ASIN],
  read(cells, fallback) {
    if (blank(cells, ['asin'])) return { kind: 'blank' };
    const ma = marketplaceAsin(cells, fallback);
    return ma.ok ? { kind: 'entry', key: ma.key, value: '' } : { kind: 'refused', reason: ma.reason };
  },
  cells(key) {
    const [mp, asin] = splitKey(key);
    return { marketplace: mp, asin };
  },
};

const matches: ListKind = {
  id: 'matches',
  title: 'Listing matches',
  rangeName: 'SCAN_LISTING_MATCHES',
  tabName: 'Scan listing matches',
  columns: [
    MARKETPLACE,
    { field: 'identifier', header: 'Identifier', aliases: ['id', 'upc', 'ean', 'supplier identifier'], text: true },
    ASIN,
    { field: 'match', header: 'Match', aliases: ['is match', 'matches'] },
  ],
  read(cells, fallback) {
    if (blank(cells, ['identifier', 'asin', 'match'])) return { kind: 'blank' };
    const m = marketplaceOf(cells, fallback);
    if (!m.ok) return { kind: 'refused', reason: m.reason };
    let id = shownText(cells.identifier);
    if (!id) return { kind: 'refused', reason: 'empty identifier' };
    // A barcode typed as a number lost its leading zeros: restored when the check digit proves them (as the scan does).
    if (typeof cells.identifier === 'number') {
      const r = identify(cells.identifier);
      if (r.ok && r.repaired) id = r.value;
    }
    if (id.length > TEXT_MAX) return { kind: 'refused', reason: `identifier is over ${TEXT_MAX} characters` };
    const a = shownText(cells.asin);
    const p = asinProblem(a);
    if (p) return { kind: 'refused', reason: p };
    const key = m.code + SEP + id + SEP + a;
    const b = readBool(cells.match);
    if (b === undefined) return { kind: 'refused', reason: `Match must be TRUE or FALSE (got "${shownText(cells.match)}")`, key };
    return { kind: 'entry', key, value: b ? 'TRUE' : 'FALSE' };
  },
  cells(key, value) {
    const [mp, identifier, asin] = splitKey(key);
    return { marketplace: mp, identifier, asin, match: value === 'TRUE' };
  },
};

const multipack: ListKind = {
  id: 'multipack',
  title: 'Multipack corrections',
  rangeName: 'SCAN_MULTIPACK',
  tabName: 'Scan multipack',
  columns: [MARKETPLACE, ASIN, { field: 'units', header: 'Units', aliases: ['quantity', 'units per order', 'pack'] }],
  read(cells, fallback) {
    if (blank(cells, ['asin', 'units'])) return { kind: 'blank' };
    const ma = marketplaceAsin(cells, fallback);
    if (!ma.ok) return { kind: 'refused', reason: ma.reason };
    const key = ma.key;
    const t = shownText(cells.units);
    const n = Number(t);
    if (!t || !isFinite(n) || !Number.isInteger(n) || n < 1)
      return { kind: 'refused', reason: `Units must be a whole number, 1 or more (got "${t}")`, key };
    return { kind: 'entry', key, value: String(n) };
  },
  cells(key, value) {
    const [mp, asin] = splitKey(key);
    return { marketplace: mp, asin, units: Number(value) };
  },
};

/** Every kind, one definition each (a kind of the contract without one here is a type error); in this order in the sidebar and the sync. */
const KINDS: { [id in ListId]: ListKind } = { tags, notes, brands, asins, matches, multipack };
export const LIST_KINDS: readonly ListKind[] = Object.keys(KINDS).map((id) => KINDS[id as ListId]);

export function listKind(id: string): ListKind {
  const k = LIST_KINDS.find((x) => x.id === id);
  if (!k) throw new Error(`Unknown list "${id}". Lists: ${LIST_KINDS.map((x) => x.id).join(', ')}.`);
  return k;
}

export interface SheetRow {
  /** Sheet row number (1-based). */
  row: number;
  cells: Cells;
}

export interface Refusal {
  row: number;
  reason: string;
}

export interface ReadRows {
  entries: Map<string, string>;
  /** Sheet rows per key (a key may sit on several rows with the same value). */
  rowsOf: Map<string, number[]>;
  held: Set<string>;
  refused: Refusal[];
}

/** Reads a table's rows into entries; refuses bad rows and the same key twice with different values. */
export function readRows(kind: ListKind, rows: readonly SheetRow[], marketplace: string): ReadRows {
  const out: ReadRows = { entries: new Map(), rowsOf: new Map(), held: new Set(), refused: [] };
  const firstValue = new Map<string, string>();
  const clash = new Set<string>();
  for (const r of rows) {
    const reading = kind.read(r.cells, marketplace, r.row);
    if (reading.kind === 'blank') continue;
    if (reading.kind === 'refused') {
      out.refused.push({ row: r.row, reason: reading.reason });
      if (reading.key) out.held.add(reading.key);
      continue;
    }
    const seen = firstValue.get(reading.key);
    if (seen === undefined) firstValue.set(reading.key, reading.value);
    else if (seen !== reading.value) clash.add(reading.key);
    const list = out.rowsOf.get(reading.key);
    if (list) list.push(r.row);
    else out.rowsOf.set(reading.key, [r.row]);
  }
  firstValue.forEach((v, k) => {
    if (!clash.has(k)) out.entries.set(k, v);
  });
  clash.forEach((k) => {
    out.held.add(k);
    for (const row of out.rowsOf.get(k) ?? []) out.refused.push({ row, reason: 'the same entry is on several rows with different values' });
  });
  out.refused.sort((a, b) => a.row - b.row);
  return out;
}
