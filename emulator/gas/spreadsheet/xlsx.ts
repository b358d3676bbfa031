/**
 * XLSX load/save with exceljs: what Sheets carries through an .xlsx download and upload. Values (text
 * stays text, numbers keep all their digits, booleans, dates and times), quote-prefixed text (the
 * apostrophe is not in the value but a `quotePrefix="1"` on the cell's style, which exceljs does not
 * know: it is written and read in the XML here), formulas (with their cached results; custom-function
 * spills as array formulas), number formats, notes, named ranges (open ones such as A2:A as Excel's
 * whole-column form $A$2:$A$1048576), frozen panes, hidden sheets, bold, font colours, backgrounds,
 * alignment, wrap, hyperlinks, column widths, row heights, hidden rows and columns, merged cells (the value in the top-left cell only), data validation (checkboxes, value lists, number
 * comparisons), each sheet's filter (as an autofilter) and its conditional format rules (colour
 * scales, and every boolean condition: xlsx-conditions.ts). Booleans carry a TRUE/FALSE
 * number format, without which LibreOffice shows them as 0 and 1.
 *
 * A sheet name an .xlsx file cannot hold (over 31 characters, or one of \ / ? * [ ] :) is refused
 * before anything is written: cutting it would make a different (and perhaps duplicate) name.
 *
 * Named ranges are written and read in workbook.xml here, not by exceljs: exceljs keeps a defined
 * name as one object per cell, so an open name (A2:A, up to 1,048,576 cells) cost about a second to
 * save or load. What is written and what is loaded is what exceljs wrote and loaded (see definedNamesIn below).
 * exceljs and JSZip are loaded on the first save or load, so runtimes that never touch a file never pay for them.
 */
import { promises as fs } from 'fs';
import type * as ExcelJS from 'exceljs';
import type JSZip from 'jszip';
import { columnLetters, parseA1, quoteSheetName, rangeA1 } from './a1';
import {
  Area,
  Cell,
  DEFAULT_COLUMNS,
  DEFAULT_COLUMN_WIDTH,
  DEFAULT_ROW_HEIGHT,
  DEFAULT_ROWS,
  SheetModel,
  WorkbookCore,
  liveArea,
} from './model';
import { isDateFormat, isDate, DATE_FORMAT } from './values';
import type { ValidationModel } from './model';
import { isAutomatic } from './format';
import { formulasOf } from './formulas';
import { imageFormulaOf } from './cell-image';
import type { GradientData } from './rules';
import { colourScaleForXlsx, colourScaleFromXlsx } from './xlsx-colour-scales';
import { conditionForXlsx, conditionFromXlsx, excelRuleAttributes } from './xlsx-conditions';

type ExcelJSLib = typeof ExcelJS;
type JSZipLib = typeof JSZip;
let excelLib: ExcelJSLib | null = null;
let zipLib: JSZipLib | null = null;
/** Lazy: loading exceljs costs about 0.2 s of CPU, which only a save or a load needs. */
function exceljs(): ExcelJSLib {
  if (!excelLib) excelLib = require('exceljs') as ExcelJSLib;
  return excelLib;
}
function jszip(): JSZipLib {
  if (!zipLib) zipLib = require('jszip') as JSZipLib;
  return zipLib;
}
/** Whether this process has loaded exceljs or JSZip (tests check that runtimes without files never do). */
export function xlsxLibrariesLoaded(): boolean {
  return excelLib !== null || zipLib !== null;
}

const MS_PER_DAY = 86400000;
const EPOCH_MS = Date.UTC(1899, 11, 30);

/** XLSX dates are wall-clock serials; exceljs hands them over as UTC Dates. */
const dateToWallSerial = (d: Date) => (d.getTime() - EPOCH_MS) / MS_PER_DAY;
const wallSerialToDate = (s: number) => new Date(Math.round(s * MS_PER_DAY) + EPOCH_MS);

/** Column widths: Excel counts characters, Sheets pixels (chosen: px = chars * 7 + 5, 8.43 chars = 64 px). */
const charsToPx = (w: number) => Math.round(w * 7 + 5);
const pxToChars = (px: number) => Math.max(0, (px - 5) / 7);
/** Row heights: Excel counts points, Sheets pixels (96 dpi: 21 px = 15.75 pt). */
const pxToPoints = (px: number) => px * 0.75;
const pointsToPx = (pt: number) => Math.round(pt / 0.75);

function argbToHex(argb: string | undefined): string | undefined {
  if (!argb || !/^[0-9a-fA-F]{8}$/.test(argb)) return undefined;
  return '#' + argb.slice(2).toLowerCase();
}
function hexToArgb(hex: string): string {
  return 'FF' + hex.replace('#', '').toUpperCase();
}

function noteText(note: unknown): string | undefined {
  if (!note) return undefined;
  if (typeof note === 'string') return note;
  const texts = (note as { texts?: Array<{ text: string }> }).texts;
  return texts ? texts.map((t) => t.text).join('') : undefined;
}

function storeLoaded(cell: Cell, value: unknown, fmt: string | undefined): void {
  if (value === null || value === undefined) return;
  if (typeof value === 'number') cell.v = value;
  else if (typeof value === 'string') cell.v = value === '' ? undefined : value;
  else if (typeof value === 'boolean') cell.v = value;
  else if (isDate(value)) {
    cell.v = dateToWallSerial(value);
    if (!isDateFormat(fmt)) cell.fmt = DATE_FORMAT;
  } else if (typeof value === 'object' && value && 'error' in value) cell.v = String((value as { error: string }).error);
}

