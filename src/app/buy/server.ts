/**
 * What to buy (issue 24), from tabs already in the spreadsheet: no request to the Scan Service
 * (everything comes from what the scan already paid for).
 * - makeNegotiateTab: the items of a result tab short of the target ROI today that would reach it at
 *   a discount of at most N %; a new tab "<result> – Negotiate".
 * - makePurchaseOrder: a PO tab "<source> – PO" from result-tab rows or from a Negotiate tab's rows
 *   with an agreed cost; quantities are values the seller edits, everything else sheet formulas.
 * - exportTabCsv: a tab as a CSV file in Drive (a Negotiate tab: only its columns for the supplier),
 *   formula-safe.
 */
import { percentInputToBps, wholeNumberInput } from '../../domain/price-list/option-input';
import { parseMoney } from '../../domain/price-list/cost';
import { toCsv } from '../../domain/price-list/csv';
import { DEFAULT_DECISION, type DecisionOptions } from '../../domain/price-list/decide';
import { FROZEN_COLUMNS } from '../../domain/result-tabs/result-columns';
import { negotiateColumns, PO_COLUMNS } from '../../domain/result-tabs/buy-columns';
import { numberFormatFor, type ColumnKind } from '../../domain/result-tabs/columns';
import { safeText } from '../../domain/sheet/safe';
import { findMarketplace, type Marketplace } from '../../../contract/marketplaces';
import { activeSpreadsheet, documentProperties, saveTextToDrive } from '../../apps-script';
import { asSidebarCall } from '../context';
import { readDecision } from '../records/decision';
import { tabName } from '../../domain/sheet/tab-name';
import { resultTabs } from '../records/tabs';
import { leftOutText, negotiateGrid, negotiateLines, poGrid, readNegotiateTab, readResultTab, sendableRows, type ReadTab } from './plan';
import type { BuyTabResult, NegotiateRequest, PurchaseOrderRequest, TabFileResult } from './protocol';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

const NEGOTIATE_SUFFIX = ' – Negotiate';
const PO_SUFFIX = ' – PO';
/** Rows a PO or Negotiate tab is made from at most (one read; far more than a purchase order has). */
export const MAX_BUY_ROWS = 20_000;

function sourceSheet(name: string | null | undefined): Sheet {
  const ss = activeSpreadsheet();
  if (name) {
    const s = ss.getSheetByName(String(name));
    if (!s) throw new Error('There is no tab "' + name + '" in this spreadsheet.');
    return s;
  }
  return ss.getActiveSheet();
}

/** The scan a result tab belongs to: its decision options and marketplace (defaults for a tab the document has no record of). */
function scanOf(sheet: Sheet): { decision: DecisionOptions; marketplace: Marketplace } {
  const props = documentProperties();
  const tab = resultTabs(activeSpreadsheet(), props).find((t) => t.sheet.getSheetId() === sheet.getSheetId());
  const mp = findMarketplace((tab && tab.record.marketplace) || 'US') || findMarketplace('US')!;
  return { decision: tab ? readDecision(props, tab.scanId) : { ...DEFAULT_DECISION }, marketplace: mp };
}

/** Header and data rows (all, or the given sheet rows) of a tab, in one read. */
function readTab(sheet: Sheet, rows: number[] | null): { header: unknown[]; values: unknown[][]; firstRow: number; picked: number[] } {
  const last = sheet.getLastRow();
  const width = sheet.getLastColumn();
  if (last < 2 || width < 1) throw new Error('"' + sheet.getName() + '" has no rows below its header.');
  if (last - 1 > MAX_BUY_ROWS)
    throw new Error('"' + sheet.getName() + '" has ' + (last - 1) + ' rows; this takes at most ' + MAX_BUY_ROWS + '.');
  const all = sheet.getRange(1, 1, last, width).getValues();
  const header = all[0];
  if (!rows) return { header, values: all.slice(1), firstRow: 2, picked: [] };
  const bad = rows.filter((r) => r < 2 || r > last);
  if (bad.length) throw new Error('Row ' + bad[0] + ' is not a product row of "' + sheet.getName() + '" (rows 2 to ' + last + ').');
  return { header, values: rows.map((r) => all[r - 1]), firstRow: 2, picked: rows };
}

