/**
 * "Compare with an earlier scan" (issue 23): what changed between two scans of a supplier's list,
 * and THE layout of the Changes tab (beside the result layout of layout.ts, whose figures it reads:
 * the same columns, the same money and percent formats, the one all-in ROI). Pure; nothing runs at
 * load time.
 *
 * A product of either scan becomes a Fact: ASIN, supplier identifier, title, SKU and the figures a
 * seller watches (cost, Buy Box, fees, profit, ROI, rank, offers), as amounts (what a result tab's
 * cells hold), read from a result tab by its headers or from the service's product rows through the
 * result layout's own getters. Facts are paired by ASIN AND identifier; a supplier identifier that
 * the service matched to another ASIN this time is paired as "Re-matched" (not as one product gone
 * and another new). Rows listed twice under one key pair in order.
 */
import type { Marketplace } from '../../../contract/marketplaces';
import { centsToAmount } from '../../../contract/units';
import { safeText, textOf } from '../sheet/safe';
import { findResultTab, figureOf, resultTabOf, textIn } from './read';
import { fitted, numberFormatFor, numberIn, type ColumnKind, type Product } from './columns';
import { resultColumns, ROI_NOTE, type LayoutColumn } from './result-columns';
import { commas } from '../../../contract/numbers';

/** The figures compared, in the tab's order; `headers` are the result tab's columns they are read from (summed). */
export const CHANGE_FIGURES: ReadonlyArray<{ key: string; label: string; kind: ColumnKind; headers: readonly string[]; note: string }> = [
  { key: 'cost', label: 'Cost', kind: 'money', headers: ['Cost'], note: 'The supplier’s price per unit (the result tab’s Cost).' },
  { key: 'buybox', label: 'Buy Box', kind: 'money', headers: ['Buy Box'], note: 'The Buy Box price; blank: no Buy Box.' },
  {
    key: 'fees',
    label: 'Fees',
    kind: 'money',
    headers: ['Referral fee', 'FBA fee', 'Other fees'],
    note: 'Referral fee + FBA fee + Other fees of one order (the result tab’s three fee columns).',
  },
  {
    key: 'profit',
    label: 'Profit',
    kind: 'money',
    headers: ['Profit'],
    note: 'Profit of one order = Net revenue − Total cost − Prep − Inbound shipping (as the Scan Service computed it).',
  },
  { key: 'roi', label: 'ROI', kind: 'fraction', headers: ['ROI'], note: ROI_NOTE },
  { key: 'rank', label: 'Rank', kind: 'int', headers: ['Rank'], note: 'Sales rank; a change below 0 means the product sells better now.' },
  {
    key: 'offers',
    label: 'Offers',
    kind: 'int',
    headers: ['Offers'],
    note: 'Offers on the listing: the result tab’s Offers (FBA offers + FBM offers).',
  },
];

const FIG = (key: string) => CHANGE_FIGURES.findIndex((f) => f.key === key);
const PROFIT = FIG('profit');
const BUYBOX = FIG('buybox');

export interface Fact {
  asin: string;
  identifier: string;
  title: string;
  sku: string;
  /** Per CHANGE_FIGURES: amounts (money), fractions (ROI), counts; null when blank. */
  v: (number | null)[];
}

/** Money sums and differences to the cent, ROI to 0.0001 %, counts whole (no 0.30000000000000004). */
function rounded(kind: ColumnKind, v: number): number {
  if (kind === 'money') return Math.round(v * 100) / 100;
  if (kind === 'fraction') return Math.round(v * 1e6) / 1e6;
  return Math.round(v);
}

function sum(kind: ColumnKind, parts: (number | null)[]): number | null {
  const known = parts.filter((x): x is number => x !== null);
  return known.length
    ? rounded(
        kind,
        known.reduce((a, b) => a + b, 0),
      )
    : null;
}

let columnsByHeader: Map<string, LayoutColumn> | null = null;
function layoutColumn(header: string): LayoutColumn {
  if (!columnsByHeader) columnsByHeader = new Map(resultColumns().map((c) => [c.header, c]));
  return columnsByHeader.get(header)!;
}

