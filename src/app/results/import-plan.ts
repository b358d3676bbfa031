/**
 * Pure planning for the result tabs (no Apps Script calls): the sidebar's filters in API units,
 * tab names, the import checkpoint, the work budget, and how columns group for block formatting.
 * src/app/results/import.ts does the Apps Script side with these.
 */
import type { ImportRequest, ResultFilter } from './protocol';
import { amountToCents, percentToBps } from '../../../contract/units';
import { bpsPercent, figureText, moneyText } from '../../../contract/numbers';
import { cutText, safeText, textOf, utf8Length } from '../../domain/sheet/safe';
import { importKey, PROPERTY_VALUE_MAX_BYTES } from '../../store/keys';
import { record } from '../../store/records';
import { allInRoi, DEFAULT_DECISION, expectedShare, shareBasis, type DecisionOptions } from '../../domain/price-list/decide';
import { CANT_SEND, verdictOf } from '../../domain/result-tabs/verdict';

// ---- Filters and sort ----------------------------------------------------------------------------

/** A filter as the API takes it (ScanFilter): values in stored units (cents, basis points). */
export interface ApiFilter {
  name: string;
  operator: ResultFilter['operator'];
  value: number | boolean;
}

/** Product fields held in cents (the sidebar gives currency amounts). */
const MONEY_FIELDS = new Set([
  'buybox_price',
  'lowest_price_new_fba',
  'lowest_price_new_fbm',
  'lowest_price_used_fba',
  'lowest_price_used_fbm',
  'sales_per_month',
  'profit_per_month',
  'inputs.cost',
  'inputs.map',
  'inputs.discount_cost',
  'inputs.total_cogs',
  'profit',
  'financials.profit',
  'financials.net_revenue',
  'financials.prep_cost',
  'financials.inbound_shipping',
  'financials.fba_storage_fees',
  'market_fees.referral_fee',
  'market_fees.fba_fees',
  'market_fees.per_item_fee',
  'market_fees.variable_closing_fee',
  'market_fees.inbound_placement_fee',
]);

/** Product fields held in basis points (the sidebar gives percents: 30 means 30 %). */
const PERCENT_FIELDS = new Set(['margin', 'roi', 'financials.margin', 'financials.roi']);

const OPERATORS = ['>', '>=', '<', '<=', '=', '!='];

export type Converted<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * The sidebar's filters in API units. Field names and the rest of the checking are the API's (it
 * answers 422 naming a bad filter); here only what the add-on converts is checked.
 */
export function apiFilters(filters: readonly ResultFilter[] | undefined): Converted<ApiFilter[]> {
  const out: ApiFilter[] = [];
  for (const f of filters || []) {
    const name = String((f && f.field) || '').trim();
    if (!name) return { ok: false, message: 'A filter has no field.' };
    if (OPERATORS.indexOf(f.operator) < 0)
      return { ok: false, message: `The filter on ${name} has an unknown comparison "${String(f.operator)}".` };
    if (typeof f.value === 'boolean') {
      // Yes/no fields (is_hazmat, is_adult…): only "is" and "is not" compare them.
      if (f.operator !== '=' && f.operator !== '!=') return { ok: false, message: `The filter on ${name} can only be "is" or "is not".` };
      out.push({ name, operator: f.operator, value: f.value });
      continue;
    }
    if (typeof f.value !== 'number' || !isFinite(f.value)) return { ok: false, message: `The filter on ${name} needs a number.` };
    let value: number | null = f.value;
    if (MONEY_FIELDS.has(name)) value = amountToCents(f.value);
    else if (PERCENT_FIELDS.has(name)) value = percentToBps(f.value);
    if (value === null) return { ok: false, message: `The filter on ${name} has a number out of range.` };
    out.push({ name, operator: f.operator, value });
  }
  return { ok: true, value: out };
}

/** A canonical text of a request, to tell whether a continuation asks for the same import. */
export function requestKey(request: ImportRequest | null | undefined): string {
  const filters = (request && request.filters) || [];
  return JSON.stringify({ f: filters.map((f) => [f.field, f.operator, f.value]), s: (request && request.sort) || '' });
}

// ---- Tab names -----------------------------------------------------------------------------------

