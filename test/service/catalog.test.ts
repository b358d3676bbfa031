/** The shipped sample catalog: deterministic, with the quirks of real catalogs, loaded into working indexes. */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { CatalogFormatError, catalogFromRecords, loadCatalog, SAMPLE_CATALOG_PATH } from '../../emulator/service/catalog/index';
import type { CatalogRecord } from '../../emulator/service/catalog/format';
import { CACHE_KEY_FILES, cacheEntryPath, readCacheEntry } from '../../emulator/service/catalog/cache';
import type { Catalog } from '../../emulator/service/engine/types';
import { catalogBytes, generateCatalog } from '../../emulator/service/catalog/generate';
import { CATEGORIES } from '../../emulator/service/engine/fees';
import { isValidGtin, isValidIsbn10, kindOf } from '../../emulator/service/engine/ident';
import { record } from './engine/fixtures';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const shipped = readFileSync(SAMPLE_CATALOG_PATH);
const records: CatalogRecord[] = gunzipSync(shipped)
  .toString('utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));

describe('generator', () => {
  it('regenerates exactly the shipped catalog', () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalog-'));
    try {
      const out = join(dir, 'catalog.jsonl.gz');
      writeFileSync(out, catalogBytes(generateCatalog()));
      const again = readFileSync(out);
      // Compared after gunzip: the JSON Lines text is what the generator decides. The gzip bytes
      // are identical too with the same zlib build, but zlib's output may differ between builds
      // and CPUs (Chromium's zlib picks its hash by CPU features), which says nothing about the data.
      expect(sha(gunzipSync(again))).toBe(sha(gunzipSync(shipped)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('shipped catalog', () => {
  const count = (pred: (r: CatalogRecord) => boolean) => records.filter(pred).length;
  it('has at least 20,000 products over US, CA, UK and DE, a few MB in size', () => {
    expect(records.length).toBeGreaterThanOrEqual(20000);
    const per = new Map<number, number>();
    for (const r of records) per.set(r.marketplace_id, (per.get(r.marketplace_id) ?? 0) + 1);
    expect([...per.keys()].sort((a, b) => a - b)).toEqual([1, 2, 4, 5]);
    for (const n of per.values()) expect(n).toBeGreaterThan(3000);
    expect(shipped.length).toBeLessThan(6 * 1024 * 1024);
  });
  it('plants the quirks of real catalogs', () => {
    const upcAsins = new Map<string, Set<string>>();
    for (const r of records)
      for (const u of r.identifiers.upc ?? [])
        upcAsins.set(`${r.marketplace_id}|${u}`, (upcAsins.get(`${r.marketplace_id}|${u}`) ?? new Set()).add(r.asin));
    const quirks = {
      upcOnSeveralAsins: [...upcAsins.values()].filter((s) => s.size > 1).length,
      multipacks: count((r) => r.market_pack_quantity > 1),
      hazmat: count((r) => r.is_hazmat),
      meltable: count((r) => r.is_meltable),
      adult: count((r) => r.is_adult),
      missingFees: count((r) => !r.fees_available),
      noBuyBox: count((r) => r.buybox_price === null),
      noRank: count((r) => r.rank === null),
      upcLeadingZero: count((r) => (r.identifiers.upc ?? []).some((u) => u.startsWith('0'))),
      upcTwoLeadingZeros: count((r) => (r.identifiers.upc ?? []).some((u) => u.startsWith('00'))),
      ean13: count((r) => (r.identifiers.ean ?? []).some((e) => kindOf(e) === 'ean')),
      isbn: count((r) => !!r.identifiers.isbn),
      gtin14: count((r) => !!r.identifiers.gtin),
      jan: count((r) => !!r.identifiers.jan),
      variations: count((r) => r.parent_asin !== null),
      inboundIneligible: count((r) => !r.inbound_eligibility.eligible),
      oversize: count((r) => Math.max(r.package_dimensions.length, r.package_dimensions.width, r.package_dimensions.height) > 18),
    };
    for (const [k, v] of Object.entries(quirks)) expect([k, v > 20]).toEqual([k, true]);
    // Brand spellings that differ only by case.
    const brands = new Set(records.map((r) => r.brand).filter((b): b is string => b !== null));
    for (const spelling of ['Acme', 'ACME', 'acme', 'NatureWell', 'NATUREWELL']) expect(brands.has(spelling)).toBe(true);
  });
  it('has valid check digits everywhere and identifiers of the right kind', () => {
    for (const r of records) {
      for (const [kind, list] of Object.entries(r.identifiers)) {
        for (const code of list ?? []) {
          const valid = code.length === 10 ? isValidIsbn10(code) : isValidGtin(code);
          if (!valid || (kind !== 'ean' && kindOf(code) !== kind)) throw new Error(`${r.asin}: bad ${kind} ${code}`);
          if (kind === 'ean' && !['ean', 'isbn', 'jan'].includes(kindOf(code)!)) throw new Error(`${r.asin}: bad ean ${code}`);
        }
      }
      if (!/^B0[0-9A-Z]{8}$/.test(r.asin) && !isValidIsbn10(r.asin)) throw new Error(`bad ASIN ${r.asin}`);
      if (!CATEGORIES[r.category]) throw new Error(`unknown category ${r.category}`);
    }
  });
});

describe('loadCatalog', () => {
  const catalog = loadCatalog(SAMPLE_CATALOG_PATH);
  it('indexes every product by marketplace and ASIN', () => {
    expect(catalog.size()).toBe(records.length);
    const de = records.find((r) => r.marketplace_id === 5)!;
    expect(catalog.byAsin(5, de.asin)).toEqual(de);
    expect(catalog.byAsin(5, ` ${de.asin} `)).toEqual(de);
    expect(catalog.byAsin(5, de.asin.toLowerCase())).toBeUndefined(); // exact, as the conversion endpoint says
  });
  it('finds a UPC by its UPC-A, EAN-13 and lost-zero forms, and every ASIN sharing it, best rank first', () => {
    const shared = records.filter((r) => r.marketplace_id === 1 && r.market_pack_quantity > 1 && r.identifiers.upc?.[0].startsWith('0'))[0];
    const upc = shared.identifiers.upc![0];
    const all = records.filter((r) => r.marketplace_id === 1 && r.identifiers.upc?.includes(upc));
    expect(all.length).toBeGreaterThan(1);
    const found = catalog.byIdentifier(1, upc).map((r) => r.asin);
    expect(found.sort()).toEqual(all.map((r) => r.asin).sort());
    expect(
      catalog
        .byIdentifier(1, '0' + upc)
        .map((r) => r.asin)
        .sort(),
    ).toEqual(found.sort());
    expect(
      catalog
        .byIdentifier(1, upc.replace(/^0+/, ''))
        .map((r) => r.asin)
        .sort(),
    ).toEqual(found.sort());
    const ranks = catalog.byIdentifier(1, upc).map((r) => (r.rank as number | null) ?? Infinity);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(catalog.byIdentifier(2, '036000291452')).toEqual([]);
  });
  it('finds books by ISBN-13 and ISBN-10', () => {
    const b = records.find((r) => r.marketplace_id === 1 && r.identifiers.isbn)!;
    expect(catalog.byIdentifier(1, b.identifiers.isbn![0]).map((r) => r.asin)).toEqual([b.asin]);
    expect(catalog.byIdentifier(1, b.identifiers.isbn![1]).map((r) => r.asin)).toEqual([b.asin]);
  });
  it('names the line of a bad record, and refuses invalid identifiers and duplicate ASINs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalog-'));
    try {
      const file = join(dir, 'c.jsonl');
      writeFileSync(file, JSON.stringify(record()) + '\n\n{"asin": oops}\n');
      expect(() => loadCatalog(file)).toThrow(/catalog line 3: not valid JSON/);
      writeFileSync(file, JSON.stringify({ ...record(), asin: 'bad' }) + '\n');
      expect(() => loadCatalog(file)).toThrow(/catalog line 1: asin must be/);
      const bad: Array<[Record<string, unknown>, RegExp]> = [
        [{ buybox_price: '12.99' }, /buybox_price must be integer cents or null/],
        [{ rank: -1 }, /rank must be an integer >= 0 or null/],
        [{ is_hazmat: 'no' }, /is_hazmat must be true or false/],
        [{ market_pack_quantity: 0 }, /market_pack_quantity must be 1 or more/],
        [{ package_dimensions: { length: 1, width: 1, height: 1 } }, /package_dimensions needs/],
        [{ identifiers: { upc: '012345678905' } }, /identifiers.upc must be an array/],
        [{ identifiers: { sku: ['x'] } }, /identifiers.sku is not one of/],
        [{ history: { bsr: [1, 2, 3] } }, /history needs/],
      ];
      for (const [over, message] of bad) {
        writeFileSync(file, JSON.stringify(record()) + '\n' + JSON.stringify({ ...record({ asin: 'B0SECOND01' }), ...over }) + '\n');
        expect(() => loadCatalog(file)).toThrow(new RegExp('catalog line 2: ' + message.source));
      }
      writeFileSync(file, JSON.stringify(record()) + '\n');
      expect(loadCatalog(file).size()).toBe(1); // plain (not gzipped) JSON Lines is read too
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(() => catalogFromRecords([record({ identifiers: { upc: ['012345678906'] } })])).toThrow(CatalogFormatError);
    expect(() => catalogFromRecords([record(), record()])).toThrow(/appears twice/);
  });
});

describe('catalog cache (catalog/cache.ts)', () => {
  // Records of the sample, so every identifier is valid; over 1 MiB, so the file is cached.
  const some = records.slice(0, 2000);
  const jsonl = (recs: CatalogRecord[]) => Buffer.from(recs.map((r) => JSON.stringify(r)).join('\n') + '\n');
  /** Every lookup of `recs`' ASINs and identifiers answers the same from both catalogs (one comparison: jest's are slow). */
  const expectSameAnswers = (a: Catalog, b: Catalog, recs: CatalogRecord[]) => {
    const answers = (c: Catalog) =>
      JSON.stringify([
        c.size(),
        recs.map((r) => [
          c.byAsin(r.marketplace_id, r.asin),
          Object.values(r.identifiers)
            .flat()
            .map((code) => c.byIdentifier(r.marketplace_id, code)),
        ]),
      ]);
    expect(answers(b)).toBe(answers(a));
  };
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'catalog-cache-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps a checked, indexed catalog file once read, and answers every lookup from it as from the file', () => {
    for (const [name, bytes] of [
      ['c.jsonl', jsonl(some)],
      ['c.jsonl.gz', gzipSync(jsonl(some))],
    ] as const) {
      const file = join(dir, name);
      writeFileSync(file, bytes);
      const entry = cacheEntryPath(bytes)!;
      expect(entry).toBeDefined();
      rmSync(entry, { force: true }); // read from the file this time
      const fresh = loadCatalog(file);
      expect(readCacheEntry(entry, bytes)?.count).toBe(some.length);
      const cached = loadCatalog(file);
      expectSameAnswers(catalogFromRecords(some), cached, some);
      expectSameAnswers(fresh, cached, some);
      const r = some[10];
      expect(cached.byAsin(r.marketplace_id, r.asin)).toBe(cached.byAsin(r.marketplace_id, r.asin)); // one object per record
    }
  });
  it('reads a changed catalog file afresh, not from the entry of its old bytes', () => {
    const file = join(dir, 'changing.jsonl');
    writeFileSync(file, jsonl(some));
    loadCatalog(file);
    const changed = some.map((r, i) => (i === 5 ? { ...r, buybox_price: (r.buybox_price ?? 0) + 1 } : r));
    writeFileSync(file, jsonl(changed));
    const r = changed[5];
    expect(loadCatalog(file).byAsin(r.marketplace_id, r.asin)).toEqual(r);
  });
  it('ignores a damaged entry: the catalog is read from its file and the entry written again', () => {
    const file = join(dir, 'damaged.jsonl');
    const bytes = jsonl(some.slice().reverse());
    writeFileSync(file, bytes);
    loadCatalog(file);
    const entry = cacheEntryPath(bytes)!;
    expect(existsSync(entry)).toBe(true);
    truncateSync(entry, 1000);
    expect(readCacheEntry(entry, bytes)).toBeUndefined();
    expectSameAnswers(catalogFromRecords(some), loadCatalog(file), some);
    expect(readCacheEntry(entry, bytes)?.count).toBe(some.length);
  });
  it('keys entries by the code that decides their content too: every module it imports', () => {
    const listed = new Set(CACHE_KEY_FILES.map((f) => resolve(f)));
    for (const file of CACHE_KEY_FILES) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/^import (?!type )[^;]*? from '(\.[^']+)';/gm)) {
        const target = resolve(dirname(file), m[1]);
        const ts = existsSync(`${target}.ts`) ? `${target}.ts` : join(target, 'index.ts');
        expect([file, ts, listed.has(ts)]).toEqual([file, ts, true]);
      }
    }
  });
});
