/**
 * THE column layout of a scan's errors tab: the rows the service could not scan, each with its sheet
 * row and the supplier's inputs as sent. Pure; nothing runs at load time.
 */
import { safeText, textOf } from '../sheet/safe';
import { SHEET_ROW_COLUMN } from '../price-list/mapping';
import { asRecord } from '../price-list/decide';
import { fitted, type ColumnKind } from './columns';

/** An error row of the scan results (tableType=errors). Shape not in the contract: read tolerantly. */
export type ErrorRow = Record<string, unknown>;

export interface ErrorsContext {
  /** Position in the uploaded row's cells of the sheet row number (prepare.ts adds it); -1 when absent. */
  sheetRowField?: number;
}

export interface ErrorColumn {
  key: string;
  header: string;
  width: number;
  kind: ColumnKind;
  get(row: ErrorRow, ctx: ErrorsContext): unknown;
}

/**
 * Position of the sheet-row field in an uploaded row, from the upload attributes (or the options the
 * service echoes with the scan): the custom column named SHEET_ROW_COLUMN. -1 when there is none.
 */
export function sheetRowField(attributes: { mapping?: { custom_columns?: number[] }; options?: { custom_columns?: string[] } }): number {
  const names = (attributes.options && attributes.options.custom_columns) || [];
  const cols = (attributes.mapping && attributes.mapping.custom_columns) || [];
  const i = names.indexOf(SHEET_ROW_COLUMN);
  return i >= 0 && i < cols.length ? cols[i] : -1;
}

function errorSheetRow(row: ErrorRow, ctx: ErrorsContext): unknown {
  const input = row.input;
  const i = ctx.sheetRowField === undefined ? -1 : ctx.sheetRowField;
  if (Array.isArray(input) && i >= 0 && i < input.length) {
    const n = Number(input[i]);
    if (Number.isInteger(n) && n > 0) return n;
  }
  return '';
}

export const ERROR_COLUMNS: readonly ErrorColumn[] = (
  [
    { key: 'sheet_row', header: 'Sheet row', width: 80, kind: 'int', get: errorSheetRow },
    { key: 'line', header: 'File line', width: 70, kind: 'int', get: (r) => (typeof r.line === 'number' ? r.line : '') },
    {
      key: 'identifier',
      header: 'Identifier',
      width: 140,
      kind: 'identifier',
      get: (r) => {
        const v = r.identifier ?? asRecord(r.inputs).identifier;
        return v === null || v === undefined ? '' : v;
      },
    },
    {
      key: 'reason',
      header: 'Reason',
      width: 360,
      kind: 'text',
      get: (r) => {
        const v = r.message ?? r.reason ?? r.error ?? r.code;
        return v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);
      },
    },
  ] satisfies ErrorColumn[]
).map(fitted);

/** Values and formats of a page of error rows for the errors tab. */
export function errorsBlock(
  rows: readonly ErrorRow[],
  ctx: ErrorsContext = {},
): { headers: string[]; values: unknown[][]; formats: (string | null)[]; widths: number[] } {
  return {
    headers: ERROR_COLUMNS.map((c) => c.header),
    values: rows.map((r) =>
      ERROR_COLUMNS.map((c) => {
        const v = c.get(r, ctx);
        if (v === '') return '';
        if (c.kind === 'int') return typeof v === 'number' ? v : safeText(textOf(v));
        return safeText(textOf(v));
      }),
    ),
    formats: ERROR_COLUMNS.map((c) => (c.kind === 'int' ? '0' : null)),
    widths: ERROR_COLUMNS.map((c) => c.width),
  };
}
