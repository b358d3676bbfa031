/**
 * The US listings of the shipped sample catalog indexed by UPC, as the identifier formulas' answers
 * are checked (the formula tests and the formulas benchmark pick real UPCs from it).
 */
import { readCatalogRecords, SAMPLE_CATALOG_PATH } from '.';
import type { CatalogRecord } from './format';

/** The US listings of the shipped sample catalog, indexed the way the formulas' answers are checked. */
export interface SampleIndex {
  /** UPC -> ASINs on it, best rank first (no rank last), then by ASIN: the service's documented order. */
  asinsByUpc: Map<string, string[]>;
  /** ASIN -> its identifiers by kind. */
  idsByAsin: Map<string, CatalogRecord['identifiers']>;
  /** UPCs on exactly one ASIN, and UPCs on several. */
  singleUpcs: string[];
  multiUpcs: string[];
}

let sample: SampleIndex | undefined;

/** Reads the sample catalog (about 1 s, once per process). */
export function sampleIndex(): SampleIndex {
  if (sample) return sample;
  const us = readCatalogRecords(SAMPLE_CATALOG_PATH).filter((r) => r.marketplace_id === 1);
  const byRank = (a: CatalogRecord, b: CatalogRecord) =>
    (a.rank ?? Infinity) - (b.rank ?? Infinity) || (a.asin < b.asin ? -1 : a.asin > b.asin ? 1 : 0);
  const recsByUpc = new Map<string, CatalogRecord[]>();
  const idsByAsin = new Map<string, CatalogRecord['identifiers']>();
  for (const r of us) {
    idsByAsin.set(r.asin, r.identifiers);
    for (const u of r.identifiers.upc ?? []) recsByUpc.set(u, [...(recsByUpc.get(u) ?? []), r]);
  }
  const asinsByUpc = new Map<string, string[]>();
  for (const [u, recs] of recsByUpc)
    asinsByUpc.set(
      u,
      recs
        .slice()
        .sort(byRank)
        .map((r) => r.asin),
    );
  const upcs = Array.from(asinsByUpc.keys()).sort();
  // Only UPCs whose 14-digit key is not shared with another listing's EAN/GTIN (so the expected ASINs are exactly these).
  const keyCount = new Map<string, number>();
  for (const r of us) {
    const keys = new Set<string>();
    for (const kind of ['upc', 'ean', 'gtin', 'jan', 'isbn'] as const)
      for (const c of r.identifiers[kind] ?? []) if (/^\d{12,14}$/.test(c)) keys.add(c.padStart(14, '0'));
    for (const k of keys) keyCount.set(k, (keyCount.get(k) ?? 0) + 1);
  }
  const clean = upcs.filter((u) => keyCount.get(u.padStart(14, '0')) === asinsByUpc.get(u)!.length);
  sample = {
    asinsByUpc,
    idsByAsin,
    singleUpcs: clean.filter((u) => asinsByUpc.get(u)!.length === 1),
    multiUpcs: clean.filter((u) => asinsByUpc.get(u)!.length > 1),
  };
  return sample;
}