/** A loaded cell's note, font, solid fill and alignment. */
function loadCellLook(cell: ReturnType<SheetModel['ensure']>, xc: ExcelJS.Cell): void {
  const note = noteText(xc.note);
  if (note) cell.note = note;
  if (xc.font?.bold) cell.bold = true;
  const color = argbToHex(xc.font?.color?.argb);
  if (color && color !== '#000000') cell.color = color;
  const fill = xc.fill as { type?: string; pattern?: string; fgColor?: { argb?: string } } | undefined;
  if (fill?.type === 'pattern' && fill.pattern === 'solid') {
    const bg = argbToHex(fill.fgColor?.argb);
    if (bg && bg !== '#ffffff') cell.bg = bg;
  }
  const h = xc.alignment?.horizontal;
  if (h === 'left' || h === 'center' || h === 'right') cell.halign = h;
  if (xc.alignment?.wrapText) cell.wrap = true;
}

export async function loadXlsx(wb: WorkbookCore, data: Buffer | string): Promise<void> {
  const arrays: Array<{ sheet: SheetModel; r1: number; c1: number; r2: number; c2: number }> = [];
  const bytes = typeof data === 'string' ? await fs.readFile(data) : data;
  const zip = await jszip().loadAsync(bytes);
  // exceljs gets the file without its defined names (read here instead: see definedNamesIn).
  const names = await takeDefinedNames(zip);
  const x = new (exceljs().Workbook)();
  await x.xlsx.load((names ? await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }) : bytes) as unknown as ArrayBuffer);
  const quoted = await quotePrefixedCells(zip);
  x.eachSheet((ws) => {
    const rows = Math.max(DEFAULT_ROWS, ws.rowCount);
    const cols = Math.max(DEFAULT_COLUMNS, ws.columnCount);
    const sh = wb.addSheet(ws.name, undefined, rows, cols);
    sh.hidden = ws.state === 'hidden' || ws.state === 'veryHidden';
    const view = ws.views?.[0] as { state?: string; xSplit?: number; ySplit?: number } | undefined;
    if (view?.state === 'frozen') {
      sh.frozenRows = view.ySplit ?? 0;
      sh.frozenCols = view.xSplit ?? 0;
    }
    (ws.columns ?? []).forEach((col, i) => {
      const w = col?.width;
      if (w !== undefined && charsToPx(w) !== DEFAULT_COLUMN_WIDTH) sh.colWidths.set(i + 1, charsToPx(w));
    });
    (ws.columns ?? []).forEach((col, i) => {
      if (col?.hidden) sh.hiddenCols.add(i + 1);
    });
    // Empty rows too: a hidden or resized row may hold nothing.
    ws.eachRow({ includeEmpty: true }, (row, r) => {
      if (row.hidden) sh.hiddenRows.add(r);
      if (row.height !== undefined && pointsToPx(row.height) !== DEFAULT_ROW_HEIGHT) sh.rowHeights.set(r, pointsToPx(row.height));
    });
    ws.eachRow({ includeEmpty: false }, (row, r) => {
      row.eachCell({ includeEmpty: false }, (xc, c) => {
        // exceljs answers a merge's value in every cell of it; Sheets has it in the top-left cell only.
        if (xc.isMerged && xc.master.address !== xc.address) return;
        const cell = sh.ensure(r, c);
        // The boolean format this module writes is the XLSX way of saying "a boolean": Sheets has no format there.
        const result =
          xc.value && typeof xc.value === 'object' && 'result' in xc.value ? (xc.value as { result?: unknown }).result : xc.value;
        const fmt =
          xc.numFmt && xc.numFmt !== 'General' && !(xc.numFmt === BOOLEAN_FORMAT && typeof result === 'boolean') ? xc.numFmt : undefined;
        cell.fmt = fmt;
        const v = xc.value as unknown;
        if (v && typeof v === 'object' && !isDate(v)) {
          const o = v as Record<string, unknown>;
          if ('formula' in o || 'sharedFormula' in o) {
            const f = 'formula' in o ? String(o.formula) : (xc as unknown as { formula: string }).formula;
            cell.f = f ? '=' + f : undefined;
            storeLoaded(cell, o.result, fmt);
            if (o.shareType === 'array' && typeof o.ref === 'string') {
              const ref = parseA1(o.ref);
              if (ref) arrays.push({ sheet: sh, r1: ref.r1!, c1: ref.c1!, r2: ref.r2!, c2: ref.c2! });
            }
          } else if ('richText' in o) {
            const t = (o.richText as Array<{ text: string }>).map((x) => x.text).join('');
            cell.v = t === '' ? undefined : t;
          } else if ('hyperlink' in o) {
            const t = String(o.text ?? '');
            cell.v = t === '' ? undefined : t;
            if (t) cell.links = [{ start: 0, end: t.length, url: String(o.hyperlink) }];
          } else storeLoaded(cell, v, fmt);
        } else storeLoaded(cell, v, fmt);
        loadCellLook(cell, xc);
        if (typeof cell.v === 'string' && quoted.get(ws.name)?.has(xc.address)) cell.q = true;
      });
    });
    const dvs = (ws as unknown as { dataValidations?: { model?: Record<string, ExcelJS.DataValidation> } }).dataValidations?.model ?? {};
    for (const [addr, dv] of Object.entries(dvs)) {
      const ref = parseA1(addr);
      const rule = validationFromXlsx(dv);
      if (!ref || ref.r1 === null || ref.c1 === null || !rule) continue;
      for (let r = ref.r1; r <= (ref.r2 ?? ref.r1); r++)
        for (let c = ref.c1; c <= (ref.c2 ?? ref.c1); c++) sh.ensure(r, c).dv = { ...rule, values: [...rule.values] };
    }
    for (const m of (ws.model as unknown as { merges?: string[] }).merges ?? []) {
      const g = parseA1(m);
      if (g && g.r1 !== null && g.c1 !== null && g.r2 !== null && g.c2 !== null) sh.merges.push({ r1: g.r1, c1: g.c1, r2: g.r2, c2: g.c2 });
    }
    const af = ws.autoFilter as unknown;
    const afRef = typeof af === 'string' ? parseA1(af) : null;
    if (afRef && afRef.r1 !== null && afRef.c1 !== null)
      sh.filter = { r1: afRef.r1, c1: afRef.c1, r2: afRef.r2 ?? afRef.r1, c2: afRef.c2 ?? afRef.c1, criteria: new Map() };
    const cfs = (ws as unknown as { conditionalFormattings?: ExcelJS.ConditionalFormattingOptions[] }).conditionalFormattings ?? [];
    for (const cf of cfs)
      for (const rule of cf.rules) {
        const loaded = conditionalFromXlsx(cf.ref, rule);
        if (loaded) sh.cfRules.push(loaded);
      }
  });
  // Array formulas: the other cells of the array are this formula's spill (claimed on recalculate()).
  for (const a of arrays) {
    const anchor = a.sheet.cell(a.r1, a.c1);
    if (anchor) anchor.loadedSpill = { rows: a.r2 - a.r1 + 1, cols: a.c2 - a.c1 + 1 };
  }
  for (const dn of names ?? []) {
    const ref = dn.range === null ? null : parseA1(dn.range);
    if (!ref || ref.sheetName === undefined) continue;
    const sheet = wb.sheetByName(ref.sheetName);
    if (!sheet) continue;
    // Excel's whole-column/whole-row extent is an open end (what A2:A is in Sheets).
    if (ref.r2 === XLSX_MAX_ROWS) ref.r2 = null;
    if (ref.c2 === XLSX_MAX_COLUMNS) ref.c2 = null;
    const area: Area = { sheet, r1: ref.r1 ?? 1, c1: ref.c1 ?? 1, r2: ref.r2 ?? sheet.maxRows, c2: ref.c2 ?? sheet.maxCols };
    if (ref.r1 === null || ref.c1 === null || ref.r2 === null || ref.c2 === null)
      area.open = { r1: ref.r1 === null, c1: ref.c1 === null, r2: ref.r2 === null, c2: ref.c2 === null };
    wb.namedRanges.set(dn.name, { name: dn.name, area });
  }
  wb.activeSheet = wb.sheets.find((s) => !s.hidden) ?? wb.sheets[0] ?? null;
  await readStatePart(zip, wb);
}

