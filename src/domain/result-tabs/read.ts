/**
 * THE reader of result tabs (issue 32): every feature that reads a result tab's figures (Negotiate,
 * purchase order, Compare, row actions, list marks) finds its columns here, by header, so a tab
 * keeps working after the seller moved columns and in a workbook saved as XLSX.
 *
 * The import leaves out a column that nothing came back for (a scan without a prep cost has no
 * "Prep" column; see omittedColumns and the import). Such a column reads as its empty value: '' for
 * text, null for a figure (a prep of 0 where a sum needs one). Only the ASIN column is required:
 * every product row has one, so a tab without it is no result tab. Pure.
 */
import { amountToCents } from '../../../contract/units';
import { cellText } from '../ids/identify';
import { headerScore, normalizeHeader } from '../price-list/header';
import { numberIn } from './columns';
import { resultColumns } from './result-columns';

/** "Cost for 30% ROI" → 30. */
export function targetFromHeader(h: string): number | null {
  const m = /^Cost for (\d+(?:\.\d+)?)% ROI$/.exec(h.trim());
  return m ? Number(m[1]) : null;
}

/** Header words → layout key, for every column a result tab can have (history columns included). */
let keysByHeader: Map<string, string> | null = null;
function layoutKeys(): Map<string, string> {
  if (!keysByHeader) {
    keysByHeader = new Map();
    for (const c of resultColumns([], true)) if (c.key !== 'target_cost') keysByHeader.set(c.header.toLowerCase(), c.key);
  }
  return keysByHeader;
}

/** Where a result tab's columns are, by layout key. */
export interface ResultTab {
  /** The tab's header cells, trimmed. */
  headers: string[];
  /** 0-based column of each layout key the tab has (the first of a header written twice). */
  columns: ReadonlyMap<string, number>;
  /** The target ROI of "Cost for N% ROI" (percent), when the tab has that column. */
  targetRoi: number | null;
  /** The case pack's column (-1: none) and its source, in words for a note. */
  casePack: { column: number; from: string };
}

/** Where a price-list case-pack column (carried as a custom column) is, else -1; Pack qty is not one. */
function casePackColumn(h: readonly string[], taken: ReadonlySet<number>): number {
  return h.findIndex((x, i) => !taken.has(i) && normalizeHeader(x) !== 'pack qty' && headerScore(x, 'pack_quantity') > 0);
}

/** The columns of a result tab from its header row; null when it has no ASIN column (no result tab). */
export function findResultTab(header: readonly unknown[]): ResultTab | null {
  const headers = header.map((x) => cellText(x).trim());
  const keys = layoutKeys();
  const columns = new Map<string, number>();
  headers.forEach((h, i) => {
    const key = targetFromHeader(h) !== null ? 'target_cost' : keys.get(h.toLowerCase());
    if (key && !columns.has(key)) columns.set(key, i);
  });
  if (!columns.has('asin')) return null;
  const target = columns.get('target_cost');
  const pack = casePackColumn(headers, new Set(columns.values()));
  return {
    headers,
    columns,
    targetRoi: target === undefined ? null : targetFromHeader(headers[target]),
    casePack: {
      column: pack,
      from:
        pack >= 0
          ? 'the price list’s column “' + headers[pack] + '”'
          : columns.has('supplier_pack_quantity')
            ? 'Pack qty (the cost is per pack: whole packs only) — no case-pack column was sent with the scan'
            : 'none: 1',
    },
  };
}

/** findResultTab, with a message naming the tab when it is no result tab. */
export function resultTabOf(header: readonly unknown[], tabName = 'This tab'): ResultTab {
  const tab = findResultTab(header);
  if (!tab)
    throw new Error(
      '"' +
        tabName +
        '" has no ASIN column in its first row, so it is not a result tab. Choose a tab the add-on imported (Scans > Import).',
    );
  return tab;
}

/** The cell of a layout column in a row; '' when the tab has no such column (the import left it out: empty). */
export function cellOf(tab: ResultTab, row: readonly unknown[], key: string): unknown {
  const i = tab.columns.get(key);
  return i === undefined ? '' : row[i];
}

/** A figure of a row (a number or numeric text); null when blank or when the tab has no such column. */
export function figureOf(tab: ResultTab, row: readonly unknown[], key: string): number | null {
  return numberIn(cellOf(tab, row, key));
}

/** A text of a row (dates as yyyy-mm-dd); '' when blank or absent. */
export function textIn(tab: ResultTab, row: readonly unknown[], key: string): string {
  return cellText(cellOf(tab, row, key));
}

/** One product row of a result tab with the figures the buy tabs need (money as amounts, as the cells hold them). */
export interface ResultFigures {
  sheetRow: number;
  asin: string;
  title: string;
  sku: string;
  identifier: string;
  /** The supplier's price per unit (Cost), and what the seller pays per unit (Cost after discount, or an agreed cost). */
  cost: number | null;
  paid: number | null;
  breakEven: number | null;
  target: number | null;
  yourUnits: number | null;
  unitsPerOrder: number;
  stock: number | null;
  casePack: number;
  netRevenue: number | null;
  /** Prep + Inbound shipping of one order; a column left out (no prep cost) counts 0; null when both are blank. */
  prepInbound: number | null;
  /** The Verdict cell as it reads now (the seller may have overtyped it); '' without the column (issue 36). */
  verdict?: string;
}

/** The figures of a result tab's data rows (starting at sheet row `firstRow`). */
export function resultFigures(tab: ResultTab, values: readonly unknown[][], firstRow: number): ResultFigures[] {
  return values.map((r, i): ResultFigures => {
    const num = (key: string) => figureOf(tab, r, key);
    const prep = num('prep_cost');
    const inbound = num('inbound_shipping');
    const pack = tab.casePack.column >= 0 ? numberIn(r[tab.casePack.column]) : null;
    const spq = num('supplier_pack_quantity');
    return {
      sheetRow: firstRow + i,
      asin: textIn(tab, r, 'asin'),
      title: textIn(tab, r, 'title'),
      sku: textIn(tab, r, 'supplier_sku'),
      identifier: textIn(tab, r, 'identifier'),
      cost: num('cost'),
      // Without a discount the import leaves "Cost after discount" out: what is paid is Cost.
      paid: num('discount_cost') ?? num('cost'),
      breakEven: num('break_even'),
      target: num('target_cost'),
      yourUnits: num('your_units'),
      unitsPerOrder: Math.max(1, Math.round(num('units_per_order') || 1)),
      stock: num('stock'),
      casePack: pack !== null && pack >= 1 ? Math.round(pack) : spq !== null && spq > 1 ? Math.round(spq) : 1,
      netRevenue: num('net_revenue'),
      prepInbound: prep === null && inbound === null ? null : centsSum(prep || 0, inbound || 0),
      verdict: textIn(tab, r, 'verdict').trim(),
    };
  });
}

function centsSum(a: number, b: number): number {
  return (amountToCents(a)! + amountToCents(b)!) / 100;
}
