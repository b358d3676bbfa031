/**
 * XLSX load/save with exceljs: values (text stays text, numbers stay numbers), formulas (with their
 * cached results; custom-function spills as array formulas), number formats, notes, named ranges,
 * frozen panes, hidden sheets, bold, font colours, backgrounds, alignment, wrap, hyperlinks and
 * column widths. Saving also writes each sheet's filter (as an autofilter) and its conditional format
 * rules of the kinds the add-on uses (number comparisons, text contains, empty/not empty), so a tab
 * opened in another spreadsheet program looks as it does in Sheets; and booleans carry a TRUE/FALSE
 * number format, without which LibreOffice shows them as 0 and 1.
 */
import ExcelJS from 'exceljs';
import { parseA1, quoteSheetName, rangeA1 } from './a1';
import { Area, Cell, DEFAULT_COLUMNS, DEFAULT_COLUMN_WIDTH, DEFAULT_ROWS, SheetModel, WorkbookCore, liveArea } from './model';
import { isDateFormat, isDate, truncate15, DATE_FORMAT } from './values';
import { isAutomatic } from './format';
import { formulasOf } from './formulas';

const MS_PER_DAY = 86400000;
const EPOCH_MS = Date.UTC(1899, 11, 30);

/** XLSX dates are wall-clock serials; exceljs hands them over as UTC Dates. */
const dateToWallSerial = (d: Date) => (d.getTime() - EPOCH_MS) / MS_PER_DAY;
const wallSerialToDate = (s: number) => new Date(Math.round(s * MS_PER_DAY) + EPOCH_MS);

/** Column widths: Excel counts characters, Sheets pixels (chosen: px = chars * 7 + 5, 8.43 chars = 64 px). */
const charsToPx = (w: number) => Math.round(w * 7 + 5);
const pxToChars = (px: number) => Math.max(0, (px - 5) / 7);

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
  if (typeof value === 'number') cell.v = truncate15(value);
  else if (typeof value === 'string') cell.v = value === '' ? undefined : value;
  else if (typeof value === 'boolean') cell.v = value;
  else if (isDate(value)) {
    cell.v = dateToWallSerial(value);
    if (!isDateFormat(fmt)) cell.fmt = DATE_FORMAT;
  } else if (typeof value === 'object' && value && 'error' in value) cell.v = String((value as { error: string }).error);
}

export async function loadXlsx(wb: WorkbookCore, data: Buffer | string): Promise<void> {
  const x = new ExcelJS.Workbook();
  const arrays: Array<{ sheet: SheetModel; r1: number; c1: number; r2: number; c2: number }> = [];
  if (typeof data === 'string') await x.xlsx.readFile(data);
  else await x.xlsx.load(data as unknown as ArrayBuffer);
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
    ws.eachRow({ includeEmpty: false }, (row, r) => {
      row.eachCell({ includeEmpty: false }, (xc, c) => {
        const cell = sh.ensure(r, c);
        // The boolean format this module writes is the XLSX way of saying "a boolean": Sheets has no format there.
        const fmt =
          xc.numFmt && xc.numFmt !== 'General' && !(xc.numFmt === BOOLEAN_FORMAT && typeof xc.value === 'boolean') ? xc.numFmt : undefined;
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
      });
    });
  });
  // Array formulas: the other cells of the array are this formula's spill (claimed on recalculate()).
  for (const a of arrays) {
    const anchor = a.sheet.cell(a.r1, a.c1);
    if (anchor) anchor.loadedSpill = { rows: a.r2 - a.r1 + 1, cols: a.c2 - a.c1 + 1 };
  }
  for (const dn of (x.definedNames as unknown as { model: Array<{ name: string; ranges: string[] }> }).model) {
    const ref = dn.ranges.length === 1 ? parseA1(dn.ranges[0]) : null;
    if (!ref || ref.sheetName === undefined) continue;
    const sheet = wb.sheetByName(ref.sheetName);
    if (!sheet) continue;
    const area: Area = { sheet, r1: ref.r1 ?? 1, c1: ref.c1 ?? 1, r2: ref.r2 ?? sheet.maxRows, c2: ref.c2 ?? sheet.maxCols };
    if (ref.r1 === null || ref.c1 === null || ref.r2 === null || ref.c2 === null)
      area.open = { r1: ref.r1 === null, c1: ref.c1 === null, r2: ref.r2 === null, c2: ref.c2 === null };
    wb.namedRanges.set(dn.name, { name: dn.name, area });
  }
  wb.activeSheet = wb.sheets.find((s) => !s.hidden) ?? wb.sheets[0] ?? null;
}

