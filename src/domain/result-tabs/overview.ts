/**
 * The cells of a scan's "<name> – Overview" tab (issue 36). Every figure is a sheet formula over the
 * result tab, so the overview follows the seller's edits, and bars are in-cell SPARKLINE bar
 * charts, which a saved .xlsx keeps as formulas. Pure: columns come from the result tab's header
 * (read.ts), so a tab whose columns were moved still gets a right overview.
 *
 * Security: the only text inside a formula is the tab's name, quoted with its quotes doubled, and
 * fixed words of this module (and picture.ts's fixed pattern). No text from suppliers or the service
 * enters a formula.
 */
import { columnLetter } from '../price-list/mapping';
import { pictureFormulaPattern } from './picture';
import { CANT_SEND } from './verdict';

export type OverviewCell = string | number;

/** Sheets' quoting of a tab name in a reference: 'It''s' for It's. */
export function quoteSheetName(name: string): string {
  return `'${name.replace(/'/g, "''")}'`;
}

/** Profit per unit bands, dollars: [label, lower bound inclusive, upper bound exclusive]. */
const PROFIT_BANDS: ReadonlyArray<readonly [string, number | null, number | null]> = [
  ['Loss (below $0)', null, 0],
  ['$0 to $2', 0, 2],
  ['$2 to $5', 2, 5],
  ['$5 to $10', 5, 10],
  ['$10 or more', 10, null],
];
/** ROI bands, as the ROI column's fractions. */
const ROI_BANDS: ReadonlyArray<readonly [string, number | null, number | null]> = [
  ['Below 0%', null, 0],
  ['0% to 15%', 0, 0.15],
  ['15% to 30%', 0.15, 0.3],
  ['30% to 50%', 0.3, 0.5],
  ['50% or more', 0.5, null],
];
const FLAGS: ReadonlyArray<readonly [string, string]> = [
  ['is_hazmat', 'Hazmat'],
  ['is_meltable', 'Meltable'],
  ['is_adult', 'Adult'],
];
/** Size tiers listed, one per row (Amazon's are 6 to 10 a marketplace; a scan meets a few). */
export const SIZE_TIER_COUNT = 8;
export const TOP_COUNT = 20;
/** Categories listed one per row, the biggest first; the rest are counted together. */
export const CATEGORY_COUNT = 20;
/** The categories the biggest are found among: every category in practice (Amazon has about 40 at the top level). */
export const CATEGORY_KINDS = 50;

export function overviewTabName(resultTab: string): string {
  return `${resultTab} – Overview`;
}

/** The overview's first cell: its title, by which a re-import knows its own tab. */
export function overviewTitle(resultTab: string): string {
  return `Overview of ${resultTab}`;
}

function bandCriteria(range: string, lo: number | null, hi: number | null): string {
  const parts: string[] = [];
  if (lo !== null) parts.push(`${range},">=${lo}"`);
  if (hi !== null) parts.push(`${range},"<${hi}"`);
  return parts.join(',');
}

/**
 * The overview's cells, row by row (A1 at [0][0]); absent columns give no block. `columns`: 0-based
 * column of each layout key on the result tab (ResultTab.columns); `products`: the tab's rows at
 * import, which bound the array formulas of the categories block.
 */
