/**
 * A cache of checked and indexed catalogs, so that a start of the service neither unpacks, parses,
 * checks nor indexes a catalog it has read before: about 0.2 s of CPU per start with the shipped
 * sample, and the tests start the service about 90 times. An entry is found by a hash of the
 * catalog file's bytes and of the code that decides what gets cached (CACHE_KEY_FILES below), so an edited
 * catalog or an edited check or key rule misses and is read afresh. Entries are written to a
 * temporary name and renamed (two services starting at once each write a whole file, the last
 * rename wins); any failure to read or write one only means reading the catalog itself.
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';

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

const CACHE_DIR = join(__dirname, '..', '..', '..', 'node_modules', '.cache', 'scan-service', 'catalog');
/** The code that decides what an entry holds: the line reader and checks, the key rule, this format (a test checks it lists their imports). */
export const CACHE_KEY_FILES = [join(__dirname, 'index.ts'), join(__dirname, 'cache.ts'), join(__dirname, '..', 'engine', 'ident.ts')];
/** Smaller catalogs (their text) are read quickly anyway; caching them would only push the big ones out. */
const MIN_BYTES = 1024 * 1024;
/** Entries kept, least recently used removed first. */
const KEEP = 8;

/** The entry's path for a catalog file's bytes; undefined when it is not cached. */
export function cacheEntryPath(raw: Buffer): string | undefined {
  // A gzipped file by its unpacked size (the last 4 bytes of a gzip stream).
  const gzip = raw.length > 18 && raw[0] === 0x1f && raw[1] === 0x8b;
  if ((gzip ? raw.readUInt32LE(raw.length - 4) : raw.length) < MIN_BYTES) return undefined;
  const hash = createHash('sha256');
  try {
    for (const file of CACHE_KEY_FILES) {
      const code = readFileSync(file);
      hash.update(`${code.length}\n`).update(code);
    }
  } catch {
    return undefined; // the sources are not there (a build without them): no cache
  }
  return join(CACHE_DIR, `catalog-${hash.update(raw).digest('hex')}.bin`);
}

/** The cached catalog at `entry`, or undefined. `raw` is the catalog file (the text of a plain one). */
export function readCacheEntry(entry: string, raw: Buffer): CachedCatalog | undefined {
  let buf: Buffer;
  try {
    buf = readFileSync(entry);
  } catch {
    return undefined;
  }
  try {
    const headBytes = buf.readUInt32LE(0);
    const head = JSON.parse(buf.toString('utf8', 4, 4 + headBytes)) as Head;
    const linesAt = 4 + headBytes;
    const lookupAt = linesAt + head.linesBytes;
    const textAt = lookupAt + head.lookupBytes;
    if (textAt + head.textBytes !== buf.length) return undefined;
    touch(entry);
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
  const tmp = `${entry}.${process.pid}-${threadId}.tmp`;
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    // byAsin was filled in record order, one ASIN per record: its keys are the records' ASINs.
    const stored: StoredLookup = { asins: [...lookup.byAsin.keys()], keys: [...lookup.byKey] };
    const linesJson = Buffer.from(JSON.stringify(lines));
    const lookupJson = Buffer.from(JSON.stringify(stored));
    const head: Head = { count, linesBytes: linesJson.length, lookupBytes: lookupJson.length, textBytes: text?.length ?? 0 };
    const headJson = Buffer.from(JSON.stringify(head));
    const headLength = Buffer.alloc(4);
    headLength.writeUInt32LE(headJson.length);
    const fd = openSync(tmp, 'w');
    try {
      for (const part of [headLength, headJson, linesJson, lookupJson, text ?? Buffer.alloc(0)]) {
        for (let at = 0; at < part.length; ) at += writeSync(fd, part, at);
      }
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, entry);
    evict();
  } catch {
    rmSync(tmp, { force: true });
  }
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

/** Marks an entry used (its modification time orders eviction). */
function touch(entry: string): void {
  try {
    const now = new Date();
    utimesSync(entry, now, now);
  } catch {
    // another start removed it meanwhile: this one has read it already
  }
}

/** Keeps the KEEP most recently used entries; removes temporary files left by a killed start. */
function evict(): void {
  const entries: { path: string; used: number }[] = [];
  for (const name of readdirSync(CACHE_DIR)) {
    const path = join(CACHE_DIR, name);
    const used = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
    if (used === undefined) continue;
    if (name.endsWith('.bin')) entries.push({ path, used });
    else if (name.endsWith('.tmp') && Date.now() - used > 10 * 60_000) rmSync(path, { force: true });
  }
  entries.sort((a, b) => b.used - a.used);
  for (const { path } of entries.slice(KEEP)) rmSync(path, { force: true });
}
