/**
 * From the sheet's values (getValues) and the chosen mapping to what a scan upload sends, plus the
 * preview the user sees before sending. Pure; nothing runs at load time.
 *
 * Decisions (see src/README.md, "Pure logic"):
 * - Messages name REAL sheet rows and columns (firstSheetRow / firstSheetColumn locate the block).
 * - Blank rows between data rows are listed as skipped ('blank-row'); blank rows after the last
 *   filled row are not rows of the list and are not counted.
 * - One reason per skipped row, the identifier's first (then the cost's); its message names every
 *   problem of the row (identifier, cost and unreadable optional cells), so one pass fixes it.
 * - Duplicates (the same identifier, after repair, on several rows) are ALL sent, because suppliers
 *   list one item in several packs or prices and each row gets its own result; they are reported.
 * - The CSV has a header line; columns in this order: identifier, cost, then SKU, image, pack
 *   quantity, MAP, stock, discount (those mapped), the custom columns, and last a custom column
 *   "Sheet row" with the row's sheet row number (so result and error rows can name the row the user
 *   knows, whatever the service says about lines). attributes.mapping indexes THIS CSV.
 * - Optional cells that cannot be read (MAP "n/a", stock "lots") are sent blank with a warning;
 *   they never skip a row. Per-product discounts are sent as basis points (like discount_supplier):
 *   a number below 1 is a fraction (Sheets stores "10%" as 0.1), from 1 up a percent; text may end in %.
 */
import { cellText, identify, IdExpectation, IdFailReason } from '../ids/identify';
import { detectDecimalSeparator, moneyCurrencies, parseMoney } from './cost';
import { findMarketplace } from '../../../contract/marketplaces';
import { toCsv } from './csv';
import type { RoomCheck } from './room';
import { buildUploadOptions, ScanOptionsInput, UploadAttributes } from './attributes';
import { percentInputToBps, type OptionProblem } from './option-input';
import { ColumnMapping, ColumnRole, columnLetter, roleLabel, SHEET_ROW_COLUMN } from './mapping';
import { fractionToBps, percentToBps, plainDecimal } from '../../../contract/units';
import { normalizeHeader } from './header';
import { quoteCell, shortCell } from '../ids/quote';
import { fitCell, isBlankCell, utf8Length } from '../sheet/safe';
import { commas, megabytes } from '../../../contract/numbers';

export { SHEET_ROW_COLUMN };

/**
 * Characters the Scan Service takes in one cell of an upload (contract/openapi/areas/scans.yaml,
 * 422 `maxCellChars`: one longer cell refuses the whole file). Checked here, per cell, before sending.
 */
export const MAX_UPLOAD_CELL_CHARS = 32_767;
/**
 * Bytes of an upload file the Scan Service takes (the document does not say; the stand-in's decided
 * default, contract/openapi/areas/scans.yaml `maxUploadBytes`, 413 above it). It is also what keeps
 * the request under Google's own limit, 50 MB per URL Fetch payload (quotas page), whatever the
 * small attributes part and the multipart frame add.
 */
export const MAX_UPLOAD_BYTES = 32 * 1024 * 1024;
/** Google's limit on one URL Fetch payload (quotas page: "URL Fetch POST size 50 MB / call"). */
export const URL_FETCH_PAYLOAD_MAX_BYTES = 50 * 1024 * 1024;

/**
 * Why an upload file of `bytes` cannot be sent, with sheet-level advice (how many rows per part
 * fit, the custom columns that make it larger), or null when it fits. Checked before sending.
 */