export function overviewCells(tabName: string, columns: ReadonlyMap<string, number>, products = 0): OverviewCell[][] {
  const q = quoteSheetName(tabName);
  const col = (key: string): string | null => {
    const i = columns.get(key);
    if (i === undefined || i < 0) return null;
    const l = columnLetter(i);
    // Whole columns: open ranges like A2:A are not in the local engine; the header is text, which
    // COUNTIFS, SUM, LARGE and MATCH on numbers pass over.
    return `${q}!${l}:${l}`;
  };
  const rows: OverviewCell[][] = [];
  const asin = col('asin');
  if (!asin) return rows;
  rows.push([overviewTitle(tabName)]);
  rows.push(['Products', `=COUNTA(${asin})-1`]);
  const monthly = col('your_profit');
  if (monthly) rows.push(monthlyRow(monthly, col('profit'), col('verdict')));
  bandBlock(rows, 'Profit per unit', col('profit'), PROFIT_BANDS);
  bandBlock(rows, 'ROI', col('roi'), ROI_BANDS);
  // The top products, with their pictures, before the flags: the order, and what a seller opens it for.
  topBlock(rows, asin, monthly, col);
  flagBlock(rows, asin, col);
  const rowsOf = (key: string): string | null => {
    const i = columns.get(key);
    if (i === undefined || i < 0) return null;
    const l = columnLetter(i);
    return `${q}!${l}2:${l}${Math.max(2, products + 1)}`;
  };
  const tiers = rowsOf('size_tier');
  if (tiers) sizeTierBlock(rows, tiers, asin);
  const categories = rowsOf('category');
  if (categories) categoryBlock(rows, categories, asin);
  return rows;
}

/**
 * The expected profit a month, as the import's headline counts it (import-plan.ts addToSummary): the
 * rows with a profit, less those Amazon will not take into FBA; the next cell says so.
 */
function monthlyRow(monthly: string, profit: string | null, verdict: string | null): OverviewCell[] {
  if (!profit) return ['Expected profit a month', `=SUM(${monthly})`, 'sum of every row'];
  const cantSend = verdict ? `,${verdict},"<>${CANT_SEND.replace(/"/g, '""')}"` : '';
  return [
    'Expected profit a month',
    `=SUMIFS(${monthly},${profit},">0"${cantSend})`,
    verdict ? `rows with a profit, less "${CANT_SEND}"` : 'rows with a profit',
  ];
}

const SHARE_HEADING = 'Share of rows';

/**
 * Number formats of the overview's cells (same shape): money in the figures' column where it is
 * money, percent for the shares (the rows of a block headed "Share of rows", to its blank row; a
 * row padded with '' is blank).
 */
export function overviewNumberFormats(cells: readonly OverviewCell[][], moneyFormat: string): string[][] {
  let shares = false;
  return cells.map((row) => {
    const share = shares && row.some((v) => v !== '');
    shares = row[1] === SHARE_HEADING || share;
    return row.map((_, i) => {
      if (i !== 1) return 'General';
      if (row[0] === 'Expected profit a month' || typeof row[0] === 'number') return moneyFormat;
      return share ? '0%' : 'General';
    });
  });
}

/** A heading row, then one row per band: label, COUNTIFS, a bar scaled to the largest band. */
function bandBlock(rows: OverviewCell[][], title: string, range: string | null, bands: typeof PROFIT_BANDS): void {
  if (!range) return;
  rows.push([]);
  rows.push([`${title} band`, 'Products', '']);
  const first = rows.length + 1;
  const last = first + bands.length - 1;
  bands.forEach(([label, lo, hi], k) => {
    const r = first + k;
    rows.push([label, `=COUNTIFS(${bandCriteria(range, lo, hi)})`, bar(`B${r}`, `B${first}:B${last}`)]);
  });
}

function bar(cell: string, scale: string): string {
  // The scale is divided out before the options: the local engine cannot take a range inside an array literal.
  return `=SPARKLINE(${cell}/MAX(1,MAX(${scale})),{"charttype","bar";"max",1;"color1","#1a73e8"})`;
}

function flagBlock(rows: OverviewCell[][], asin: string, col: (k: string) => string | null): void {
  const present = FLAGS.filter(([key]) => col(key));
  if (!present.length) return;
  rows.push([]);
  rows.push(['Flag', SHARE_HEADING, '']);
  for (const [key, label] of present) {
    const r = rows.length + 1;
    rows.push([label, `=IFERROR(COUNTIF(${col(key)},TRUE)/(COUNTA(${asin})-1),0)`, bar(`B${r}`, '1')]);
  }
}

