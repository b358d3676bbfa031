/**
 * THE column layout of a scan's result tab and of its errors tab (and of the Negotiate and PO tabs,
 * issue 24): one ordered list of columns, each with its header, width, kind, how to read its value
 * from a product object (contract 2.3) and, for a figure a seller decides on, a header note saying
 * how it is computed. ROI is ONE figure everywhere: Profit ÷ (Total cost + Prep + Inbound shipping).
 * The import code writes the block from resultBlock() with one setValues and applies the formats.
 * Pure; nothing runs at load time.
 *
 * Values: money (cents) -> currency amount (number), basis points -> fraction under a percent format
 * (contract/units.ts); missing or null -> ''. Text from the service or the supplier goes through
 * the formula guard (src/domain/sheet/safe.ts), so it is stored as exactly that text. The ASIN cell is a
 * HYPERLINK formula that WE build from a validated ASIN (10 letters/digits) and productUrl(); any
 * other ASIN text is written as guarded plain text.
 */
import { Marketplace, productUrl } from '../../../contract/marketplaces';
import { bpsToFraction, centsToAmount } from '../../../contract/units';
import { safeCellValue, safeText, textOf } from '../sheet/safe';
import { CELL_PADDING_PX, FILTER_BUTTON_PX, textWidth } from '../sheet/text-width';
import { SHEET_ROW_COLUMN } from '../price-list/mapping';
import {
  allInRoi,
  asRecord,
  competingOffers,
  costForRoi,
  DEFAULT_DECISION,
  expectedShare,
  OFFERS_NOTE,
  shareBasis,
  type DecisionOptions,
} from '../price-list/decide';

/** 'fraction': a ratio computed here (0.4575), shown as a percent; 'percent' is the service's basis points. */
export type ColumnKind = 'text' | 'identifier' | 'int' | 'number' | 'money' | 'percent' | 'fraction' | 'bool' | 'link';

/** A product row as the service returns it: known members typed loosely, extras tolerated. */
export type Product = Record<string, unknown>;

/** A number, or numeric text as a tab gives it back (a cell the seller typed or pasted); else null. */
export function numberIn(v: unknown): number | null {
  if (typeof v === 'number' && isFinite(v)) return v;
  if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  return null;
}

export interface LayoutColumn {
  key: string;
  header: string;
  /** Pixels, for setColumnWidth. */
  width: number;
  kind: ColumnKind;
  /** The raw value (cents for money, basis points for percent, text, number, boolean), '' when missing. */
  get(product: Product): unknown;
  /** How the figure is computed, for the header cell's note (a number a seller decides on says so). */
  note?: string;
}

export interface LayoutContext {
  marketplace: Marketplace;
  /** Names of the scan's custom columns (options.custom_columns), in order. */
  customColumns?: readonly string[];
  /**
   * 'formula' (default): the ASIN cell is =HYPERLINK(url, asin), written by the same setValues.
   * 'text': the ASIN as guarded text; the caller links it with rich text from ResultBlock.urls.
   */
  links?: 'formula' | 'text';
  /** The scan pulled historical data (options.pull_historical_data): add the history columns. */
  historical?: boolean;
  /** The seller's decision options (expected share, target ROI); default DEFAULT_DECISION. */
  decision?: DecisionOptions;
  /**
   * Only these columns (keys), in layout order: the columns an import writes (a column nothing was
   * returned for is left out; see uploadColumns and the import). Absent: every column.
   */
  only?: readonly string[];
  /** Columns written blank, with UNLABELLED_NOTE on their header: where they were in the upload is not known. */
  blank?: readonly string[];
}

/** The header note of a column left blank because its place in the upload is not known. */
export const UNLABELLED_NOTE =
  'Left blank: this scan was not started from this spreadsheet and the Scan Service did not say which column of the upload this was (its scan record has no mapping), so its values are not shown under a header they may not belong to.';