/** A scan's name in messages and the checkpoint: one line, at most 90 characters. */
const MAX_NAME = 90;

/**
 * A scan's name as messages and the checkpoint carry it: one line, trimmed, "Scan <id>" when blank,
 * at most 90 characters (cut by character). Tab names are made from it by src/domain/sheet/tab-name.ts.
 */
export function shortScanName(scanName: string, scanId: number): string {
  let s = String(scanName || '')
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!s) s = 'Scan ' + scanId;
  // Cut by character: never half of an emoji (a lone surrogate) at the end.
  return s.length > MAX_NAME ? cutText(s, MAX_NAME).trim() : s;
}

/** A count from the service for a message: a whole number with separators, or what it was when it is none. */
export function countText(n: unknown): string {
  if (typeof n === 'number' && Number.isInteger(n) && Math.abs(n) < 1e15) return figureText(n, 0);
  return cutText(JSON.stringify(n) || String(n), 20);
}

/**
 * What tells one page of results from another: its rows' ids (a product's `id`, an error row's
 * `line`), else the rows' text. A short hash (FNV-1a), kept in the checkpoint for the next wave.
 */
export function pageSignature(rows: readonly unknown[]): string {
  const ids = rows.map((r) => {
    const o = r !== null && typeof r === 'object' ? (r as Record<string, unknown>) : null;
    const id = o ? (o.id ?? o.line) : undefined;
    return typeof id === 'number' || typeof id === 'string' ? String(id) : JSON.stringify(r);
  });
  const text = rows.length + ':' + ids.join('\u0001');
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16);
}

// ---- Column blocks -------------------------------------------------------------------------------

export interface FormatRun {
  /** 0-based first column. */
  start: number;
  count: number;
  format: string;
}

/** Contiguous columns sharing one number format: one setNumberFormat call per run. */
export function formatRuns(formats: readonly (string | null)[]): FormatRun[] {
  const runs: FormatRun[] = [];
  formats.forEach((f, i) => {
    if (f === null) return;
    const last = runs[runs.length - 1];
    if (last && last.format === f && last.start + last.count === i) last.count++;
    else runs.push({ start: i, count: 1, format: f });
  });
  return runs;
}

/** Contiguous columns that all have a number format (each its own): one setNumberFormats call per span. */
export interface FormatSpan {
  /** 0-based first column. */
  start: number;
  formats: string[];
}

/**
 * The columns with a format, in spans broken only by a column without one (left to Sheets'
 * automatic format, never written): fewer calls than one per run of equal formats, and no cell gets
 * a format it would not have had.
 */
export function formatSpans(formats: readonly (string | null)[]): FormatSpan[] {
  const spans: FormatSpan[] = [];
  formats.forEach((f, i) => {
    if (f === null) return;
    const last = spans[spans.length - 1];
    if (last && last.start + last.formats.length === i) last.formats.push(f);
    else spans.push({ start: i, formats: [f] });
  });
  return spans;
}

// ---- Errors tab: the uploaded input cells ---------------------------------------------------------

export interface UploadMapping {
  id?: number;
  cost?: number;
  supplier_sku?: number;
  supplier_image?: number;
  supplier_pack_quantity?: number;
  map?: number;
  stock_quantity?: number;
  discount_per_product?: number;
  supplier_title?: number;
  custom_columns?: number[];
}

const INPUT_LABELS: Array<[keyof UploadMapping, string]> = [
  ['id', 'Identifier'],
  ['cost', 'Cost'],
  ['supplier_sku', 'SKU'],
  ['supplier_title', 'Title'],
  ['map', 'MAP'],
  ['stock_quantity', 'Stock'],
  ['supplier_pack_quantity', 'Pack qty'],
  ['discount_per_product', 'Discount'],
  ['supplier_image', 'Image'],
];

/**
 * Headers of the uploaded row's cells, from the upload's mapping and custom column names:
 * "Input: Cost", "Input: Brand note"… ; "Input: column N" for a cell with no role.
 */
export function inputHeaders(width: number, mapping: UploadMapping, customNames: readonly string[]): string[] {
  const names: string[] = [];
  for (let i = 0; i < width; i++) names.push('Input: column ' + (i + 1));
  for (const [key, label] of INPUT_LABELS) {
    const at = mapping[key];
    if (typeof at === 'number' && at >= 0 && at < width) names[at] = 'Input: ' + label;
  }
  (mapping.custom_columns || []).forEach((at, i) => {
    if (typeof at === 'number' && at >= 0 && at < width) names[at] = 'Input: ' + (customNames[i] || 'custom ' + (i + 1));
  });
  return names;
}

