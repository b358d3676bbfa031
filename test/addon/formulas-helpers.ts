/**
 * Shared set-up of the identifier-formula tests and benchmark: the BUILT add-on in the local Apps
 * Script runtime (ADDON_OUT_DIR), the local Scan Service in a child process (behind the
 * fault-injecting proxy of the scan-flow tests when faults are needed), a workbook with a column
 * of real identifiers from the shipped sample catalog, and readers of what the formulas cost.
 */
import { createRuntime, type Runtime, type RuntimeOptions } from '../../emulator/gas';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { readCatalogRecords, SAMPLE_CATALOG_PATH } from '../../emulator/service/catalog';
import type { CatalogRecord } from '../../emulator/service/catalog/format';

export const OWNER = 'owner@example.com';
export const EDITOR = 'editor@example.com';
export const START = Date.UTC(2026, 10, 21, 9, 0, 0);
export const SHEET = 'Sheet1';

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
  for (const [u, recs] of recsByUpc) asinsByUpc.set(u, recs.slice().sort(byRank).map((r) => r.asin));
  const upcs = Array.from(asinsByUpc.keys()).sort();
  // Only UPCs whose 14-digit key is not shared with another listing's EAN/GTIN (so the expected ASINs are exactly these).
  const keyCount = new Map<string, number>();
  for (const r of us) {
    const keys = new Set<string>();
    for (const kind of ['upc', 'ean', 'gtin', 'jan', 'isbn'] as const) for (const c of r.identifiers[kind] ?? []) if (/^\d{12,14}$/.test(c)) keys.add(c.padStart(14, '0'));
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

/** A spreadsheet with one sheet of `rows` rows (a new sheet has 1,000; longer columns need more). */
export function newWorkbook(rows = 6000): Workbook {
  const wb = new Workbook({ owner: OWNER, name: 'Identifiers', empty: true });
  wb.addSheet(SHEET, undefined, rows, 26);
  return wb;
}

/** Writes a column as plain values (strings stay strings: the workbook model's raw write through a leading apostrophe). */
export function fillColumn(wb: Workbook, column: string, firstRow: number, values: unknown[]): void {
  values.forEach((v, i) => {
    if (v === '' || v === null || v === undefined) return;
    wb.type(SHEET, column + (firstRow + i), typeof v === 'string' ? "'" + v : v);
  });
}

export function runtimeFor(wb: Workbook, opts: RuntimeOptions = {}): Runtime {
  return createRuntime({ workbook: wb, startTime: START, urlFetchTimeoutMs: 10_000, ...opts });
}

/**
 * Uses the add-on in this spreadsheet the way a user does: the spreadsheet opens (onOpen adds the
 * add-on's menu) and `user` clicks Settings in it. Only then are its custom functions known to Sheets.
 */
export function useAddOn(rt: Runtime, user = OWNER): void {
  rt.open({ user });
  const items = rt.uiEvents.flatMap((e) => (e.kind === 'menu' ? e.items : []));
  if (!items.some((it) => it?.functionName === 'menuSettings')) throw new Error('The add-on menu offers no Settings item');
  rt.run('menuSettings', [], { user });
}

/** Saves address and key through the add-on's Settings server function, as `user`. */
export function saveKey(rt: Runtime, url: string, apiKey: string, user = OWNER): void {
  rt.scriptRun('saveSettings', [{ apiKey, serviceUrl: url }], { user });
}

/** Executions of custom functions since index `from`, with what they cost. */
export function formulaRuns(rt: Runtime, from = 0) {
  const runs = rt.executions.slice(from).filter((e) => e.kind === 'custom-function');
  return {
    runs,
    requests: runs.reduce((n, e) => n + e.counters.urlFetchRequests, 0),
    fetchAlls: runs.reduce((n, e) => n + e.counters.urlFetchCalls, 0),
    maxSeconds: runs.reduce((m, e) => Math.max(m, e.durationMs / 1000), 0),
    errors: runs.filter((e) => !e.ok).map((e) => e.error),
  };
}

/** Values of a column block (rows first..last) as the sheet holds them. */
export function columnValues(wb: Workbook, column: string, first: number, last: number): unknown[] {
  const out: unknown[] = [];
  for (let r = first; r <= last; r++) out.push(wb.cell(SHEET, column + r).value);
  return out;
}

/** A UPC-A check digit for 11 digits (to build ids the catalog does not have). */
export function upcWithCheck(body11: string): string {
  let sum = 0;
  for (let i = 0; i < 11; i++) sum += Number(body11[i]) * (i % 2 === 0 ? 3 : 1);
  return body11 + ((10 - (sum % 10)) % 10);
}
