/**
 * What every tab the add-on writes shares about its columns (result, errors, Negotiate, PO,
 * Changes): the kinds of column, how a kind is formatted in Sheets, THE width of a column, and how a
 * value read back off a tab is made safe to write again. Pure; nothing runs at load time.
 */
import { Marketplace } from '../../../contract/marketplaces';
import { safeCellValue, safeText } from '../sheet/safe';
import { CELL_PADDING_PX, FILTER_BUTTON_PX, textWidth } from '../sheet/text-width';

/**
 * 'fraction': a ratio computed here (0.4575), shown as a percent; 'percent' is the service's basis
 * points; 'picture': an =IMAGE formula of a checked address (picture.ts).
 * 'date': a Unix timestamp shown as a date; 'sparkline': a small chart over other cells of its row.
 */
export type ColumnKind =
  | 'text'
  | 'identifier'
  | 'int'
  | 'number'
  | 'money'
  | 'percent'
  | 'fraction'
  | 'bool'
  | 'link'
  | 'picture'
  | 'date'
  | 'sparkline';

/** A product row as the service returns it: known members typed loosely, extras tolerated. */
export type Product = Record<string, unknown>;

/** A reader of the member at a dotted path of a product ('market_fees.fba_fees'); '' when missing or null. */
export function pick(path: string): (p: Product) => unknown {
  const parts = path.split('.');
  return (p) => {
    let cur: unknown = p;
    for (const k of parts)
      cur = cur !== null && typeof cur === 'object' && !Array.isArray(cur) ? (cur as Record<string, unknown>)[k] : undefined;
    return cur === null || cur === undefined ? '' : cur;
  };
}

/** A column of a result tab's layout as a module declares it (result-columns.ts LayoutColumn has this shape). */
export interface ColumnEntry {
  key: string;
  header: string;
  width: number;
  kind: ColumnKind;
  get(product: Product): unknown;
  note?: string;
}

/** A number, or numeric text as a tab gives it back (a cell the seller typed or pasted); else null. */
export function numberIn(v: unknown): number | null {
  if (typeof v === 'number' && isFinite(v)) return v;
  if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  return null;
}

/** Sheets number format of a column kind; null: leave the cell's format alone (text, booleans). */
export function numberFormatFor(kind: ColumnKind, marketplace: Marketplace): string | null {
  switch (kind) {
    case 'money':
      return marketplace.moneyFormat;
    case 'percent':
    case 'fraction':
      return '0.00%';
    case 'int':
      return '#,##0';
    case 'number':
      return '#,##0.##';
    case 'date':
      return 'yyyy-mm-dd';
    default:
      return null;
  }
}

/** The widest figure a column of a kind shows in practice, as its format writes it (ranks in the tens of millions, money to $9,999,999.99). */
const WIDEST_FIGURE: Partial<Record<ColumnKind, string>> = {
  money: '-$9,999,999.99',
  int: '99,999,999',
  number: '99,999.9',
  percent: '-1234.56%',
  fraction: '-1234.56%',
  bool: 'FALSE',
  date: '2026-12-31',
  identifier: '00123456789012',
  // The one link column is the ASIN: ten characters, the widest letters ("B0WN7MRR…" was cut at 110 px).
  link: 'B0WWWMWWWW',
};

/**
 * THE width of a column of any of the add-on's tabs (result, errors, Negotiate, PO, Changes): at
 * least its layout width, and wide enough for its bold header beside the filter button and for the
 * widest figure of its kind, at Google Sheets' default font (src/domain/sheet/text-width.ts).
 */
export function fitWidth(c: { header: string; kind: ColumnKind; width: number }): number {
  const header = textWidth(c.header, true) + CELL_PADDING_PX + FILTER_BUTTON_PX;
  const figure = WIDEST_FIGURE[c.kind];
  return Math.ceil(Math.max(c.width, header, figure ? textWidth(figure) + CELL_PADDING_PX : 0));
}

/** The column with its width fitted (fitWidth). */
export function fitted<T extends { header: string; kind: ColumnKind; width: number }>(c: T): T {
  return { ...c, width: fitWidth(c) };
}

/** A Negotiate/PO cell from a value read off a tab: numbers stay numbers, text is guarded, missing is ''. */
export function safeCell(kind: ColumnKind, v: unknown): unknown {
  if (v === null || v === undefined || v === '') return '';
  if (kind === 'text' || kind === 'identifier') return safeText(String(v));
  if (typeof v === 'number') return isFinite(v) ? v : '';
  return safeCellValue(String(v));
}