/**
 * The 0-based columns of a result tab a compare reads (the one result-tab reader's: a column the
 * import left out is simply not read), or null when the tab is no result tab.
 */
export function factColumns(header: readonly unknown[]): number[] | null {
  const tab = findResultTab(header);
  if (!tab) return null;
  const keys = ['asin', 'identifier', 'title', 'supplier_sku', ...CHANGE_FIGURES.flatMap((f) => f.headers.map((h) => layoutColumn(h).key))];
  return keys.map((k) => tab.columns.get(k)).filter((i): i is number => i !== undefined);
}

/** Facts of a result tab's data rows, through the one result-tab reader (a column left out reads as blank). */
export function factsFromTab(header: readonly unknown[], rows: readonly (readonly unknown[])[]): Fact[] {
  const tab = resultTabOf(header);
  return rows.map((r) => ({
    asin: textIn(tab, r, 'asin').trim(),
    identifier: textIn(tab, r, 'identifier').trim(),
    title: textIn(tab, r, 'title'),
    sku: textIn(tab, r, 'supplier_sku'),
    v: CHANGE_FIGURES.map((f) =>
      sum(
        f.kind,
        f.headers.map((hd) => figureOf(tab, r, layoutColumn(hd).key)),
      ),
    ),
  }));
}

/** A result-layout value as the tab's cell holds it (money in amounts), without the text guard (applied when written). */
function amountOf(col: LayoutColumn, p: Product): number | null {
  const v = col.get(p);
  if (typeof v !== 'number' || !isFinite(v)) return null;
  return col.kind === 'money' ? centsToAmount(v) : col.kind === 'percent' ? v / 10000 : v;
}

/** Facts of the service's product rows, through the result layout's own getters (the same figures a result tab shows). */
export function factsFromProducts(products: readonly Product[]): Fact[] {
  const text = (h: string, p: Product) => textOf(layoutColumn(h).get(p));
  return products.map((p) => ({
    asin: text('ASIN', p).trim(),
    identifier: text('Identifier', p).trim(),
    title: text('Title', p),
    sku: text('SKU', p),
    v: CHANGE_FIGURES.map((f) =>
      sum(
        f.kind,
        f.headers.map((hd) => amountOf(layoutColumn(hd), p)),
      ),
    ),
  }));
}

/** A Fact as one row of cells (the compare's staging tab), and back. */
export const FACT_WIDTH = 4 + CHANGE_FIGURES.length;
export function factRow(f: Fact): unknown[] {
  return [safeText(f.asin), safeText(f.identifier), safeText(f.title), safeText(f.sku), ...f.v.map((x) => (x === null ? '' : x))];
}
export function factFromRow(r: readonly unknown[]): Fact {
  return {
    asin: textOf(r[0]).trim(),
    identifier: textOf(r[1]).trim(),
    title: textOf(r[2]),
    sku: textOf(r[3]),
    v: CHANGE_FIGURES.map((_, i) => numberIn(r[4 + i])),
  };
}

// ---- Comparing ---------------------------------------------------------------------------------

export type ChangeKind =
  | 'Newly profitable'
  | 'New'
  | 'Profit up'
  | 'Re-matched'
  | 'No longer profitable'
  | 'Profit down'
  | 'Gone'
  | 'Changed';

export interface ChangeRow {
  kind: ChangeKind;
  before: Fact | null;
  after: Fact | null;
  note: string;
}

/**
 * The order of the tab (what matters to a seller first): a product worth buying now that was not
 * (newly profitable, then new and profitable, then a bigger profit), then what needs a look (an
 * identifier matched to another ASIN, no longer profitable, a smaller profit), then the rest (gone,
 * new but not profitable, other changes). Within a group: the larger profit (gain, or loss) first.
 */
export const ORDER_NOTE =
  'Sorted by what matters first: Newly profitable (highest profit now first), New and profitable, Profit up (biggest gain first), ' +
  'Re-matched (the supplier’s identifier now matches another ASIN: check the match), No longer profitable (biggest profit lost first), ' +
  'Profit down (biggest drop first), Gone (most profitable before first), New but not profitable, Changed (any other figure moved). ' +
  'Products with no change at all are left out (counted on the card).';

