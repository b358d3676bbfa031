/**
 * THE column layouts of the Negotiate and purchase-order tabs (issue 24), and the PO's totals: their
 * formulas are built from cell references only, never from text. Pure; nothing runs at load time.
 */
import { CELL_PADDING_PX, textWidth } from '../sheet/text-width';
import { fitted, type ColumnKind } from './columns';

/** A column of the Negotiate or PO tab. Values come from plan code; `formula` builds a PO cell from cell references only. */
export interface BuyColumn {
  key: string;
  header: string;
  width: number;
  kind: ColumnKind;
  note?: string;
  /** Negotiate: part of the file for the supplier (the rest is the seller's own figures, for the PO). */
  supplier?: boolean;
}

/**
 * The Negotiate tab: what to ask the supplier for (first the columns for the supplier's file), then
 * the seller's own figures a purchase order needs, so a PO can be made from this tab alone.
 */
export function negotiateColumns(targetRoiPercent: number): BuyColumn[] {
  return (
    [
      { key: 'sku', header: 'SKU', width: 110, kind: 'text', supplier: true },
      { key: 'identifier', header: 'Identifier', width: 130, kind: 'identifier', supplier: true },
      { key: 'title', header: 'Title', width: 280, kind: 'text', supplier: true },
      {
        key: 'cost',
        header: 'Today’s cost',
        width: 95,
        kind: 'money',
        supplier: true,
        note: 'The supplier’s price per unit in the price list (Cost).',
      },
      {
        key: 'needed',
        header: 'Cost needed',
        width: 95,
        kind: 'money',
        supplier: true,
        note:
          'The price per unit at which ROI reaches ' + targetRoiPercent + '% (the result tab’s “Cost for ' + targetRoiPercent + '% ROI”).',
      },
      {
        key: 'discount',
        header: 'Discount needed',
        width: 95,
        kind: 'fraction',
        supplier: true,
        note: 'Discount needed = 1 − Cost needed ÷ Today’s cost.',
      },
      {
        key: 'your_units',
        header: 'Expected units/mo',
        width: 100,
        kind: 'number',
        supplier: true,
        note: 'Your expected sales a month (the result tab’s Your units/mo: your share of the listing, capped by stock).',
      },
      {
        key: 'agreed',
        header: 'Agreed cost',
        width: 95,
        kind: 'money',
        note: 'Type the price per unit the supplier agreed to; Purchase order from this tab uses it (rows left blank are not ordered).',
      },
      { key: 'asin', header: 'ASIN', width: 110, kind: 'text' },
      { key: 'break_even', header: 'Break-even cost', width: 95, kind: 'money', note: 'The price per unit at which Profit is 0.' },
      { key: 'units_per_order', header: 'Units/order', width: 80, kind: 'int' },
      { key: 'case_pack', header: 'Case pack', width: 75, kind: 'int' },
      { key: 'stock', header: 'Stock', width: 70, kind: 'int' },
      { key: 'net_revenue', header: 'Net revenue', width: 95, kind: 'money', note: 'Per order: Buy Box − fees (from the result tab).' },
      {
        key: 'prep_inbound',
        header: 'Prep + inbound',
        width: 95,
        kind: 'money',
        note: 'Per order: Prep + Inbound shipping (from the result tab).',
      },
      { key: 'result_row', header: 'Result row', width: 80, kind: 'int', note: 'The row of this item in the result tab.' },
    ] satisfies BuyColumn[]
  ).map(fitted);
}

/** The PO tab's columns; `formula(r)` is the cell's formula on sheet row r (our own, from cell references only). */
export interface PoColumn extends BuyColumn {
  formula?: (r: number) => string;
}

/** Column letters of the PO tab, fixed by PO_COLUMNS' order (formulas refer to them). */
const PO = {
  units: 'E',
  pack: 'F',
  stock: 'G',
  yours: 'H',
  cost: 'I',
  net: 'J',
  prep: 'K',
  qty: 'L',
  line: 'M',
  cash: 'N',
  profit: 'O',
  days: 'P',
};

/** The labels of the rows under a PO's lines, in its first column (poTotals): the column is as wide as the longest. */
const PO_TOTAL_LABELS = { total: 'Total', cash: 'Cash you have', days: 'Sell through within (days)' } as const;

