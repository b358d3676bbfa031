/**
 * What to buy, planned from a result tab's (or a Negotiate tab's) cells: no API call, no Apps
 * Script call. The columns are found by their headers (src/domain/result-tabs/layout.ts writes them), so a tab
 * keeps working after the seller moved or added columns, and in a workbook saved as XLSX.
 */
import { amountToCents } from '../../../contract/units';
import { cellText } from '../../domain/ids/identify';
import { headerScore, normalizeHeader } from '../../domain/price-list/header';
import { orderQuantity } from '../../domain/price-list/decide';
import { negotiateColumns, numberIn, PO_COLUMNS, poTotals, safeCell } from '../../domain/result-tabs/layout';

/** One item as read from a tab (money as amounts, as the cells hold them). */
export interface BuyRow {
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
  prepInbound: number | null;
}

/** "Cost for 30% ROI" → 30. */
export function targetFromHeader(h: string): number | null {
  const m = /^Cost for (\d+(?:\.\d+)?)% ROI$/.exec(h.trim());
  return m ? Number(m[1]) : null;
}

/** Where the case pack comes from: a price-list column named like one (carried as a custom column), else Pack qty. */
function casePackColumn(header: readonly string[], taken: ReadonlySet<number>): number {
  return header.findIndex((h, i) => !taken.has(i) && normalizeHeader(h) !== 'pack qty' && headerScore(h, 'pack_quantity') > 0);
}

export interface ReadTab {
  rows: BuyRow[];
  /** The target ROI the tab was made with (percent), when it says. */
  targetRoi: number | null;
  /** Words for the case pack's source, for the PO's note. */
  casePackFrom: string;
}

/** The rows of a result tab (header row + data rows starting at sheet row `firstRow`). Missing columns: a message naming them. */
export function readResultTab(header: readonly unknown[], values: readonly unknown[][], firstRow: number): ReadTab {
  const h = header.map((x) => cellText(x).trim());
  const at = (name: string) => h.indexOf(name);
  const targetCol = h.findIndex((x) => targetFromHeader(x) !== null);
  const need = ['ASIN', 'Cost', 'Net revenue', 'Units/order', 'Prep', 'Inbound shipping', 'Break-even cost', 'Your units/mo'];
  const missing = need.filter((n) => at(n) < 0).concat(targetCol < 0 ? ['Cost for …% ROI'] : []);
  if (missing.length)
    throw new Error(
      'This tab lacks the column' +
        (missing.length === 1 ? ' ' : 's ') +
        missing.map((m) => '"' + m + '"').join(', ') +
        ' of a result tab. Import the scan again (Scans > Import) to get them.',
    );
  const taken = new Set([at('Pack qty')]);
  const packCol = casePackColumn(h, taken);
  const packQty = at('Pack qty');
  const get = (r: readonly unknown[], name: string) => (at(name) >= 0 ? r[at(name)] : '');
  const rows = values.map((r, i): BuyRow => {
    const prep = numberIn(get(r, 'Prep'));
    const inbound = numberIn(get(r, 'Inbound shipping'));
    const pack = packCol >= 0 ? numberIn(r[packCol]) : null;
    const spq = packQty >= 0 ? numberIn(r[packQty]) : null;
    return {
      sheetRow: firstRow + i,
      asin: cellText(get(r, 'ASIN')),
      title: cellText(get(r, 'Title')),
      sku: cellText(get(r, 'SKU')),
      identifier: cellText(get(r, 'Identifier')),
      cost: numberIn(get(r, 'Cost')),
      paid: numberIn(get(r, 'Cost after discount')) ?? numberIn(get(r, 'Cost')),
      breakEven: numberIn(get(r, 'Break-even cost')),
      target: numberIn(r[targetCol]),
      yourUnits: numberIn(get(r, 'Your units/mo')),
      unitsPerOrder: Math.max(1, Math.round(numberIn(get(r, 'Units/order')) || 1)),
      stock: numberIn(get(r, 'Stock')),
      casePack: pack !== null && pack >= 1 ? Math.round(pack) : spq !== null && spq > 1 ? Math.round(spq) : 1,
      netRevenue: numberIn(get(r, 'Net revenue')),
      prepInbound: prep === null && inbound === null ? null : centsSum(prep || 0, inbound || 0),
    };
  });
  return {
    rows,
    targetRoi: targetFromHeader(h[targetCol]),
    casePackFrom:
      packCol >= 0
        ? 'the price list’s column “' + h[packCol] + '”'
        : packQty >= 0
          ? 'Pack qty (the cost is per pack: whole packs only) — no case-pack column was sent with the scan'
          : 'none: 1',
  };
}

function centsSum(a: number, b: number): number {
  return (amountToCents(a)! + amountToCents(b)!) / 100;
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
  daysLimit: number | null;
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
    const qty = orderQuantity(row.yourUnits, row.unitsPerOrder, o.months, row.stock, row.casePack);
    if (qty === 0) {
      if (row.yourUnits === null) skipped.push(label + ': no sales estimate (Your units/mo is blank), quantity 0: type one if you want it');
      else if (row.stock !== null && row.stock < row.casePack)
        skipped.push(label + ': stock ' + row.stock + ' is below one case pack of ' + row.casePack + ', quantity 0');
      else skipped.push(label + ': no sales expected, quantity 0');
    }
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
        ' of cover, capped by Stock, rounded UP to whole case packs (a stock below one case pack: 0). Edit it: the totals follow.'
      : c.key === 'case_pack'
        ? 'Units per case, from ' + casePackFrom + '.'
        : c.note || '',
  );
  return {
    headers: PO_COLUMNS.map((c) => c.header),
    values: kept.length ? values.concat(poTotals(first, last, o.cashLimit, o.daysLimit)) : [],
    notes,
    lines: kept.length,
    skipped,
  };
}
