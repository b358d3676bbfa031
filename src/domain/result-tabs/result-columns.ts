/**
 * THE column layout of a scan's result tab: one ordered list of columns, each with its header, width,
 * kind, how to read its value from a product object (contract 2.3) and, for a figure a seller decides
 * on, a header note saying how it is computed. ROI is ONE figure everywhere: Profit ÷ (Total cost +
 * Prep + Inbound shipping). The import writes the block from resultBlock() with one setValues and
 * applies the formats. Pure; nothing runs at load time.
 *
 * Values: money (cents) -> currency amount (number), basis points -> fraction under a percent format
 * (contract/units.ts); missing or null -> ''. Text from the service or the supplier goes through
 * the formula guard (src/domain/sheet/safe.ts), so it is stored as exactly that text. The ASIN cell
 * is the validated ASIN (10 letters/digits) as text, which the import links to productUrl() with
 * rich text (`links: 'text'`); asked for formulas instead, it is a HYPERLINK formula WE build from
 * that ASIN. Any other ASIN text is written as guarded plain text.
 */
import { Marketplace, productUrl } from '../../../contract/marketplaces';
import { bpsToFraction, centsToAmount, unixSecondsToDate } from '../../../contract/units';
import { safeCellValue, safeText, textOf } from '../sheet/safe';
import { columnLetter, SHEET_ROW_COLUMN } from '../price-list/mapping';
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

import { fitted, numberFormatFor, pick, type ColumnKind, type Product } from './columns';
import { verdictOf } from './verdict';
import { firstPicture, PICTURE_COLUMN_WIDTH, pictureCell } from './picture';
import { ALL_COLUMNS, columnSetOf, type ColumnSet } from './all-columns';
import { HISTORY_COLUMNS, trendFormula } from './history-columns';

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
  /** The scan's column set (New scan's choice): 'essential' (default) or 'all'. */
  columnSet?: ColumnSet;
  /** Sheet row of the first product of the block (default 2): the trend charts refer to their own row. */
  firstRow?: number;
}

/** The header note of a column left blank because its place in the upload is not known. */
export const UNLABELLED_NOTE =
  'Left blank: this scan was not started from this spreadsheet and the Scan Service did not say which column of the upload this was (its scan record has no mapping), so its values are not shown under a header they may not belong to.';

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
/** Issue 36: the product's first picture beside the title, to tell a wrong match at a glance (New scan's "Pictures"). */
export const PICTURE_COLUMN: LayoutColumn = {
  key: 'picture',
  header: 'Picture',
  width: PICTURE_COLUMN_WIDTH,
  kind: 'picture',
  get: (p) => firstPicture(p) ?? '',
};
const MAIN_COLUMNS: readonly LayoutColumn[] = [
  // Issue 36: can a seller buy it today, before the figures; the reasons are in each cell's note (the import).
  {
    key: 'verdict',
    header: 'Verdict',
    width: 130,
    kind: 'text',
    get: (p) => verdictOf(p).word,
    note: 'Can you buy it today? Can’t send to FBA (Amazon will not take it in), Blocked brand (on your blocklist), Check (hazmat, meltable, adult, or a fee or profit the service could not compute), No profit, or Buy. The reasons are in each cell’s note.',
  },
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

/** A custom column that holds the supplier's own description of the product: shown beside Title. */
export const DESCRIPTION_HEADER =
  /^(supplier\s*)?(description|desc\.?|title|product|product\s*name|product\s*title|item|item\s*name|item\s*description|name)$/i;

/**
 * The result tab's columns, in order (see MAIN_COLUMNS); custom columns (key "custom:N") last,
 * except a supplier description, which goes right after Title and its Picture. With `historical`, the
 * history columns come after the competition columns. The 'all' set adds every other documented product
 * field beside the columns it belongs with (all-columns.ts).
 */
export function resultColumns(
  customColumns: readonly string[] = [],
  historical = false,
  decision: DecisionOptions = DEFAULT_DECISION,
  set: ColumnSet = 'essential',
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
    if (set === 'all') all.push(...followers(c.key));
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
    PICTURE_COLUMN,
    ...description,
    ...main,
    ...(historical ? HISTORY_COLUMNS : []),
    ...risks,
    ...SUPPLIER_COLUMNS,
    ...custom.filter((_, i) => i !== d),
  ].map(fitted);
}

/** The 'all' columns placed after `key`, each followed by its own followers. */
function followers(key: string): LayoutColumn[] {
  return ALL_COLUMNS.filter((a) => a.after === key).flatMap((a) => [a, ...followers(a.key)]);
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
    case 'picture':
      // Our formula around the checked address as a string literal; never the service's text itself.
      return pictureCell(typeof v === 'string' ? v : null);
    case 'date':
      return unixSecondsToDate(v) ?? '';
    case 'sparkline':
      // The chart's colour (a checked literal of history-columns.ts); resultBlock makes it the formula.
      return typeof v === 'string' ? v : '';
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
  const columns = selectColumns(
    resultColumns(ctx.customColumns || [], !!ctx.historical, ctx.decision || DEFAULT_DECISION, columnSetOf(ctx.columnSet)),
    ctx.only,
  );
  const blank = new Set(ctx.blank || []);
  const letters = new Map(columns.map((c, i) => [c.key, columnLetter(i)] as [string, string]));
  const firstRow = ctx.firstRow ?? 2;
  const cell = (c: LayoutColumn, p: Product, row: number) => {
    if (blank.has(c.key)) return '';
    const v = cellValue(c, p, ctx);
    return c.kind === 'sparkline' && v !== '' ? trendFormula(c.key, String(v), letters, row) : v;
  };
  return {
    headers: columns.map((c) => c.header),
    values: products.map((p, i) => columns.map((c) => cell(c, p, firstRow + i))),
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
  set: ColumnSet = 'essential',
): LayoutColumn[] {
  const omit = new Set(omittedColumns(mapping, options));
  return resultColumns(customColumns, historical, DEFAULT_DECISION, set).filter((c) => !omit.has(c.key));
}

/** Index of a result column by key (e.g. 'profit', 'roi'), for conditional formatting; -1 if absent. */
export function columnIndex(columns: readonly LayoutColumn[], key: string): number {
  return columns.findIndex((c) => c.key === key);
}