/** The uploaded cells of an error row, as guarded text, padded to `width`. */
export function inputCells(input: unknown, width: number): string[] {
  const cells = Array.isArray(input) ? input : [];
  const out: string[] = [];
  for (let i = 0; i < width; i++) {
    const v = cells[i];
    out.push(v === null || v === undefined ? '' : safeText(textOf(v)));
  }
  return out;
}

/** Width of the uploaded rows: the highest mapped column + 1 (rows carry every uploaded cell). */
export function uploadWidth(mapping: UploadMapping): number {
  let w = 0;
  for (const [key] of INPUT_LABELS) {
    const at = mapping[key];
    if (typeof at === 'number') w = Math.max(w, at + 1);
  }
  for (const at of mapping.custom_columns || []) if (typeof at === 'number') w = Math.max(w, at + 1);
  return w;
}

// ---- Checkpoint ----------------------------------------------------------------------------------

export type ImportPhase = 'products' | 'errors' | 'swap';

/**
 * What an unfinished import keeps between executions (document properties, a few hundred bytes).
 * Rows are written in page order into hidden staging tabs; `productsDone`/`errorsDone` count the
 * rows known to be in them, so a resumed import clears anything below and fetches from there.
 */
export interface ImportCheckpoint {
  v: 1;
  scanId: number;
  request: string;
  /** API filters and sort, already converted. */
  filters: ApiFilter[];
  sort: string;
  phase: ImportPhase;
  marketplace: string;
  customColumns: string[];
  mapping: UploadMapping;
  sheetRowField: number;
  scanName: string;
  productsTotal: number;
  productsDone: number;
  errorsTotal: number;
  errorsDone: number;
  /** Sheet ids of the hidden staging tabs. */
  stagingId: number;
  errorsStagingId: number | null;
  /** Final names, fixed when the swap starts (so a swap cut short finishes the same way). */
  finalName: string | null;
  finalErrorsName: string | null;
  /** The overview tab this import made at its swap (issue 36): a swap cut short and run again replaces it. */
  overviewId?: number;
  /** The scan pulled historical data: the tab gets the history columns. */
  historical?: boolean;
  /** New scan's column choice (issue 36), from the scan's record: absent means the essential columns. */
  columnSet?: 'all';
  /** Filters apply: the rows go to the scan's own filtered tab, not its full tab; no errors tab. */
  filtered?: boolean;
  /** Counted as the product rows are written (see ResultSummary). */
  summary?: ResultSummary;
  /** The seller's decision options of the scan (absent in checkpoints of older code: the defaults). */
  decision?: DecisionOptions;
  /** Columns left blank because the scan's record says not where they were in the upload (see uploadLabels). */
  unlabelled?: string[];
  /** Rows of the errors tab for rows skipped before the upload (not-sent.ts), written after the service's error rows. */
  notSent?: number;
  /** How many rows were skipped before the upload in all (the tab may list fewer and say so). */
  notSentTotal?: number;
  /** pageSignature of the last page written: the next wave's first page must differ from it. */
  lastPage?: string;
  /**
   * Keys of the result columns in the staging tab, in layout order: a column nothing came back for
   * in the rows so far is not written; it is inserted when a later row has a value for it.
   */
  cols?: string[];
  /** Keys of the columns never written for this scan (layout omittedColumns: nothing the seller gave). */
  omit?: string[];
}

/** Room for the checkpoint in one document property (9 KB of UTF-8), with margin. */
const CHECKPOINT_MAX_BYTES = PROPERTY_VALUE_MAX_BYTES - 256;

/**
 * The checkpoint as a property value, within a property's 9 KB: the supplier's custom column names
 * (their only use after the tabs' headers are written is counting them) are cut shorter until it
 * fits; beyond that, an Error saying so (never Google's bare "Argument too large").
 */
