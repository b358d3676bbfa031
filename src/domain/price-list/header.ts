/**
 * Header row detection and mapping suggestions for a supplier price list, from the values block
 * (getValues) of the first rows of a sheet. Pure; nothing runs at load time.
 *
 * Header row (findHeader): a row of words above rows of values and codes. A price list's header row
 * differs from the rows under it in kind: it holds no number, identifier, amount or code, and stands
 * above values in at least one column; it is 'sure' when one of its words names a column whose cells
 * fit the name (identifiers under "UPC"). A data row (it has its identifier or cost) never qualifies,
 * whatever words its description holds. Title rows above the header lose to it (the lowest sure row
 * wins). None: a sheet of bare data, every row is data and columns are named by letter.
 *
 * Mapping: each header is scored against word patterns per role, scores are adjusted by what the
 * column holds (share of values that are valid identifiers / usable costs), and roles are handed out
 * greedily from the best score, each unique role to one column. When no header names an identifier,
 * the column whose values are mostly identifiers is suggested. Every other column with a header and
 * some data is suggested as a custom column; the rest as 'ignore'.
 */
import { cellText, identify } from '../ids/identify';
import { parseCost } from './cost';
import { ColumnRole, columnLetter } from './mapping';
import { isBlankCell } from '../sheet/safe';

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
  return normalizedScore(normalizeHeader(header), role);
}

function normalizedScore(h: string, role: ColumnRole): number {
  if (role === 'custom' || role === 'ignore') return 0;
  if (h === '') return 0;
  if (role === 'cost' && NOT_COST.test(h)) return 0;
  if (role === 'stock' && NOT_STOCK.test(h)) return 0;
  if (role === 'pack_quantity' && NOT_PACK.test(h)) return 0;
  let best = 0;
  for (const [re, score] of RULES[role]) if (score > best && re.test(h)) best = score;
  return best;
}

/**
 * What a cell holds, for telling a header row from the rows under it: 'value' (numbers, dates,
 * yes/no, identifiers, amounts such as "$1,299.00"), 'code' (one word with digits: "SKU-10001",
 * "7-98051-94682-7"), 'text' (words) or 'blank'. A header cell is text; the rows of a price list
 * hold values and codes in at least its identifier and cost columns.
 */
export type CellKind = 'blank' | 'value' | 'code' | 'text';

/** Text that is a number as written: digits with separators, signs, currency marks. */
const NUMBER_TEXT = /^[\s$€£¥\d.,%+\-()]+$/;

export function cellKind(v: unknown): CellKind {
  if (isBlankCell(v)) return 'blank';
  if (typeof v !== 'string') return 'value';
  const s = v.trim();
  if (NUMBER_TEXT.test(s) && /\d/.test(s)) return 'value';
  if (identify(s).ok) return 'value';
  if (/\d/.test(s)) {
    if (/\s/.test(s) && parseCost(s).ok) return 'value'; // "USD 24.00", "1.299,00 €"
    // One word with digits is a code ("SKU-10001"), unless it is a word with a short number like a
    // column name ("EAN13", "GTIN-14", "Price2").
    if (!/\s/.test(s) && !/^[A-Za-z]+[-_.]?[A-Za-z]?[-_.]?\d{1,2}$/.test(s)) return 'code';
  }
  return 'text';
}

/** Cells looked at under a header candidate, per column (the nearest non-blank ones). */
const CELLS_BELOW = 20;
/** Rows of a block (from its top) where a header row may be. */
export const HEADER_ROWS_IN_BLOCK = 30;

/** How sure a header row is: 'sure' (it names a column whose cells fit the name), 'guess', or 'none'. */
export type HeaderConfidence = 'sure' | 'guess' | 'none';

/**
 * Whether row r of `rows` is a header row, judged against the rows under it (never by itself: a
 * data row with a description like "Wood Glue 2-Pack" has a header word in it):
 * - the row has 2+ filled cells, 2+ of them words, and NO value or code (a price list's data row
 *   always has its identifier or its cost);
 * - in at least one column the row's word stands above values or codes (text above numbers);
 * - 'sure' when one of its words names a role (UPC, Cost, Qty...) and the cells under it fit that
 *   role (identifiers under "UPC", amounts under "Cost"); else only a 'guess'.
 */