/** What LibreOffice itself writes for a boolean cell: without it, booleans read back as 0/1 there. */
export const BOOLEAN_FORMAT = '"TRUE";"TRUE";"FALSE"';

interface RuleShape {
  criteria: string | null;
  values: unknown[];
  background: string | null;
  fontColor: string | null;
  bold: boolean | null;
  ranges: Array<{ _r: number; _c: number; _nr: number; _nc: number }>;
}

const CELL_IS: Record<string, string> = {
  NUMBER_GREATER_THAN: 'greaterThan',
  NUMBER_GREATER_THAN_OR_EQUAL_TO: 'greaterThanOrEqual',
  NUMBER_LESS_THAN: 'lessThan',
  NUMBER_LESS_THAN_OR_EQUAL_TO: 'lessThanOrEqual',
  NUMBER_EQUAL_TO: 'equal',
  NUMBER_NOT_EQUAL_TO: 'notEqual',
  NUMBER_BETWEEN: 'between',
  NUMBER_NOT_BETWEEN: 'notBetween',
};

/** A Sheets conditional format rule as exceljs writes it; null for kinds not written (gradients, formulas). */
function conditionalForXlsx(rule: unknown): ExcelJS.ConditionalFormattingOptions | null {
  const d = (rule as { d?: RuleShape }).d;
  if (!d || !d.criteria || !d.ranges.length) return null;
  const style: ExcelJS.Style = {} as ExcelJS.Style;
  if (d.background) style.fill = { type: 'pattern', pattern: 'solid', bgColor: { argb: hexToArgb(d.background) } };
  if (d.fontColor || d.bold)
    style.font = { ...(d.bold ? { bold: true } : {}), ...(d.fontColor ? { color: { argb: hexToArgb(d.fontColor) } } : {}) };
  let x: ExcelJS.ConditionalFormattingRule;
  const op = CELL_IS[d.criteria];
  if (op)
    x = { type: 'cellIs', operator: op, formulae: d.values.map((v) => String(v)), style, priority: 1 } as ExcelJS.ConditionalFormattingRule;
  else if (d.criteria === 'TEXT_CONTAINS' || d.criteria === 'TEXT_DOES_NOT_CONTAIN') {
    x = {
      type: 'containsText',
      operator: d.criteria === 'TEXT_CONTAINS' ? 'containsText' : 'notContains',
      text: String(d.values[0] ?? ''),
      style,
      priority: 1,
    } as ExcelJS.ConditionalFormattingRule;
  } else if (d.criteria === 'CELL_EMPTY' || d.criteria === 'CELL_NOT_EMPTY') {
    x = {
      type: 'containsText',
      operator: d.criteria === 'CELL_EMPTY' ? 'containsBlanks' : 'notContainsBlanks',
      style,
      priority: 1,
    } as ExcelJS.ConditionalFormattingRule;
  } else return null;
  const ref = d.ranges.map((g) => rangeA1(g._r, g._c, g._r + g._nr - 1, g._c + g._nc - 1)).join(' ');
  return { ref, rules: [x] };
}

function valueForXlsx(c: Cell): ExcelJS.CellValue {
  const v = c.v;
  if (v === undefined || v === '') return null;
  if (typeof v === 'number' && isDateFormat(c.fmt)) return wallSerialToDate(v);
  return v;
}

export async function saveXlsx(wb: WorkbookCore): Promise<Buffer> {
  const x = new ExcelJS.Workbook();
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
      }),
    );
    if (sh.filter) ws.autoFilter = rangeA1(sh.filter.r1, sh.filter.c1, sh.filter.r2, sh.filter.c2);
    for (const rule of sh.cfRules) {
      const cf = conditionalForXlsx(rule);
      if (cf) ws.addConditionalFormatting(cf);
    }
  }
  for (const nr of wb.namedRanges.values()) {
    // exceljs drops open defined names ($A$2:$A) without a word, so an open range is saved as its
    // current extent (it no longer grows after a round trip; loading keeps open names other tools wrote).
    const a = liveArea(nr.area);
    const abs = (r: number, c: number) => rangeA1(r, c, r, c).replace(/^([A-Z]+)(\d+)$/, '$$$1$$$2');
    const loc = `${quoteSheetName(a.sheet.name)}!${abs(a.r1, a.c1)}${a.r1 === a.r2 && a.c1 === a.c2 ? '' : ':' + abs(a.r2, a.c2)}`;
    x.definedNames.add(loc, nr.name);
  }
  return Buffer.from(await x.xlsx.writeBuffer());
}