export function uploadSizeProblem(bytes: number, rowsToSend: number, customColumns: number): string | null {
  const limit = Math.min(MAX_UPLOAD_BYTES, URL_FETCH_PAYLOAD_MAX_BYTES);
  if (bytes <= limit) return null;
  // Rows per part at 90 % of the limit, so that longer rows in one part still fit.
  const fit = Math.max(1, Math.floor((rowsToSend * limit * 0.9) / bytes));
  const perPart = fit >= 2000 ? Math.floor(fit / 1000) * 1000 : fit;
  const parts = Math.ceil(rowsToSend / perPart);
  return (
    `These ${commas(rowsToSend)} rows make an upload of ${megabytes(bytes)}; the Scan Service takes at most ${megabytes(limit)} in one scan (Google's own limit for an add-on is 50 MB). ` +
    `Scan the sheet in ${parts} parts: select about ${commas(perPart)} rows at a time (the header row is found above the selection) and start a scan for each.` +
    (customColumns
      ? customColumns === 1
        ? ` The column set to "${roleLabel('custom')}" goes with every row: setting it to "${roleLabel('ignore')}" if you do not need it makes the upload smaller.`
        : ` The ${customColumns} columns set to "${roleLabel('custom')}" go with every row: setting the ones you do not need to "${roleLabel('ignore')}" makes the upload smaller.`
      : '')
  );
}
/** Characters of a column name sent (a header cell of 50,000 characters is cut, marked). */
const MAX_HEADER_CHARS = 200;
/** Headers that name a selling price, never what the seller pays. */
const SELLING_PRICE = /\b(msrp|srp|rrp|map|umap|minimum advertised|retail)\b/;

export type SkipReason =
  | 'blank-row'
  | 'no-identifier'
  | 'invalid-identifier'
  | 'ambiguous-identifier'
  | 'scientific-notation'
  | 'unusable-cost';

export interface SkippedRow {
  sheetRow: number;
  reason: SkipReason;
  /** The underlying code (identify's or parseMoney's reason). */
  detail: string;
  /** "Row 17: ..." naming EVERY problem of the row (the one that skips it first), so one fix pass is enough. */
  message: string;
  /** The identifier cell as text. */
  identifier: string;
  /** The row's problems in words, the reason's first (what `message` joins). */
  problems: string[];
}

export interface RepairedCell {
  sheetRow: number;
  /** Sheet column letter. */
  column: string;
  role: ColumnRole;
  before: string;
  after: string;
  /** 'leading-zeros' | 'cleaned' | 'upc-e-expanded' | 'money-text' | 'rounded' | 'ambiguous-separator' */
  what: string;
}

export interface CellWarning {
  sheetRow: number;
  column: string;
  role: ColumnRole;
  value: string;
  message: string;
}

export interface DuplicateGroup {
  identifier: string;
  sheetRows: number[];
}

export interface PreviewCounts {
  /** Rows between the header and the last filled row. */
  dataRows: number;
  send: number;
  skipped: number;
  repairedRows: number;
  /** Rows whose identifier also appears on another row. */
  duplicateRows: number;
  warnings: number;
  bySkipReason: Partial<Record<SkipReason, number>>;
}

export interface RowToSend {
  sheetRow: number;
  /** CSV fields in csvHeader order. */
  fields: string[];
}

export interface PrepareInput {
  /** getValues of the block that holds the header row and the data. */
  values: readonly (readonly unknown[])[];
  /** getDisplayValues of the same block (optional): keeps SKU/custom text as shown, and zeros a number format shows. */
  display?: readonly (readonly unknown[])[];
  /** Index of the header row in values; -1 when there is none (data from index 0). */
  headerRow: number;
  /** Sheet row number of values[0]. */
  firstSheetRow: number;
  /** Sheet column number (1-based) of values[i][0]. Default 1. */
  firstSheetColumn?: number;
  mapping: ColumnMapping;
  options: ScanOptionsInput;
  /** Kind the identifier column holds; default from its header ("UPC" -> 'upc'), else 'any'. */
  identifierKind?: IdExpectation;
  /** Add the SHEET_ROW_COLUMN custom column. Default true. */
  includeSheetRow?: boolean;
}

export interface PreparedScan {
  /** True when there are rows to send and the options are valid. */
  ok: boolean;
  /** What stops the upload (option problems, nothing to send). */
  problems: OptionProblem[];
  rows: RowToSend[];
  skipped: SkippedRow[];
  repaired: RepairedCell[];
  warnings: CellWarning[];
  duplicates: DuplicateGroup[];
  counts: PreviewCounts;
  csvHeader: string[];
  /** The upload file: header line + rows, RFC 4180, CRLF. '' when nothing to send. */
  csv: string;
  /** The upload's attributes part (contract 2.1); null when options are invalid. */
  attributes: UploadAttributes | null;
}

