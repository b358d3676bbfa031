/**
 * Reading result rows out of the database, and the download file layouts (CSV, XLSX, JSON) that the
 * `downloadScan` operation of scans.yaml documents: dotted column names in `ScanProduct` order.
 */
import { PassThrough } from 'node:stream';
import type ExcelJSModule from 'exceljs';
import type Database from 'better-sqlite3';
import { resultFields, type ColumnField } from './fields';
import type { RowQuery, TableType } from './query';

let excel: typeof ExcelJSModule | undefined;
/** exceljs (and the zip packages it loads) only when an XLSX is first written: a start does not pay for it. */
function exceljs(): typeof ExcelJSModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  excel ??= require('exceljs') as typeof ExcelJSModule;
  return excel;
}

/** Whether this process has loaded exceljs here (a test checks that starting and scanning never do). */
export function xlsxWriterLoaded(): boolean {
  return excel !== undefined;
}

const TABLES: Record<TableType, string> = { products: 'scan_products', errors: 'scan_errors' };

/** JSON text of each row with its `id` first (rows are stored without it). */
export function selectRowJson(
  db: Database.Database,
  scanId: number,
  table: TableType,
  q: RowQuery,
  page?: { limit: number; offset: number },
): string[] {
  const sql =
    `SELECT '{"id":' || id || ',' || substr(data, 2) AS j FROM ${TABLES[table]} WHERE scan_id = ?${q.where} ORDER BY ${q.orderBy}` +
    (page ? ' LIMIT ? OFFSET ?' : '');
  const params = [scanId, ...q.params, ...(page ? [page.limit, page.offset] : [])];
  return db
    .prepare(sql)
    .pluck()
    .all(...params) as string[];
}

export function countRows(db: Database.Database, scanId: number, table: TableType, q: RowQuery): number {
  return db
    .prepare(`SELECT count(*) FROM ${TABLES[table]} WHERE scan_id = ?${q.where}`)
    .pluck()
    .get(scanId, ...q.params) as number;
}

type Cell = string | number | boolean | null;
interface Column {
  header: string;
  get(row: Record<string, any>): unknown;
}

function pick(row: Record<string, any>, path: string): unknown {
  let v: any = row;
  for (const k of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = v[k];
  }
  return v;
}

/** Columns of a download; custom columns become one column each, named after options.custom_columns. */
export function downloadColumns(table: TableType, options: { custom_columns?: string[] }, customCount: number): Column[] {
  const f = resultFields();
  const fields: ColumnField[] = table === 'products' ? f.productColumns : f.errorColumns;
  const cols: Column[] = [];
  for (const field of fields) {
    if (field.name === 'inputs.custom_columns') {
      for (let i = 0; i < customCount; i++) {
        const name = options.custom_columns?.[i] ?? String(i + 1);
        cols.push({ header: `inputs.custom_columns.${name}`, get: (r) => r.inputs?.custom_columns?.[i] });
      }
    } else cols.push({ header: field.name, get: (r) => pick(r, field.name) });
  }
  return cols;
}

/** A cell value: scalars as they are, string arrays joined with `|`, anything else as JSON text. */
function cellValue(v: unknown): Cell {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.join('|');
  return JSON.stringify(v);
}

/** Text a spreadsheet program could run as a formula when it opens the CSV (OWASP's list of leading characters). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain decimal number, such as -2.5 or +3: opened as a number, so it stays as it is. */
const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * CSV injection (OWASP): a text cell starting with = + - @ tab or CR gets a leading `'`, so a
 * spreadsheet program shows it as text instead of running it; real numbers are left as numbers.
 */
export function neutraliseFormula(s: string): string {
  return FORMULA_START.test(s) && !PLAIN_NUMBER.test(s) ? `'${s}` : s;
}

function csvField(v: Cell): string {
  if (v === null) return '';
  const s = typeof v === 'string' ? neutraliseFormula(v) : String(v);
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

/** CSV text (UTF-8, CRLF line ends as RFC 4180, header row first). */
export function toCsv(columns: Column[], rows: string[]): string {
  const out: string[] = [columns.map((c) => csvField(c.header)).join(',')];
  for (const json of rows) {
    const row = JSON.parse(json);
    out.push(columns.map((c) => csvField(cellValue(c.get(row)))).join(','));
  }
  return out.join('\r\n') + '\r\n';
}

/**
 * XLSX workbook: one sheet, header row (frozen) then rows; numbers and booleans typed. Written with
 * exceljs's streaming writer, several times faster than building the workbook in memory. The file's
 * dates (document properties and every zip entry) are `stamp` (when the scan finished), not the
 * time of the download, so the same results download to the same bytes.
 */
export async function toXlsx(columns: Column[], rows: string[], sheetName: string, stamp: Date): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  // The writer's zip stream ends `out`; wait for the last chunk, not just for commit().
  const ended = new Promise((resolve, reject) => out.on('end', resolve).on('error', reject));
  const { WorkbookWriter } = exceljs().stream.xlsx;
  const wb = new WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: false });
  wb.created = stamp;
  wb.modified = stamp;
  const ws = wb.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.addRow(columns.map((c) => c.header)).commit();
  for (const json of rows) {
    const row = JSON.parse(json);
    ws.addRow(columns.map((c) => cellValue(c.get(row)))).commit();
  }
  ws.commit();
  await wb.commit();
  await ended;
  // exceljs's zip writer dates some entries "now" whatever it is told: set every entry's date.
  return stampZipEntries(Buffer.concat(chunks), stamp);
}

/** DOS time and date of a moment (local fields of a ZIP entry; UTC here, 2-second resolution, 1980 at the earliest). */
function dosDateTime(d: Date): { time: number; date: number } {
  const y = Math.max(1980, d.getUTCFullYear());
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((y - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

/**
 * Sets the modification time of every entry of a ZIP (central directory and local headers) to
 * `stamp`, so that the same content always gives the same bytes. Leaves the buffer as it is when
 * its end record cannot be found (never expected of our own writer's output).
 */
export function stampZipEntries(zip: Buffer, stamp: Date): Buffer {
  const { time, date } = dosDateTime(stamp);
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 65535); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return zip;
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  for (let n = 0; n < count && at + 46 <= zip.length && zip.readUInt32LE(at) === 0x02014b50; n++) {
    zip.writeUInt16LE(time, at + 12);
    zip.writeUInt16LE(date, at + 14);
    const local = zip.readUInt32LE(at + 42);
    if (local + 30 <= zip.length && zip.readUInt32LE(local) === 0x04034b50) {
      zip.writeUInt16LE(time, local + 10);
      zip.writeUInt16LE(date, local + 12);
    }
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return zip;
}
