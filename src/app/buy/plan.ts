/**
 * What to buy, planned from a result tab's (or a Negotiate tab's) cells: no API call, no Apps
 * Script call. A result tab is read by the one result-tab reader (src/domain/result-tabs/read.ts:
 * by header, a column the import left out reads as empty); a Negotiate tab by its own headers.
 */
import { amountToCents } from '../../../contract/units';
import { cellText } from '../../domain/ids/identify';
import { DEFAULT_SELL_THROUGH_DAYS, orderQuantity } from '../../domain/price-list/decide';
import { negotiateColumns, PO_COLUMNS, poTotals } from '../../domain/result-tabs/buy-columns';
import { numberIn, safeCell } from '../../domain/result-tabs/columns';
import { resultFigures, resultTabOf, type ResultFigures } from '../../domain/result-tabs/read';
import { CANT_SEND } from '../../domain/result-tabs/verdict';

/** One item as read from a result tab or a Negotiate tab (money as amounts, as the cells hold them). */
export type BuyRow = ResultFigures;

export interface ReadTab {
  rows: BuyRow[];
  /** The target ROI the tab was made with (percent), when it says. */
  targetRoi: number | null;
  /** Words for the case pack's source, for the PO's note. */
  casePackFrom: string;
}

/** The rows of a result tab (header row + data rows starting at sheet row `firstRow`), through the one result-tab reader. */
export function readResultTab(header: readonly unknown[], values: readonly unknown[][], firstRow: number, tabName?: string): ReadTab {
  const tab = resultTabOf(header, tabName);
  return { rows: resultFigures(tab, values, firstRow), targetRoi: tab.targetRoi, casePackFrom: tab.casePack.from };
}

/**
 * Issue 36: the rows whose Verdict reads "Can't send to FBA" are left out of what to buy, each named
 * by its sheet row. The seller keeps one by overtyping its Verdict cell (the buy tabs read the cell as it is now).
 */
export function sendableRows(rows: readonly BuyRow[]): { rows: BuyRow[]; leftOut: string[] } {
  const kept: BuyRow[] = [];
  const leftOut: string[] = [];
  for (const row of rows) {
    if (row.verdict === CANT_SEND) leftOut.push('Row ' + row.sheetRow + (row.asin ? ' (' + row.asin + ')' : ''));
    else kept.push(row);
  }
  return { rows: kept, leftOut };
}

/** The words saying which rows were left out for FBA and how to keep one; '' when none was. */
export function leftOutText(leftOut: readonly string[]): string {
  if (!leftOut.length) return '';
  return (
    leftOut.join(', ') +
    ': left out, Amazon will not take ' +
    (leftOut.length === 1 ? 'it' : 'them') +
    ' into FBA (Verdict "' +
    CANT_SEND +
    '"; the reasons are in its note). To keep one, overtype its Verdict cell (e.g. "Keep") and make the tab again'
  );
}

// ---- Negotiate ---------------------------------------------------------------------------------

export interface NegotiateLine {
  row: BuyRow;
  /** Discount needed, a fraction. */
  discount: number;
}

/** Short of the target ROI today, reaching it at a discount of at most `maxDiscount` (a fraction). */
export function negotiateLines(rows: readonly BuyRow[], maxDiscount: number): NegotiateLine[] {
  const out: NegotiateLine[] = [];
  for (const row of rows) {
    if (row.cost === null || !(row.cost > 0) || row.target === null) continue;
    const cost = amountToCents(row.cost)!;
    const target = amountToCents(row.target)!;
    if (target >= cost) continue;
    const discount = (cost - target) / cost;
    if (discount <= maxDiscount + 1e-12) out.push({ row, discount });
  }
  return out;
}