/** What LibreOffice itself writes for a boolean cell: without it, booleans read back as 0/1 there. */
export const BOOLEAN_FORMAT = '"TRUE";"TRUE";"FALSE"';

interface RuleShape {
  gradient?: GradientData;
  criteria: string | null;
  values: unknown[];
  background: string | null;
  fontColor: string | null;
  bold: boolean | null;
  ranges: Array<{ _r: number; _c: number; _nr: number; _nc: number }>;
}

/** A Sheets conditional format rule as exceljs writes it (boolean conditions: xlsx-conditions.ts); null for a kind not written. */
function conditionalForXlsx(rule: unknown): ExcelJS.ConditionalFormattingOptions | null {
  const d = (rule as { d?: RuleShape }).d;
  if (d?.gradient && d.ranges.length) return { ref: refOf(d), rules: [colourScaleForXlsx(d.gradient)] };
  if (!d || !d.criteria || !d.ranges.length) return null;
  const style: ExcelJS.Style = {} as ExcelJS.Style;
  if (d.background) style.fill = { type: 'pattern', pattern: 'solid', bgColor: { argb: hexToArgb(d.background) } };
  if (d.fontColor || d.bold)
    style.font = { ...(d.bold ? { bold: true } : {}), ...(d.fontColor ? { color: { argb: hexToArgb(d.fontColor) } } : {}) };
  const x = conditionForXlsx(d.criteria, d.values, rangeA1(d.ranges[0]._r, d.ranges[0]._c, d.ranges[0]._r, d.ranges[0]._c), style);
  if (!x) return null;
  return { ref: refOf(d), rules: [x] };
}

function refOf(d: RuleShape): string {
  return d.ranges.map((g) => rangeA1(g._r, g._c, g._r + g._nr - 1, g._c + g._nc - 1)).join(' ');
}

function valueForXlsx(c: Cell): ExcelJS.CellValue {
  const v = c.v;
  if (v === undefined || v === '') return null;
  if (typeof v === 'number' && isDateFormat(c.fmt)) return wallSerialToDate(v);
  return v;
}