/** The expectation a header implies: "UPC" -> 'upc', "EAN" -> 'ean', "ISBN" -> 'isbn', "ASIN" -> 'asin'. */
export function expectationForHeader(header: string): IdExpectation {
  const h = normalizeHeader(header);
  if (/^(upc|upcs|upc a|upc code|upc no|upc number|upc 12)$/.test(h)) return 'upc';
  if (/^(ean|eans|ean 13|ean13|ean code|ean no|ean number|jan)$/.test(h)) return 'ean';
  if (/^(gtin|gtins|gtin 14|gtin14|barcode|barcodes|bar code|upc ean|ean upc)$/.test(h)) return 'gtin';
  if (/^(isbn|isbns|isbn 10|isbn 13|isbn10|isbn13)$/.test(h)) return 'isbn';
  if (/^(asin|asins)$/.test(h)) return 'asin';
  return 'any';
}

/** A cell as text for the CSV: display text when given, numbers without exponent, dates as yyyy-mm-dd. */
function cellAsText(value: unknown, display: unknown): string {
  if (display !== undefined && display !== null && String(display) !== '') return String(display).trim();
  if (typeof value === 'number') return isFinite(value) ? plainDecimal(value) : '';
  return cellText(value).trim();
}

/** Whole number >= min from a cell, or null. "1,200" -> 1200. */
function wholeNumberCell(v: unknown, min: number): number | null {
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string') {
    const s = v.trim().replace(/[\s,.'](?=\d{3}\b)/g, '');
    n = /^\d+$/.test(s) ? Number(s) : NaN;
  } else return null;
  return Number.isInteger(n) && n >= min && n <= Number.MAX_SAFE_INTEGER ? n : null;
}

/** Basis points of a discount cell, or null (see the module comment for the rule). */
function discountCell(v: unknown): number | null {
  let bps: number | null = null;
  if (typeof v === 'string' && /%\s*$/.test(v)) bps = percentInputToBps(v);
  else {
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d*[.,]?\d+\s*$/.test(v) ? Number(v.trim().replace(',', '.')) : NaN;
    if (isFinite(n)) bps = n < 1 ? fractionToBps(n) : percentToBps(n);
  }
  return bps !== null && bps >= 0 && bps <= 10000 ? bps : null;
}

const ID_SKIP: Record<IdFailReason, SkipReason> = {
  blank: 'no-identifier',
  'scientific-notation': 'scientific-notation',
  ambiguous: 'ambiguous-identifier',
  'wrong-length': 'invalid-identifier',
  'bad-check-digit': 'invalid-identifier',
  'not-numeric': 'invalid-identifier',
  'not-an-identifier': 'invalid-identifier',
  'unexpected-kind': 'invalid-identifier',
};

/** A column of the CSV: its role, its column in the block, its header name. */
interface SendColumn {
  role: ColumnRole;
  c: number;
  name: string;
}

/** The block as prepareScan reads it: its columns, its data rows, how its cells are named and read. */
interface Block {
  input: PrepareInput;
  letter(c: number): string;
  headerCell(c: number): string;
  expectation: IdExpectation;
  cols: SendColumn[];
  includeSheetRow: boolean;
  /** Data rows: after the header, up to the last filled row. */
  dataStart: number;
  dataEnd: number;
  costSep: ReturnType<typeof detectDecimalSeparator>;
  mapSep: ReturnType<typeof detectDecimalSeparator> | null;
  market: ReturnType<typeof findMarketplace>;
}

/** What the rows gave so far, row by row. */
interface Tally {
  rows: RowToSend[];
  skipped: SkippedRow[];
  repaired: RepairedCell[];
  warnings: CellWarning[];
  byId: Map<string, number[]>;
  repairedRowSet: Set<number>;
  wordyIds: number;
  filledIds: number;
  withMap: number;
  costAtOrAboveMap: number;
}

/** Everything the preview shows and the upload sends. See the module comment for the rules. */
export function prepareScan(input: PrepareInput): PreparedScan {
  const block = readBlock(input);
  const tally: Tally = {
    rows: [],
    skipped: [],
    repaired: [],
    warnings: [],
    byId: new Map(),
    repairedRowSet: new Set(),
    wordyIds: 0,
    filledIds: 0,
    withMap: 0,
    costAtOrAboveMap: 0,
  };
  for (let r = block.dataStart; r < block.dataEnd; r++) readRow(block, tally, r);
  const { duplicates, duplicateRows } = duplicatesOf(tally.byId);
  const bySkipReason: Partial<Record<SkipReason, number>> = {};
  for (const s of tally.skipped) bySkipReason[s.reason] = (bySkipReason[s.reason] || 0) + 1;

  const { cols, includeSheetRow } = block;
  const customNames = cols.filter((k) => k.role === 'custom').map((k) => k.name);
  if (includeSheetRow) customNames.push(SHEET_ROW_COLUMN);
  const built = buildUploadOptions(input.options, customNames);
  const problems: OptionProblem[] = built.ok ? [] : built.problems.slice();
  problems.push(...roleProblems(block, tally));
  const csvHeader = cols.map((k) => k.name);
  if (includeSheetRow) csvHeader.push(SHEET_ROW_COLUMN);
  const { rows, skipped, repaired, warnings } = tally;
  const csv = rows.length ? toCsv([csvHeader, ...rows.map((x) => x.fields)]) : '';
  problems.push(...sizeProblems(csv, rows.length, cols));

  return {
    ok: problems.length === 0,
    problems,
    rows,
    skipped,
    repaired,
    warnings,
    duplicates,
    counts: {
      dataRows: block.dataEnd - block.dataStart,
      send: rows.length,
      skipped: skipped.length,
      repairedRows: tally.repairedRowSet.size,
      duplicateRows,
      warnings: warnings.length,
      bySkipReason,
    },
    csvHeader,
    csv,
    attributes: built.ok ? uploadAttributes(cols, includeSheetRow, built.options) : null,
  };
}

/** The block's columns to send, its data rows and the separators its money columns use. */
function readBlock(input: PrepareInput): Block {
  const { values, headerRow, mapping } = input;
  const firstCol = input.firstSheetColumn || 1;
  const letter = (c: number) => columnLetter(firstCol - 1 + c);
  const headerCell = (c: number) => {
    const v = headerRow >= 0 && values[headerRow] ? values[headerRow][c] : '';
    return isBlankCell(v) ? 'Column ' + letter(c) : shortCell(cellText(v).trim(), MAX_HEADER_CHARS);
  };
  const expectation = input.identifierKind || expectationForHeader(headerRow >= 0 ? headerCell(mapping.identifier) : '');
  const cols: SendColumn[] = [
    { role: 'identifier', c: mapping.identifier, name: headerCell(mapping.identifier) },
    { role: 'cost', c: mapping.cost, name: headerCell(mapping.cost) },
  ];
  const optional: [ColumnRole, number | undefined][] = [
    ['sku', mapping.sku],
    ['image', mapping.image],
    ['pack_quantity', mapping.pack_quantity],
    ['map', mapping.map],
    ['stock', mapping.stock],
    ['discount', mapping.discount],
  ];
  for (const [role, c] of optional) if (c !== undefined && c !== null && c >= 0) cols.push({ role, c, name: headerCell(c) });
  for (const c of mapping.custom || []) cols.push({ role: 'custom', c, name: headerCell(c) });

  const dataStart = headerRow + 1;
  let dataEnd = values.length;
  while (dataEnd > dataStart && (values[dataEnd - 1] || []).every(isBlankCell)) dataEnd--;
  const column = (c: number) => {
    const out: unknown[] = [];
    for (let r = dataStart; r < dataEnd; r++) out.push(values[r] ? values[r][c] : '');
    return out;
  };
  return {
    input,
    letter,
    headerCell,
    expectation,
    cols,
    includeSheetRow: input.includeSheetRow !== false,
    dataStart,
    dataEnd,
    costSep: detectDecimalSeparator(column(mapping.cost)),
    mapSep: mapping.map !== undefined && mapping.map >= 0 ? detectDecimalSeparator(column(mapping.map)) : null,
    market: findMarketplace(input.options.marketplace),
  };
}

/**
 * A money cell marked with another currency than the marketplace's (text, or a number shown by a
 * currency format): the add-on converts no currency, so it says so instead of reading € as $.
 */
function foreignCurrency(market: Block['market'], label: string, v: unknown, shown: unknown): string | null {
  const text = typeof v === 'string' ? v : typeof v === 'number' && typeof shown === 'string' ? shown : '';
  const codes = market && text ? moneyCurrencies(text) : null;
  if (!market || !codes || codes.indexOf(market.currency) >= 0) return null;
  return (
    label +
    ' ' +
    quoteCell(text.trim()) +
    ' is in ' +
    codes.join(' or ') +
    '; the ' +
    market.code +
    ' marketplace sells in ' +
    market.currency +
    '. It is sent as that amount in ' +
    market.currency +
    ' (the add-on converts no currency): convert it first if it is a ' +
    codes.join(' or ') +
    ' price.'
  );
}

interface OptionalField {
  field: string;
  problem?: string;
  cut?: boolean;
  oversized?: boolean;
}

/** The CSV field of an optional cell, and what is wrong with it (then the field is blank). */
function optionalField(block: Block, role: ColumnRole, v: unknown, shown: unknown): OptionalField {
  if (isBlankCell(v)) return { field: '' };
  switch (role) {
    case 'map': {
      const m = parseMoney(v, { decimal: block.mapSep, allowZero: true, label: 'MAP' });
      return m.ok ? { field: m.decimal } : { field: '', problem: m.message };
    }
    case 'stock':
    case 'pack_quantity': {
      const n = wholeNumberCell(v, role === 'stock' ? 0 : 1);
      if (n !== null) return { field: String(n) };
      return {
        field: '',
        problem:
          (role === 'stock' ? 'Stock' : 'Pack quantity') +
          ' ' +
          quoteCell(cellText(v)) +
          ' is not a whole number' +
          (role === 'stock' ? '.' : ' of 1 or more.'),
      };
    }
    case 'discount': {
      const bps = discountCell(v);
      return bps !== null
        ? { field: String(bps) }
        : { field: '', problem: 'Discount ' + quoteCell(cellText(v)) + ' is not a percent from 0 to 100.' };
    }
    default:
      return textField(role, cellAsText(v, shown));
  }
}

/**
 * A text cell: the service refuses the whole file for one cell over its limit, so an image link cut
 * is no link (sent blank); other text is cut, marked, so the product is still scanned.
 */
function textField(role: ColumnRole, text: string): OptionalField {
  if (text.length <= MAX_UPLOAD_CELL_CHARS) return { field: text };
  const what = 'The cell has ' + commas(text.length) + ' characters; the Scan Service takes ' + commas(MAX_UPLOAD_CELL_CHARS) + '.';
  if (role === 'image') return { field: '', problem: what, oversized: true };
  return { field: fitCell(text, MAX_UPLOAD_CELL_CHARS), problem: what, cut: true, oversized: true };
}

/** One data row: skipped (and why), or sent with its fields, repairs and warnings. */
function readRow(block: Block, tally: Tally, r: number): void {
  const { values, display, firstSheetRow, mapping } = block.input;
  const row = values[r] || [];
  const drow = display ? display[r] || [] : [];
  const sheetRow = firstSheetRow + r;
  if (row.every(isBlankCell)) {
    tally.skipped.push({
      sheetRow,
      reason: 'blank-row',
      detail: 'blank',
      message: 'Row ' + sheetRow + ' is empty.',
      identifier: '',
      problems: ['empty'],
    });
    return;
  }
  const idValue = identifierCell(row[mapping.identifier], drow[mapping.identifier]);
  const id = identifierOf(idValue, block.expectation);
  if (!id.ok && id.reason === 'not-an-identifier' && /\s/.test(id.original.trim())) tally.wordyIds++;
  if (!isBlankCell(idValue)) tally.filledIds++;
  const cost = parseMoney(row[mapping.cost], { decimal: block.costSep, label: 'Cost' });
  countAgainstMap(block, tally, row, cost);
  if (!id.ok || !cost.ok) {
    tally.skipped.push(skippedRow(block, sheetRow, row, drow, id, cost));
    return;
  }
  noteRepairs(block, tally, sheetRow, row, id, cost);
  const fields = rowFields(block, tally, sheetRow, row, drow, id.value, cost.decimal);
  currencyWarnings(block, tally, sheetRow, row, drow);
  if (block.includeSheetRow) fields.push(String(sheetRow));
  tally.rows.push({ sheetRow, fields });
  const list = tally.byId.get(id.value);
  if (list) list.push(sheetRow);
  else tally.byId.set(id.value, [sheetRow]);
}

/** The identifier cell: a number shown with its zeros by a number format is taken as shown. */
function identifierCell(value: unknown, shown: unknown): unknown {
  if (
    typeof value === 'number' &&
    typeof shown === 'string' &&
    /^\d+$/.test(shown) &&
    shown.length > String(value).length &&
    Number(shown) === value
  ) {
    return shown;
  }
  return value;
}

/**
 * The column's header only settles readings (zeros, ISBN or UPC); an identifier of another kind in
 * it, e.g. an ASIN in a "UPC" column, is still one the service looks up: sent as it is.
 */
function identifierOf(value: unknown, expectation: IdExpectation): ReturnType<typeof identify> {
  const id = identify(value, expectation);
  if (!id.ok && id.reason === 'unexpected-kind') {
    const anyKind = identify(value, 'any');
    if (anyKind.ok) return anyKind;
  }
  return id;
}

/** Rows whose cost is at or above their MAP (a sign the columns are swapped). */
function countAgainstMap(block: Block, tally: Tally, row: readonly unknown[], cost: ReturnType<typeof parseMoney>): void {
  const { mapping } = block.input;
  if (!cost.ok || mapping.map === undefined || mapping.map < 0) return;
  const m = parseMoney(row[mapping.map], { decimal: block.mapSep, label: 'MAP' });
  if (!m.ok) return;
  tally.withMap++;
  if (cost.cents >= m.cents) tally.costAtOrAboveMap++;
}

/** A row that cannot be sent: one reason, the identifier's first; its message names every problem. */
function skippedRow(
  block: Block,
  sheetRow: number,
  row: readonly unknown[],
  drow: readonly unknown[],
  id: ReturnType<typeof identify>,
  cost: ReturnType<typeof parseMoney>,
): SkippedRow {
  const problems: string[] = [];
  if (!id.ok)
    problems.push(id.reason === 'blank' ? 'no identifier in column ' + block.letter(block.input.mapping.identifier) + '.' : id.message);
  if (!cost.ok) problems.push(cost.message);
  for (const k of block.cols)
    if (k.role !== 'identifier' && k.role !== 'cost') {
      const cell = optionalField(block, k.role, row[k.c], drow[k.c]);
      if (cell.problem) problems.push(cell.problem);
    }
  return {
    sheetRow,
    reason: !id.ok ? ID_SKIP[id.reason] : 'unusable-cost',
    detail: !id.ok ? id.reason : (cost as { reason: string }).reason,
    message: 'Row ' + sheetRow + ': ' + problems.join(' Also: '),
    identifier: id.ok ? id.value : shortCell(id.original),
    problems,
  };
}

/** The identifier and cost as repaired for sending, listed for the preview. */
function noteRepairs(
  block: Block,
  tally: Tally,
  sheetRow: number,
  row: readonly unknown[],
  id: Extract<ReturnType<typeof identify>, { ok: true }>,
  cost: Extract<ReturnType<typeof parseMoney>, { ok: true }>,
): void {
  const { mapping } = block.input;
  const fix = (c: number, role: ColumnRole, before: string, after: string, what: string) => {
    tally.repaired.push({ sheetRow, column: block.letter(c), role, before: shortCell(before), after, what });
    tally.repairedRowSet.add(sheetRow);
  };
  if (id.repaired) fix(mapping.identifier, 'identifier', id.original, id.value, id.repaired);
  if (typeof row[mapping.cost] === 'string' || cost.rounded) {
    const what = cost.ambiguous ? 'ambiguous-separator' : cost.rounded ? 'rounded' : 'money-text';
    if (cost.original.trim() !== cost.decimal) fix(mapping.cost, 'cost', cost.original, cost.decimal, what);
  }
}

/** The CSV fields of a row to send; an optional cell that cannot be read is sent blank, with a warning. */
function rowFields(
  block: Block,
  tally: Tally,
  sheetRow: number,
  row: readonly unknown[],
  drow: readonly unknown[],
  id: string,
  cost: string,
): string[] {
  const fields: string[] = [];
  for (const k of block.cols) {
    if (k.role === 'identifier') fields.push(id);
    else if (k.role === 'cost') fields.push(cost);
    else {
      const v = row[k.c];
      const cell = optionalField(block, k.role, v, drow[k.c]);
      fields.push(cell.field);
      if (cell.problem)
        tally.warnings.push({
          sheetRow,
          column: block.letter(k.c),
          role: k.role,
          value: shortCell(cellText(v)),
          message:
            'Row ' +
            sheetRow +
            ': ' +
            (cell.oversized ? block.headerCell(k.c) + ' (column ' + block.letter(k.c) + '): ' : '') +
            cell.problem +
            (cell.cut ? ' It is sent cut to its first ' + commas(cell.field.length) + ', marked as cut.' : ' It is sent blank.'),
        });
    }
  }
  return fields;
}

/**
 * Cost or MAP in another currency: still sent, as the amount written. The preview shows the warning
 * before anything is paid, and the seller decides (a mark left from another list's template, or a
 * price to convert first).
 */
function currencyWarnings(block: Block, tally: Tally, sheetRow: number, row: readonly unknown[], drow: readonly unknown[]): void {
  const { mapping } = block.input;
  for (const [role, c, label] of [
    ['cost', mapping.cost, 'Cost'],
    ['map', mapping.map, 'MAP'],
  ] as Array<[ColumnRole, number | undefined, string]>) {
    const other = c !== undefined && c >= 0 ? foreignCurrency(block.market, label, row[c], drow[c]) : null;
    if (other)
      tally.warnings.push({
        sheetRow,
        column: block.letter(c!),
        role,
        value: shortCell(cellText(row[c!])),
        message: 'Row ' + sheetRow + ': ' + other,
      });
  }
}

/** Identifiers on several rows (all of them are sent), and how many rows they take. */
function duplicatesOf(byId: Map<string, number[]>): { duplicates: DuplicateGroup[]; duplicateRows: number } {
  const duplicates: DuplicateGroup[] = [];
  let duplicateRows = 0;
  byId.forEach((sheetRows, identifier) => {
    if (sheetRows.length > 1) {
      duplicates.push({ identifier, sheetRows });
      duplicateRows += sheetRows.length;
    }
  });
  return { duplicates, duplicateRows };
}

/** A file the service would refuse for its size, or no row to send at all. */
function sizeProblems(csv: string, rowCount: number, cols: SendColumn[]): OptionProblem[] {
  const out: OptionProblem[] = [];
  // 1 to 3 bytes per UTF-16 unit: counted only when the text could pass the limit.
  const bytes = csv.length * 3 <= MAX_UPLOAD_BYTES ? csv.length : utf8Length(csv);
  const tooLarge = uploadSizeProblem(bytes, rowCount, cols.filter((k) => k.role === 'custom').length);
  if (tooLarge) out.push({ field: 'rows', message: tooLarge });
  if (rowCount === 0) out.push({ field: 'rows', message: 'No row can be sent: every row was skipped (see the reasons).' });
  return out;
}

/**
 * Columns that cannot be what they were chosen as: descriptions as identifiers, a selling price or
 * MAP-like values as the cost (a preview must never call such a scan ready).
 */
function roleProblems(block: Block, tally: Tally): OptionProblem[] {
  const { headerRow, mapping } = block.input;
  const { wordyIds, filledIds, withMap, costAtOrAboveMap } = tally;
  const out: OptionProblem[] = [];
  const named = (c: number) => 'Column ' + block.letter(c) + (headerRow >= 0 ? ' (' + quoteCell(block.headerCell(c)) + ')' : '');
  if (wordyIds > 0 && wordyIds * 2 > filledIds) {
    const sample = tally.skipped.find((x) => x.detail === 'not-an-identifier');
    out.push({
      field: 'roles',
      message:
        named(mapping.identifier) +
        ' holds words' +
        (sample ? ' such as ' + quoteCell(sample.identifier) : '') +
        ' in ' +
        wordyIds +
        ' of ' +
        filledIds +
        ' rows, not identifiers. Choose the column with the UPC, EAN or ASIN as Identifier.',
    });
  }
  if (headerRow >= 0 && SELLING_PRICE.test(normalizeHeader(block.headerCell(mapping.cost)))) {
    out.push({
      field: 'roles',
      message:
        named(mapping.cost) +
        ' is a selling price (MSRP, MAP, retail), not what you pay. Choose the column with your cost as Cost (if this column is your cost, rename its header).',
    });
  } else if (withMap >= 2 && costAtOrAboveMap * 2 > withMap) {
    out.push({
      field: 'roles',
      message:
        'The cost is at or above MAP on ' +
        costAtOrAboveMap +
        ' of ' +
        withMap +
        ' rows: ' +
        named(mapping.cost) +
        ' and ' +
        named(mapping.map!) +
        ' look swapped. Check which column holds your cost.',
    });
  }
  return out;
}

/** The upload's mapping: where each role sits in THIS CSV, and the options as built. */
function uploadAttributes(cols: SendColumn[], includeSheetRow: boolean, options: UploadAttributes['options']): UploadAttributes {
  const customIdx: number[] = [];
  cols.forEach((k, i) => {
    if (k.role === 'custom') customIdx.push(i);
  });
  if (includeSheetRow) customIdx.push(cols.length);
  const m: UploadAttributes['mapping'] = { id: 0, cost: 1, custom_columns: customIdx };
  const put = (key: keyof UploadAttributes['mapping'], role: ColumnRole) => {
    const i = cols.findIndex((k) => k.role === role);
    if (i >= 0) (m as unknown as Record<string, number>)[key] = i;
  };
  put('supplier_sku', 'sku');
  put('supplier_image', 'image');
  put('supplier_pack_quantity', 'pack_quantity');
  put('map', 'map');
  put('stock_quantity', 'stock');
  put('discount_per_product', 'discount');
  return { mapping: m, options };
}

/**
 * A scan whose rows cannot be checked yet (a role is missing): `problems` are the mapping's and every
 * option's, so the seller sees all of them at once; nothing to send.
 */
export function unpreparedScan(roleErrors: readonly string[], options: ScanOptionsInput): PreparedScan {
  const built = buildUploadOptions(options, []);
  const problems: OptionProblem[] = roleErrors.map((message) => ({ field: 'roles', message }));
  if (!built.ok) problems.push(...built.problems);
  return {
    ok: false,
    problems,
    rows: [],
    skipped: [],
    repaired: [],
    warnings: [],
    duplicates: [],
    counts: { dataRows: 0, send: 0, skipped: 0, repairedRows: 0, duplicateRows: 0, warnings: 0, bySkipReason: {} },
    csvHeader: [],
    csv: '',
    attributes: null,
  };
}

/** What the sidebar shows before sending: plain data (safe for google.script.run), lists cut to `maxListed`. */
export interface PreviewSummary {
  ok: boolean;
  problems: OptionProblem[];
  counts: PreviewCounts;
  skipped: SkippedRow[];
  repaired: RepairedCell[];
  warnings: CellWarning[];
  duplicates: DuplicateGroup[];
  /** How many entries of each list were left out. */
  notListed: { skipped: number; repaired: number; warnings: number; duplicates: number };
  csvHeader: string[];
  /** Room in the spreadsheet for the results (previewScan and startScan fill it in; src/domain/price-list/room.ts). */
  room?: RoomCheck;
}

/** The preview of a prepared scan without its rows and CSV, each list cut to its first `maxListed` entries. */
export function previewSummary(p: PreparedScan, maxListed = 100): PreviewSummary {
  const cut = <T>(list: T[]) => list.slice(0, maxListed);
  return {
    ok: p.ok,
    problems: p.problems.slice(),
    counts: { ...p.counts, bySkipReason: { ...p.counts.bySkipReason } },
    skipped: cut(p.skipped),
    repaired: cut(p.repaired),
    warnings: cut(p.warnings),
    duplicates: cut(p.duplicates),
    notListed: {
      skipped: Math.max(0, p.skipped.length - maxListed),
      repaired: Math.max(0, p.repaired.length - maxListed),
      warnings: Math.max(0, p.warnings.length - maxListed),
      duplicates: Math.max(0, p.duplicates.length - maxListed),
    },
    csvHeader: p.csvHeader.slice(),
  };
}
