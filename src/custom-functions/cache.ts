/**
 * Cache of conversion answers in CacheService, designed around its limits: keys up to 250 chars,
 * values up to 100 KB, at most 1,000 items per cache (then the oldest go), 6 hours at most.
 *
 * One entry per id would overflow 1,000 items with one 2,000-row column, so ids are grouped:
 * the distinct ids of a formula call, sorted, are cut into chunks at CONTENT-DEFINED boundaries
 * (after an id whose hash is 0 modulo CHUNK_AVG, or at CHUNK_MAX ids). An id added to or removed
 * from a column changes only the chunk it falls in, so a recalculation after an edit re-fetches
 * about CHUNK_AVG ids, not the whole column. Each chunk has two entries:
 *   F: found ids -> value (expires after FOUND_TTL_S, the 6-hour maximum)
 *   N: ids that were not found (expires after NOT_FOUND_TTL_S: listings appear over time)
 * An id counts as cached only when it is present in F or N; anything else (a chunk expired or
 * dropped, an id that failed) is fetched again. Entries store their ids, so a hash collision can
 * only cause a miss, never a wrong answer. Failures are never cached.
 * Keys: "sc1|<endpoint>|<marketplace>|<service hash>|F|<chunk hash>" (about 40 chars).
 */
import type { CacheLike } from '../api/services';
import { utf8Length } from '../domain/sheet/safe';
import { CACHE_VALUE_MAX_BYTES, CONVERT_CACHE_NAMESPACE } from '../store/keys';
import { isObject, parseJson } from '../api/read';

export const FOUND_TTL_S = 21600;
export const NOT_FOUND_TTL_S = 3600;
export const CHUNK_AVG = 32;
export const CHUNK_MAX = 128;
/** CacheService refuses values over 100 KB; keep a margin for its own accounting. */
export const MAX_VALUE_BYTES = CACHE_VALUE_MAX_BYTES;

export interface CacheScope {
  endpoint: 'convert' | 'asin-convert';
  marketplace: string;
  baseUrl: string;
}

export type Cached<T> = { found: true; value: T } | { found: false };

/** FNV-1a 32-bit. */
export function fnv1a(s: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Murmur3's final mix: FNV-1a's low bits are weak (they depend only on the low bits of the characters). */
export function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

/** 16 hex digits from two differently seeded FNV-1a hashes. */
export function hashHex(s: string): string {
  const a = fnv1a(s).toString(16);
  const b = fnv1a(s, 0x01000193 ^ 0x5bd1e995).toString(16);
  return ('00000000' + a).slice(-8) + ('00000000' + b).slice(-8);
}

/** Distinct ids, sorted, cut at content-defined boundaries. */
export function cacheChunks(ids: readonly string[]): string[][] {
  const sorted = Array.from(new Set(ids)).sort();
  const chunks: string[][] = [];
  let cur: string[] = [];
  for (const id of sorted) {
    cur.push(id);
    if (mix32(fnv1a(id)) % CHUNK_AVG === 0 || cur.length >= CHUNK_MAX) {
      chunks.push(cur);
      cur = [];
    }
  }
  if (cur.length) chunks.push(cur);
  return chunks;
}

function prefix(scope: CacheScope): string {
  return [
    CONVERT_CACHE_NAMESPACE,
    scope.endpoint === 'convert' ? 'c' : 'a',
    scope.marketplace,
    hashHex(scope.baseUrl.replace(/\/+$/, '')).slice(0, 8),
  ].join('|');
}

export function chunkKeys(scope: CacheScope, chunk: readonly string[]): { found: string; notFound: string } {
  const h = hashHex(chunk.join('\n'));
  const p = prefix(scope);
  return { found: p + '|F|' + h, notFound: p + '|N|' + h };
}

export interface ChunkState<T> {
  ids: string[];
  keys: { found: string; notFound: string };
  found: Record<string, T>;
  notFound: string[];
}

export interface CacheLookup<T> {
  hits: Map<string, Cached<T>>;
  chunks: ChunkState<T>[];
}

function parseObject(text: string | undefined): Record<string, unknown> {
  const v = parseJson(text);
  return isObject(v) ? v : {};
}

function parseList(text: string | undefined): string[] {
  const v = parseJson(text);
  return Array.isArray(v) ? v.filter((x) => typeof x === 'string') : [];
}

/** One getAll for every chunk of these ids. A broken cache (throwing) counts as empty. */
export function readCache<T>(cache: CacheLike | null, scope: CacheScope, ids: readonly string[]): CacheLookup<T> {
  const chunks: ChunkState<T>[] = cacheChunks(ids).map((c) => ({ ids: c, keys: chunkKeys(scope, c), found: {}, notFound: [] }));
  const hits = new Map<string, Cached<T>>();
  if (!cache || chunks.length === 0) return { hits, chunks };
  let got: { [key: string]: string } = {};
  try {
    got = cache.getAll(chunks.flatMap((c) => [c.keys.found, c.keys.notFound])) ?? {};
  } catch (_e) {
    got = {};
  }
  for (const c of chunks) {
    const members = new Set(c.ids);
    const f = parseObject(got[c.keys.found]);
    for (const [id, v] of Object.entries(f)) if (members.has(id)) c.found[id] = v as T;
    c.notFound = parseList(got[c.keys.notFound]).filter((id) => members.has(id) && !(id in c.found));
    for (const id of Object.keys(c.found)) hits.set(id, { found: true, value: c.found[id] });
    for (const id of c.notFound) hits.set(id, { found: false });
  }
  return { hits, chunks };
}

/**
 * Writes back the chunks that learned something: at most two putAll calls (the two expiries).
 * `learned` holds fresh answers; ids absent from it (failed, or not asked) are left out, so they are fetched next time.
 * Returns how many entries were written.
 */
export function writeCache<T>(cache: CacheLike | null, lookup: CacheLookup<T>, learned: Map<string, Cached<T>>): number {
  if (!cache) return 0;
  const foundEntries: { [key: string]: string } = {};
  const notFoundEntries: { [key: string]: string } = {};
  for (const c of lookup.chunks) {
    let changed = false;
    for (const id of c.ids) {
      const l = learned.get(id);
      if (!l) continue;
      changed = true;
      if (l.found) c.found[id] = l.value;
      else if (c.notFound.indexOf(id) < 0) c.notFound.push(id);
    }
    if (!changed) continue;
    const f = JSON.stringify(c.found);
    if (Object.keys(c.found).length && utf8Length(f) <= MAX_VALUE_BYTES) foundEntries[c.keys.found] = f;
    const n = JSON.stringify(c.notFound);
    if (c.notFound.length && utf8Length(n) <= MAX_VALUE_BYTES) notFoundEntries[c.keys.notFound] = n;
  }
  let written = 0;
  try {
    if (Object.keys(foundEntries).length) {
      cache.putAll(foundEntries, FOUND_TTL_S);
      written += Object.keys(foundEntries).length;
    }
    if (Object.keys(notFoundEntries).length) {
      cache.putAll(notFoundEntries, NOT_FOUND_TTL_S);
      written += Object.keys(notFoundEntries).length;
    }
  } catch (_e) {
    // A full or failing cache costs calls next time, never this answer.
  }
  return written;
}
