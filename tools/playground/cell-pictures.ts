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
const SPARKLINE_CALL = /^=\s*SPARKLINE\s*\(\s*([^,)]+)\s*(?:,\s*\{(.*)\})?\s*\)\s*$/i;
/** SPARKLINE over a computed value, as the overview's bars: =SPARKLINE(B5/MAX(1,MAX(B5:B9)),{...}). */
const SPARKLINE_OF_EXPRESSION = /^=\s*SPARKLINE\s*\(\s*(.+?)\s*,\s*\{(.*)\}\s*\)\s*$/i;
/** An A1 reference or range, maybe on another sheet, not part of a longer name or a function call. */
const REFERENCE = /(?<![\w.$'])((?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!)?\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?(?![\w(!])/g;
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
  const spark = SPARKLINE_CALL.exec(cell.f);
  if (spark) return sparkline(wb, sh, spark[1], spark[2]);
  const computed = SPARKLINE_OF_EXPRESSION.exec(cell.f);
  if (computed) return computedSparkline(wb, sh, computed[1], computed[2]);
  return undefined;
}

function picture(link: string, alt: string, serviceUrl: string): CellPicture {
  const src = localPictureSrc(link, serviceUrl);
  // A link the page does not load still says what it is.
  return src ? { kind: 'image', src, alt } : { kind: 'image', src: null, alt: alt || link };
}

function sparkline(wb: WorkbookCore, sh: SheetModel, ref: string, options: string | undefined): Sparkline | undefined {
  const g = parseA1(ref.trim());
  if (!g || g.r1 === null || g.c1 === null || g.r2 === null || g.c2 === null) return undefined;
  const from = g.sheetName === undefined ? sh : wb.sheetByName(g.sheetName);
  if (!from) return undefined;
  const values: number[] = [];
  for (let r = g.r1; r <= g.r2; r++)
    for (let c = g.c1; c <= g.c2; c++) {
      const v = from.cell(r, c)?.v;
      if (typeof v === 'number') values.push(v);
    }
  return sparklineOf(values, optionsOf(options ?? ''));
}

function sparklineOf(values: number[], opts: Record<string, string>): Sparkline {
  const chart = (opts.charttype ?? 'line').toLowerCase();
  const out: Sparkline = { kind: 'sparkline', chart: CHART_TYPES.has(chart) ? (chart as Sparkline['chart']) : 'line', values };
  const colour = opts.color ?? opts.linecolor ?? opts.color1;
  if (colour && COLOUR.test(colour)) out.color = colour;
  if (opts.max !== undefined && Number.isFinite(Number(opts.max))) out.max = Number(opts.max);
  return out;
}

/**
 * A SPARKLINE whose data is an expression: its references replaced by the cells' values (a range
 * as an array literal), computed by HyperFormula (the runtime's own engine library) on its own.
 */
function computedSparkline(wb: WorkbookCore, sh: SheetModel, expression: string, options: string): Sparkline | undefined {
  let failed = false;
  const literal = expression.replace(REFERENCE, (_m, sheet: string | undefined, c1: string, r1: string, c2?: string, r2?: string) => {
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
    const rows: string[] = [];
    for (let r = a.r1; r <= b.r1; r++) {
      const row: string[] = [];
      for (let c = a.c1; c <= b.c1; c++) row.push(valueLiteral(from.cell(r, c)?.v, a === b));
      rows.push(row.join(','));
    }
    return a === b ? rows[0] : `{${rows.join(';')}}`;
  });
  if (failed) return undefined;
  const result = calculator().calculateFormula(`=${literal}`, 0);
  const values = (Array.isArray(result) ? result.flat() : [result]).filter((v): v is number => typeof v === 'number');
  return sparklineOf(values, optionsOf(options));
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

/** SPARKLINE's options written as an array literal: {"charttype","bar";"color","green"}. */
function optionsOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of text.split(';')) {
    const m = /^\s*"([^"]*)"\s*,\s*(?:"([^"]*)"|([-\d.]+|TRUE|FALSE))\s*$/i.exec(pair);
    if (m) out[m[1].toLowerCase()] = m[2] ?? m[3];
  }
  return out;
}