function pick(path: string): (p: Product) => unknown {
  const parts = path.split('.');
  return (p) => {
    let cur: unknown = p;
    for (const k of parts) cur = asRecord(cur)[k];
    return cur === null || cur === undefined ? '' : cur;
  };
}

/** "Other fees": per-item + variable closing + inbound placement fees; '' when none is known. */
function otherFees(p: Product): unknown {
  const f = asRecord(p.market_fees);
  let sum = 0;
  let any = false;
  for (const k of ['per_item_fee', 'variable_closing_fee', 'inbound_placement_fee']) {
    const v = f[k];
    if (typeof v === 'number' && isFinite(v)) {
      sum += v;
      any = true;
    }
  }
  return any ? sum : '';
}

/** Flags as one text: strings as they are; objects by their name/code/message. Element shape is not in the contract. */
function flagsText(p: Product): unknown {
  const f = p.flags;
  if (!Array.isArray(f) || f.length === 0) return '';
  return f
    .map((x) => {
      if (typeof x === 'string') return x;
      const o = asRecord(x);
      const s = o.name ?? o.code ?? o.message ?? o.type;
      return s === undefined || s === null ? JSON.stringify(x) : String(s);
    })
    .join(', ');
}

function customAt(i: number): (p: Product) => unknown {
  return (p) => {
    const arr = asRecord(p.inputs).custom_columns;
    if (!Array.isArray(arr)) return '';
    const v = arr[i];
    return v === null || v === undefined ? '' : v;
  };
}

/**
 * "Check": input that is probably a typo, said in words. A cost for one order many times the price
 * it sells at is rarely a real buy; it is mostly a pack price typed as a unit price, or a missing
 * decimal point. '' when nothing looks wrong.
 */
export const IMPLAUSIBLE_COST_RATIO = 3;
function inputCheck(p: Product): unknown {
  const price = p.buybox_price;
  const total = asRecord(p.inputs).total_cogs;
  const unit = asRecord(p.inputs).cost;
  const cost = typeof total === 'number' && isFinite(total) ? total : unit;
  if (typeof price !== 'number' || !(price > 0) || typeof cost !== 'number' || !isFinite(cost)) return '';
  const ratio = cost / price;
  if (ratio < IMPLAUSIBLE_COST_RATIO) return '';
  return 'Cost is ' + Math.round(ratio * 10) / 10 + '× the Buy Box: check the cost (a pack price or a missing decimal point?)';
}

/** ONE definition of ROI everywhere the add-on shows it (result tab, summaries, Negotiate, PO). */
export const ROI_NOTE =
  'ROI = Profit ÷ (Total cost + Prep + Inbound shipping): the return on all the money one order ties up. ' +
  '(The Scan Service’s own ROI, which its roi filter and sort use, divides by Total cost only.)';

/** The columns whose figures depend on the seller's decision options. */
function decisionColumns(o: DecisionOptions): { afterRoi: LayoutColumn[]; afterProfitPerMonth: LayoutColumn[] } {
  const pct = o.targetRoiBps / 100;
  const perUnit = ' ÷ Units/order ÷ (Cost after discount ÷ Cost)';
  const money = (v: number | null) => (v === null ? '' : v);
  return {
    afterRoi: [
      {
        key: 'break_even',
        header: 'Break-even cost',
        width: 95,
        kind: 'money',
        get: (p) => money(costForRoi(p, 0)),
        note:
          'The supplier’s price per unit (like Cost, before discounts) at which Profit is 0: (Net revenue − Prep − Inbound shipping)' +
          perUnit +
          ', rounded down to the cent. Negative: the fees and shipping alone exceed the price, so no cost makes it profitable.',
      },
      {
        key: 'target_cost',
        header: 'Cost for ' + pct + '% ROI',
        width: 100,
        kind: 'money',
        get: (p) => money(costForRoi(p, o.targetRoiBps / 10000)),
        note:
          'The supplier’s price per unit (like Cost, before discounts) at which ROI reaches ' +
          pct +
          '%: (Net revenue ÷ (1 + ' +
          pct +
          '%) − Prep − Inbound shipping)' +
          perUnit +
          ', rounded down to the cent. Target ROI is a New scan option.',
      },
    ],
    afterProfitPerMonth: [
      {
        key: 'your_units',
        header: 'Your units/mo',
        width: 90,
        kind: 'number',
        get: (p) => money(expectedShare(p, o).units),
        note: shareBasis(o),
      },
      {
        key: 'your_profit',
        header: 'Your profit/mo',
        width: 100,
        kind: 'money',
        get: (p) => money(expectedShare(p, o).profitCents),
        note: 'Your expected profit a month = Your units/mo × Profit, rounded to the cent.',
      },
    ],
  };
}