function profitOf(f: Fact | null): number | null {
  return f ? f.v[PROFIT] : null;
}
const profitable = (f: Fact | null) => (profitOf(f) ?? 0) > 0;

function group(r: ChangeRow): number {
  switch (r.kind) {
    case 'Newly profitable':
      return 0;
    case 'New':
      return profitable(r.after) ? 1 : 7;
    case 'Profit up':
      return 2;
    case 'Re-matched':
      return 3;
    case 'No longer profitable':
      return 4;
    case 'Profit down':
      return 5;
    case 'Gone':
      return 6;
    default:
      return 8;
  }
}

/** The number the rows of a group are sorted by, largest first. */
function weight(r: ChangeRow): number {
  const a = profitOf(r.after);
  const b = profitOf(r.before);
  switch (r.kind) {
    case 'Profit up':
      return (a ?? 0) - (b ?? 0);
    case 'Profit down':
      return (b ?? 0) - (a ?? 0);
    case 'No longer profitable':
      return (b ?? 0) - (a ?? 0);
    case 'Gone':
      return b ?? -Infinity;
    default:
      return a ?? -Infinity;
  }
}

function sameFigures(a: Fact, b: Fact): boolean {
  return a.v.every((x, i) => x === b.v[i]);
}

function keyOf(f: Fact): string {
  return f.asin + '\u0000' + f.identifier;
}

export interface ChangeCounts {
  newlyProfitable: number;
  lostBuyBox: number;
  noLongerProfitable: number;
  profitUp: number;
  profitDown: number;
  added: number;
  gone: number;
  rematched: number;
  changed: number;
  unchanged: number;
  before: number;
  after: number;
}

export interface Comparison {
  rows: ChangeRow[];
  counts: ChangeCounts;
}

/** Pairs the two scans' products and sorts what changed (see ORDER_NOTE). */
export function compareFacts(before: readonly Fact[], after: readonly Fact[]): Comparison {
  const counts: ChangeCounts = {
    newlyProfitable: 0,
    lostBuyBox: 0,
    noLongerProfitable: 0,
    profitUp: 0,
    profitDown: 0,
    added: 0,
    gone: 0,
    rematched: 0,
    changed: 0,
    unchanged: 0,
    before: before.length,
    after: after.length,
  };
  const waiting = new Map<string, number[]>();
  before.forEach((f, i) => {
    const k = keyOf(f);
    const q = waiting.get(k);
    if (q) q.push(i);
    else waiting.set(k, [i]);
  });
  const used = new Array<boolean>(before.length).fill(false);
  const pairs: Array<[number, number]> = [];
  const unpaired: number[] = [];
  after.forEach((f, j) => {
    const q = waiting.get(keyOf(f));
    if (q && q.length) {
      const i = q.shift()!;
      used[i] = true;
      pairs.push([i, j]);
    } else unpaired.push(j);
  });
  // Re-matched: the same supplier identifier, another ASIN this time.
  const byIdentifier = new Map<string, number[]>();
  before.forEach((f, i) => {
    if (used[i] || !f.identifier) return;
    const q = byIdentifier.get(f.identifier);
    if (q) q.push(i);
    else byIdentifier.set(f.identifier, [i]);
  });
  const rows: ChangeRow[] = [];
  for (const j of unpaired) {
    const a = after[j];
    const q = a.identifier ? byIdentifier.get(a.identifier) : undefined;
    if (q && q.length) {
      const i = q.shift()!;
      used[i] = true;
      counts.rematched++;
      rows.push({
        kind: 'Re-matched',
        before: before[i],
        after: a,
        note: 'Identifier ' + a.identifier + ' now matches ' + (a.asin || 'no ASIN') + ' (was ' + (before[i].asin || 'no ASIN') + ')',
      });
    } else {
      counts.added++;
      rows.push({ kind: 'New', before: null, after: a, note: '' });
    }
  }
  before.forEach((f, i) => {
    if (used[i]) return;
    counts.gone++;
    rows.push({ kind: 'Gone', before: f, after: null, note: '' });
  });
  for (const [i, j] of pairs) {
    const b = before[i];
    const a = after[j];
    const pb = profitOf(b);
    const pa = profitOf(a);
    const lost = b.v[BUYBOX] !== null && a.v[BUYBOX] === null;
    if (lost) counts.lostBuyBox++;
    const note = lost ? 'No Buy Box now' : '';
    if (!profitable(b) && profitable(a)) {
      counts.newlyProfitable++;
      rows.push({ kind: 'Newly profitable', before: b, after: a, note });
    } else if (profitable(b) && !profitable(a)) {
      counts.noLongerProfitable++;
      rows.push({ kind: 'No longer profitable', before: b, after: a, note });
    } else if (profitable(b) && pa !== null && pb !== null && pa > pb) {
      counts.profitUp++;
      rows.push({ kind: 'Profit up', before: b, after: a, note });
    } else if (profitable(b) && pa !== null && pb !== null && pa < pb) {
      counts.profitDown++;
      rows.push({ kind: 'Profit down', before: b, after: a, note });
    } else if (!sameFigures(a, b)) {
      counts.changed++;
      rows.push({ kind: 'Changed', before: b, after: a, note });
    } else counts.unchanged++;
  }
  const order = rows.map((r, i) => ({ r, i, g: group(r), w: weight(r) }));
  order.sort((x, y) => x.g - y.g || y.w - x.w || x.i - y.i);
  return { rows: order.map((o) => o.r), counts };
}

