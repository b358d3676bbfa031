/**
 * Header row detection and mapping suggestions for a supplier price list, from the values block
 * (getValues) of the first rows of a sheet. Pure; nothing runs at load time.
 *
 * Header row: among the first rows, the row with most cells that name a known column (UPC, Cost, ...),
 * then most text cells, that has at least 2 filled cells (title rows like "ACME price list - March"
 * have one). Numbers, dates and barcodes count against a row. -1 when no row looks like a header
 * (a sheet of bare data): then every row is data and columns are named by letter.
 *
 * Mapping: each header is scored against word patterns per role, scores are adjusted by what the
 * column holds (share of values that are valid identifiers / usable costs), and roles are handed out
 * greedily from the best score, each unique role to one column. When no header names an identifier,
 * the column whose values are mostly identifiers is suggested. Every other column with a header and
 * some data is suggested as a custom column; the rest as 'ignore'.
 */
import { cellText, identify } from '../ids/identify';
import { parseCost } from '../scan/cost';
import { ColumnRole, columnLetter } from '../scan/mapping';

export interface ColumnSuggestion {
  /** 0-based index in the values block. */
  index: number;
  /** Sheet column letter (with firstSheetColumn). */
  letter: string;
  /** Header text, or "Column F" when the header cell is blank or there is no header row. */
  header: string;
  /** First non-blank value below the header, as display text ('' when the column is empty). */
  sample: string;
  role: ColumnRole;
}

export interface SuggestOptions {
  /** getDisplayValues of the same block, for samples as the user sees them. */
  display?: readonly (readonly unknown[])[];
  /** Sheet column (1-based) of block column 0. Default 1. */
  firstSheetColumn?: number;
  /** How many data rows to look at for content checks. Default 200. */
  sampleRows?: number;
}

