/**
 * A cache of checked and indexed catalogs, so that a start of the service neither unpacks, parses,
 * checks nor indexes a catalog it has read before: about 0.2 s of CPU per start with the shipped
 * sample, and the tests start the service about 90 times. An entry is found by a hash of the
 * catalog file's bytes and of the code that decides what gets cached (CACHE_KEY_FILES below), so an edited
 * catalog or an edited check or key rule misses and is read afresh. Entries are kept files
 * (contract/openapi/kept-files.ts: written whole, least recently used removed first); any failure
 * to read or write one only means reading the catalog itself.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEPT_ROOT, keptPath, readKept, writeKept } from '../../../contract/openapi/kept-files';

/** A catalog's lookups by record number (records in file order). */
export interface CatalogLookup {
  /** "marketplace|ASIN" -> record number. */
  byAsin: Map<string, number>;
  /** "marketplace|canonical identifier key" -> record numbers, best rank first, then ASIN. */
  byKey: Map<string, number[]>;
}

/** What an entry holds: the record count, where each record's line is, and the lookups. */
export interface CachedCatalog {
  count: number;
  /** The catalog's JSON Lines text: the file itself, or (gzipped file) its unpacked text. */
  text: Buffer;
  /** Byte offsets in `text`: start and end of each record's line. Parsed on first use. */
  lines(): number[];
  lookup(): CatalogLookup;
}

const CACHE_DIR = join(KEPT_ROOT, 'catalog');
/** The code that decides what an entry holds: the line reader and checks, the key rule, this format (a test checks it lists their imports). */
export const CACHE_KEY_FILES = [
  join(__dirname, 'index.ts'),
  join(__dirname, 'cache.ts'),
  join(__dirname, '..', 'engine', 'ident.ts'),
  join(__dirname, '..', '..', '..', 'contract', 'openapi', 'kept-files.ts'),
];
/** Smaller catalogs (their text) are read quickly anyway; caching them would only push the big ones out. */
const MIN_BYTES = 1024 * 1024;
/** Entries kept, least recently used removed first. */
const KEEP = 8;

/** The entry's path for a catalog file's bytes; undefined when it is not cached. */
export function cacheEntryPath(raw: Buffer): string | undefined {
  // A gzipped file by its unpacked size (the last 4 bytes of a gzip stream).
  const gzip = raw.length > 18 && raw[0] === 0x1f && raw[1] === 0x8b;
  if ((gzip ? raw.readUInt32LE(raw.length - 4) : raw.length) < MIN_BYTES) return undefined;
  let code: Buffer[];
  try {
    code = CACHE_KEY_FILES.map((file) => readFileSync(file));
  } catch {
    return undefined; // the sources are not there (a build without them): no cache
  }
  return keptPath(CACHE_DIR, 'catalog', '.bin', [...code, raw]);
}

/** The cached catalog at `entry`, or undefined. `raw` is the catalog file (the text of a plain one). */
export function readCacheEntry(entry: string, raw: Buffer): CachedCatalog | undefined {
  const buf = readKept(entry);
  if (!buf) return undefined;
  try {
    const headBytes = buf.readUInt32LE(0);
    const head = JSON.parse(buf.toString('utf8', 4, 4 + headBytes)) as Head;
    const linesAt = 4 + headBytes;
    const lookupAt = linesAt + head.linesBytes;
    const textAt = lookupAt + head.lookupBytes;
    if (textAt + head.textBytes !== buf.length) return undefined;
    let lines: number[] | undefined;
    let lookup: CatalogLookup | undefined;
    return {
      count: head.count,
      text: head.textBytes > 0 ? buf.subarray(textAt) : raw,
      lines: () => (lines ??= JSON.parse(buf.toString('utf8', linesAt, lookupAt)) as number[]),
      lookup: () => {
        if (!lookup) {
          const stored = JSON.parse(buf.toString('utf8', lookupAt, textAt)) as StoredLookup;
          lookup = { byAsin: new Map(stored.asins.map((a, n) => [a, n])), byKey: new Map(stored.keys) };
        }
        return lookup;
      },
    };
  } catch {
    return undefined;
  }
}

/** Writes an entry; `text` only when it is not the catalog file itself (a gzipped file's text). */
export function writeCacheEntry(entry: string, count: number, lines: number[], lookup: CatalogLookup, text: Buffer | undefined): void {
  // byAsin was filled in record order, one ASIN per record: its keys are the records' ASINs.
  const stored: StoredLookup = { asins: [...lookup.byAsin.keys()], keys: [...lookup.byKey] };
  const linesJson = Buffer.from(JSON.stringify(lines));
  const lookupJson = Buffer.from(JSON.stringify(stored));
  const head: Head = { count, linesBytes: linesJson.length, lookupBytes: lookupJson.length, textBytes: text?.length ?? 0 };
  const headJson = Buffer.from(JSON.stringify(head));
  const headLength = Buffer.alloc(4);
  headLength.writeUInt32LE(headJson.length);
  writeKept(entry, [headLength, headJson, linesJson, lookupJson, text ?? Buffer.alloc(0)], KEEP);
}

interface Head {
  count: number;
  linesBytes: number;
  lookupBytes: number;
  textBytes: number;
}

interface StoredLookup {
  asins: string[];
  keys: [string, number[]][];
}
