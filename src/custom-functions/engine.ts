/**
 * The identifier formulas' logic, apart from Apps Script: every service comes in through
 * FormulaDeps. One call of a formula:
 *   cells -> recognised ids (A1's src/domain/ids; invalid ones marked, never sent) -> DISTINCT ids
 *   -> cache (one getAll) -> the rest from the service in batches at the API's ceilings, sent in
 *   parallel waves within the time left -> cache write (at most two putAll) -> cells of the same shape.
 * Nothing here throws for a service problem: it lands in the cells it concerns. Only a bad
 * argument (unknown marketplace, unknown `matches`) throws, as Sheets' own functions do.
 */
import { type ApiContext, type ClientDeps, type SendOptions } from '../api/client';
import { convertAsins, convertIds, type IdOutcome } from '../api/convert';
import { splitConvertAnswer } from '../api/read';
import type { CacheLike, Clock, Sleep, UrlFetchLike } from '../api/services';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../api/retry';
import { identify, type IdExpectation } from '../domain/ids';
import { isBlankCell } from '../domain/sheet/safe';
import { FORMULA_BUDGET_MS, FORMULA_WAVE_RESERVE_MS } from '../domain/time-budgets';
import { findMarketplace } from '../../contract/marketplaces';
import { readCache, writeCache, type Cached, type CacheScope } from './cache';
import type { FormulaSettings } from './key';
import { failedText, invalidText, NOT_FOUND } from './messages';

export type Matches = 'first' | 'all' | 'spill';
export type FromKind = 'UPC' | 'EAN' | 'ISBN';
export type ToKind = 'UPC' | 'EAN' | 'ISBN' | 'GTIN' | 'JAN';
export const TO_KINDS: readonly ToKind[] = ['UPC', 'EAN', 'ISBN', 'GTIN', 'JAN'];

/** What a cell may hold (getValues types); a range arrives as a 2D array of these. */
export type CellInput = string | number | boolean | Date | null | undefined;
export type FormulaOutput = string | string[][];

const FORMULA_RETRY_POLICY: RetryPolicy = { ...DEFAULT_RETRY_POLICY, attemptReserveMs: FORMULA_WAVE_RESERVE_MS };

export interface FormulaDeps {
  fetcher: UrlFetchLike;
  /** The document cache (shared by the people who share the key); null outside a document. */
  cache: CacheLike | null;
  sleep: Sleep;
  now: Clock;
  random?: () => number;
  /** Reads the key, address and default marketplace formulas use (see key.ts). */
  settings: () => FormulaSettings;
  /** Time this call may take, from startedAt (default FORMULA_BUDGET_MS). */
  budgetMs?: number;
  startedAt?: number;
  /** Requests per fetchAll. */
  maxParallel?: number;
  log?: (line: string) => void;
}

// ---------------------------------------------------------------- arguments

/** A range (2D), a row (1D) or one value, as rows of cells; `single` when it was one value. */
export function toGrid(input: unknown): { rows: CellInput[][]; single: boolean } {
  if (Array.isArray(input)) {
    if (input.length === 0) return { rows: [], single: false };
    if (Array.isArray(input[0])) return { rows: input as CellInput[][], single: false };
    return { rows: [input as CellInput[]], single: false };
  }
  return { rows: [[input as CellInput]], single: true };
}

export function parseMatches(v: unknown): Matches {
  if (isBlankCell(v)) return 'first';
  const s = String(v).trim().toLowerCase();
  if (s === 'first' || s === 'all' || s === 'spill') return s;
  throw new Error('matches must be "first", "all" or "spill" (got "' + String(v) + '").');
}

export function parseMarketplace(v: unknown, fallback: string | undefined): string {
  const arg = isBlankCell(v) ? (fallback ?? 'US') : v;
  const m = findMarketplace(arg as string | number);
  if (!m) throw new Error('Unknown marketplace "' + String(arg) + '". Use a code such as US, UK, DE, JP.');
  return m.code;
}

// ---------------------------------------------------------------- lookup

type CellResult<T> = { t: 'blank' } | { t: 'text'; text: string } | { t: 'found'; value: T } | { t: 'not-found' };

interface Lookup<T> {
  endpoint: CacheScope['endpoint'];
  expect: IdExpectation;
  kindName: string;
  fetch(ctx: ApiContext, marketplace: string, ids: string[], o: SendOptions): Map<string, IdOutcome<T>>;
}