/** "2-40", "2-5, 9" → sheet rows; a message naming what is wrong. */
export function parseRows(text: string): number[] {
  const out: number[] = [];
  for (const part of String(text).split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!m) throw new Error('Rows "' + text + '": write them like 2-40 or 2-5, 9.');
    const a = Number(m[1]);
    const b = m[2] ? Number(m[2]) : a;
    if (b < a) throw new Error('Rows "' + part.trim() + '": the first row comes first.');
    if (b - a + out.length >= MAX_BUY_ROWS) throw new Error('Rows "' + text + '": at most ' + MAX_BUY_ROWS + ' rows.');
    for (let r = a; r <= b; r++) if (out.indexOf(r) < 0) out.push(r);
  }
  return out;
}

/** The selected rows of a tab (header left out), or null when the selection is elsewhere. */
function selectedRows(sheet: Sheet): number[] | null {
  const range = activeSpreadsheet().getActiveRange();
  if (!range || range.getSheet().getSheetId() !== sheet.getSheetId()) return null;
  const r1 = Math.max(2, range.getRow());
  const r2 = Math.min(range.getLastRow(), sheet.getLastRow());
  if (r1 > r2) return null;
  const out: number[] = [];
  for (let r = r1; r <= r2; r++) out.push(r);
  return out;
}

/** A new tab after `after`, with header (bold, notes), values, formats per column, widths, frozen header. */
function writeTab(
  name: string,
  after: Sheet,
  cols: ReadonlyArray<{ header: string; width: number; kind: ColumnKind }>,
  notes: string[],
  values: unknown[][],
  marketplace: Marketplace,
  frozenColumns: number,
): Sheet {
  const ss = activeSpreadsheet();
  const sheet = ss.insertSheet(name, after.getIndex());
  const width = cols.length;
  const rows = values.length + 1;
  if (sheet.getMaxRows() < rows) sheet.insertRowsAfter(sheet.getMaxRows(), rows - sheet.getMaxRows());
  if (sheet.getMaxColumns() < width) sheet.insertColumnsAfter(sheet.getMaxColumns(), width - sheet.getMaxColumns());
  const header = sheet.getRange(1, 1, 1, width);
  header.setValues([cols.map((c) => safeText(c.header))]);
  header.setFontWeight('bold');
  header.setNotes([notes]);
  if (values.length) {
    sheet.getRange(2, 1, values.length, width).setValues(values);
    cols.forEach((c, i) => {
      const f = numberFormatFor(c.kind, marketplace);
      if (f) sheet.getRange(2, i + 1, values.length, 1).setNumberFormat(f);
    });
  }
  cols.forEach((c, i) => sheet.setColumnWidth(i + 1, c.width));
  sheet.setFrozenRows(1);
  if (frozenColumns) sheet.setFrozenColumns(frozenColumns);
  sheet.activate();
  return sheet;
}

/** The name of the tab made from `source`: its name without an earlier " – Negotiate"/" – PO", and the suffix. */
function newTabName(source: string, suffix: string): string {
  return tabName(
    source.replace(/ – (Negotiate|PO)( \(\d+\))?$/, ''),
    activeSpreadsheet()
      .getSheets()
      .map((s) => s.getName()),
    { suffix },
  );
}

