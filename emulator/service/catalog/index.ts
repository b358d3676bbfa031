/**
 * Loads a catalog file (gzipped or plain JSON Lines, format: catalog/README.md) and indexes it by
 * marketplace + identifier (canonical GTIN-14 key, engine/ident.ts) and marketplace + ASIN.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Catalog, CatalogProduct } from '../engine/types';
import { ASIN, IDENTIFIER_KINDS, isValidIsbn10, keyOf, parseIdentifier } from '../engine/ident';
import type { CatalogRecord } from './format';
import { type CatalogLookup, cacheEntryPath, readCacheEntry, writeCacheEntry } from './cache';

/** Path of the shipped sample catalog. */
export const SAMPLE_CATALOG_PATH = join(__dirname, '..', 'data', 'catalog.jsonl.gz');

export class CatalogFormatError extends Error {}

/** Order of several products behind one identifier: best rank first (none last), then ASIN. */
function byRankThenAsin(a: CatalogRecord, b: CatalogRecord): number {
  const ra = a.rank ?? Number.MAX_SAFE_INTEGER;
  const rb = b.rank ?? Number.MAX_SAFE_INTEGER;
  return ra - rb || (a.asin < b.asin ? -1 : a.asin > b.asin ? 1 : 0);
}

type FieldKind = 'int' | 'int?' | 'cents?' | 'str' | 'str?' | 'bool';
/** Every scalar field of a line and its type (catalog/README.md). */
const FIELDS: ReadonlyArray<readonly [string, FieldKind]> = [
  ['marketplace_id', 'int'],
  ['title', 'str'],
  ['brand', 'str?'],
  ['color', 'str?'],
  ['size_name', 'str?'],
  ['category', 'str'],
  ['rank', 'int?'],
  ['buybox_price', 'cents?'],
  ['lowest_price_new_fba', 'cents?'],
  ['lowest_price_new_fbm', 'cents?'],
  ['lowest_price_used_fba', 'cents?'],
  ['lowest_price_used_fbm', 'cents?'],
  ['competitive_sellers', 'int'],
  ['new_fba_offers_count', 'int'],
  ['new_fbm_offers_count', 'int'],
  ['total_offers_count', 'int'],
  ['market_pack_quantity', 'int'],
  ['number_of_variations', 'int'],
  ['parent_asin', 'str?'],
  ['is_hazmat', 'bool'],
  ['is_meltable', 'bool'],
  ['is_adult', 'bool'],
  ['fees_available', 'bool'],
];
const isNat = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
const fits: Record<FieldKind, (v: unknown) => boolean> = {
  int: isNat,
  'int?': (v) => v === null || isNat(v),
  'cents?': (v) => v === null || isNat(v),
  str: (v) => typeof v === 'string',
  'str?': (v) => v === null || typeof v === 'string',
  bool: (v) => typeof v === 'boolean',
};
const KIND_TEXT: Record<FieldKind, string> = {
  int: 'an integer >= 0',
  'int?': 'an integer >= 0 or null',
  'cents?': 'integer cents or null',
  str: 'a string',
  'str?': 'a string or null',
  bool: 'true or false',
};

/** Checks one parsed line against the format; the error names the line and the field. */
function check(rec: any, line: number): CatalogRecord {
  const bad = (what: string) => new CatalogFormatError(`catalog line ${line}: ${what}`);
  if (!rec || typeof rec !== 'object' || Array.isArray(rec)) throw bad('not a JSON object');
  if (typeof rec.asin !== 'string' || !(ASIN.test(rec.asin) || isValidIsbn10(rec.asin)))
    throw bad('asin must be "B" and 9 upper-case letters or digits, or an ISBN-10');
  for (const [f, kind] of FIELDS) if (!fits[kind](rec[f])) throw bad(`${f} must be ${KIND_TEXT[kind]}`);
  if (rec.market_pack_quantity < 1) throw bad('market_pack_quantity must be 1 or more');
  for (const k of ['package_dimensions', 'item_dimensions']) {
    const d = rec[k];
    if (!d || !['length', 'width', 'height', 'weight'].every((f) => typeof d[f] === 'number' && Number.isFinite(d[f]) && d[f] >= 0)) {
      throw bad(`${k} needs length, width, height (inches) and weight (pounds), numbers >= 0`);
    }
  }
  const ids = rec.identifiers;
  if (!ids || typeof ids !== 'object' || Array.isArray(ids)) throw bad('identifiers must be an object');
  for (const [kind, list] of Object.entries(ids)) {
    if (!(IDENTIFIER_KINDS as readonly string[]).includes(kind))
      throw bad(`identifiers.${kind} is not one of ${IDENTIFIER_KINDS.join(', ')}`);
    if (!Array.isArray(list) || !list.every((c) => typeof c === 'string')) throw bad(`identifiers.${kind} must be an array of strings`);
  }
  if (!Array.isArray(rec.images) || !rec.images.every((i: unknown) => typeof i === 'string'))
    throw bad('images must be an array of image ids');
  const el = rec.inbound_eligibility;
  if (!el || typeof el.eligible !== 'boolean' || !isNat(el.updated_at) || !Array.isArray(el.ineligible_codes)) {
    throw bad('inbound_eligibility needs eligible (boolean), updated_at (Unix seconds) and ineligible_codes (array)');
  }
  if (rec.history !== undefined) {
    const h = rec.history;
    const four = (a: unknown) => Array.isArray(a) && a.length === 4 && a.every((x) => Number.isSafeInteger(x));
    if (!h || !four(h.bsr) || !four(h.price) || !four(h.instock_rate) || !four(h.rank_drops))
      throw bad('history needs bsr, price, instock_rate and rank_drops, each 4 integers');
  }
  return rec as CatalogRecord;
}

