/**
 * What the grid draws in a cell instead of its text: the picture of `=IMAGE(...)` or of an in-cell
 * image, and the small chart of `=SPARKLINE(...)` (its numbers, read from the workbook here; the
 * page draws the SVG). Only pictures of the local service are loaded (the playground takes nothing
 * from the internet): a link on its https picture host is read from the service's own route.
 */
import { parseA1 } from '../../emulator/gas/spreadsheet/a1';
import type { Cell, SheetModel, WorkbookCore } from '../../emulator/gas/spreadsheet/model';
import { PICTURE_ORIGIN, PICTURE_ROUTE, pictureName } from '../../emulator/service/catalog/pictures';
import type { CellPicture, Sparkline } from './view';

/** The first string literal of a formula (IMAGE's URL), unquoted. */
const IMAGE_CALL = /^=\s*IMAGE\s*\(\s*"((?:[^"]|"")*)"/i;
/** A string literal, or the name IMAGE and its opening parenthesis (not part of a longer name). */
const IMAGE_NAME = /("(?:[^"]|"")*")|(?<![\w.$])IMAGE\s*\(/gi;
/** Put in a formula for an IMAGE call's picture, so the formula's result says whether it shows one. */
const SHOWN = '\u0001picture\u0001';
/** Any SPARKLINE formula: its argument text (data, then options). */
const SPARKLINE_CALL = /^=\s*SPARKLINE\s*\((.*)\)\s*$/is;
/**
 * The pieces of a formula's text the values are put into: a string literal (kept), a brace of an
 * array literal, and an A1 reference or range, maybe on another sheet, not part of a longer name or
 * a function call.
 */
const TOKEN =
  /("(?:[^"]|"")*")|([{}])|(?<![\w.$'])((?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!)?\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?(?![\w(!])/g;
const CHART_TYPES = new Set(['line', 'bar', 'column']);
/** Colours the page may use as they are: a name or #rgb / #rrggbb. */
const COLOUR = /^(#[0-9a-f]{3}|#[0-9a-f]{6}|[a-z]{3,20})$/i;
/** The address the page loads a picture link from, or null for a link it does not load. */
export function localPictureSrc(link: string, serviceUrl: string): string | null {
  const prefix = `${PICTURE_ORIGIN}/I/`;
  if (!link.startsWith(prefix) || !pictureName(link.slice(prefix.length))) return null;
  return serviceUrl + PICTURE_ROUTE + link.slice(prefix.length);
}

export function cellPicture(wb: WorkbookCore, sh: SheetModel, cell: Cell, serviceUrl: string): CellPicture | undefined {
  if (cell.img?.url) return picture(cell.img.url, cell.img.title ?? '', serviceUrl);
  if (!cell.f || cell.err) return undefined;
  const image = IMAGE_CALL.exec(cell.f);
  if (image) return picture(image[1].replace(/""/g, '"'), '', serviceUrl);
  const shown = computedImage(wb, sh, cell.f);
  if (shown !== undefined) return shown ? picture(shown, '', serviceUrl) : undefined;
  const spark = SPARKLINE_CALL.exec(cell.f);
  return spark ? sparkline(wb, sh, spark[1]) : undefined;
}

function picture(link: string, alt: string, serviceUrl: string): CellPicture {
  const src = localPictureSrc(link, serviceUrl);
  // A link the page does not load still says what it is.
  return src ? { kind: 'image', src, alt } : { kind: 'image', src: null, alt: alt || link };
}

/**
 * The link of the picture a formula shows through an IMAGE whose url is a reference or an
 * expression, as the overview's `=IF(F5="","",IMAGE(F5))`: each IMAGE call's url computed with the
 * cells' values, the call put back as a marked text, and the whole formula computed; the picture is
 * shown when the formula's result is that text. '' when it shows none (a blank url, the other branch
 * of an IF); undefined for a formula with no IMAGE call or one that does not compute here. The link
 * then goes through the same checks as a literal one (picture, localPictureSrc).
 */
function computedImage(wb: WorkbookCore, sh: SheetModel, formula: string): string | undefined {
  let out = '';
  let from = 0;
  let found = false;
  IMAGE_NAME.lastIndex = 0;
  for (let m = IMAGE_NAME.exec(formula); m; m = IMAGE_NAME.exec(formula)) {
    if (m[1]) continue;
    const close = closingParenthesis(formula, IMAGE_NAME.lastIndex);
    if (close < 0) return undefined;
    const [url] = topLevelArguments(formula.slice(IMAGE_NAME.lastIndex, close));
    const value = url ? compute(wb, sh, url) : undefined;
    if (!value) return undefined;
    const link = value[0]?.[0];
    out += `${formula.slice(from, m.index)}"${typeof link === 'string' && link ? SHOWN + link.replace(/"/g, '""') : ''}"`;
    from = close + 1;
    IMAGE_NAME.lastIndex = from;
    found = true;
  }
  if (!found) return undefined;
  const result = compute(wb, sh, (out + formula.slice(from)).replace(/^=/, ''));
  const shown = result?.[0]?.[0];
  if (result === undefined) return undefined;
  return typeof shown === 'string' && shown.startsWith(SHOWN) ? shown.slice(SHOWN.length) : '';
}

/** The index of the parenthesis that closes the one opened just before `at` (-1 if none). */
function closingParenthesis(text: string, at: number): number {
  let depth = 1;
  let quoted = false;
  for (let i = at; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return i;
  }
  return -1;
}

/**
 * A SPARKLINE's chart from its arguments as Sheets reads them: the data (a range, an array of
 * cells such as a result tab's trend `{C2,D2,E2}`, or an expression such as the overview's
 * `B6/MAX(…)`) and the options array, each computed by HyperFormula (the runtime's own engine
 * library) with the cells' values put in for its references. The runtime's SPARKLINE resolves its
 * arguments but keeps nothing of them (a cell showing a picture holds no value:
 * emulator/gas/spreadsheet/picture-functions.ts), so the playground computes them again here.
 */
function sparkline(wb: WorkbookCore, sh: SheetModel, args: string): Sparkline | undefined {
  const [data, options] = topLevelArguments(args);
  if (!data) return undefined;
  const computed = compute(wb, sh, data);
  if (computed === undefined) return undefined;
  const opts = options ? compute(wb, sh, options) : [];
  if (opts === undefined) return undefined;
  return sparklineOf(
    computed.flat().filter((v): v is number => typeof v === 'number'),
    optionsOf(opts),
  );
}

function sparklineOf(values: number[], opts: Record<string, string>): Sparkline {
  const chart = (opts.charttype ?? 'line').toLowerCase();
  const out: Sparkline = { kind: 'sparkline', chart: CHART_TYPES.has(chart) ? (chart as Sparkline['chart']) : 'line', values };
  const colour = opts.color ?? opts.linecolor ?? opts.color1;
  if (colour && COLOUR.test(colour)) out.color = colour;
  if (opts.max !== undefined && Number.isFinite(Number(opts.max))) out.max = Number(opts.max);
  const width = Number(opts.linewidth);
  if (out.chart === 'line' && opts.linewidth !== undefined && width > 0 && width <= 10) out.lineWidth = width;
  return out;
}

/** A function's argument text split at its top-level commas (not inside quotes, braces or parentheses). */
function topLevelArguments(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (ch === '(' || ch === '{') depth++;
    else if (ch === ')' || ch === '}') depth--;
    else if (ch === ',' && depth === 0) {
      out.push(text.slice(from, i).trim());
      from = i + 1;
    }
  }
  out.push(text.slice(from).trim());
  return out;
}