/** The card's line: "12 newly profitable, 3 lost the Buy Box, …" (groups with none left out). */
export function changesSummary(c: ChangeCounts): string {
  const n = commas;
  const parts: string[] = [];
  const add = (v: number, words: string) => {
    if (v > 0) parts.push(n(v) + ' ' + words);
  };
  add(c.newlyProfitable, 'newly profitable');
  add(c.lostBuyBox, 'lost the Buy Box');
  add(c.noLongerProfitable, 'no longer profitable');
  add(c.profitUp, 'profit up');
  add(c.profitDown, 'profit down');
  add(c.added, 'new');
  add(c.gone, 'gone');
  add(c.rematched, 're-matched');
  add(c.changed, 'other changes');
  const tail = n(c.unchanged) + ' unchanged';
  return parts.length ? parts.join(', ') + ' · ' + tail : 'No product changed (' + tail + ')';
}

// ---- The Changes tab ---------------------------------------------------------------------------

export interface ChangesColumn {
  key: string;
  header: string;
  width: number;
  kind: ColumnKind;
  note: string;
  /** Red below 0, green above, as the result tabs' Profit and ROI. */
  coloured?: boolean;
}

/** The Changes tab's columns: the product, then each figure as before / after / change, then the note. */
export function changesColumns(): ChangesColumn[] {
  const cols: ChangesColumn[] = [
    { key: 'change', header: 'Change', width: 140, kind: 'text', note: ORDER_NOTE },
    { key: 'asin', header: 'ASIN', width: 110, kind: 'text', note: 'The product (with the identifier: how the two scans are paired).' },
    { key: 'title', header: 'Title', width: 280, kind: 'text', note: '' },
    { key: 'identifier', header: 'Identifier', width: 130, kind: 'identifier', note: '' },
    { key: 'sku', header: 'SKU', width: 110, kind: 'text', note: '' },
  ];
  for (const f of CHANGE_FIGURES) {
    const money = f.key === 'profit' || f.key === 'roi';
    cols.push({ key: f.key + ':before', header: f.label + ' before', width: 90, kind: f.kind, note: f.note + ' In the earlier scan.' });
    cols.push({
      key: f.key + ':after',
      header: f.label + ' after',
      width: 90,
      kind: f.kind,
      note: f.note + ' In the later scan.',
      coloured: money,
    });
    cols.push({
      key: f.key + ':change',
      header: f.label + ' change',
      width: 90,
      kind: f.kind,
      note: 'After − before; blank when either is blank.',
      coloured: money,
    });
  }
  cols.push({
    key: 'note',
    header: 'Note',
    width: 260,
    kind: 'text',
    note: 'A re-matched identifier and the ASIN it matched before; a lost Buy Box.',
  });
  return cols.map(fitted);
}