const ID_TO_ASIN = (expect: IdExpectation, kindName: string): Lookup<string[]> => ({
  endpoint: 'convert',
  expect,
  kindName,
  fetch: convertIds,
});
const ASIN_TO_IDS: Lookup<Record<string, string[]>> = { endpoint: 'asin-convert', expect: 'asin', kindName: 'ASIN', fetch: convertAsins };

/** Statistics of one run, for tests and benchmarks. */
export interface RunStats {
  distinct: number;
  cached: number;
  fetched: number;
}

function lookUp<T>(lk: Lookup<T>, rows: CellInput[][], marketplaceArg: unknown, deps: FormulaDeps, stats?: RunStats): CellResult<T>[][] {
  const startedAt = deps.startedAt ?? deps.now();
  const settings = deps.settings();
  const marketplace = parseMarketplace(marketplaceArg, settings.defaultMarketplace);
  const ids: string[][] = rows.map(() => []);
  const out: CellResult<T>[][] = rows.map((row, r) =>
    row.map((cell, c): CellResult<T> => {
      if (isBlankCell(cell)) return { t: 'blank' };
      const res = identify(cell, lk.expect);
      if (!res.ok) return res.reason === 'blank' ? { t: 'blank' } : { t: 'text', text: invalidText(lk.kindName, res) };
      ids[r][c] = res.value;
      return { t: 'not-found' }; // placeholder, resolved below
    }),
  );
  const distinct = Array.from(new Set(ids.flatMap((row) => row.filter((x) => x !== undefined))));
  if (stats) stats.distinct = distinct.length;
  if (distinct.length === 0) return out;
  const answers = new Map<string, CellResult<T>>();
  if (!settings.ok) {
    for (const id of distinct) answers.set(id, { t: 'text', text: settings.message });
  } else {
    const scope: CacheScope = { endpoint: lk.endpoint, marketplace, baseUrl: settings.service.baseUrl };
    const lookup = readCache<T>(deps.cache, scope, distinct);
    for (const [id, hit] of lookup.hits) answers.set(id, hit.found ? { t: 'found', value: hit.value } : { t: 'not-found' });
    const missing = distinct.filter((id) => !answers.has(id));
    if (stats) {
      stats.cached = distinct.length - missing.length;
      stats.fetched = missing.length;
    }
    if (missing.length) {
      const client: ClientDeps = { fetcher: deps.fetcher, sleep: deps.sleep, now: deps.now, random: deps.random, log: deps.log };
      const deadline = startedAt + (deps.budgetMs ?? FORMULA_BUDGET_MS);
      const outcomes = lk.fetch({ settings: settings.service, deps: client, deadline }, marketplace, missing, {
        maxParallel: deps.maxParallel,
        policy: FORMULA_RETRY_POLICY,
      });
      const learned = new Map<string, Cached<T>>();
      for (const id of missing) {
        const o = outcomes.get(id);
        if (!o || o.status === 'failed') {
          answers.set(id, { t: 'text', text: o ? failedText(o.problem) : failedText({ kind: 'out-of-time', message: '' }) });
        } else if (o.status === 'found') {
          answers.set(id, { t: 'found', value: o.value });
          learned.set(id, { found: true, value: o.value });
        } else {
          answers.set(id, { t: 'not-found' });
          learned.set(id, { found: false });
        }
      }
      writeCache(deps.cache, lookup, learned);
    }
  }
  return out.map((row, r) => row.map((cell, c) => (ids[r][c] !== undefined ? answers.get(ids[r][c])! : cell)));
}

// ---------------------------------------------------------------- values

/**
 * The ASINs in a convert answer [ASIN..., other identifiers...] (best-ranked first): see
 * splitConvertAnswer in src/api/read.ts (the first entry, and the ASIN-shaped entries right after it).
 */
export function asinsOf(list: readonly string[]): string[] {
  return splitConvertAnswer(list).asins;
}

function uniq(xs: string[]): string[] {
  return xs.filter((x, i) => x !== '' && xs.indexOf(x) === i);
}

/**
 * Identifiers of one kind from an asin-convert answer. Where the service lists none under that
 * kind, GS1 equivalences fill in: a UPC is the EAN-13 "0"+UPC; a GTIN is a UPC/EAN padded to 14;
 * a JAN is an EAN with prefix 45 or 49; an ISBN-13 is an EAN with prefix 978/979.
 */