/**
 * The share of rows in each size tier the result tab holds, whatever its words: the k-th row is
 * INDEX of SORT of UNIQUE of the column's rows (support.google.com/docs/answer/10522653,
 * support.google.com/docs/answer/3093150), so the tiers are listed A to Z, each once, and a blank
 * (rows without a tier) sorts last and leaves its row blank; the share is COUNTIF of the tier over
 * the products. Both Sheets and the local engine (emulator/gas/spreadsheet/array-functions.ts)
 * compute these, and a saved .xlsx keeps them as formulas. Past SIZE_TIER_COUNT tiers the heading
 * says the rest are not listed. The range is the tab's rows at import, as the categories'.
 */
function sizeTierBlock(rows: OverviewCell[][], range: string, asin: string): void {
  const kth = (k: number) => `IFERROR(INDEX(SORT(UNIQUE(${range}),1,TRUE),${k})&"","")`;
  const products = `(COUNTA(${asin})-1)`;
  rows.push([]);
  rows.push([
    'Size tier',
    SHARE_HEADING,
    `=IF(${kth(SIZE_TIER_COUNT + 1)}="","","the first ${SIZE_TIER_COUNT} tiers A to Z; more not listed")`,
  ]);
  for (let k = 1; k <= SIZE_TIER_COUNT; k++) {
    const r = rows.length + 1;
    rows.push([`=${kth(k)}`, `=IF(A${r}="","",IFERROR(COUNTIF(${range},A${r})/${products},0))`, bar(`N(B${r})`, '1')]);
  }
  const none = rows.length + 1;
  rows.push(['No size tier', `=IFERROR(MAX(0,${products}-COUNTIF(${range},"?*"))/${products},0)`, bar(`B${none}`, '1')]);
}

/**
 * Top products by expected profit a month: LARGE for the k-th figure, INDEX/MATCH for its row.
 * (SORTN would be one formula, but the local runtime's engine lacks it; this works in both.)
 */
function topBlock(rows: OverviewCell[][], asin: string, monthly: string | null, col: (k: string) => string | null): void {
  if (!monthly) return;
  rows.push([]);
  const title = col('title');
  const picture = col('picture');
  rows.push(['Rank', 'Expected profit a month', 'ASIN', ...(title ? ['Title'] : []), ...(picture ? ['Picture', 'Picture link'] : [])]);
  const link = columnLetter(title ? 5 : 4);
  for (let k = 1; k <= TOP_COUNT; k++) {
    const r = rows.length + 1;
    const ranked = (range: string) => `INDEX(${range},MATCH(B${r},${monthly},0))`;
    const at = (range: string) => `=IF(B${r}="","",${ranked(range)})`;
    rows.push([
      k,
      `=IFERROR(LARGE(${monthly},${k}),"")`,
      at(asin),
      ...(title ? [at(title)] : []),
      ...(picture ? [`=IF(${link}${r}="","",IMAGE(${link}${r}))`, pictureLink(r, ranked(picture))] : []),
    ]);
  }
}

/**
 * The overview's rows that show a picture, as [first sheet row, count] (none, or the top products'
 * when the result tab has a Picture column): given the result tab's picture row height, so the
 * picture is as big as in the result tab rather than the default 21 px row.
 */
export function overviewPictureRows(cells: readonly OverviewCell[][]): Array<[number, number]> {
  const head = cells.findIndex((r) => r[0] === 'Rank');
  return head >= 0 && cells[head].includes('Picture') ? [[head + 2, TOP_COUNT]] : [];
}

