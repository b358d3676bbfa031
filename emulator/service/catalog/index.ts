/**
 * Loads a catalog file (gzipped or plain JSON Lines, format: catalog/README.md) and indexes it by
 * marketplace + identifier (canonical GTIN-14 key, engine/ident.ts) and marketplace + ASIN.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Catalog, CatalogProduct } from '../engine/types';
import { ASIN, isValidIsbn10, keyOf, parseIdentifier } from '../engine/ident';
import type { CatalogRecord } from './format';

/** Path of the shipped sample catalog. */
export const SAMPLE_CATALOG_PATH = join(__dirname, '..', 'data', 'catalog.jsonl.gz');

export class CatalogFormatError extends Error {}

/** Order of several products behind one identifier: best rank first (none last), then ASIN. */
function byRankThenAsin(a: CatalogRecord, b: CatalogRecord): number {
  const ra = a.rank ?? Number.MAX_SAFE_INTEGER;
  const rb = b.rank ?? Number.MAX_SAFE_INTEGER;
  return ra - rb || (a.asin < b.asin ? -1 : a.asin > b.asin ? 1 : 0);
}

function check(rec: any, line: number): CatalogRecord {
  const bad = (what: string) => new CatalogFormatError(`catalog line ${line}: ${what}`);
  if (!rec || typeof rec !== 'object' || Array.isArray(rec)) throw bad('not a JSON object');
  if (!Number.isInteger(rec.marketplace_id)) throw bad('marketplace_id must be an integer');
  if (typeof rec.asin !== 'string' || !(ASIN.test(rec.asin) || isValidIsbn10(rec.asin))) throw bad('asin must be "B" and 9 upper-case letters or digits, or an ISBN-10');
  if (typeof rec.category !== 'string') throw bad('category must be a string');
  for (const k of ['package_dimensions', 'item_dimensions']) {
    const d = rec[k];
    if (!d || !['length', 'width', 'height', 'weight'].every((f) => typeof d[f] === 'number' && d[f] >= 0)) throw bad(`${k} needs numeric length, width, height, weight`);
  }
  if (!rec.identifiers || typeof rec.identifiers !== 'object') throw bad('identifiers must be an object');
  return rec as CatalogRecord;
}

/** Builds the catalog from its records (also used by tests with hand-made records). */
export function catalogFromRecords(records: CatalogRecord[]): Catalog {
  const byKey = new Map<string, CatalogRecord[]>();
  const byAsin = new Map<string, CatalogRecord>();
  for (const rec of records) {
    const mk = rec.marketplace_id + '|';
    if (byAsin.has(mk + rec.asin)) throw new CatalogFormatError(`catalog: ASIN ${rec.asin} appears twice in marketplace ${rec.marketplace_id}`);
    byAsin.set(mk + rec.asin, rec);
    const seen = new Set<string>();
    for (const list of Object.values(rec.identifiers)) {
      for (const code of list ?? []) {
        const key = keyOf(code);
        if (key === undefined) throw new CatalogFormatError(`catalog: ASIN ${rec.asin} has an invalid identifier "${code}"`);
        if (seen.has(key)) continue;
        seen.add(key);
        const slot = byKey.get(mk + key);
        if (slot) slot.push(rec);
        else byKey.set(mk + key, [rec]);
      }
    }
  }
  for (const list of byKey.values()) if (list.length > 1) list.sort(byRankThenAsin);
  return {
    byIdentifier(marketplaceId: number, identifier: string): CatalogProduct[] {
      const parsed = parseIdentifier(identifier);
      if (!parsed.ok) return [];
      const out: CatalogRecord[] = [];
      for (const key of parsed.keys) for (const r of byKey.get(marketplaceId + '|' + key) ?? []) if (!out.includes(r)) out.push(r);
      if (parsed.keys.length > 1) out.sort(byRankThenAsin);
      return out as unknown as CatalogProduct[];
    },
    byAsin(marketplaceId: number, asin: string): CatalogProduct | undefined {
      return byAsin.get(marketplaceId + '|' + asin.trim().toUpperCase()) as unknown as CatalogProduct | undefined;
    },
    size: () => byAsin.size,
  };
}

/** Reads and indexes a catalog file; throws CatalogFormatError naming the line of a bad record. */
export function loadCatalog(path: string): Catalog {
  const raw = readFileSync(path);
  const text = (raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw).toString('utf8');
  const records: CatalogRecord[] = [];
  let line = 0;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    line++;
    const s = text.slice(start, end).trim();
    start = end + 1;
    if (s === '') continue;
    let rec: unknown;
    try {
      rec = JSON.parse(s);
    } catch (e) {
      throw new CatalogFormatError(`catalog line ${line}: not valid JSON (${(e as Error).message})`);
    }
    records.push(check(rec, line));
  }
  return catalogFromRecords(records);
}