/** Sidebar/menu: the Negotiate tab of a result tab. */
export function makeNegotiateTab(request?: NegotiateRequest | null): BuyTabResult {
  return asSidebarCall(() => {
    const req = request || {};
    const sheet = sourceSheet(req.sheetName);
    const scan = scanOf(sheet);
    let maxBps = scan.decision.maxDiscountBps;
    if (req.maxDiscount !== undefined && req.maxDiscount !== null && String(req.maxDiscount).trim() !== '') {
      const bps = percentInputToBps(req.maxDiscount as number | string);
      if (bps === null || bps <= 0 || bps > 10000) throw new Error('Largest discount to ask for must be a percent above 0, at most 100.');
      maxBps = bps;
    }
    const tab = readTab(sheet, null);
    const read = readResultTab(tab.header, tab.values, tab.firstRow, sheet.getName());
    // A tab without "Cost for N% ROI" (no product had a price): the scan's own target.
    if (read.targetRoi === null) read.targetRoi = scan.decision.targetRoiBps / 100;
    const sendable = sendableRows(read.rows);
    const leftOut = leftOutText(sendable.leftOut);
    const lines = negotiateLines(sendable.rows, maxBps / 10000);
    const pct = maxBps / 100;
    if (!lines.length)
      throw new Error(
        'No item of "' +
          sheet.getName() +
          '" is short of ' +
          read.targetRoi +
          '% ROI today and would reach it at a discount of at most ' +
          pct +
          '%. Nothing was written.' +
          (leftOut ? ' ' + leftOut + '.' : ''),
      );
    const grid = negotiateGrid(lines, read.targetRoi || 0);
    const cols = negotiateColumns(read.targetRoi || 0);
    const out = writeTab(newTabName(sheet.getName(), NEGOTIATE_SUFFIX), sheet, cols, grid.notes, grid.values, scan.marketplace, 1);
    return {
      sheetName: out.getName(),
      lines: lines.length,
      message:
        lines.length +
        ' item' +
        (lines.length === 1 ? '' : 's') +
        ' would reach ' +
        read.targetRoi +
        '% ROI at a discount of at most ' +
        pct +
        '%: see "' +
        out.getName() +
        '". Type the costs the supplier agrees to in "Agreed cost", then make a purchase order from that tab. To send it: Export as CSV (the supplier’s columns), or File > Download > Microsoft Excel.' +
        (leftOut ? ' ' + leftOut + '.' : ''),
    };
  });
}

function optionalNumber(v: unknown, what: string, money: boolean): number | null {
  if (v === undefined || v === null || String(v).trim() === '') return null;
  if (money) {
    const r = parseMoney(v, { allowZero: true, label: what });
    if (!r.ok) throw new Error(r.message);
    return r.cents / 100;
  }
  const n = wholeNumberInput(v as number | string, 1);
  if (n === null) throw new Error(what + ' must be a whole number of 1 or more.');
  return n;
}

