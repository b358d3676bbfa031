/**
 * The New scan's pure planning: what the form offers, which columns are read in how many calls,
 * when a block is too large to read, names. No Apps Script call (tested in test/addon and
 * test/unit through the scan flow).
 */
import { COLUMN_ROLES, columnLetter, roleLabel, type ColumnRole } from '../../domain/price-list/mapping';
import type { PreparedScan } from '../../domain/price-list/prepare';
import type { UploadAttributes } from '../../domain/price-list/attributes';
import { PICTURE_COLUMN, uploadColumns } from '../../domain/result-tabs/result-columns';
import type { ColumnSet } from '../../domain/result-tabs/all-columns';
import { count } from '../../../contract/numbers';
import { cutText } from '../../domain/sheet/safe';

/** Rows read for the setup (header search looks at the first 30, samples at 200 below it). */
export const SETUP_ROWS = 260;
/** The service's maximum of data lines per upload (scans.yaml). */
export const MAX_LINES = 100_000;
/** Columns of a block the form can offer (each gets a dropdown); wider blocks are refused before reading. */
export const MAX_COLUMNS = 250;
/**
 * Mapped cells a preview or start reads (values and display values of each): 2,000,000 are
 * modelled at about 40 s of the 6 minutes, leaving the upload its UPLOAD_BUDGET_MS.
 */
export const MAX_READ_CELLS = 2_000_000;
/** Cells of the rows handed to prepareScan (first to last mapped column, unmapped ones left empty). */
export const MAX_SPAN_CELLS = 5_000_000;
/** Unmapped cells between two runs that are cheaper to read than a second pair of read calls. */
export const MERGE_GAP_CELLS = 2_000;

/** Contiguous runs [first, last] (block column indices) of the columns whose role is not 'ignore'; close runs merged. */
export function mappedRuns(roles: readonly string[], rows: number): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  roles.forEach((role, i) => {
    if (role === 'ignore') return;
    const last = runs[runs.length - 1];
    if (last && (i === last[1] + 1 || (i - last[1] - 1) * rows <= MERGE_GAP_CELLS)) last[1] = i;
    else runs.push([i, i]);
  });
  return runs;
}

/** Why a block is too large to read for a preview or start, or null. Nothing is read to decide. */
export function readRefusal(
  numRows: number,
  numColumns: number,
  runs: ReadonlyArray<[number, number]>,
  firstColumn: number,
): string | null {
  const cells = runs.reduce((a, r) => a + (r[1] - r[0] + 1) * numRows, 0);
  const mapped = runs.reduce((a, r) => a + r[1] - r[0] + 1, 0);
  if (cells > MAX_READ_CELLS) {
    return (
      'The list is too large to read at once: ' +
      count(numRows) +
      ' rows x ' +
      mapped +
      ' chosen columns = ' +
      count(cells) +
      ' cells (at most ' +
      count(MAX_READ_CELLS) +
      '). ' +
      'Set fewer columns to be sent (custom columns to "' +
      roleLabel('ignore') +
      '"), or select fewer rows (with the header row) and scan the list in parts.'
    );
  }
  if (runs.length) {
    const span = runs[runs.length - 1][1] - runs[0][0] + 1;
    if (span * numRows > MAX_SPAN_CELLS) {
      return (
        'The chosen columns ' +
        columnLetter(firstColumn + runs[0][0] - 1) +
        ' to ' +
        columnLetter(firstColumn + runs[runs.length - 1][1] - 1) +
        ' span ' +
        span +
        ' columns x ' +
        count(numRows) +
        ' rows = ' +
        count(span * numRows) +
        ' cells (at most ' +
        count(MAX_SPAN_CELLS) +
        '). Choose columns closer together, or select fewer rows (with the header row) and scan the list in parts.'
      );
    }
  }
  void numColumns;
  return null;
}

export function isBlankRow(row: readonly unknown[]): boolean {
  return row.every((v) => v === '' || v === null || v === undefined);
}

/** Roles in dropdown order with their labels. */
export function roleChoices(): Array<{ role: ColumnRole; label: string }> {
  return COLUMN_ROLES.map((role) => ({ role, label: roleLabel(role) }));
}

/** Default scan name: "<sheet name> <yyyy-mm-dd>" in the spreadsheet's time zone. */
export function defaultScanName(sheetName: string, date: string): string {
  return (sheetName.trim() || 'Scan') + ' ' + date;
}

/**
 * A pack column next to a cost that says it is per unit ("Unit Cost", "Cost each") is the carton
 * size, for information: mapped as the pack quantity it would divide that cost again (the shipped
 * sample's README says so for "Case Pack"). It is suggested as a custom column instead, so it still
 * travels with the results. (The header rules in src/domain/price-list/header.ts do not look at two columns at
 * once; this does.)
 */
export function perUnitCostPacks<T extends { header: string; role: ColumnRole }>(columns: T[]): T[] {
  const cost = columns.find((c) => c.role === 'cost');
  if (!cost || !/\b(unit|each|ea|per (unit|item|piece|pc))\b/i.test(cost.header)) return columns;
  return columns.map((c) => (c.role === 'pack_quantity' ? { ...c, role: 'custom' as ColumnRole } : c));
}

/** Why a prepared scan cannot go, in one message. */
export function scanRefusal(p: PreparedScan): string {
  return 'The scan was not started: ' + p.problems.map((x) => x.message).join(' ');
}

/** A file name from the scan name: no path separators or control characters, at most 100 characters. */
export function safeFileName(name: string): string {
  // (cut by character: never half an emoji)
  const s = cutText(
    String(name)
      .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
    100,
  );
  return s || 'scan';
}

/**
 * The result tab's columns for an upload, as the room check counts them: the layout of `set` less the
 * columns the service fills with nothing the seller gave, less Picture when pictures are off.
 */
export function resultTabWidth(attributes: UploadAttributes, pictures: boolean, set: ColumnSet): number {
  const { options, mapping } = attributes;
  return uploadColumns(
    options.custom_columns || [],
    options.pull_historical_data === true,
    mapping as Record<string, unknown>,
    options as Record<string, unknown>,
    set,
  ).filter((c) => pictures || c.key !== PICTURE_COLUMN.key).length;
}