export function headerRowConfidence(
  rows: readonly (readonly unknown[])[],
  r: number,
  kinds?: (CellKind | undefined)[][],
): HeaderConfidence {
  const kindAt = (i: number, c: number): CellKind => {
    const v = rows[i] ? rows[i][c] : '';
    if (!kinds) return cellKind(v);
    let k = kinds[i][c];
    if (k === undefined) k = kinds[i][c] = cellKind(v);
    return k;
  };
  const row = rows[r] || [];
  // Numbers, dates and yes/no first: a data row is usually refused by its first cell, cheaply.
  for (const v of row) {
    if (v === null || v === undefined) continue;
    if (typeof v !== 'string' || (NUMBER_TEXT.test(v) && /\d/.test(v))) return 'none';
  }
  let filled = 0;
  let text = 0;
  for (let c = 0; c < row.length; c++) {
    const k = kindAt(r, c);
    if (k === 'blank') continue;
    filled++;
    if (k !== 'text') return 'none';
    text++;
  }
  if (filled < 2 || text < 2) return 'none';
  let contrast = 0;
  let fitting = 0;
  for (let c = 0; c < row.length; c++) {
    if (kindAt(r, c) !== 'text') continue;
    const below: unknown[] = [];
    const belowKinds: CellKind[] = [];
    let notText = 0;
    for (let i = r + 1; i < rows.length && below.length < CELLS_BELOW; i++) {
      const k = kindAt(i, c);
      if (k === 'blank') continue;
      below.push(rows[i][c]);
      belowKinds.push(k);
      if (k !== 'text') notText++;
    }
    if (!below.length) continue;
    if (notText * 2 > below.length) contrast++;
    const h = normalizeHeader(cellText(row[c]));
    for (const role of ROLES_FOR_HEADER) {
      if (normalizedScore(h, role) > 0 && fitsRole(role, below, belowKinds)) {
        fitting++;
        break;
      }
    }
  }
  if (contrast === 0) return 'none';
  return fitting > 0 ? 'sure' : 'guess';
}

/** Whether most cells under a header fit its role. */
function fitsRole(role: Exclude<ColumnRole, 'custom' | 'ignore'>, cells: readonly unknown[], kinds: readonly CellKind[]): boolean {
  let fit = 0;
  for (let i = 0; i < cells.length; i++) {
    const v = cells[i];
    const k = kinds[i];
    switch (role) {
      case 'identifier':
        if (k === 'value' && identify(v).ok) fit++;
        break;
      case 'cost':
      case 'map':
        if (k === 'value' && (typeof v === 'number' ? v > 0 : parseCost(v).ok)) fit++;
        break;
      case 'stock':
      case 'pack_quantity':
      case 'discount':
        if (k === 'value') fit++;
        break;
      case 'sku':
        if (k === 'code' || k === 'value') fit++;
        break;
      case 'image':
        if (/^\s*https?:\/\//i.test(String(v))) fit++;
        break;
    }
  }
  return fit * 2 > cells.length;
}

export interface HeaderSearch {
  /** The block's first rows (getValues), the block starting at sheet row `blockRow`. */
  block: readonly (readonly unknown[])[];
  blockRow: number;
  /** Rows read above the block (sheet rows aboveFirstRow .. blockRow - 1); none when the block starts at row 1. */
  above?: readonly (readonly unknown[])[];
  aboveFirstRow?: number;
}

export interface HeaderFound {
  /** Sheet row of the header row, 0 when none was found. */
  sheetRow: number;
  confidence: HeaderConfidence;
}

/**
 * The header row of a block: among the rows read above it and its own first HEADER_ROWS_IN_BLOCK
 * rows, the LOWEST sure header row (the one closest to the data: title rows above it, and a stacked
 * second table's own header, lose), else the lowest guess, else none. Data rows never qualify
 * (headerRowConfidence), so a selection of data rows takes the sheet's header above it.
 */
export function findHeader(search: HeaderSearch): HeaderFound {
  const above = search.above || [];
  const aboveFirst = search.aboveFirstRow === undefined ? search.blockRow - above.length : search.aboveFirstRow;
  const rows = above.concat(search.block);
  // Kinds are worked out when first needed (most rows are refused by one number).
  const kinds: (CellKind | undefined)[][] = rows.map((row) => new Array<CellKind | undefined>(row.length));
  const last = Math.min(rows.length, above.length + HEADER_ROWS_IN_BLOCK) - 1;
  let guess = -1;
  for (let r = last; r >= 0; r--) {
    const conf = headerRowConfidence(rows, r, kinds);
    if (conf === 'sure') return { sheetRow: sheetRowOf(r), confidence: 'sure' };
    if (conf === 'guess' && guess < 0) guess = r;
  }
  return guess >= 0 ? { sheetRow: sheetRowOf(guess), confidence: 'guess' } : { sheetRow: 0, confidence: 'none' };

  function sheetRowOf(r: number): number {
    return r < above.length ? aboveFirst + r : search.blockRow + (r - above.length);
  }
}

/** Index of the header row within the first `maxRows` rows of `values`, or -1 when none looks like one (see findHeader). */
export function findHeaderRow(values: readonly (readonly unknown[])[], maxRows = HEADER_ROWS_IN_BLOCK): number {
  const found = findHeader({ block: values, blockRow: 1 });
  return found.sheetRow > 0 && found.sheetRow <= maxRows ? found.sheetRow - 1 : -1;
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
    const headerText = isBlankCell(rawHeader) ? '' : cellText(rawHeader).trim();
    let sample = '';
    let filled = 0;
    let ids = 0;
    let costs = 0;
    let moneyLike = 0;
    for (let r = dataStart; r < dataEnd; r++) {
      const v = values[r] ? values[r][c] : '';
      if (isBlankCell(v)) continue;
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