/** Builds the catalog from its records (also used by tests with hand-made records). */
export function catalogFromRecords(records: CatalogRecord[]): Catalog {
  const lookup = indexRecords(records);
  return catalogOver(
    records.length,
    () => lookup,
    (n) => records[n],
  );
}

/** The lookups of checked records; throws on an ASIN twice in a marketplace or an invalid identifier. */
function indexRecords(records: CatalogRecord[]): CatalogLookup {
  const byKey = new Map<string, number[]>();
  const byAsin = new Map<string, number>();
  for (let n = 0; n < records.length; n++) {
    const rec = records[n];
    const mk = rec.marketplace_id + '|';
    if (byAsin.has(mk + rec.asin))
      throw new CatalogFormatError(`catalog: ASIN ${rec.asin} appears twice in marketplace ${rec.marketplace_id}`);
    byAsin.set(mk + rec.asin, n);
    const seen = new Set<string>();
    for (const list of Object.values(rec.identifiers)) {
      for (const code of list ?? []) {
        const key = keyOf(code);
        if (key === undefined) throw new CatalogFormatError(`catalog: ASIN ${rec.asin} has an invalid identifier "${code}"`);
        if (seen.has(key)) continue;
        seen.add(key);
        const slot = byKey.get(mk + key);
        if (slot) slot.push(n);
        else byKey.set(mk + key, [n]);
      }
    }
  }
  for (const list of byKey.values()) if (list.length > 1) list.sort((a, b) => byRankThenAsin(records[a], records[b]));
  return { byAsin, byKey };
}

/**
 * The catalog over `count` records: `lookup` gives the record numbers behind a key (built on the
 * first lookup when it comes from the cache), `record` the record of a number (always the same object).
 */
function catalogOver(count: number, lookup: () => CatalogLookup, record: (n: number) => CatalogRecord): Catalog {
  return {
    byIdentifier(marketplaceId: number, identifier: string): CatalogProduct[] {
      const parsed = parseIdentifier(identifier);
      if (!parsed.ok) return [];
      const { byKey } = lookup();
      const out: CatalogRecord[] = [];
      for (const key of parsed.keys)
        for (const n of byKey.get(marketplaceId + '|' + key) ?? []) {
          const r = record(n);
          if (!out.includes(r)) out.push(r);
        }
      if (parsed.keys.length > 1) out.sort(byRankThenAsin);
      return out as unknown as CatalogProduct[];
    },
    byAsin(marketplaceId: number, asin: string): CatalogProduct | undefined {
      const n = lookup().byAsin.get(marketplaceId + '|' + asin.trim());
      return (n === undefined ? undefined : record(n)) as unknown as CatalogProduct | undefined;
    },
    size: () => count,
  };
}

/**
 * Reads and indexes a catalog file; throws CatalogFormatError naming the line of a bad record. A
 * file read before (same bytes, same code) comes from the cache (cache.ts): its records were checked
 * then, so each is parsed only when first looked up.
 */
export function loadCatalog(path: string): Catalog {
  const raw = readFileSync(path);
  const entry = cacheEntryPath(raw);
  const cached = entry === undefined ? undefined : readCacheEntry(entry, raw);
  if (cached) {
    const parsed: CatalogRecord[] = [];
    const record = (n: number) => {
      const lines = cached.lines();
      parsed[n] ??= JSON.parse(cached.text.toString('utf8', lines[2 * n], lines[2 * n + 1]).trim()) as CatalogRecord;
      return parsed[n];
    };
    return catalogOver(cached.count, cached.lookup, record);
  }
  const text = isGzip(raw) ? gunzipSync(raw) : raw;
  const { records, lines } = readRecords(text);
  const lookup = indexRecords(records);
  if (entry !== undefined) writeCacheEntry(entry, records.length, lines, lookup, text === raw ? undefined : text);
  return catalogOver(
    records.length,
    () => lookup,
    (n) => records[n],
  );
}

/** The checked records of a catalog file (gzipped or plain JSON Lines), in file order. */
export function readCatalogRecords(path: string): CatalogRecord[] {
  const raw = readFileSync(path);
  return readRecords(isGzip(raw) ? gunzipSync(raw) : raw).records;
}

const isGzip = (raw: Buffer) => raw[0] === 0x1f && raw[1] === 0x8b;

/** The checked records of JSON Lines text, and the byte offsets of each one's line (start, end). */
function readRecords(text: Buffer): { records: CatalogRecord[]; lines: number[] } {
  const records: CatalogRecord[] = [];
  const lines: number[] = [];
  let line = 0;
  let start = 0;
  while (start < text.length) {
    // By bytes: a newline byte is never part of a longer UTF-8 sequence, so each line decodes as in the whole text.
    let end = text.indexOf(0x0a, start);
    if (end < 0) end = text.length;
    line++;
    const s = text.toString('utf8', start, end).trim();
    const at = start;
    start = end + 1;
    if (s === '') continue;
    let rec: unknown;
    try {
      rec = JSON.parse(s);
    } catch (e) {
      throw new CatalogFormatError(`catalog line ${line}: not valid JSON (${(e as Error).message})`);
    }
    records.push(check(rec, line));
    lines.push(at, end);
  }
  return { records, lines };
}