export async function saveXlsx(wb: WorkbookCore): Promise<Buffer> {
  for (const sh of wb.sheets) checkXlsxSheetName(sh.name);
  const x = new (exceljs().Workbook)();
  const quoted = new Map<string, Set<string>>();
  const spills = new Map<SheetModel, Map<string, { rows: number; cols: number }>>();
  for (const fc of formulasOf(wb)) {
    if (fc.rows * fc.cols <= 1) continue;
    let m = spills.get(fc.sheet);
    if (!m) spills.set(fc.sheet, (m = new Map()));
    m.set(`${fc.r},${fc.c}`, { rows: fc.rows, cols: fc.cols });
  }
  for (const sh of wb.sheets) {
    const frozen = sh.frozenRows || sh.frozenCols;
    const ws = x.addWorksheet(sh.name, {
      state: sh.hidden ? 'hidden' : 'visible',
      views: frozen ? [{ state: 'frozen', xSplit: sh.frozenCols, ySplit: sh.frozenRows }] : undefined,
    });
    for (const [c, px] of sh.colWidths) ws.getColumn(c).width = pxToChars(px);
    for (const c of sh.hiddenCols) ws.getColumn(c).hidden = true;
    for (const [r, px] of sh.rowHeights) ws.getRow(r).height = pxToPoints(px);
    for (const r of sh.hiddenRows) {
      const row = ws.getRow(r);
      row.hidden = true;
      // exceljs writes no row with neither cells nor a height: an empty hidden row gets its height.
      if (row.height === undefined) row.height = pxToPoints(DEFAULT_ROW_HEIGHT);
    }
    sh.rows.forEach((row, ri) =>
      row?.forEach((c, ci) => {
        if (!c) return;
        const r = ri + 1;
        const col = ci + 1;
        const xc = ws.getCell(r, col);
        const spill = spills.get(sh)?.get(`${r},${col}`);
        if (c.f) {
          const result = valueForXlsx(c);
          xc.value = spill
            ? ({
                formula: c.f.slice(1),
                result,
                shareType: 'array',
                ref: rangeA1(r, col, r + spill.rows - 1, col + spill.cols - 1),
              } as unknown as ExcelJS.CellValue)
            : ({ formula: c.f.slice(1), result } as ExcelJS.CellFormulaValue);
        } else if (c.img && imageFormulaOf(c.img)) {
          xc.value = { formula: imageFormulaOf(c.img)!, result: '' } as ExcelJS.CellFormulaValue;
        } else if (c.links?.length && typeof c.v === 'string') {
          // Chosen: XLSX links whole cells, so the first link run's URL links the cell.
          xc.value = { text: c.v, hyperlink: c.links[0].url };
        } else xc.value = valueForXlsx(c);
        if (c.fmt && !isAutomatic(c.fmt)) xc.numFmt = c.fmt;
        else if (typeof c.v === 'boolean') xc.numFmt = BOOLEAN_FORMAT;
        if (c.note) xc.note = c.note;
        if (c.bold || c.color) xc.font = { ...(c.bold ? { bold: true } : {}), ...(c.color ? { color: { argb: hexToArgb(c.color) } } : {}) };
        if (c.bg) xc.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: hexToArgb(c.bg) } };
        if (c.halign || c.wrap)
          xc.alignment = { ...(c.halign ? { horizontal: c.halign as 'left' } : {}), ...(c.wrap ? { wrapText: true } : {}) };
        if (c.q && typeof c.v === 'string' && !c.f) {
          let set = quoted.get(sh.name);
          if (!set) quoted.set(sh.name, (set = new Set()));
          set.add(xc.address);
        }
        if (c.dv) {
          const dv = validationForXlsx(c.dv);
          if (dv)
            (ws as unknown as { dataValidations: { add(a: string, v: ExcelJS.DataValidation): void } }).dataValidations.add(xc.address, dv);
        }
      }),
    );
    for (const g of sh.merges) ws.mergeCells(g.r1, g.c1, g.r2, g.c2);
    if (sh.filter) ws.autoFilter = rangeA1(sh.filter.r1, sh.filter.c1, sh.filter.r2, sh.filter.c2);
    for (const rule of sh.cfRules) {
      const cf = conditionalForXlsx(rule);
      if (cf) ws.addConditionalFormatting(cf);
    }
  }
  const names: DefinedName[] = [];
  for (const nr of wb.namedRanges.values()) {
    // Chosen: a name whose sheet was deleted (#REF!) is not written (exceljs cannot write one).
    if (nr.broken) continue;
    // An open end is written as Excel's own whole-column (row 1048576) or whole-row (column XFD)
    // extent, which loading reads back as open (exceljs's reader drops the short form $A$2:$A).
    const a = liveArea(nr.area);
    const r2 = nr.area.open?.r2 ? XLSX_MAX_ROWS : a.r2;
    const c2 = nr.area.open?.c2 ? XLSX_MAX_COLUMNS : a.c2;
    const abs = (r: number, c: number) => rangeA1(r, c, r, c).replace(/^([A-Z]+)(\d+)$/, '$$$1$$$2');
    const loc = `${quoteSheetName(a.sheet.name)}!${abs(a.r1, a.c1)}${a.r1 === r2 && a.c1 === c2 ? '' : ':' + abs(r2, c2)}`;
    // The text exceljs's x.definedNames.add(loc, name) wrote (and its error, for a column past XFD).
    names.push({ name: nr.name, range: shortRange(rectOf(loc)!) });
  }
  const buf = Buffer.from(await x.xlsx.writeBuffer());
  const ruled = new Set(wb.sheets.filter((sh) => sh.cfRules.length).map((sh) => sh.name));
  return finishXlsx(buf, quoted, ruled, names, stateXml(wb));
}

// ---- Sheet names, data validation, conditional formats read back ---------------------------------

/** Excel's last row and column: a defined name reaching them is open-ended (A2:A, 2:2). */
const XLSX_MAX_ROWS = 1048576;
const XLSX_MAX_COLUMNS = 16384;
/** What an .xlsx sheet name may hold (Excel's rule; Sheets allows 100 characters and these signs). */
export const XLSX_SHEET_NAME_MAX = 31;

/** Refuses, before anything is written, a sheet name an .xlsx file cannot hold (never cut silently). */
export function checkXlsxSheetName(name: string): void {
  if (name.length > XLSX_SHEET_NAME_MAX)
    throw new Error(
      `Sheet name "${name}" has ${name.length} characters; an .xlsx sheet name holds at most ${XLSX_SHEET_NAME_MAX}. Rename it; nothing was saved.`,
    );
  if (/[\\/?*[\]:]/.test(name) || /^'|'$/.test(name))
    throw new Error(
      `Sheet name "${name}" has a character an .xlsx sheet name cannot hold (\\ / ? * [ ] : or an apostrophe at either end). Rename it; nothing was saved.`,
    );
}