/** Columns kept in view: Change and ASIN. */
export const CHANGES_FROZEN_COLUMNS = 2;

/** The cells of change rows (no header), text guarded. */
export function changesValues(rows: readonly ChangeRow[]): unknown[][] {
  return rows.map((r) => {
    const id = r.after || r.before!;
    const out: unknown[] = [r.kind, safeText(id.asin), safeText(id.title), safeText(id.identifier), safeText(id.sku)];
    CHANGE_FIGURES.forEach((f, i) => {
      const b = r.before ? r.before.v[i] : null;
      const a = r.after ? r.after.v[i] : null;
      out.push(b === null ? '' : b, a === null ? '' : a, a === null || b === null ? '' : rounded(f.kind, a - b));
    });
    out.push(safeText(r.note));
    return out;
  });
}

/** Number formats per column (the result tabs' formats). */
export function changesFormats(marketplace: Marketplace): (string | null)[] {
  return changesColumns().map((c) => numberFormatFor(c.kind, marketplace));
}

/** "<name> – Changes", cut (by character, never half an emoji) to `max` characters: with uniqueName's " (NN)" within 31. */
export function changesTabBase(resultName: string, max = 26): string {
  const suffix = ' – Changes';
  const name = resultName.replace(/ – Changes( \(\d+\))?$/, '').trim();
  const room = max - suffix.length;
  if (Array.from(name).length <= room) return name + suffix;
  // A dated name keeps its date, short (MM-DD), and loses words before it: "Price List 2026-11-28" → "Price List 11-28".
  const dated = /^(.*?)\s*\d{4}-(\d{2}-\d{2})(?:\s.*)?$/.exec(name);
  if (dated) {
    const date = dated[2];
    const head = cutAtWord(dated[1], room - date.length - 1);
    return (head ? head + ' ' : '') + date + suffix;
  }
  return cutAtWord(name, room) + suffix;
}

/** The text cut to at most `room` characters (never half an emoji) at the last space that fits; one long word by character. */
function cutAtWord(text: string, room: number): string {
  const chars = Array.from(text.trim());
  if (chars.length <= room) return chars.join('');
  if (room <= 0) return '';
  const head = chars.slice(0, room + 1).join('');
  const space = head.search(/\s\S*$/);
  return (space > 0 ? head.slice(0, space) : chars.slice(0, room).join('')).replace(/[\s\-–:,;.]+$/, '');
}

// ---- Which scan a result tab holds -------------------------------------------------------------

/**
 * The note the import puts on a full result tab's ASIN header: its scan, marketplace and product
 * rows. It travels with the tab (also through XLSX, where document properties do not), so Compare
 * can tell an untouched tab (still that many rows) and which scan is older without asking the service.
 */
export function scanNote(scanId: number, marketplace: string, rows: number, filtered: boolean): string {
  return (
    'Scan ' +
    scanId +
    ' (' +
    marketplace +
    '): ' +
    rows +
    ' product rows as imported' +
    (filtered ? ', filtered' : '') +
    '. Compare with an earlier scan reads this tab while it still has them; otherwise it asks the Scan Service.'
  );
}

/** The note on an errors tab's first header cell: which scan's rows these are (found by it when the document's records are gone). */
export function errorsNote(scanId: number): string {
  return 'Scan ' + scanId + ': the rows the Scan Service could not use and the rows not sent.';
}

/** The scan id errorsNote wrote, or null for any other note. */
export function readErrorsNote(note: unknown): number | null {
  const m = /^Scan (\d+): the rows the Scan Service could not use/.exec(textOf(note));
  return m ? Number(m[1]) : null;
}

/** What scanNote wrote, or null for any other note. */
export function readScanNote(note: unknown): { scanId: number; marketplace: string; rows: number; filtered: boolean } | null {
  const m = /^Scan (\d+) \(([A-Za-z]{2,3})\): (\d+) product rows as imported(, filtered)?\./.exec(textOf(note));
  return m ? { scanId: Number(m[1]), marketplace: m[2], rows: Number(m[3]), filtered: !!m[4] } : null;
}