/** Headers are compared in this form: lower case, punctuation as spaces, "#" as "no". */
export function normalizeHeader(text: string): string {
  return text
    .toLowerCase()
    .replace(/#/g, ' no ')
    .replace(/[^a-z0-9%]+/g, ' ')
    .replace(/\b(qty|qnty|quant)\b/g, 'quantity')
    .replace(/\s+/g, ' ')
    .trim();
}

type Rule = [RegExp, number];

/** Patterns on normalised headers; the best matching score of a role counts. */
const RULES: Record<Exclude<ColumnRole, 'custom' | 'ignore'>, Rule[]> = {
  identifier: [
    [
      /^(upc|upcs|ean|eans|gtin|gtins|asin|asins|isbn|isbns|jan|barcode|barcodes|bar code|upc ean|ean upc|upc a|ean 13|ean13|gtin 14|gtin14|upc code|ean code|barcode no|barcode number|upc no|upc number|ean no|ean number)$/,
      100,
    ],
    [/\b(upc|ean|gtin|isbn|barcode|ean13|upca)\b/, 80],
    [/\bbar code\b/, 80],
    [/\basin\b/, 70],
    [/^(item|product) code$/, 60],
    [/\bjan( code)?$/, 60],
  ],
  cost: [
    [
      /^(cost|costs|unit cost|cost price|wholesale|wholesale price|wholesale cost|price|unit price|net price|net cost|your cost|your price|dealer price|dealer cost|buy price|buy cost|case cost|cost per unit|price per unit|item cost|landed cost|supplier price|supplier cost|purchase price|cost each|price each|each|distributor price|trade price|cost usd|price usd)$/,
      100,
    ],
    [/\bcost\b/, 70],
    [/\bwholesale\b/, 70],
    [/\bprice\b/, 40],
  ],
  map: [
    [/^(map|map price|umap|minimum advertised price|min advertised price)$/, 100],
    [/\bminimum advertised\b/, 95],
    [/\b(map|umap)\b/, 80],
  ],
  sku: [
    [
      /^(sku|skus|item|item no|item number|item id|model|model no|model number|part no|part number|mpn|style|style no|article|article no|article number|vendor sku|supplier sku|product id|product no|product number|ref|reference|catalog no|catalogue no|stock code|stock no)$/,
      90,
    ],
    [/\bsku\b/, 80],
    [/\bitem (no|number|id)\b/, 70],
    [/^(item|product) code$/, 55],
    [/\b(mpn|model|part)\b/, 45],
  ],
  stock: [
    [
      /^(stock|quantity|inventory|available|avail|on hand|quantity on hand|qoh|soh|quantity available|available quantity|stock quantity|in stock|units available|units in stock|quantity in stock|stock level|stock on hand|inventory quantity)$/,
      90,
    ],
    [/\b(stock|inventory|on hand)\b/, 60],
    [/\bavailable\b/, 50],
    [/\bquantity\b/, 35],
  ],
  pack_quantity: [
    [
      /^(pack|pack quantity|pack size|case pack|casepack|case quantity|case size|units per case|inner pack|innerpack|pk|quantity per case|units per pack|multipack|multi pack|pcs per case|pieces per case|master pack|pack count|units per carton|carton quantity|uom quantity)$/,
      95,
    ],
    [/\b(pack|casepack|multipack|inner)\b/, 70],
    [/\b(case|carton)\b.*\b(quantity|size|count|units|pcs)\b/, 70],
    [/\b(units|pcs|pieces) per\b/, 65],
  ],
  image: [
    [/^(image|images|image url|image link|img|picture|photo|photo url|thumbnail|main image)$/, 95],
    [/\b(image|img|picture|photo|thumbnail)\b/, 80],
  ],
  discount: [
    [/^(discount|disc|discount %|discount percent|rebate|promo discount)$/, 95],
    [/\b(discount|rebate)\b/, 70],
  ],
};

/** Words that make a header something else than a cost, stock or pack column. */
const NOT_COST = /\b(msrp|srp|rrp|retail|map|umap|list|selling|sale|sell|minimum advertised|discount|discounted|shipping|freight)\b/;
const NOT_STOCK = /\b(pack|case|carton|moq|minimum|min|order|per|inner|master)\b/;
const NOT_PACK = /\b(cost|price|weight|dimension|dimensions|upc|ean|gtin|barcode)\b/;

/** Score of a header for a role (0 when it does not name it). */
export function headerScore(header: string, role: ColumnRole): number {
  if (role === 'custom' || role === 'ignore') return 0;
  const h = normalizeHeader(header);
  if (h === '') return 0;
  if (role === 'cost' && NOT_COST.test(h)) return 0;
  if (role === 'stock' && NOT_STOCK.test(h)) return 0;
  if (role === 'pack_quantity' && NOT_PACK.test(h)) return 0;
  let best = 0;
  for (const [re, score] of RULES[role]) if (score > best && re.test(h)) best = score;
  return best;
}

function isBlank(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
}

/** Index of the header row within the first `maxRows` rows, or -1 when none looks like one. */
export function findHeaderRow(values: readonly (readonly unknown[])[], maxRows = 30): number {
  let best = -1;
  let bestScore = 0;
  const limit = Math.min(values.length, maxRows);
  for (let r = 0; r < limit; r++) {
    const row = values[r] || [];
    let filled = 0;
    let text = 0;
    let named = 0;
    let numeric = 0;
    for (const v of row) {
      if (isBlank(v)) continue;
      filled++;
      if (typeof v === 'string' && !/^[\s$€£\d.,%+-]+$/.test(v) && !identify(v).ok) {
        text++;
        if (ROLES_FOR_HEADER.some((role) => headerScore(v, role) > 0)) named++;
      } else numeric++;
    }
    if (filled < 2) continue;
    const below = values[r + 1] || [];
    const dataBelow = below.filter((v) => !isBlank(v)).length >= 2 ? 1 : 0;
    const score = named * 10 + text * 2 - numeric * 3 + dataBelow;
    if (score > bestScore) {
      bestScore = score;
      best = r;
    }
  }
  return best;
}

const ROLES_FOR_HEADER = Object.keys(RULES) as Exclude<ColumnRole, 'custom' | 'ignore'>[];

/**
 * One suggestion per column of the block (width = longest row): header text, sample and role.
 * `headerRow` is findHeaderRow's answer (-1: no header row; data starts at row 0).
 */
export function suggestColumns(
  values: readonly (readonly unknown[])[],
  headerRow: number,
  options: SuggestOptions = {},
): ColumnSuggestion[] {
  const firstCol = options.firstSheetColumn || 1;
  const sampleRows = options.sampleRows || 200;
  let width = 0;
  for (const row of values) if (row.length > width) width = row.length;
  const dataStart = headerRow + 1;
  const dataEnd = Math.min(values.length, dataStart + sampleRows);

  const columns: ColumnSuggestion[] = [];
  const idRate: number[] = [];
  const costRate: number[] = [];
  const hasData: boolean[] = [];
  const blankHeader: boolean[] = [];
  const moneyRate: number[] = [];
  for (let c = 0; c < width; c++) {
    const letter = columnLetter(firstCol - 1 + c);
    const rawHeader = headerRow >= 0 ? values[headerRow][c] : '';
    const headerText = isBlank(rawHeader) ? '' : cellText(rawHeader).trim();
    let sample = '';
    let filled = 0;
    let ids = 0;
    let costs = 0;
    let moneyLike = 0;
    for (let r = dataStart; r < dataEnd; r++) {
      const v = values[r] ? values[r][c] : '';
      if (isBlank(v)) continue;
      filled++;
      if (sample === '') {
        const d = options.display && options.display[r] ? options.display[r][c] : undefined;
        sample = d !== undefined && d !== null && String(d) !== '' ? String(d) : cellText(v);
      }
      if (identify(v).ok) ids++;
      if (parseCost(v).ok) {
        costs++;
        if (typeof v === 'number' ? Math.floor(v) !== v : /[$€£¥]|\d[.,]\d\d$/.test(String(v))) moneyLike++;
      }
    }
    idRate.push(filled ? ids / filled : 0);
    costRate.push(filled ? costs / filled : 0);
    hasData.push(filled > 0);
    columns.push({ index: c, letter, header: headerText || 'Column ' + letter, sample, role: 'ignore' });
    blankHeader.push(headerText === '');
    moneyRate.push(filled ? moneyLike / filled : 0);
  }

  // All (column, role) candidates with a score, best first; ties go to the leftmost column.
  const cands: { c: number; role: ColumnRole; score: number }[] = [];
  for (let c = 0; c < width; c++) {
    const h = headerRow >= 0 ? cellText(values[headerRow][c]) : '';
    for (const role of ROLES_FOR_HEADER) {
      let score = headerScore(h, role);
      if (score === 0) continue;
      if (role === 'identifier') {
        if (hasData[c] && idRate[c] < 0.2 && score < 100) continue; // "Item code" full of "AB-12"
        score += 30 * idRate[c];
      }
      if (role === 'cost') {
        if (hasData[c] && costRate[c] < 0.2 && score < 100) continue;
        score += 20 * costRate[c];
      }
      cands.push({ c, role, score });
    }
  }
  cands.sort((a, b) => b.score - a.score || a.c - b.c);
  const taken = new Set<ColumnRole>();
  for (const k of cands) {
    if (taken.has(k.role) || columns[k.c].role !== 'ignore') continue;
    columns[k.c].role = k.role;
    taken.add(k.role);
  }
  if (!taken.has('identifier')) {
    // No header names the identifiers: take the column that mostly holds them.
    let bestC = -1;
    for (let c = 0; c < width; c++) {
      if (columns[c].role !== 'ignore' || idRate[c] < 0.6) continue;
      if (bestC < 0 || idRate[c] > idRate[bestC]) bestC = c;
    }
    if (bestC >= 0) columns[bestC].role = 'identifier';
  }
  if (!taken.has('cost')) {
    // No header names the cost: take the column that mostly holds amounts with cents or currency marks.
    let bestC = -1;
    for (let c = 0; c < width; c++) {
      if (columns[c].role !== 'ignore' || costRate[c] < 0.8 || moneyRate[c] < 0.5) continue;
      if (bestC < 0 || moneyRate[c] > moneyRate[bestC]) bestC = c;
    }
    if (bestC >= 0) columns[bestC].role = 'cost';
  }
  for (const col of columns) {
    if (col.role === 'ignore' && hasData[col.index] && (!blankHeader[col.index] || headerRow < 0)) col.role = 'custom';
  }
  return columns;
}
