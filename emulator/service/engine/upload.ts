/**
 * Reads an uploaded supplier price list into rows of cell text. The kind is told by the bytes,
 * not the name: a ZIP (PK\x03\x04) is read as XLSX, anything else that decodes as text as CSV.
 * Row i of the result is line i+1 of the file (CSV record / worksheet row), blank ones included,
 * so error rows can name the line the user sees.
 */
import ExcelJS from 'exceljs';
import { UploadError } from './types';

const startsWith = (b: Buffer, sig: number[]) => sig.every((x, i) => b[i] === x);

export async function parseUpload(data: Buffer, filename: string, _mimetype: string): Promise<string[][]> {
  const name = filename || 'the file';
  if (data.length === 0) throw new UploadError(`${name} is empty.`);
  if (startsWith(data, [0x50, 0x4b, 0x03, 0x04])) return parseXlsx(data, name);
  if (startsWith(data, [0xd0, 0xcf, 0x11, 0xe0])) {
    throw new UploadError(`${name} is an Excel 97-2003 (.xls) or password-protected workbook; save it as .xlsx without a password, or as .csv, and upload again.`);
  }
  if (startsWith(data, [0x25, 0x50, 0x44, 0x46])) throw new UploadError(`${name} is a PDF; upload a CSV or XLSX file.`);
  if (startsWith(data, [0x50, 0x4b])) throw new UploadError(`${name} is a ZIP archive that is not an XLSX workbook.`);
  const text = decodeText(data, name);
  if (text.trim() === '') throw new UploadError(`${name} has no rows.`);
  return parseCsv(text, name);
}

/**
 * UTF-8 (BOM optional); UTF-16 with its BOM (Excel's "Unicode text", tab-separated); a file that
 * is not valid UTF-8 is read as Windows-1252, as Excel writes CSV on Windows.
 */
function decodeText(data: Buffer, name: string): string {
  if (startsWith(data, [0xff, 0xfe])) return new TextDecoder('utf-16le').decode(data.subarray(2));
  if (startsWith(data, [0xfe, 0xff])) return new TextDecoder('utf-16be').decode(data.subarray(2));
  const head = data.subarray(0, 65536);
  let controls = 0;
  for (const b of head) {
    if (b === 0) throw new UploadError(`${name} is not a CSV or XLSX file (it contains binary data).`);
    if (b < 9 || (b > 13 && b < 32 && b !== 27)) controls++;
  }
  if (controls > head.length / 100) throw new UploadError(`${name} is not a CSV or XLSX file (it contains binary data).`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    text = decodeWindows1252(data);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

// Bytes 0x80-0x9F of Windows-1252 (Node's decoder treats them as Latin-1 control characters).
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

function decodeWindows1252(data: Buffer): string {
  let out = '';
  for (let i = 0; i < data.length; i += 8192) {
    const chunk = data.subarray(i, i + 8192);
    out += String.fromCharCode(...Array.from(chunk, (b) => (b >= 0x80 && b <= 0x9f ? CP1252_HIGH.charCodeAt(b - 0x80) : b)));
  }
  return out;
}

/** The delimiter of the first record: the most frequent of , ; and tab outside quotes (comma on ties). */
function detectDelimiter(text: string): string {
  const counts: Record<string, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && c in counts) counts[c]++;
  }
  return counts[';'] > counts[','] && counts[';'] >= counts['\t'] ? ';' : counts['\t'] > counts[','] ? '\t' : ',';
}

/**
 * RFC 4180: fields separated by the delimiter, records by CRLF, LF or CR; a quoted field may hold
 * delimiters, line breaks and doubled quotes. A quote inside an unquoted field is kept as text.
 * A quoted field still open at the end of the file is an error (the file was cut or is malformed).
 */
export function parseCsv(text: string, name = 'the file'): string[][] {
  const delim = detectDelimiter(text);
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let line = 1;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === '"' && field === '') {
      const startLine = line;
      i++;
      for (;;) {
        if (i >= n) throw new UploadError(`${name}: the quoted field that starts on line ${startLine} is never closed.`);
        const q = text[i];
        if (q === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (q === '\n') line++;
        field += q;
        i++;
      }
      // Text after the closing quote (e.g. `"a"b`) is kept, as spreadsheets do.
      while (i < n && text[i] !== delim && text[i] !== '\n' && text[i] !== '\r') field += text[i++];
      continue;
    }
    if (c === delim) {
      row.push(field);
      field = '';
      i++;
    } else if (c === '\n' || c === '\r') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line++;
    } else {
      field += c;
      i++;
    }
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** A number as a person reads it in the cell: no float artefacts (0.1+0.2 -> "0.3"), no exponent for integers. */
export function numberText(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v) && Math.abs(v) < 1e21) return BigInt(v).toString();
  return String(Number(v.toPrecision(15)));
}

function cellText(v: ExcelJS.CellValue, numFmt?: string): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  // A percentage cell stores 0.05 for "5%": give the text the user sees, which a discount column reads.
  if (typeof v === 'number') return numFmt && /%/.test(numFmt.replace(/"[^"]*"/g, '')) ? numberText(Number((v * 100).toPrecision(15))) + '%' : numberText(v);
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (v instanceof Date) return v.toISOString().replace(/T00:00:00\.000Z$/, '').replace(/\.000Z$/, 'Z');
  if (typeof v === 'object') {
    if ('richText' in v && Array.isArray(v.richText)) return v.richText.map((r) => r.text).join('');
    if ('formula' in v || 'sharedFormula' in v) return cellText((v as ExcelJS.CellFormulaValue).result as ExcelJS.CellValue, numFmt);
    if ('hyperlink' in v) return cellText((v as ExcelJS.CellHyperlinkValue).text as ExcelJS.CellValue);
    if ('error' in v) return String((v as ExcelJS.CellErrorValue).error);
    if ('text' in v) return String((v as { text: unknown }).text);
  }
  return String(v);
}

/** First worksheet; row n of the sheet is line n (missing rows are empty arrays). */
async function parseXlsx(data: Buffer, name: string): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(data as unknown as ArrayBuffer);
  } catch (e) {
    throw new UploadError(`${name} could not be read as an XLSX workbook (${(e as Error).message}).`);
  }
  const ws = wb.worksheets[0];
  if (!ws) throw new UploadError(`${name} has no worksheet.`);
  const rows: string[][] = [];
  ws.eachRow({ includeEmpty: true }, (r, n) => {
    const cells: string[] = [];
    r.eachCell({ includeEmpty: true }, (cell, c) => {
      while (cells.length < c - 1) cells.push('');
      // exceljs repeats a merged range's value in every cell; like a CSV export, keep it in the first only.
      cells[c - 1] = cell.isMerged && cell.master !== cell ? '' : cellText(cell.value, cell.numFmt);
    });
    while (cells.length && cells[cells.length - 1] === '') cells.pop();
    while (rows.length < n - 1) rows.push([]);
    rows[n - 1] = cells;
  });
  if (rows.every((r) => r.every((c) => c.trim() === ''))) throw new UploadError(`${name} has no rows in its first worksheet.`);
  return rows;
}