/**
 * Columns in the order a seller reads a row: which product (and can the match be trusted: the
 * marketplace title beside the supplier's description and identifier), what it sells for, what one
 * order costs and earns — each part the service used, so that Buy Box − fees = Net revenue and
 * Net revenue − Total cost − Prep − Inbound = Profit can be checked —, demand, competition, risks,
 * then the rest of the supplier's inputs.
 */
const IDENTITY_COLUMNS: readonly LayoutColumn[] = [
  { key: 'asin', header: 'ASIN', width: 110, kind: 'link', get: pick('asin') },
  { key: 'title', header: 'Title', width: 320, kind: 'text', get: pick('market_title') },
];
/** Columns kept in view (frozen) while the seller reads across a row: ASIN and Title. */
export const FROZEN_COLUMNS = IDENTITY_COLUMNS.length;
const MAIN_COLUMNS: readonly LayoutColumn[] = [
  { key: 'identifier', header: 'Identifier', width: 130, kind: 'identifier', get: pick('inputs.identifier') },
  { key: 'brand', header: 'Brand', width: 120, kind: 'text', get: pick('brand') },
  { key: 'category', header: 'Category', width: 140, kind: 'text', get: pick('category') },
  { key: 'rank', header: 'Rank', width: 80, kind: 'int', get: pick('rank') },
  { key: 'buybox_price', header: 'Buy Box', width: 85, kind: 'money', get: pick('buybox_price') },
  { key: 'referral_fee', header: 'Referral fee', width: 90, kind: 'money', get: pick('market_fees.referral_fee') },
  { key: 'fba_fees', header: 'FBA fee', width: 85, kind: 'money', get: pick('market_fees.fba_fees') },
  { key: 'other_fees', header: 'Other fees', width: 85, kind: 'money', get: otherFees },
  { key: 'net_revenue', header: 'Net revenue', width: 95, kind: 'money', get: pick('financials.net_revenue') },
  { key: 'cost', header: 'Cost', width: 85, kind: 'money', get: pick('inputs.cost') },
  { key: 'discount_cost', header: 'Cost after discount', width: 95, kind: 'money', get: pick('inputs.discount_cost') },
  { key: 'units_per_order', header: 'Units/order', width: 80, kind: 'int', get: pick('market_pack_quantity') },
  { key: 'total_cogs', header: 'Total cost', width: 90, kind: 'money', get: pick('inputs.total_cogs') },
  { key: 'prep_cost', header: 'Prep', width: 75, kind: 'money', get: pick('financials.prep_cost') },
  { key: 'inbound_shipping', header: 'Inbound shipping', width: 95, kind: 'money', get: pick('financials.inbound_shipping') },
  {
    key: 'profit',
    header: 'Profit',
    width: 85,
    kind: 'money',
    get: pick('financials.profit'),
    note: 'Profit of one order = Net revenue − Total cost − Prep − Inbound shipping (as the Scan Service computed it).',
  },
  { key: 'margin', header: 'Margin', width: 75, kind: 'percent', get: pick('financials.margin') },
  {
    key: 'roi',
    header: 'ROI',
    width: 75,
    kind: 'fraction',
    get: (p) => {
      const r = allInRoi(p);
      // To 0.0001 %: far finer than the 0.00% shown, and a short decimal a sheet stores exactly.
      return r === null ? '' : Math.round(r * 1e6) / 1e6;
    },
    note: ROI_NOTE,
  },
  { key: 'check', header: 'Check', width: 200, kind: 'text', get: inputCheck },
  { key: 'storage', header: 'Storage/mo', width: 85, kind: 'money', get: pick('financials.fba_storage_fees') },
  { key: 'units_per_month', header: 'Units/mo', width: 80, kind: 'int', get: pick('units_per_month') },
  { key: 'sales_per_month', header: 'Sales/mo', width: 95, kind: 'money', get: pick('sales_per_month') },
  {
    key: 'profit_per_month',
    header: 'Profit/mo',
    width: 95,
    kind: 'money',
    get: pick('profit_per_month'),
    note: 'The whole listing’s: Units/mo × Profit, as if you made every sale. Your expected share is Your profit/mo.',
  },
  { key: 'lowest_price_new_fba', header: 'Lowest FBA', width: 90, kind: 'money', get: pick('lowest_price_new_fba') },
  { key: 'lowest_price_new_fbm', header: 'Lowest FBM', width: 90, kind: 'money', get: pick('lowest_price_new_fbm') },
  { key: 'new_fba_offers_count', header: 'FBA offers', width: 80, kind: 'int', get: pick('new_fba_offers_count') },
  { key: 'new_fbm_offers_count', header: 'FBM offers', width: 80, kind: 'int', get: pick('new_fbm_offers_count') },
  {
    key: 'offers',
    header: 'Offers',
    width: 70,
    kind: 'int',
    // The one offer count: the same as Your units/mo divides by (each offer counting 1).
    get: (p) => {
      const n = competingOffers(p, 'even');
      return n === null ? '' : n;
    },
    note: OFFERS_NOTE,
  },
  { key: 'flags', header: 'Flags', width: 160, kind: 'text', get: flagsText },
  { key: 'is_hazmat', header: 'Hazmat', width: 70, kind: 'bool', get: pick('is_hazmat') },
  { key: 'is_meltable', header: 'Meltable', width: 75, kind: 'bool', get: pick('is_meltable') },
  { key: 'is_adult', header: 'Adult', width: 60, kind: 'bool', get: pick('is_adult') },
  { key: 'size_tier', header: 'Size tier', width: 120, kind: 'text', get: pick('size_tier') },
];
/** The rest of the supplier's own inputs. */
const SUPPLIER_COLUMNS: readonly LayoutColumn[] = [
  { key: 'supplier_sku', header: 'SKU', width: 110, kind: 'text', get: pick('inputs.supplier_sku') },
  { key: 'map', header: 'MAP', width: 85, kind: 'money', get: pick('inputs.map') },
  { key: 'stock', header: 'Stock', width: 70, kind: 'int', get: pick('inputs.stock') },
  { key: 'supplier_pack_quantity', header: 'Pack qty', width: 75, kind: 'int', get: pick('inputs.supplier_pack_quantity') },
];