/** The Negotiate tab's cells (header excluded), formats and notes, in negotiateColumns' order. */
export function negotiateGrid(
  lines: readonly NegotiateLine[],
  targetRoi: number,
): { headers: string[]; values: unknown[][]; notes: string[] } {
  const cols = negotiateColumns(targetRoi);
  const values = lines.map(({ row, discount }) => {
    const v: Record<string, unknown> = {
      sku: row.sku,
      identifier: row.identifier,
      title: row.title,
      cost: row.cost,
      needed: row.target,
      discount: Math.round(discount * 1e6) / 1e6,
      your_units: row.yourUnits,
      agreed: '',
      asin: row.asin,
      break_even: row.breakEven,
      units_per_order: row.unitsPerOrder,
      case_pack: row.casePack,
      stock: row.stock,
      net_revenue: row.netRevenue,
      prep_inbound: row.prepInbound,
      result_row: row.sheetRow,
    };
    return cols.map((c) => safeCell(c.kind, v[c.key]));
  });
  return { headers: cols.map((c) => c.header), values, notes: cols.map((c) => c.note || '') };
}

/** The rows of a Negotiate tab that have an agreed cost (what the PO orders). */
export function readNegotiateTab(header: readonly unknown[], values: readonly unknown[][], firstRow: number): ReadTab {
  const h = header.map((x) => cellText(x).trim());
  const cols = negotiateColumns(0);
  const idx = (key: string) => h.indexOf(cols.find((c) => c.key === key)!.header);
  const missing = cols.filter((c) => idx(c.key) < 0).map((c) => '"' + c.header + '"');
  if (missing.length)
    throw new Error('This tab lacks the column(s) ' + missing.join(', ') + ' of a Negotiate tab. Make the Negotiate tab again.');
  const get = (r: readonly unknown[], key: string) => r[idx(key)];
  const rows: BuyRow[] = [];
  values.forEach((r, i) => {
    const agreed = numberIn(get(r, 'agreed'));
    if (agreed === null || !(agreed > 0)) return;
    const prepInbound = numberIn(get(r, 'prep_inbound'));
    rows.push({
      sheetRow: firstRow + i,
      asin: cellText(get(r, 'asin')),
      title: cellText(get(r, 'title')),
      sku: cellText(get(r, 'sku')),
      identifier: cellText(get(r, 'identifier')),
      cost: agreed,
      paid: agreed,
      breakEven: numberIn(get(r, 'break_even')),
      target: numberIn(get(r, 'needed')),
      yourUnits: numberIn(get(r, 'your_units')),
      unitsPerOrder: Math.max(1, Math.round(numberIn(get(r, 'units_per_order')) || 1)),
      stock: numberIn(get(r, 'stock')),
      casePack: Math.max(1, Math.round(numberIn(get(r, 'case_pack')) || 1)),
      netRevenue: numberIn(get(r, 'net_revenue')),
      prepInbound,
    });
  });
  return { rows, targetRoi: null, casePackFrom: 'the Negotiate tab’s Case pack column' };
}

// ---- Purchase order ----------------------------------------------------------------------------

export interface PoOptions {
  months: number;
  cashLimit: number | null;
  /** The seller's "Sell through within" (days); null: DEFAULT_SELL_THROUGH_DAYS, and lines are cut to it. */
  daysLimit: number | null;
}

/** Days a quantity takes to sell through: Quantity ÷ Units/order ÷ Your units/mo × 30 (the PO's own formula). */
function daysToSell(qty: number, row: BuyRow): number {
  // (only called for a quantity above 0, which orderQuantity gives only for sales above 0)
  return (qty / row.unitsPerOrder / (row.yourUnits as number)) * 30;
}

/** "720", "37.5": days as the message shows them. */
function daysText(d: number): string {
  return String(Math.round(d * 10) / 10);
}

/**
 * The quantity cut to the whole case packs that sell through within `days`, with the words that
 * say how it was computed; the quantity as it was when it sells through in time.
 */
function withinCover(qty: number, row: BuyRow, days: number, label: string): { qty: number; said: string | null } {
  const took = daysToSell(qty, row);
  if (took <= days + 1e-9) return { qty, said: null };
  const fits = Math.floor((((days / 30) * (row.yourUnits || 0) * row.unitsPerOrder) / row.casePack) * (1 + 1e-9)) * row.casePack;
  const how =
    qty + ' units ÷ ' + row.unitsPerOrder + ' per order ÷ ' + row.yourUnits + ' a month × 30 = ' + daysText(took) + ' days to sell through';
  const cover = 'over the ' + days + '-day default cover (set "Sell through within" to change it)';
  if (fits === 0)
    return {
      qty: 0,
      said: label + ': not even one case pack of ' + row.casePack + ' sells through in time (' + how + ', ' + cover + '): quantity 0',
    };
  return { qty: fits, said: label + ': ' + how + ', ' + cover + ': cut to ' + fits + ' (' + daysText(daysToSell(fits, row)) + ' days)' };
}