export function identifiersOf(rec: Record<string, string[]>, kind: ToKind): string[] {
  const get = (k: string) => (rec[k] ?? []).map((x) => String(x).trim());
  const own = uniq(get(kind.toLowerCase()));
  if (own.length) return own;
  const upc = get('upc');
  const ean = get('ean');
  switch (kind) {
    case 'UPC':
      return uniq(ean.filter((e) => /^0\d{12}$/.test(e)).map((e) => e.slice(1)));
    case 'EAN':
      return uniq(upc.filter((u) => /^\d{12}$/.test(u)).map((u) => '0' + u));
    case 'GTIN':
      return uniq(
        upc
          .concat(ean)
          .filter((g) => /^\d{8,14}$/.test(g))
          .map((g) => ('00000000000000' + g).slice(-14)),
      );
    case 'JAN':
      return uniq(ean.filter((e) => /^4[59]\d{11}$/.test(e)));
    case 'ISBN':
      return uniq(ean.filter((e) => /^97[89]\d{10}$/.test(e)));
  }
}

// ---------------------------------------------------------------- shaping

function render(values: CellResult<string[]>[][], single: boolean, matches: Matches): FormulaOutput {
  const lists: string[][][] = values.map((row) =>
    row.map((cell) => {
      if (cell.t === 'blank') return [''];
      if (cell.t === 'text') return [cell.text];
      if (cell.t === 'found' && cell.value.length > 0) return cell.value;
      return [NOT_FOUND];
    }),
  );
  if (matches !== 'spill') {
    const cells = lists.map((row) => row.map((l) => (matches === 'all' ? l.join(', ') : l[0])));
    return single ? cells[0][0] : cells;
  }
  // Spill: every input cell gets the same number of columns (the most matches anywhere), padded with ''.
  const width = Math.max(1, ...lists.flatMap((row) => row.map((l) => l.length)));
  return lists.map((row) => row.flatMap((l) => l.concat(new Array(width - l.length).fill(''))));
}

/** ASIN_FROM_UPC / _EAN / _ISBN. */
export function asinFromIds(
  kind: FromKind,
  ids: unknown,
  marketplace: unknown,
  matches: unknown,
  deps: FormulaDeps,
  stats?: RunStats,
): FormulaOutput {
  const mode = parseMatches(matches);
  const { rows, single } = toGrid(ids);
  const expect: IdExpectation = kind === 'UPC' ? 'upc' : kind === 'EAN' ? 'ean' : 'isbn';
  const found = lookUp(ID_TO_ASIN(expect, kind), rows, marketplace, deps, stats);
  return render(
    found.map((row) => row.map((c) => (c.t === 'found' ? { t: 'found', value: asinsOf(c.value) } : c))),
    single,
    mode,
  );
}

/** UPC_FROM_ASIN, EAN_, ISBN_, GTIN_, JAN_. */
export function idsFromAsins(
  kind: ToKind,
  asins: unknown,
  marketplace: unknown,
  matches: unknown,
  deps: FormulaDeps,
  stats?: RunStats,
): FormulaOutput {
  const mode = parseMatches(matches);
  const { rows, single } = toGrid(asins);
  const found = lookUp(ASIN_TO_IDS, rows, marketplace, deps, stats);
  return render(
    found.map((row) => row.map((c): CellResult<string[]> => (c.t === 'found' ? { t: 'found', value: identifiersOf(c.value, kind) } : c))),
    single,
    mode,
  );
}

/** IDENTIFIERS_FROM_ASIN: a header row, then one row per input with one column per kind (several joined with ", "). */
export function identifiersFromAsins(asins: unknown, marketplace: unknown, deps: FormulaDeps, stats?: RunStats): string[][] {
  const { rows } = toGrid(asins);
  if (rows.some((r) => r.length > 1)) throw new Error('IDENTIFIERS_FROM_ASIN takes one column of ASINs (it returns one column per kind).');
  const found = lookUp(ASIN_TO_IDS, rows, marketplace, deps, stats);
  const blankRow = () => TO_KINDS.map(() => '');
  const body = found.map((row) => {
    const c = row[0] ?? { t: 'blank' };
    if (c.t === 'blank') return blankRow();
    if (c.t === 'text') return [c.text].concat(blankRow().slice(1));
    if (c.t === 'not-found') return [NOT_FOUND].concat(blankRow().slice(1));
    const cols = TO_KINDS.map((k) => identifiersOf(c.value, k).join(', '));
    return cols.every((x) => x === '') ? [NOT_FOUND].concat(blankRow().slice(1)) : cols;
  });
  const header: string[] = TO_KINDS.slice();
  return [header].concat(body);
}