function fitCheckpoint(c: ImportCheckpoint): string {
  let text = JSON.stringify(c);
  for (const max of [100, 20, 2, 0]) {
    if (utf8Length(text) <= CHECKPOINT_MAX_BYTES) return text;
    text = JSON.stringify({ ...c, scanName: cutText(c.scanName, MAX_NAME), customColumns: c.customColumns.map((n) => cutText(n, max)) });
  }
  if (utf8Length(text) <= CHECKPOINT_MAX_BYTES) return text;
  throw new Error(
    `This scan's import cannot keep its place between steps (its ${c.customColumns.length} custom columns and filters are too much to record). Import it with fewer filters, or download it (Scans > Download).`,
  );
}

/** A scan's import checkpoint (document property `importKey(scan id)`): null when absent or not one this code wrote. */
export const IMPORT_CHECKPOINT = record<ImportCheckpoint, [number]>(importKey, {
  decode: (v) => {
    const c = v as ImportCheckpoint | null;
    if (!c || c.v !== 1 || typeof c.scanId !== 'number' || typeof c.stagingId !== 'number') return null;
    if (['products', 'errors', 'swap'].indexOf(c.phase) < 0) return null;
    if (!(c.productsDone >= 0 && c.errorsDone >= 0 && Array.isArray(c.filters) && Array.isArray(c.customColumns))) return null;
    return c;
  },
  encode: fitCheckpoint,
  cap: CHECKPOINT_MAX_BYTES,
});

export function encodeCheckpoint(c: ImportCheckpoint): string {
  return IMPORT_CHECKPOINT.encode(c, c.scanId);
}

/** The checkpoint, or null when absent or not one this code wrote. */
export function decodeCheckpoint(text: string | null): ImportCheckpoint | null {
  return IMPORT_CHECKPOINT.parse(text);
}

// ---- Time budget ---------------------------------------------------------------------------------

/**
 * Apps Script figures the budget charges for work done (the same public measurements as the local
 * runtime's cost model, emulator/gas/README.md). The budget takes the larger of the clock
 * (Date.now: real time on Google, the modelled clock in the local runtime) and this count of work,
 * so a clock that lags behind the work (deferred sheet writes are flushed later on Google) cannot
 * make an import overrun.
 */
export const WORK_COST = {
  startMs: 300,
  writeCallMs: 120,
  writeCellMs: 0.03,
  readCallMs: 60,
  fetchCallMs: 250,
  fetchPerRequestMs: 20,
  fetchPerKbMs: 0.5,
  propertyWriteMs: 65,
  propertyReadMs: 35,
  cheapCallMs: 5,
};

export class WorkBudget {
  private work = WORK_COST.startMs;
  constructor(
    private readonly now: () => number,
    private readonly startedAt: number,
    readonly budgetMs: number,
  ) {}
  /** Adds modelled work. */
  charge(ms: number): void {
    this.work += ms;
  }
  chargeWrite(cells: number, calls = 1): void {
    this.work += calls * WORK_COST.writeCallMs + cells * WORK_COST.writeCellMs;
  }
  /**
   * A fetchAll wave: its duration as the clock saw it (which holds the call's own costs), or its
   * fixed and size costs when they are more; never both, which counted a wave twice.
   */
  chargeFetch(requests: number, bytes: number, realMs: number): void {
    this.work += Math.max(
      WORK_COST.fetchCallMs + Math.max(0, requests - 1) * WORK_COST.fetchPerRequestMs + (bytes / 1024) * WORK_COST.fetchPerKbMs,
      Math.max(0, realMs),
    );
  }
  /** Time used so far: the larger of the clock and the work counted. */
  used(): number {
    return Math.max(this.now() - this.startedAt, this.work);
  }
  /** Whether a step expected to take `nextMs` still fits before the budget. */
  fits(nextMs: number): boolean {
    return this.used() + nextMs <= this.budgetMs;
  }
}

// ---- What a seller decides on ---------------------------------------------------------------------

/** The figures of a scan's results a seller looks at first, counted while the rows are written. */
export interface ResultSummary {
  products: number;
  /** Products with a profit above 0. */
  profitable: number;
  /** Best all-in ROI among them (Profit ÷ (Total cost + Prep + Inbound), as the ROI column), basis points; null when none has one. */
  bestRoiBps: number | null;
  /** The seller's EXPECTED profit a month from the profitable products (their share, decide.ts expectedShare), cents. */
  profitPerMonthCents: number;
  /** Profitable products whose share cannot be estimated (no units a month or no offer count): not in the sum. */
  unestimated?: number;
  /** Issue 36: products with a profit above 0 that Amazon will not take into FBA (verdictOf): not counted as profitable. */
  cantSend?: number;
}