export interface PoGrid {
  headers: string[];
  /** Lines then totals, from sheet row 2; formulas are strings starting with "=" built here from cell references only. */
  values: unknown[][];
  notes: string[];
  lines: number;
  /** Rows left out, with why (no sales expected, stock below one case pack…). */
  skipped: string[];
}

/**
 * The PO's cells: per line the quantity (expected units × Units/order × months, capped by stock,
 * rounded up to whole case packs) and the formulas for cost, cash, profit and days; then totals.
 */
export function poGrid(rows: readonly BuyRow[], o: PoOptions, casePackFrom: string): PoGrid {
  const skipped: string[] = [];
  const kept: Array<{ row: BuyRow; qty: number }> = [];
  for (const row of rows) {
    const label = 'Row ' + row.sheetRow + (row.asin ? ' (' + row.asin + ')' : '');
    if (row.paid === null || row.netRevenue === null) {
      skipped.push(label + ': no cost or net revenue');
      continue;
    }
    let qty = orderQuantity(row.yourUnits, row.unitsPerOrder, o.months, row.stock, row.casePack);
    if (qty === 0) {
      if (row.yourUnits === null) skipped.push(label + ': no sales estimate (Your units/mo is blank), quantity 0: type one if you want it');
      else if (row.stock !== null && row.stock < row.casePack)
        skipped.push(label + ': stock ' + row.stock + ' is below one case pack of ' + row.casePack + ', quantity 0');
      else skipped.push(label + ': no sales expected, quantity 0');
    } else if (o.daysLimit === null) {
      // No limit set: the default cover keeps cash out of slow sellers.
      const cut = withinCover(qty, row, DEFAULT_SELL_THROUGH_DAYS, label);
      if (cut.said) skipped.push(cut.said);
      qty = cut.qty;
    } else if (daysToSell(qty, row) > o.daysLimit + 1e-9)
      skipped.push(label + ': ' + daysText(daysToSell(qty, row)) + ' days to sell through, over your ' + o.daysLimit + ' days');
    kept.push({ row, qty });
  }
  const first = 2;
  const values = kept.map(({ row, qty }, i) => {
    const r = first + i;
    const v: Record<string, unknown> = {
      asin: row.asin,
      title: row.title,
      sku: row.sku,
      identifier: row.identifier,
      units_per_order: row.unitsPerOrder,
      case_pack: row.casePack,
      stock: row.stock,
      your_units: row.yourUnits,
      cost: row.paid,
      net_revenue: row.netRevenue,
      prep_inbound: row.prepInbound === null ? 0 : row.prepInbound,
      quantity: qty,
    };
    return PO_COLUMNS.map((c) => (c.formula ? c.formula(r) : safeCell(c.kind, v[c.key])));
  });
  const last = first + kept.length - 1;
  const notes = PO_COLUMNS.map((c) =>
    c.key === 'quantity'
      ? 'Your units/mo × Units/order × ' +
        o.months +
        ' month' +
        (o.months === 1 ? '' : 's') +
        ' of cover, capped by Stock, rounded UP to whole case packs (a stock below one case pack: 0)' +
        (o.daysLimit === null
          ? '; then cut to the whole case packs that sell through within ' +
            DEFAULT_SELL_THROUGH_DAYS +
            ' days (the default cover: Days to sell through ≤ ' +
            DEFAULT_SELL_THROUGH_DAYS +
            ')'
          : '') +
        '. Edit it: the totals follow.'
      : c.key === 'case_pack'
        ? 'Units per case, from ' + casePackFrom + '.'
        : c.note || '',
  );
  return {
    headers: PO_COLUMNS.map((c) => c.header),
    values: kept.length ? values.concat(poTotals(first, last, o.cashLimit, o.daysLimit ?? DEFAULT_SELL_THROUGH_DAYS)) : [],
    notes,
    lines: kept.length,
    skipped,
  };
}