/**
 * An argument's value as rows of values: its references replaced by the cells' values (a range as
 * an array literal), computed on its own. A blank cell in a range or an array literal is "" (no
 * point of the chart, as SPARKLINE's "empty" "ignore"); alone in an expression it is 0, as in Sheets.
 */
function compute(wb: WorkbookCore, sh: SheetModel, expression: string): unknown[][] | undefined {
  let failed = false;
  let braces = 0;
  const literal = expression.replace(
    TOKEN,
    (
      m,
      text: string | undefined,
      brace: string | undefined,
      sheet: string | undefined,
      c1: string,
      r1: string,
      c2?: string,
      r2?: string,
    ) => {
      if (text) return m;
      if (brace) {
        braces += brace === '{' ? 1 : -1;
        return m;
      }
      const name = sheet
        ? sheet
            .slice(0, -1)
            .replace(/^'(.*)'$/, '$1')
            .replace(/''/g, "'")
        : undefined;
      const from = name === undefined ? sh : wb.sheetByName(name);
      const a = parseA1(`${c1}${r1}`);
      const b = c2 && r2 ? parseA1(`${c2}${r2}`) : a;
      if (!from || !a || !b || a.r1 === null || a.c1 === null || b.r1 === null || b.c1 === null) return ((failed = true), '0');
      const one = a === b;
      const rows: string[] = [];
      for (let r = a.r1; r <= b.r1; r++) {
        const row: string[] = [];
        for (let c = a.c1; c <= b.c1; c++) row.push(valueLiteral(from.cell(r, c)?.v, one && braces === 0));
        rows.push(row.join(','));
      }
      return one ? rows[0] : `{${rows.join(';')}}`;
    },
  );
  if (failed) return undefined;
  let result: unknown;
  try {
    result = calculator().calculateFormula(`=${literal}`, 0);
  } catch {
    return undefined; // not a formula HyperFormula reads
  }
  return Array.isArray(result) ? (result as unknown[][]) : [[result]];
}

/** A cell's value as a formula literal: a number, TRUE/FALSE, or text quoted; empty is 0 alone, "" in an array (skipped by MAX). */
function valueLiteral(v: unknown, alone: boolean): string {
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (v === undefined || v === null || v === '') return alone ? '0' : '""';
  return `"${String(v).replace(/"/g, '""')}"`;
}

let engine: import('hyperformula').HyperFormula | null = null;
function calculator(): import('hyperformula').HyperFormula {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { HyperFormula } = require('hyperformula') as typeof import('hyperformula');
  engine ??= HyperFormula.buildFromArray([[]], { licenseKey: 'gpl-v3' });
  return engine;
}

/** SPARKLINE's options, computed: rows of a name and its value ({"charttype","bar";"color","green"}). */
function optionsOf(rows: unknown[][]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of rows)
    if (typeof name === 'string' && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'))
      out[name.toLowerCase()] = String(value);
  return out;
}