/**
 * History a scan pulls when asked (options.pull_historical_data). Read in both shapes the service
 * may answer: flat members (`bsr_90_days`) and the vendor client's nested `historical.bsr.d90`.
 * -1 means unknown: shown blank.
 */
function history(flat: string, nested: string, days: number): (p: Product) => unknown {
  return (p) => {
    let v = p[flat + '_' + days + '_days'];
    if (v === undefined || v === null) v = asRecord(asRecord(p.historical)[nested])['d' + days];
    return typeof v === 'number' && isFinite(v) && v >= 0 ? v : '';
  };
}
const HISTORY_COLUMNS: readonly LayoutColumn[] = [
  { key: 'bsr_90', header: 'Avg rank 90d', width: 95, kind: 'int', get: history('bsr', 'bsr', 90) },
  { key: 'price_90', header: 'Avg price 90d', width: 95, kind: 'money', get: history('price', 'price', 90) },
  {
    key: 'instock_90',
    header: 'Amazon in stock 90d',
    width: 110,
    kind: 'percent',
    get: history('instock_rate', 'amazon_in_stock_rate', 90),
  },
  { key: 'drops_30', header: 'Rank drops 30d', width: 95, kind: 'int', get: history('sales_rank_drops', 'sales_rank_drops', 30) },
  { key: 'drops_90', header: 'Rank drops 90d', width: 95, kind: 'int', get: history('sales_rank_drops', 'sales_rank_drops', 90) },
];