/**
 * A top row's picture address: read from the formula of the ranked row's Picture cell (FORMULATEXT,
 * support.google.com/docs/answer/9365792), only when it is the add-on's `=IMAGE("<address>")` with an
 * address picture.ts would write (REGEXEXTRACT, support.google.com/docs/answer/3098244); else
 * blank. The row's picture is IMAGE of this cell: IMAGE takes "a reference to a cell containing the
 * appropriate text" (support.google.com/docs/answer/3093333), and whether Sheets carries a picture
 * through INDEX of an IMAGE cell is not documented. The address is a value: no text of the result
 * tab ever becomes formula text here, and an overtyped Picture cell (a `javascript:` link, a quote,
 * a plain text) gives no picture.
 */
function pictureLink(r: number, rankedPicture: string): string {
  return `=IF(B${r}="","",IFERROR(REGEXEXTRACT(FORMULATEXT(${rankedPicture}),"${pictureFormulaPattern()}"),""))`;
}

/**
 * The products per category, the biggest first: the CATEGORY_COUNT biggest, each with its count and
 * a bar, then the products in other categories and those without one. Below them, the list they
 * are ranked from: every category as first met in the tab (the k-th row is INDEX of UNIQUE of the
 * column, support.google.com/docs/answer/10522653), its count (COUNTIF) and its rank by count, ties
 * in the tab's order; the k-th biggest is the row of rank k (MATCH). Both Sheets and the local engine
 * compute these (SORT over COUNTIF of every category would be one formula a row, but it counts every
 * category again in each, which the local engine does at about 25 ms a category on 10,000 rows).
 * The list holds CATEGORY_KINDS categories (Amazon has fewer top-level categories); past that, the
 * heading says the ranking covers those met first. A row with no category leaves one row of the
 * list blank. The range is the tab's rows at import, so an edited category is followed; a row the
 * seller appends below is not. COUNTIF reads "*", "?" and "~" in a category as wildcards, as Sheets
 * does, and compares text ignoring case where UNIQUE does not: such categories may be counted together.
 */
function categoryBlock(rows: OverviewCell[][], range: string, asin: string): void {
  rows.push([]);
  const heading = rows.length + 1;
  rows.push(['Category', 'Products', '']);
  const first = rows.length + 1;
  const last = first + CATEGORY_COUNT - 1;
  // The ranked list's rows: after the block's 20 rows, "Other", "No category", a blank and its heading.
  const listFirst = last + 5;
  const listLast = listFirst + CATEGORY_KINDS - 1;
  const list = (c: string) => `${c}$${listFirst}:${c}$${listLast}`;
  rows[heading - 1][2] = `=IF(COUNTIF(${range},"?*")>SUM(${list('B')}),"the biggest of the first ${CATEGORY_KINDS} categories met","")`;
  for (let k = 1; k <= CATEGORY_COUNT; k++) {
    const r = first + k - 1;
    const ranked = (c: string) => `INDEX(${list(c)},MATCH(${k},${list('C')},0))`;
    rows.push([
      `=IFERROR(${ranked('A')},"")`,
      `=IF(A${r}="","",${ranked('B')})`,
      // N(): a row without a category has an empty bar, not an error.
      bar(`N(B${r})`, `B${first}:B${last}`),
    ]);
  }
  const other = rows.length + 1;
  rows.push(['Other categories', `=COUNTIF(${range},"?*")-SUM(B${first}:B${last})`, bar(`B${other}`, `B${first}:B${other}`)]);
  rows.push(['No category', `=MAX(0,COUNTA(${asin})-1-COUNTIF(${range},"?*"))`, '']);
  rows.push([]);
  rows.push(['Every category, as first met in the tab', 'Products', 'Rank by products']);
  for (let j = 1; j <= CATEGORY_KINDS; j++) {
    const r = listFirst + j - 1;
    rows.push([
      `=IFERROR(INDEX(UNIQUE(${range}),${j})&"","")`,
      `=IF(A${r}="","",COUNTIF(${range},A${r}))`,
      // Those with more products, then those as many met before it, then itself.
      `=IF(A${r}="","",COUNTIF(${list('B')},">"&B${r})+COUNTIF(B$${listFirst}:B${r},B${r}))`,
    ]);
  }
}