/** Sidebar/menu/headless: a purchase order from result-tab rows or a Negotiate tab. */
export function makePurchaseOrder(request?: PurchaseOrderRequest | null): BuyTabResult {
  return asSidebarCall(() => {
    const req = request || {};
    const sheet = sourceSheet(req.sheetName);
    const scan = scanOf(sheet);
    const months = optionalNumber(req.months, 'Months of cover', false);
    if (months !== null && months > 24) throw new Error('Months of cover must be a whole number from 1 to 24.');
    const cash = optionalNumber(req.cash, 'Cash you have', true);
    const days = optionalNumber(req.days, 'Days to sell through', false);
    const headerRow = sheet
      .getRange(1, 1, 1, Math.max(1, sheet.getLastColumn()))
      .getValues()[0]
      .map((x) => String(x).trim());
    const fromNegotiate = headerRow.indexOf('Agreed cost') >= 0;
    let rows = req.rows ? parseRows(req.rows) : selectedRows(sheet);
    if (!rows && !fromNegotiate)
      throw new Error('Select the rows to order in "' + sheet.getName() + '" (or give rows like 2-40), then make the purchase order.');
    if (fromNegotiate && rows && !req.rows && rows.length === 1) rows = null; // one cell clicked in a Negotiate tab: every agreed row
    const tab = readTab(sheet, rows);
    let read: ReadTab;
    if (fromNegotiate) {
      read = readNegotiateTab(tab.header, tab.values, tab.firstRow);
      if (!read.rows.length)
        throw new Error(
          'No row of "' + sheet.getName() + '" has an Agreed cost yet. Type the costs the supplier agreed to, then try again.',
        );
    } else read = readResultTab(tab.header, tab.values, tab.firstRow, sheet.getName());
    if (tab.picked.length) read.rows.forEach((r, i) => (r.sheetRow = tab.picked[i] ?? r.sheetRow));
    // (a Negotiate tab's rows came from a result tab through the same check)
    const sendable = sendableRows(read.rows);
    const grid = poGrid(
      sendable.rows,
      { months: months || scan.decision.monthsOfCover, cashLimit: cash, daysLimit: days },
      read.casePackFrom,
    );
    const leftOut = leftOutText(sendable.leftOut);
    if (leftOut) grid.skipped.unshift(leftOut);
    if (!grid.lines) throw new Error('None of the rows can be ordered: ' + grid.skipped.join('; ') + '. Nothing was written.');
    const out = writeTab(
      newTabName(sheet.getName(), PO_SUFFIX),
      sheet,
      PO_COLUMNS,
      grid.notes,
      grid.values,
      scan.marketplace,
      FROZEN_COLUMNS,
    );
    const totalRow = grid.lines + 3;
    out.getRange(totalRow, 1, 3, 1).setFontWeight('bold');
    // The cash the seller set is money; the days a count.
    out.getRange(totalRow + 1, 2).setNumberFormat(scan.marketplace.moneyFormat);
    out.getRange(totalRow + 2, 2).setNumberFormat('#,##0');
    return {
      sheetName: out.getName(),
      lines: grid.lines,
      message:
        'Purchase order "' +
        out.getName() +
        '": ' +
        grid.lines +
        ' line' +
        (grid.lines === 1 ? '' : 's') +
        '. Edit Quantity: cost, cash, profit, days and totals are sheet formulas and follow.' +
        (grid.skipped.length ? ' ' + grid.skipped.join('; ') + '.' : ''),
    };
  });
}

/** A CSV field a spreadsheet program will not run as a formula (OWASP: = + - @ tab CR first get an apostrophe). */
export function csvSafe(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? "'" + text : text;
}

/** Sidebar/menu: a tab as a CSV file in Drive (a Negotiate tab: only the supplier's columns), as the cells show. */
export function exportTabCsv(sheetName?: string | null): TabFileResult {
  return asSidebarCall(() => {
    const sheet = sourceSheet(sheetName);
    const last = sheet.getLastRow();
    const width = sheet.getLastColumn();
    if (last < 1 || width < 1) throw new Error('"' + sheet.getName() + '" is empty.');
    const shown = sheet.getRange(1, 1, last, width).getDisplayValues();
    const supplier = negotiateColumns(0)
      .filter((c) => c.supplier)
      .map((c) => c.header);
    const isNegotiate = shown[0].indexOf('Agreed cost') >= 0;
    const keep = isNegotiate
      ? shown[0].map((h, i) => (supplier.indexOf(h) >= 0 || /^Cost needed/.test(h) ? i : -1)).filter((i) => i >= 0)
      : null;
    const rows = shown.map((r) => (keep ? keep.map((i) => r[i]) : r).map((v) => csvSafe(String(v))));
    const fileName =
      sheet
        .getName()
        .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ')
        .trim() + '.csv';
    const url = saveTextToDrive(fileName, 'text/csv', toCsv(rows));
    return {
      fileName,
      url,
      message:
        'Saved "' +
        fileName +
        '" to your Drive' +
        (keep ? ' (the columns for the supplier)' : '') +
        '. For Excel: File > Download > Microsoft Excel with the tab open.',
    };
  });
}