/** A custom column that holds the supplier's own description of the product: shown beside Title. */
const DESCRIPTION_HEADER =
  /^(supplier\s*)?(description|desc\.?|title|product|product\s*name|product\s*title|item|item\s*name|item\s*description|name)$/i;

/**
 * The result tab's columns, in order (see MAIN_COLUMNS); custom columns (key "custom:N") last,
 * except a supplier description, which goes right after Title. With `historical`, the history
 * columns come after the competition columns.
 */
export function resultColumns(
  customColumns: readonly string[] = [],
  historical = false,
  decision: DecisionOptions = DEFAULT_DECISION,
): LayoutColumn[] {
  const custom: LayoutColumn[] = customColumns.map((name, i) => {
    const isRow = name === SHEET_ROW_COLUMN;
    return {
      key: 'custom:' + i,
      header: name || 'Custom ' + (i + 1),
      width: isRow ? 80 : 140,
      kind: isRow ? 'int' : 'text',
      get: customAt(i),
    };
  });
  const d = customColumns.findIndex((name) => DESCRIPTION_HEADER.test(name.trim()));
  const description = d >= 0 ? [{ ...custom[d], width: 260 }] : [];
  const extra = decisionColumns(decision);
  const all: LayoutColumn[] = [];
  for (const c of MAIN_COLUMNS) {
    all.push(c);
    if (c.key === 'roi') all.push(...extra.afterRoi);
    if (c.key === 'profit_per_month') all.push(...extra.afterProfitPerMonth);
  }
  const main = historical
    ? all.slice(
        0,
        all.findIndex((c) => c.key === 'flags'),
      )
    : all;
  const risks = historical ? all.slice(main.length) : [];
  return [
    ...IDENTITY_COLUMNS,
    ...description,
    ...main,
    ...(historical ? HISTORY_COLUMNS : []),
    ...risks,
    ...SUPPLIER_COLUMNS,
    ...custom.filter((_, i) => i !== d),
  ].map(fitted);
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
  identifier: '00123456789012',
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

/** A URL fit to sit inside a HYPERLINK formula's string (no quote can end it early). */
function hyperlinkFormula(url: string, label: string): string {
  return '=HYPERLINK("' + url.replace(/"/g, '""') + '","' + label.replace(/"/g, '""') + '")';
}

function isAsin(s: string): boolean {
  return /^[A-Z0-9]{10}$/.test(s);
}

/** Product page of a product's ASIN on the marketplace, or null when it has no well-formed ASIN. */
export function productLink(product: Product, marketplace: Marketplace): string | null {
  const asin = product.asin;
  return typeof asin === 'string' && isAsin(asin) ? productUrl(marketplace, asin) : null;
}

/** The cell value to write for one column of one product. */
export function cellValue(col: LayoutColumn, product: Product, ctx: LayoutContext): unknown {
  const v = col.get(product);
  if (v === '' || v === null || v === undefined) return '';
  switch (col.kind) {
    case 'money':
      return typeof v === 'number' && isFinite(v) ? centsToAmount(v) : '';
    case 'percent':
      return typeof v === 'number' && isFinite(v) ? bpsToFraction(v) : '';
    case 'fraction':
      return typeof v === 'number' && isFinite(v) ? v : '';
    case 'int':
    case 'number':
      if (typeof v === 'number') return isFinite(v) ? v : '';
      // Custom columns come back as text: a plain number in text is written as a number.
      {
        const t = textOf(v).trim();
        // (a 400-digit text is no number a cell can hold: it stays text)
        return /^-?\d+(\.\d+)?$/.test(t) && isFinite(Number(t)) ? Number(t) : safeCellValue(textOf(v));
      }
    case 'bool':
      return typeof v === 'boolean' ? v : safeCellValue(textOf(v));
    case 'link': {
      const asin = textOf(v);
      if (ctx.links !== 'text' && isAsin(asin)) return hyperlinkFormula(productUrl(ctx.marketplace, asin), asin);
      return safeText(asin);
    }
    default:
      // text and identifiers: always text, never a formula or a number that loses zeros.
      // An object where text was declared is read as its text, never "[object Object]" (textOf).
      return safeText(textOf(v));
  }
}

export interface ResultBlock {
  headers: string[];
  /** One row per product; write with one setValues. */
  values: unknown[][];
  /** Per column: number format for its data cells, or null to leave alone. */
  formats: (string | null)[];
  /** Per column: width in pixels. */
  widths: number[];
  /** Per column: the header cell's note ('' for none). */
  notes: string[];
  columns: LayoutColumn[];
  /** Per row: the product page (see productLink), for callers that link with rich text. */
  urls: (string | null)[];
}

/** Values and formats of a page of products for the result tab (no header row in values). */
export function resultBlock(products: readonly Product[], ctx: LayoutContext): ResultBlock {
  const columns = selectColumns(resultColumns(ctx.customColumns || [], !!ctx.historical, ctx.decision || DEFAULT_DECISION), ctx.only);
  const blank = new Set(ctx.blank || []);
  return {
    headers: columns.map((c) => c.header),
    values: products.map((p) => columns.map((c) => (blank.has(c.key) ? '' : cellValue(c, p, ctx)))),
    formats: columns.map((c) => numberFormatFor(c.kind, ctx.marketplace)),
    widths: columns.map((c) => c.width),
    notes: columns.map((c) => (blank.has(c.key) ? UNLABELLED_NOTE : c.note || '')),
    columns,
    urls: products.map((p) => productLink(p, ctx.marketplace)),
  };
}

/** The columns among `all` whose keys are in `only` (layout order kept); all of them without `only`. */
export function selectColumns(all: readonly LayoutColumn[], only?: readonly string[]): LayoutColumn[] {
  if (!only) return all.slice();
  const keep = new Set(only);
  return all.filter((c) => keep.has(c.key));
}

/** Supplier-input columns and the upload mapping key without which the service returns nothing for them. */
const INPUT_SOURCES: Record<string, string> = {
  supplier_sku: 'supplier_sku',
  map: 'map',
  stock: 'stock_quantity',
  supplier_pack_quantity: 'supplier_pack_quantity',
};

/**
 * Columns the service fills with nothing the seller gave, for a scan uploaded with `mapping` and
 * `options`: the supplier inputs that were not uploaded; "Cost after discount" without any discount
 * or pack quantity (it repeats Cost); "Prep" without a prep cost (0 in every row, and Profit adds up
 * without it).
 */
export function omittedColumns(mapping: Record<string, unknown>, options: Record<string, unknown>): string[] {
  const out = Object.keys(INPUT_SOURCES).filter((key) => typeof mapping[INPUT_SOURCES[key]] !== 'number');
  const has = (k: string) => typeof mapping[k] === 'number';
  if (!has('discount_per_product') && !has('supplier_pack_quantity') && !(Number(options.discount_supplier) > 0)) out.push('discount_cost');
  const multipack = options.multipack_prep_cost as { enabled?: boolean } | undefined;
  if (!(Number(options.prep_cost) > 0) && !(multipack && multipack.enabled)) out.push('prep_cost');
  return out;
}

/**
 * The columns an import of a scan uploaded with `mapping` and `options` can fill: every column (the
 * history columns when the scan pulled them), less omittedColumns.
 */
export function uploadColumns(
  customColumns: readonly string[],
  historical: boolean,
  mapping: Record<string, unknown>,
  options: Record<string, unknown>,
): LayoutColumn[] {
  const omit = new Set(omittedColumns(mapping, options));
  return resultColumns(customColumns, historical).filter((c) => !omit.has(c.key));
}

/** Index of a result column by key (e.g. 'profit', 'roi'), for conditional formatting; -1 if absent. */
export function columnIndex(columns: readonly LayoutColumn[], key: string): number {
  return columns.findIndex((c) => c.key === key);
}

// ---- Errors tab ----

/** An error row of the scan results (tableType=errors). Shape not in the contract: read tolerantly. */
export type ErrorRow = Record<string, unknown>;

export interface ErrorsContext {
  /** Position in the uploaded row's cells of the sheet row number (prepare.ts adds it); -1 when absent. */
  sheetRowField?: number;
}

export interface ErrorColumn {
  key: string;
  header: string;
  width: number;
  kind: ColumnKind;
  get(row: ErrorRow, ctx: ErrorsContext): unknown;
}

/**
 * Position of the sheet-row field in an uploaded row, from the upload attributes (or the options the
 * service echoes with the scan): the custom column named SHEET_ROW_COLUMN. -1 when there is none.
 */
export function sheetRowField(attributes: { mapping?: { custom_columns?: number[] }; options?: { custom_columns?: string[] } }): number {
  const names = (attributes.options && attributes.options.custom_columns) || [];
  const cols = (attributes.mapping && attributes.mapping.custom_columns) || [];
  const i = names.indexOf(SHEET_ROW_COLUMN);
  return i >= 0 && i < cols.length ? cols[i] : -1;
}

function errorSheetRow(row: ErrorRow, ctx: ErrorsContext): unknown {
  const input = row.input;
  const i = ctx.sheetRowField === undefined ? -1 : ctx.sheetRowField;
  if (Array.isArray(input) && i >= 0 && i < input.length) {
    const n = Number(input[i]);
    if (Number.isInteger(n) && n > 0) return n;
  }
  return '';
}

export const ERROR_COLUMNS: readonly ErrorColumn[] = (
  [
    { key: 'sheet_row', header: 'Sheet row', width: 80, kind: 'int', get: errorSheetRow },
    { key: 'line', header: 'File line', width: 70, kind: 'int', get: (r) => (typeof r.line === 'number' ? r.line : '') },
    {
      key: 'identifier',
      header: 'Identifier',
      width: 140,
      kind: 'identifier',
      get: (r) => {
        const v = r.identifier ?? asRecord(r.inputs).identifier;
        return v === null || v === undefined ? '' : v;
      },
    },
    {
      key: 'reason',
      header: 'Reason',
      width: 360,
      kind: 'text',
      get: (r) => {
        const v = r.message ?? r.reason ?? r.error ?? r.code;
        return v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);
      },
    },
  ] satisfies ErrorColumn[]
).map(fitted);