/**
 * Data validation as an .xlsx rule. Chosen: a checkbox is a list "TRUE,FALSE" (its own checked and
 * unchecked values when it has them), a value list a list of its values, number rules decimal rules;
 * allowInvalid is a warning (errorStyle "warning"), else a stop. Other kinds are not written.
 */
function validationForXlsx(v: ValidationModel): ExcelJS.DataValidation | null {
  const common = {
    allowBlank: true,
    showErrorMessage: !v.allowInvalid,
    errorStyle: v.allowInvalid ? 'warning' : 'stop',
    ...(v.helpText ? { showInputMessage: true, prompt: v.helpText } : {}),
  };
  const listOf = (items: unknown[]) => `"${items.map((i) => String(i).replace(/"/g, '""')).join(',')}"`;
  switch (v.type) {
    case 'CHECKBOX': {
      const vals = v.values.length ? v.values : [true, false];
      return { type: 'list', formulae: [listOf(vals.map((x) => (typeof x === 'boolean' ? (x ? 'TRUE' : 'FALSE') : x)))], ...common };
    }
    case 'VALUE_IN_LIST':
      return { type: 'list', formulae: [listOf(Array.from(v.values[0] as unknown[]))], ...common };
    case 'NUMBER_BETWEEN':
      return { type: 'decimal', operator: 'between', formulae: [v.values[0], v.values[1]], ...common };
    case 'NUMBER_GREATER_THAN':
      return { type: 'decimal', operator: 'greaterThan', formulae: [v.values[0]], ...common };
    case 'NUMBER_GREATER_THAN_OR_EQUAL_TO':
      return { type: 'decimal', operator: 'greaterThanOrEqual', formulae: [v.values[0]], ...common };
    default:
      return null;
  }
}

function validationFromXlsx(dv: ExcelJS.DataValidation): ValidationModel | null {
  const base = {
    allowInvalid: dv.errorStyle === 'warning' || dv.errorStyle === 'information' || !dv.showErrorMessage,
    helpText: dv.prompt ?? null,
  };
  const f = dv.formulae ?? [];
  if (dv.type === 'list' && typeof f[0] === 'string' && /^".*"$/.test(f[0])) {
    const items = f[0]
      .slice(1, -1)
      .split(',')
      .map((i) => i.replace(/""/g, '"'));
    if (items.length === 2 && items[0].toUpperCase() === 'TRUE' && items[1].toUpperCase() === 'FALSE')
      return { type: 'CHECKBOX', values: [], ...base };
    return { type: 'VALUE_IN_LIST', values: [items, true], ...base };
  }
  if (dv.type === 'decimal' || dv.type === 'whole') {
    const n = f.map(Number);
    if (dv.operator === 'between') return { type: 'NUMBER_BETWEEN', values: [n[0], n[1]], ...base };
    if (dv.operator === 'greaterThan') return { type: 'NUMBER_GREATER_THAN', values: [n[0]], ...base };
    if (dv.operator === 'greaterThanOrEqual') return { type: 'NUMBER_GREATER_THAN_OR_EQUAL_TO', values: [n[0]], ...base };
  }
  return null;
}

/**
 * A conditional format rule read from a file, in the shape the service layer's rules have
 * (`{d: RuleData}` with ranges as {_r, _c, _nr, _nc}); Sheet.getConditionalFormatRules turns it into
 * a rule object of the script. Kinds this module does not write are left out.
 */
export interface LoadedConditionalRule {
  loaded: true;
  d: RuleShape;
}

function conditionalFromXlsx(ref: string, x: ExcelJS.ConditionalFormattingRule): LoadedConditionalRule | null {
  const r = x as unknown as {
    style?: { fill?: { bgColor?: { argb?: string }; fgColor?: { argb?: string } }; font?: { bold?: boolean; color?: { argb?: string } } };
  };
  const gradient = colourScaleFromXlsx(x);
  if (gradient)
    return {
      loaded: true,
      d: { gradient, criteria: null, values: [], background: null, fontColor: null, bold: null, ranges: rangesOf(ref) },
    };
  const condition = conditionFromXlsx(x);
  if (!condition) return null;
  const ranges = rangesOf(ref);
  const bg = argbToHex(r.style?.fill?.bgColor?.argb ?? r.style?.fill?.fgColor?.argb) ?? null;
  const fontColor = argbToHex(r.style?.font?.color?.argb) ?? null;
  return { loaded: true, d: { ...condition, background: bg, fontColor, bold: r.style?.font?.bold ? true : null, ranges } };
}

function rangesOf(ref: string): RuleShape['ranges'] {
  return ref
    .split(/\s+/)
    .map((a) => parseA1(a))
    .filter((g): g is NonNullable<typeof g> => !!g && g.r1 !== null && g.c1 !== null)
    .map((g) => ({ _r: g.r1!, _c: g.c1!, _nr: (g.r2 ?? g.r1!) - g.r1! + 1, _nc: (g.c2 ?? g.c1!) - g.c1! + 1 }));
}

// ---- Defined names in workbook.xml (exceljs holds one object per cell of a name) -----------------

/**
 * A defined name as the loader takes it: `range` is the one rectangle its cells make up, in the
 * text exceljs gave ('Sheet 1'!$A$2:$A$1048576), or null when they make up several (not loaded).
 */
interface DefinedName {
  name: string;
  range: string | null;
}