/**
 * The largest magnitude of cents or basis points a message states: $10 billion, 100 million %.
 * A figure beyond it (or not finite) is no figure a seller can check: it is left out, never shown as
 * "$Infinity" or "1e+306%".
 */
export const SANE_FIGURE = 1e12;

/** A finite figure within SANE_FIGURE (of its unit), else false. */
export function saneFigure(v: unknown): v is number {
  return typeof v === 'number' && isFinite(v) && Math.abs(v) <= SANE_FIGURE;
}

export function emptySummary(): ResultSummary {
  return { products: 0, profitable: 0, bestRoiBps: null, profitPerMonthCents: 0, unestimated: 0 };
}

function member(p: Record<string, unknown>, a: string, b?: string): unknown {
  const v = p[a];
  if (b === undefined) return v;
  return v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[b] : undefined;
}

/** Adds a wave of product rows to the summary (pure; the rows as the service answers them). */
export function addToSummary(
  s: ResultSummary,
  products: readonly Record<string, unknown>[],
  decision: DecisionOptions = DEFAULT_DECISION,
): ResultSummary {
  const out = { ...s, unestimated: s.unestimated || 0 };
  for (const p of products) {
    out.products++;
    const profit = member(p, 'financials', 'profit');
    if (typeof profit !== 'number' || !(profit > 0)) continue;
    // A profitable row Amazon will not take into FBA is never counted as a buy: named apart.
    if (verdictOf(p).word === CANT_SEND) {
      out.cantSend = (out.cantSend || 0) + 1;
      continue;
    }
    out.profitable++;
    // Figures beyond any real product's (saneFigure) are not added: one wild row cannot make the summary say "$Infinity".
    const roi = allInRoi(p);
    if (roi !== null && saneFigure(roi * 10000) && (out.bestRoiBps === null || roi * 10000 > out.bestRoiBps)) out.bestRoiBps = roi * 10000;
    const share = expectedShare(p, decision);
    if (share.profitCents === null) out.unestimated++;
    else if (saneFigure(share.profitCents)) out.profitPerMonthCents += share.profitCents;
  }
  return out;
}

/**
 * "112 of 250 products profitable · best ROI 84.2% · $1,234.56 profit a month expected for you from
 * the 112 profitable, the other 138 (losing or no profit figure) left out (units ÷ (offers + 1), …,
 * capped by stock for 2 months)": the seller's share, what it leaves out, and its basis.
 */
export function summaryText(s: ResultSummary, moneyFormat: string, decision: DecisionOptions = DEFAULT_DECISION): string {
  const parts = [`${s.profitable} of ${s.products} product${s.products === 1 ? '' : 's'} profitable`];
  const cantSend = s.cantSend || 0;
  if (cantSend)
    parts.push(
      `${cantSend} more profitable ${cantSend === 1 ? 'one' : 'ones'} Amazon will not take into FBA, left out (Verdict "${CANT_SEND}")`,
    );
  if (saneFigure(s.bestRoiBps)) parts.push(`best ROI ${bpsPercent(s.bestRoiBps)}`);
  // (a sum of sane figures can still pass the bound: then it is left out rather than shown wrong)
  if (s.profitable > 0 && saneFigure(s.profitPerMonthCents)) {
    const basis = shareBasis(decision, true).replace(/^expected for you: /, '');
    const un = s.unestimated || 0;
    parts.push(
      `${moneyText(s.profitPerMonthCents, moneyFormat)} profit a month expected for you` +
        // The sum counts the profitable rows only: say so, and how many it leaves out.
        (s.products > s.profitable + cantSend
          ? ` from the ${s.profitable} profitable, the other ${s.products - s.profitable - cantSend} (losing or no profit figure) left out`
          : '') +
        ` (${basis}` +
        (un ? `; ${un} without a sales estimate or offer count not counted` : '') +
        ')',
    );
  }
  return parts.join(' · ');
}