/** Values and formats of a page of error rows for the errors tab. */
export function errorsBlock(
  rows: readonly ErrorRow[],
  ctx: ErrorsContext = {},
): { headers: string[]; values: unknown[][]; formats: (string | null)[]; widths: number[] } {
  return {
    headers: ERROR_COLUMNS.map((c) => c.header),
    values: rows.map((r) =>
      ERROR_COLUMNS.map((c) => {
        const v = c.get(r, ctx);
        if (v === '') return '';
        if (c.kind === 'int') return typeof v === 'number' ? v : safeText(textOf(v));
        return safeText(textOf(v));
      }),
    ),
    formats: ERROR_COLUMNS.map((c) => (c.kind === 'int' ? '0' : null)),
    widths: ERROR_COLUMNS.map((c) => c.width),
  };
}

// ---- Negotiate and purchase-order tabs (issue 24) --------------------------------------------------

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

/** A Negotiate/PO cell from a value read off a tab: numbers stay numbers, text is guarded, missing is ''. */
export function safeCell(kind: ColumnKind, v: unknown): unknown {
  if (v === null || v === undefined || v === '') return '';
  if (kind === 'text' || kind === 'identifier') return safeText(String(v));
  if (typeof v === 'number') return isFinite(v) ? v : '';
  return safeCellValue(String(v));
}