interface Rect {
  sheetName?: string;
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/**
 * exceljs's own reader of `Sheet!$A$1:$B$2` (col-cache), so a name's text means here what it meant
 * to exceljs, quirks included; loaded with exceljs, on the first save or load.
 */
function decodeEx(ref: string): {
  sheetName?: string;
  top?: number;
  left?: number;
  bottom?: number;
  right?: number;
  row?: number;
  col?: number;
} {
  return (require('exceljs/lib/utils/col-cache') as { decodeEx: typeof decodeEx }).decodeEx(ref);
}

/** The cells exceljs put in its matrix for one range of a name, as a rectangle; null when it put none. */
function rectOf(ref: string): Rect | null {
  const d = decodeEx(ref);
  if ('top' in d) {
    const { top, left, bottom, right } = d;
    // A range missing a row or column side ($A$1:$A) decodes with NaN sides: exceljs adds no cell.
    if (!top || !Number.isFinite(left) || !Number.isFinite(bottom) || !Number.isFinite(right)) return null;
    return { sheetName: d.sheetName, top, left: left!, bottom: bottom!, right: right! };
  }
  if (d.row === undefined || d.col === undefined) return null;
  return { sheetName: d.sheetName, top: d.row, left: d.col, bottom: d.row, right: d.col };
}

/** The text exceljs writes for a rectangle (its Range.$shortRange: a 0 side reads as 1, a sheet name not all letters and digits quoted as given). */
function shortRange(r: Rect): string {
  const sheet = r.sheetName ? (/^[a-zA-Z0-9]*$/.test(r.sheetName) ? `${r.sheetName}!` : `'${r.sheetName}'!`) : '';
  const [top, left, bottom, right] = [r.top || 1, r.left || 1, r.bottom || 1, r.right || 1];
  const tl = `$${columnLetters(left)}$${top}`;
  return (1 + bottom - top) * (1 + right - left) > 1 ? `${sheet}${tl}:$${columnLetters(right)}$${bottom}` : sheet + tl;
}

/**
 * The one rectangle the cells of these rectangles make up (exceljs then found one range), or null.
 * Checked on the grid their edges cut, not cell by cell: a whole column is 1,048,576 cells.
 */
function unionRect(rects: Rect[]): Rect | null {
  if (rects.some((r) => r.sheetName !== rects[0].sheetName)) return null;
  const edges = (a: 'top' | 'left', b: 'bottom' | 'right') =>
    [...new Set(rects.flatMap((r) => [r[a], r[b] + 1]))].sort((x, y) => x - y).slice(0, -1);
  for (const row of edges('top', 'bottom'))
    for (const col of edges('left', 'right'))
      if (!rects.some((r) => r.top <= row && row <= r.bottom && r.left <= col && col <= r.right)) return null;
  return {
    sheetName: rects[0].sheetName,
    top: Math.min(...rects.map((r) => r.top)),
    left: Math.min(...rects.map((r) => r.left)),
    bottom: Math.max(...rects.map((r) => r.bottom)),
    right: Math.max(...rects.map((r) => r.right)),
  };
}

/** exceljs's split of a name's text into ranges (a comma inside a quoted sheet name kept), unreadable ones left out. */
function splitRanges(text: string): string[] {
  const readable = (r: string) => {
    try {
      decodeEx(r);
      return true;
    } catch {
      return false;
    }
  };
  const out: string[] = [];
  let open = false;
  let last = '';
  for (const item of text.split(',')) {
    if (!item) continue;
    const quotes = (item.match(/'/g) ?? []).length;
    if (!quotes) {
      if (open) last += `${item},`;
      else if (readable(item)) out.push(item);
    } else if (!open && quotes % 2 === 0 && readable(item)) out.push(item);
    else if (open && quotes % 2 === 1) {
      open = false;
      if (readable(last + item)) out.push(last + item);
      last = '';
    } else {
      open = true;
      last += `${item},`;
    }
  }
  return out;
}

const DEFINED_NAMES = /<definedNames\b(?:[^>"']|"[^"]*"|'[^']*')*?(?:\/>|>[\s\S]*?<\/definedNames\s*>)/;
const DEFINED_NAME = /<definedName\b((?:[^>"']|"[^"]*"|'[^']*')*?)(?:\/>|>([\s\S]*?)<\/definedName\s*>)/g;
/** exceljs's test that a range is worth a cell matrix ($col$row somewhere after the sheet name). */
const ABSOLUTE_CELL = /[$](\w+)[$](\d+)(:[$](\w+)[$](\d+))?/;

/**
 * The names exceljs loaded from a workbook.xml's <definedNames>, in its order: print areas and
 * print titles are the sheets' print setup, not names; any other name (_xlnm._FilterDatabase,
 * hidden names) is one, and a name on one sheet only (localSheetId) is a workbook name, the last of
 * one name winning at the place of the first; a range not in $A$1 form ($A:$A, a formula) is left
 * out, and a name left with no cell is not listed.
 */
export function definedNamesIn(block: string): DefinedName[] {
  const ranges = new Map<string, string[]>();
  for (const m of block.matchAll(DEFINED_NAME)) {
    const name = attr(m[1], 'name');
    if (name === undefined) continue;
    const decoded = unescapeXml(name);
    if (decoded === '_xlnm.Print_Area' || decoded === '_xlnm.Print_Titles') continue;
    // The XML parser exceljs uses passes neither comments nor CDATA on as text.
    ranges.set(decoded, splitRanges(unescapeXml((m[2] ?? '').replace(/<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>/g, ''))));
  }
  const out: DefinedName[] = [];
  for (const [name, texts] of ranges) {
    const rects = texts
      .filter((t) => ABSOLUTE_CELL.test(t.split('!').pop() ?? ''))
      .map(rectOf)
      .filter((r): r is Rect => r !== null);
    if (!rects.length) continue;
    const one = unionRect(rects);
    out.push({ name, range: one ? shortRange(one) : null });
  }
  return out;
}

/** Reads the defined names of a loaded file and takes them out of its workbook.xml; null when it has none. */
async function takeDefinedNames(zip: JSZip): Promise<DefinedName[] | null> {
  const xml = await zip.file('xl/workbook.xml')?.async('string');
  const m = xml ? DEFINED_NAMES.exec(xml) : null;
  if (!xml || !m) return null;
  zip.file('xl/workbook.xml', xml.slice(0, m.index) + xml.slice(m.index + m[0].length));
  return definedNamesIn(m[0]);
}

/** Elements that follow <definedNames> in a workbook (ECMA-376 CT_Workbook's order). */
const AFTER_DEFINED_NAMES =
  /<(?:calcPr|oleSize|customWorkbookViews|pivotCaches|smartTagPr|smartTagTypes|webPublishing|fileRecoveryPr|webPublishObjects|extLst)\b|<\/workbook\s*>/;

/** A workbook.xml with these names, written as exceljs wrote them, in their place by the schema (after <sheets>, before <calcPr>). */
function withDefinedNames(xml: string, names: DefinedName[]): string {
  const block =
    '<definedNames>' +
    names.map((n) => `<definedName name="${escapeXml(n.name)}">${escapeXml(n.range ?? '')}</definedName>`).join('') +
    '</definedNames>';
  const at = AFTER_DEFINED_NAMES.exec(xml);
  if (!at) throw new Error('saveXlsx: workbook.xml has no end');
  return xml.slice(0, at.index) + block + xml.slice(at.index);
}

// ---- Quote prefix in the XML (exceljs neither reads nor writes it) --------------------------------

function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(tag);
  return m ? (m[1] ?? m[2]) : undefined;
}

const ENTITIES: Record<string, string> = { quot: '"', apos: "'", lt: '<', gt: '>', amp: '&' };
const unescapeXml = (t: string) =>
  t.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|quot|apos|lt|gt|amp);/g, (_, e: string) =>
    e[0] !== '#' ? ENTITIES[e] : String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1))),
  );

/** What exceljs's XML writer does to text and attribute values: the five escapes, control characters dropped. */
const escapeXml = (t: string) => t.replace(/["&'<>\x7f]|[\x00-\x08\x0b\x0c\x0e-\x1f]/g, (c) => (c in ESCAPES ? ESCAPES[c] : ''));
const ESCAPES: Record<string, string> = { '"': '&quot;', '&': '&amp;', "'": '&apos;', '<': '&lt;', '>': '&gt;' };

/** Sheet name -> path of its worksheet part, from workbook.xml and its relationships. */
async function sheetParts(zip: JSZip): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const wbXml = await zip.file('xl/workbook.xml')?.async('string');
  const rels = await zip.file('xl/_rels/workbook.xml.rels')?.async('string');
  if (!wbXml || !rels) return out;
  const targets = new Map<string, string>();
  for (const m of rels.matchAll(/<Relationship\b[^>]*>/g)) {
    const id = attr(m[0], 'Id');
    const target = attr(m[0], 'Target');
    if (id && target) targets.set(id, target.startsWith('/') ? target.slice(1) : 'xl/' + target.replace(/^\.\//, ''));
  }
  for (const m of wbXml.matchAll(/<sheet\b[^>]*>/g)) {
    const name = attr(m[0], 'name');
    const id = attr(m[0], 'r:id');
    const path = id ? targets.get(id) : undefined;
    if (name !== undefined && path) out.set(unescapeXml(name), path);
  }
  return out;
}

/** The <xf> entries of <cellXfs> in styles.xml, and where that block is. */
function cellXfs(styles: string): { xfs: string[]; start: number; end: number } | null {
  const m = /<cellXfs\b[^>]*>([\s\S]*?)<\/cellXfs>/.exec(styles);
  if (!m) return null;
  const xfs = [...m[1].matchAll(/<xf\b[^>]*\/>|<xf\b[^>]*>[\s\S]*?<\/xf>/g)].map((x) => x[0]);
  return { xfs, start: m.index, end: m.index + m[0].length };
}

/** Cells (by address) whose style has quotePrefix="1", per sheet name. */
async function quotePrefixedCells(zip: JSZip): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  const styles = await zip.file('xl/styles.xml')?.async('string');
  const block = styles ? cellXfs(styles) : null;
  if (!block) return out;
  const prefixed = new Set<string>();
  block.xfs.forEach((xf, i) => {
    if (/\squotePrefix="(1|true)"/.test(xf)) prefixed.add(String(i));
  });
  if (!prefixed.size) return out;
  for (const [name, path] of await sheetParts(zip)) {
    const xml = await zip.file(path)?.async('string');
    if (!xml) continue;
    const set = new Set<string>();
    for (const m of xml.matchAll(/<c\b[^>]*>/g)) {
      const s = attr(m[0], 's');
      const r = attr(m[0], 'r');
      if (s !== undefined && r && prefixed.has(s)) set.add(r);
    }
    if (set.size) out.set(name, set);
  }
  return out;
}

/**
 * What exceljs does not write, written into the file it wrote: the quote prefixes, Excel's
 * attributes of text rules, the defined names and the document's state part. JSZip keeps the compressed bytes of the parts left alone, so only the changed ones are packed again.
 */
async function finishXlsx(
  buf: Buffer,
  quoted: Map<string, Set<string>>,
  ruled: Set<string>,
  names: DefinedName[],
  state: string,
): Promise<Buffer> {
  const zip = await jszip().loadAsync(buf);
  if (quoted.size) await markQuotePrefixed(zip, quoted);
  if (ruled.size) await markConditionalRules(zip, ruled);
  if (names.length) {
    const xml = await zip.file('xl/workbook.xml')!.async('string');
    zip.file('xl/workbook.xml', withDefinedNames(xml, names));
  }
  await addStatePart(zip, state);
  return Buffer.from(await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }));
}

/** Excel's operator and `text` on the text and blanks rules exceljs wrote in the `ruled` sheets (xlsx-conditions.ts says which). */
async function markConditionalRules(zip: JSZip, ruled: Set<string>): Promise<void> {
  for (const [name, path] of await sheetParts(zip)) {
    if (!ruled.has(name)) continue;
    const xml = await zip.file(path)?.async('string');
    if (!xml?.includes('<cfRule')) continue;
    const next = xml.replace(/<cfRule\b([^>]*?)(?:\/>|>([\s\S]*?)<\/cfRule>)/g, (rule, attrs: string, body: string | undefined) => {
      const formula = body === undefined ? undefined : /<formula>([\s\S]*?)<\/formula>/.exec(body)?.[1];
      const want = excelRuleAttributes(attr(rule, 'type') ?? '', formula === undefined ? undefined : unescapeXml(formula));
      if (!want) return rule;
      const kept = attrs.replace(/\s(operator|text)="[^"]*"/g, '');
      const added = Object.entries(want)
        .map(([k, v]) => ` ${k}="${escapeXml(v)}"`)
        .join('');
      return body === undefined ? `<cfRule${kept}${added}/>` : `<cfRule${kept}${added}>${body}</cfRule>`;
    });
    zip.file(path, next);
  }
}

/** Gives the listed cells a copy of their style with quotePrefix="1" (as a Sheets download does). */
async function markQuotePrefixed(zip: JSZip, quoted: Map<string, Set<string>>): Promise<void> {
  const styles = await zip.file('xl/styles.xml')!.async('string');
  const block = cellXfs(styles);
  if (!block) throw new Error('saveXlsx: styles.xml has no cellXfs');
  const xfs = [...block.xfs];
  const prefixedOf = new Map<string, number>();
  const prefixed = (s: string): number => {
    let i = prefixedOf.get(s);
    if (i === undefined) {
      const xf = xfs[Number(s)] ?? xfs[0];
      xfs.push(xf.replace(/^<xf\b/, '<xf quotePrefix="1"'));
      i = xfs.length - 1;
      prefixedOf.set(s, i);
    }
    return i;
  };
  for (const [name, path] of await sheetParts(zip)) {
    const cells = quoted.get(name);
    if (!cells) continue;
    const xml = await zip.file(path)!.async('string');
    const next = xml.replace(/<c\b[^>]*>/g, (tag) => {
      const r = attr(tag, 'r');
      if (!r || !cells.has(r)) return tag;
      const s = attr(tag, 's') ?? '0';
      const i = prefixed(s);
      return attr(tag, 's') !== undefined ? tag.replace(/\ss="\d+"/, ` s="${i}"`) : tag.replace(/^<c\b/, `<c s="${i}"`);
    });
    zip.file(path, next);
  }
  const newBlock = `<cellXfs count="${xfs.length}">${xfs.join('')}</cellXfs>`;
  zip.file('xl/styles.xml', styles.slice(0, block.start) + newBlock + styles.slice(block.end));
}

// ---- The document's state, in a custom XML part ---------------------------------------------------

/**
 * What Google keeps with a document besides its cells (its id, its sheets' ids, and the runtime's
 * document state: emulator/gas/document-state.ts) rides in a custom XML part of the package, related
 * from the workbook part (ECMA-376 Part 1, Custom XML Data Storage; content type application/xml). Excel, LibreOffice and Sheets keep or ignore such parts and show nothing of them;
 * no sheet holds it, so no seller sees it.
 */
export const STATE_PART = 'customXml/localAppsScript.xml';
const STATE_NS = 'urn:local-apps-script:document-state';
const CUSTOM_XML_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXml';

function stateXml(wb: WorkbookCore): string {
  // A workbook no runtime is bound to (loaded, edited, saved) keeps the state its file carried.
  const runtime = wb.documentState ? wb.documentState() : (wb.loadedState ?? null);
  // JSON escapes control characters but not DEL, which the XML escape below would drop.
  const body = JSON.stringify({ v: 1, id: wb.id, sheets: wb.sheetIds(), runtime }).replace(/\x7f/g, '\\u007f');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<state xmlns="${STATE_NS}">${escapeXml(body)}</state>`;
}

async function addStatePart(zip: JSZip, xml: string): Promise<void> {
  zip.file(STATE_PART, xml);
  const relsPath = 'xl/_rels/workbook.xml.rels';
  const rels = await zip.file(relsPath)!.async('string');
  const rel = `<Relationship Id="rIdLocalAppsScriptState" Type="${CUSTOM_XML_REL}" Target="../${STATE_PART}"/>`;
  zip.file(relsPath, rels.replace(/<\/Relationships\s*>/, rel + '</Relationships>'));
}

/** The id and runtime state of a file this module saved; a file without the part keeps the new id. */
async function readStatePart(zip: JSZip, wb: WorkbookCore): Promise<void> {
  const xml = await zip.file(STATE_PART)?.async('string');
  const m = xml ? /<state\b[^>]*>([\s\S]*)<\/state\s*>/.exec(xml) : null;
  if (!m) return;
  let parsed: { v?: number; id?: unknown; sheets?: { ids?: unknown; next?: unknown }; runtime?: unknown };
  try {
    parsed = JSON.parse(unescapeXml(m[1]));
  } catch {
    return; // Chosen: an unreadable part is a document without saved state, not an unreadable file.
  }
  if (typeof parsed.id === 'string' && parsed.id) wb.id = parsed.id;
  const ids = parsed.sheets?.ids;
  if (Array.isArray(ids)) wb.restoreSheetIds(ids as Array<[string, number]>, Number(parsed.sheets?.next));
  wb.loadedState = parsed.runtime ?? null;
}