export const PO_COLUMNS: readonly PoColumn[] = (
  [
    {
      key: 'asin',
      header: 'ASIN',
      width: Math.ceil(Math.max(110, ...Object.values(PO_TOTAL_LABELS).map((l) => textWidth(l, true) + CELL_PADDING_PX))),
      kind: 'text',
    },
    { key: 'title', header: 'Title', width: 260, kind: 'text' },
    { key: 'sku', header: 'SKU', width: 110, kind: 'text' },
    { key: 'identifier', header: 'Identifier', width: 130, kind: 'identifier' },
    { key: 'units_per_order', header: 'Units/order', width: 80, kind: 'int' },
    { key: 'case_pack', header: 'Case pack', width: 75, kind: 'int' },
    { key: 'stock', header: 'Stock', width: 70, kind: 'int' },
    {
      key: 'your_units',
      header: 'Your units/mo',
      width: 90,
      kind: 'number',
      note: 'Expected sales a month for you (orders), from the result tab.',
    },
    { key: 'cost', header: 'Cost per unit', width: 90, kind: 'money' },
    { key: 'net_revenue', header: 'Net revenue', width: 95, kind: 'money', note: 'Per order: Buy Box − fees.' },
    { key: 'prep_inbound', header: 'Prep + inbound', width: 95, kind: 'money', note: 'Per order: Prep + Inbound shipping.' },
    { key: 'quantity', header: 'Quantity', width: 80, kind: 'int' },
    {
      key: 'line_cost',
      header: 'Line cost',
      width: 95,
      kind: 'money',
      note: 'Quantity × Cost per unit (a formula).',
      formula: (r) => `=${PO.qty}${r}*${PO.cost}${r}`,
    },
    {
      key: 'cash',
      header: 'Cash needed',
      width: 100,
      kind: 'money',
      note: 'Line cost + Quantity ÷ Units/order × (Prep + inbound): what buying and sending in this line costs (a formula).',
      formula: (r) => `=${PO.line}${r}+${PO.qty}${r}/${PO.units}${r}*${PO.prep}${r}`,
    },
    {
      key: 'profit',
      header: 'Expected profit',
      width: 100,
      kind: 'money',
      note: 'Quantity ÷ Units/order × (Net revenue − Units/order × Cost per unit − Prep + inbound): the profit when all of it sells (a formula).',
      formula: (r) => `=${PO.qty}${r}/${PO.units}${r}*(${PO.net}${r}-${PO.units}${r}*${PO.cost}${r}-${PO.prep}${r})`,
    },
    {
      key: 'days',
      header: 'Days to sell through',
      width: 100,
      kind: 'number',
      note: 'Quantity ÷ Units/order ÷ Your units/mo × 30 (a formula); blank when no sales are expected.',
      formula: (r) => `=IF(AND(${PO.yours}${r}>0,${PO.qty}${r}>0),${PO.qty}${r}/${PO.units}${r}/${PO.yours}${r}*30,"")`,
    },
  ] satisfies PoColumn[]
).map(fitted);

/** Rows under the PO's lines: totals, and the seller's limits with their warnings (all formulas from cell references). */
export function poTotals(firstLine: number, lastLine: number, cashLimit: number | null, daysLimit: number | null): unknown[][] {
  const width = PO_COLUMNS.length;
  const t = lastLine + 2;
  const row = (cells: Record<number, unknown>) => Array.from({ length: width }, (_, i) => (i in cells ? cells[i] : ''));
  const col = (k: string) => PO_COLUMNS.findIndex((c) => c.key === k);
  const range = (letter: string) => `${letter}${firstLine}:${letter}${lastLine}`;
  return [
    row({}),
    row({
      0: PO_TOTAL_LABELS.total,
      [col('quantity')]: `=SUM(${range(PO.qty)})`,
      [col('line_cost')]: `=SUM(${range(PO.line)})`,
      [col('cash')]: `=SUM(${range(PO.cash)})`,
      [col('profit')]: `=SUM(${range(PO.profit)})`,
      [col('days')]: `=MAX(${range(PO.days)})`,
    }),
    row({
      0: PO_TOTAL_LABELS.cash,
      1: cashLimit === null ? '' : cashLimit,
      2: `=IF(AND(ISNUMBER(B${t + 1}),${PO.cash}${t}>B${t + 1}),"Over: this order needs more cash than you set","")`,
    }),
    row({
      0: PO_TOTAL_LABELS.days,
      1: daysLimit === null ? '' : daysLimit,
      2: `=IF(AND(ISNUMBER(B${t + 2}),${PO.days}${t}>B${t + 2}),"Over: an item takes longer to sell through than you set","")`,
    }),
  ];
}
