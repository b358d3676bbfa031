/**
 * Reads an uploaded supplier price list into rows of cell text, as a stream: rows are handed to the
 * caller one at a time and the limits (UPLOAD_LIMITS: lines, columns, cell size, and for XLSX the
 * unpacked size and compression ratio) are checked while reading, so a hostile file is refused
 * early with memory bounded by the limits, not by what the file claims. The reader yields to the
 * event loop between chunks, so other requests are answered meanwhile.
 *
 * The kind is told by the bytes, not the name: a ZIP (PK\x03\x04) is read as XLSX, anything else
 * that decodes as text as CSV. Row i is line i+1 of the file (CSV record / worksheet row), blank
 * ones included, so error rows can name the line the user sees.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { SaxesParser } from 'saxes';
import { UploadError } from './types';

export interface UploadLimits {
  /** Lines (CSV records / worksheet rows) of the file, blank ones included. */
  maxLines: number;
  /** Cells in one line. */
  maxColumns: number;
  /** Characters in one cell (Excel's own cell limit). */
  maxCellChars: number;
  /** XLSX: bytes unpacked from the parts read (sheet, shared strings, styles, workbook). */
  maxUnpackedBytes: number;
  /** XLSX: unpacked / packed size of one part above 1 MiB. */
  maxRatio: number;
}

export const UPLOAD_LIMITS: UploadLimits = {
  maxLines: 1_000_000,
  maxColumns: 1_000,
  maxCellChars: 32_767,
  maxUnpackedBytes: 256 * 1024 * 1024,
  maxRatio: 200,
};

/** A limit broken while reading: 413 for the size of what the file unpacks to, 422 for its content. */
export class UploadLimitError extends UploadError {
  constructor(
    readonly status: 413 | 422,
    readonly limit: keyof UploadLimits | 'maxDataLines',
    message: string,
  ) {
    super(message);
  }
}

/** Called with each line's cells (1-based line number); may throw to stop reading. */
export type RowSink = (cells: string[], line: number) => void;

const startsWith = (b: Buffer, sig: number[]) => sig.every((x, i) => b[i] === x);
const fmt = (n: number) => n.toLocaleString('en-US');

/** Every line of the upload, in order, to `onRow`; throws UploadError (UploadLimitError for a limit). */
export async function readUpload(data: Buffer, filename: string, onRow: RowSink, limits: UploadLimits = UPLOAD_LIMITS): Promise<void> {
  const name = filename || 'the file';
  if (data.length === 0) throw new UploadError(`${name} is empty.`);
  if (startsWith(data, [0x50, 0x4b, 0x03, 0x04])) return readXlsx(data, name, onRow, limits);
  if (startsWith(data, [0xd0, 0xcf, 0x11, 0xe0])) {
    throw new UploadError(
      `${name} is an Excel 97-2003 (.xls) or password-protected workbook; save it as .xlsx without a password, or as .csv, and upload again.`,
    );
  }
  if (startsWith(data, [0x25, 0x50, 0x44, 0x46])) throw new UploadError(`${name} is a PDF; upload a CSV or XLSX file.`);
  if (startsWith(data, [0x50, 0x4b])) throw new UploadError(`${name} is a ZIP archive that is not an XLSX workbook.`);
  return readCsv(data, name, onRow, limits);
}

/** All rows at once (small files, tests, tools); the same limits apply. */
export async function parseUpload(
  data: Buffer,
  filename: string,
  _mimetype: string,
  limits: UploadLimits = UPLOAD_LIMITS,
): Promise<string[][]> {
  const rows: string[][] = [];
  await readUpload(data, filename, (cells) => void rows.push(cells), limits);
  return rows;
}

// ---------------------------------------------------------------------------------------------
// CSV

/**
 * UTF-8 (BOM optional); UTF-16 with its BOM (Excel's "Unicode text", tab-separated); a file that
 * is not valid UTF-8 is read as Windows-1252, as Excel writes CSV on Windows.
 */
async function textEncoding(
  data: Buffer,
  name: string,
): Promise<{ encoding: 'utf-16le' | 'utf-16be' | 'utf-8' | 'windows-1252'; skip: number }> {
  if (startsWith(data, [0xff, 0xfe])) return { encoding: 'utf-16le', skip: 2 };
  if (startsWith(data, [0xfe, 0xff])) return { encoding: 'utf-16be', skip: 2 };
  const head = data.subarray(0, 65536);
  let controls = 0;
  for (const b of head) {
    if (b === 0) throw new UploadError(`${name} is not a CSV or XLSX file (it contains binary data).`);
    if (b < 9 || (b > 13 && b < 32 && b !== 27)) controls++;
  }
  if (controls > head.length / 100) throw new UploadError(`${name} is not a CSV or XLSX file (it contains binary data).`);
  // Valid UTF-8 is checked without building the text (the whole buffer is already in memory).
  try {
    const d = new TextDecoder('utf-8', { fatal: true });
    for (let i = 0; i < data.length; i += CHUNK) {
      d.decode(data.subarray(i, i + CHUNK), { stream: true });
      if (i % (16 * CHUNK) === 0) await yieldToLoop();
    }
    d.decode();
    return { encoding: 'utf-8', skip: startsWith(data, [0xef, 0xbb, 0xbf]) ? 3 : 0 };
  } catch {
    return { encoding: 'windows-1252', skip: 0 };
  }
}

const CHUNK = 256 * 1024;

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

const enum S {
  Field, // at a field's start or in an unquoted field
  Quoted,
  QuoteInQuoted, // a quote inside a quoted field: doubled, or the closing one
  AfterQuote, // text after a closing quote, kept as it is until the next delimiter
}

/**
 * RFC 4180, fed in pieces: fields separated by the delimiter, records by CRLF, LF or CR; a quoted
 * field may hold delimiters, line breaks and doubled quotes. A quote inside an unquoted field is
 * kept as text, and so is text after a closing quote (`"a"b`), as spreadsheets do. A quoted field
 * still open at the end is an error (the file was cut or is malformed).
 */
class CsvReader {
  private state = S.Field;
  private field = '';
  private row: string[] = [];
  private rows = 0;
  private line = 1;
  private quoteLine = 0;
  private pendingCR = false;
  private sawText = false;
  constructor(
    private readonly delim: string,
    private readonly name: string,
    private readonly onRow: RowSink,
    private readonly limits: UploadLimits,
  ) {}

  private cellTooLong(): never {
    throw new UploadLimitError(
      422,
      'maxCellChars',
      `${this.name}: a cell on line ${this.rows + 1} is longer than ${fmt(this.limits.maxCellChars)} characters, the most a cell may hold.`,
    );
  }
  private endField(): void {
    if (this.row.length >= this.limits.maxColumns)
      throw new UploadLimitError(
        422,
        'maxColumns',
        `${this.name}: line ${this.rows + 1} has more than ${fmt(this.limits.maxColumns)} columns, the most a line may have.`,
      );
    this.row.push(this.field);
    this.field = '';
    this.state = S.Field;
  }
  private endRow(): void {
    this.endField();
    if (this.rows >= this.limits.maxLines)
      throw new UploadLimitError(
        422,
        'maxLines',
        `${this.name} has more than ${fmt(this.limits.maxLines)} lines (blank ones included), the most a file may have.`,
      );
    this.rows++;
    const row = this.row;
    this.row = [];
    this.onRow(row, this.rows);
  }

  push(text: string): void {
    const { delim } = this;
    const max = this.limits.maxCellChars;
    let i = 0;
    const n = text.length;
    if (this.pendingCR && n > 0) {
      this.pendingCR = false;
      if (text[0] === '\n') i = 1;
    }
    while (i < n) {
      const c = text[i];
      switch (this.state) {
        case S.Quoted: {
          // Copy the run up to the next quote at once.
          const q = text.indexOf('"', i);
          const end = q < 0 ? n : q;
          if (this.field.length + (end - i) > max) this.cellTooLong();
          const run = text.slice(i, end);
          for (let k = run.indexOf('\n'); k >= 0; k = run.indexOf('\n', k + 1)) this.line++;
          this.field += run;
          i = end;
          if (q >= 0) {
            this.state = S.QuoteInQuoted;
            i++;
          }
          continue;
        }
        case S.QuoteInQuoted:
          if (c === '"') {
            this.field += '"';
            this.state = S.Quoted;
            i++;
            continue;
          }
          this.state = S.AfterQuote;
          continue; // the same character again, after the closing quote
        default:
          break;
      }
      if (c === delim) {
        if (delim !== '\t') this.sawText = true;
        this.endField();
        i++;
      } else if (c === '\n' || c === '\r') {
        this.endRow();
        this.line++;
        if (c === '\r') {
          if (i + 1 < n) {
            if (text[i + 1] === '\n') i++;
          } else this.pendingCR = true;
        }
        i++;
      } else if (c === '"' && this.field === '' && this.state === S.Field) {
        this.state = S.Quoted;
        this.quoteLine = this.line;
        this.sawText = true;
        i++;
      } else {
        // An unquoted run up to the next delimiter, line break or quote.
        let j = i + 1;
        while (j < n) {
          const d = text[j];
          if (d === delim || d === '\n' || d === '\r') break;
          j++;
        }
        if (this.field.length + (j - i) > max) this.cellTooLong();
        const run = text.slice(i, j);
        if (!this.sawText && run.trim() !== '') this.sawText = true;
        this.field += run;
        i = j;
      }
    }
  }

  end(): void {
    if (this.state === S.Quoted)
      throw new UploadError(`${this.name}: the quoted field that starts on line ${this.quoteLine} is never closed.`);
    if (this.field !== '' || this.row.length > 0 || this.state === S.QuoteInQuoted || this.state === S.AfterQuote) this.endRow();
  }

  /** True once any cell held more than white space. */
  hasText(): boolean {
    return this.sawText;
  }
}

async function readCsv(data: Buffer, name: string, onRow: RowSink, limits: UploadLimits): Promise<void> {
  const { encoding, skip } = await textEncoding(data, name);
  const decoder = encoding === 'windows-1252' ? undefined : new TextDecoder(encoding);
  let reader: CsvReader | undefined;
  for (let i = skip; i < data.length; i += CHUNK) {
    const bytes = data.subarray(i, Math.min(i + CHUNK, data.length));
    let text = decoder ? decoder.decode(bytes, { stream: i + CHUNK < data.length }) : decodeWindows1252(bytes);
    if (!reader) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      reader = new CsvReader(detectDelimiter(text), name, onRow, limits);
    }
    reader.push(text);
    await yieldToLoop();
  }
  if (!reader) throw new UploadError(`${name} has no rows.`);
  reader.end();
  if (!reader.hasText()) throw new UploadError(`${name} has no rows.`);
}

/** The rows of CSV text (the same reader, for tests and tools). */
export function parseCsv(text: string, name = 'the file', limits: UploadLimits = UPLOAD_LIMITS): string[][] {
  const rows: string[][] = [];
  const reader = new CsvReader(detectDelimiter(text), name, (cells) => void rows.push(cells), limits);
  reader.push(text);
  reader.end();
  return rows;
}

/** A number as a person reads it in the cell: no float artefacts (0.1+0.2 -> "0.3"), no exponent for integers. */
export function numberText(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v) && Math.abs(v) < 1e21) return BigInt(v).toString();
  return String(Number(v.toPrecision(15)));
}

// ---------------------------------------------------------------------------------------------
// XLSX: the ZIP's central directory (yauzl) gives each part's declared sizes, checked before any
// byte is unpacked; each part is then inflated as a stream whose real size is checked as it grows
// (yauzl refuses a part longer than declared) and read with a SAX parser, so nothing but the
// shared strings and one row is ever held.

const BUILTIN_FORMATS: Record<number, string> = {
  9: '0%',
  10: '0.00%',
  14: 'mm-dd-yy',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'm/d/yy h:mm',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mmss.0',
};
const isPercentFmt = (f: string) => /%/.test(f.replace(/"[^"]*"/g, ''));
const isDateFmt = (f: string) => /[ymdhMsb]+/.test(f.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, ''));

function openZip(data: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(data, { lazyEntries: true, validateEntrySizes: true, decodeStrings: true }, (err, zip) =>
      err ? reject(err) : resolve(zip),
    ),
  );
}

function listEntries(zip: yauzl.ZipFile): Promise<Map<string, yauzl.Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, yauzl.Entry>();
    zip.on('entry', (e: yauzl.Entry) => {
      if (entries.size > 10_000) return reject(new UploadError('has more than 10,000 parts'));
      entries.set(e.fileName.replace(/^\/+/, ''), e);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', reject);
    zip.readEntry();
  });
}

class XlsxReader {
  private unpacked = 0;
  constructor(
    private readonly zip: yauzl.ZipFile,
    private readonly entries: Map<string, yauzl.Entry>,
    private readonly name: string,
    private readonly limits: UploadLimits,
  ) {}

  private tooBig(what: string, size: number): never {
    throw new UploadLimitError(
      413,
      'maxUnpackedBytes',
      `${this.name} unpacks to more than ${fmt(this.limits.maxUnpackedBytes / 1024 / 1024)} MiB (${what}: ${fmt(Math.ceil(size / 1024 / 1024))} MiB), the most an upload may unpack to.`,
    );
  }

  /** Streams one part through `onText` (decoded UTF-8 pieces); false when the part is absent. */
  async read(path: string, onText: (text: string) => void): Promise<boolean> {
    const entry = this.entries.get(path);
    if (!entry) return false;
    const { maxRatio, maxUnpackedBytes } = this.limits;
    const declared = entry.uncompressedSize;
    if (this.unpacked + declared > maxUnpackedBytes) this.tooBig(path, this.unpacked + declared);
    if (declared > 1024 * 1024 && declared > Math.max(1, entry.compressedSize) * maxRatio)
      throw new UploadLimitError(
        413,
        'maxRatio',
        `${this.name}: ${path} unpacks ${fmt(Math.round(declared / Math.max(1, entry.compressedSize)))} times its packed size; at most ${maxRatio} times is accepted (a ZIP bomb looks like this).`,
      );
    const stream: Readable = await new Promise((resolve, reject) =>
      this.zip.openReadStream(entry, (err, st) => (err ? reject(err) : resolve(st))),
    );
    const decoder = new TextDecoder('utf-8');
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        this.unpacked += chunk.length;
        if (this.unpacked > maxUnpackedBytes) this.tooBig(path, this.unpacked);
        onText(decoder.decode(chunk, { stream: true }));
        await yieldToLoop();
      }
    } catch (e) {
      // yauzl stops a part that unpacks to more than its header says (validateEntrySizes).
      if (/too many bytes in the stream/.test((e as Error).message ?? ''))
        throw new UploadLimitError(
          413,
          'maxUnpackedBytes',
          `${this.name}: ${path} unpacks to more than the ${fmt(declared)} bytes its header declares; refused before unpacking the rest.`,
        );
      throw e;
    } finally {
      stream.destroy();
    }
    onText(decoder.decode());
    return true;
  }
}

/** A SAX parser over a part; `onText` feeds it. Element names are compared without their prefix. */
function sax(handlers: { open?(name: string, attrs: Record<string, string>): void; close?(name: string): void; text?(t: string): void }) {
  const p = new SaxesParser({ xmlns: false, position: false });
  const local = (n: string) => n.slice(n.indexOf(':') + 1);
  p.on('opentag', (t) => handlers.open?.(local(t.name), t.attributes as Record<string, string>));
  p.on('closetag', (t) => handlers.close?.(local(t.name)));
  if (handlers.text) {
    const h = handlers.text;
    p.on('text', h);
    p.on('cdata', h);
  }
  let failure: unknown;
  let wrote = false;
  p.on('error', (e) => {
    failure ??= e;
  });
  return {
    write(text: string) {
      if (failure) throw failure;
      if (text.trim()) wrote = true;
      if (text) p.write(text);
      if (failure) throw failure;
    },
    close() {
      if (!wrote) return; // an empty part (some writers leave one): nothing in it
      if (!failure) p.close();
      if (failure) throw failure;
    },
  };
}

async function readXlsx(data: Buffer, name: string, onRow: RowSink, limits: UploadLimits): Promise<void> {
  const unreadable = (e: unknown) => new UploadError(`${name} could not be read as an XLSX workbook (${(e as Error).message}).`);
  let zip: yauzl.ZipFile;
  let entries: Map<string, yauzl.Entry>;
  try {
    zip = await openZip(data);
    entries = await listEntries(zip);
  } catch (e) {
    throw e instanceof UploadError ? new UploadError(`${name} ${e.message}.`) : unreadable(e);
  }
  try {
    await readWorkbook(new XlsxReader(zip, entries, name, limits), name, onRow, limits);
  } catch (e) {
    if (e instanceof UploadError) throw e;
    throw unreadable(e);
  } finally {
    zip.close();
  }
}

/** Refuses a text longer than a cell may hold. */
function textTooLong(name: string, limits: UploadLimits): never {
  throw new UploadLimitError(
    422,
    'maxCellChars',
    `${name}: a text is longer than ${fmt(limits.maxCellChars)} characters, the most a cell may hold.`,
  );
}

/** The first worksheet's part (workbook.xml names it, its relationship gives the part), and whether dates count from 1904. */
async function firstSheetOf(r: XlsxReader, name: string): Promise<{ sheetPath: string; date1904: boolean }> {
  let firstSheetRel: string | undefined;
  let date1904 = false;
  const wb = sax({
    open(n, a) {
      if (n === 'sheet' && firstSheetRel === undefined)
        firstSheetRel = a['r:id'] ?? Object.entries(a).find(([k]) => /(^|:)id$/.test(k) && k !== 'sheetId')?.[1] ?? '';
      if (n === 'workbookPr' && (a.date1904 === '1' || a.date1904 === 'true')) date1904 = true;
    },
  });
  if (!(await r.read('xl/workbook.xml', (t) => wb.write(t)))) throw new UploadError('no workbook part');
  wb.close();
  if (firstSheetRel === undefined) throw new UploadError(`${name} has no worksheet.`);
  let target: string | undefined;
  const rels = sax({
    open(n, a) {
      if (n === 'Relationship' && a.Id === firstSheetRel) target = a.Target;
    },
  });
  await r.read('xl/_rels/workbook.xml.rels', (t) => rels.write(t));
  rels.close();
  const sheetPath = !target ? 'xl/worksheets/sheet1.xml' : target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`;
  return { sheetPath, date1904 };
}

/** The number format of each cell style (percent and date cells read as the user sees them). */
async function styleFormatsOf(r: XlsxReader): Promise<string[]> {
  const customFormats = new Map<number, string>();
  const styleFormats: string[] = [];
  let inCellXfs = false;
  const styles = sax({
    open(n, a) {
      if (n === 'numFmt') customFormats.set(Number(a.numFmtId), a.formatCode ?? '');
      else if (n === 'cellXfs') inCellXfs = true;
      else if (n === 'xf' && inCellXfs) {
        const id = Number(a.numFmtId ?? 0);
        styleFormats.push(customFormats.get(id) ?? BUILTIN_FORMATS[id] ?? '');
      }
    },
    close(n) {
      if (n === 'cellXfs') inCellXfs = false;
    },
  });
  await r.read('xl/styles.xml', (t) => styles.write(t));
  styles.close();
  return styleFormats;
}

/** The shared strings: rich text runs joined, phonetic guides (rPh) left out; a text over the cell limit is refused. */
async function sharedStringsOf(r: XlsxReader, name: string, limits: UploadLimits): Promise<string[]> {
  const strings: string[] = [];
  let si: string | undefined;
  let inT = false;
  let inPhonetic = 0;
  const tooLong = () => textTooLong(name, limits);
  const sst = sax({
    open(n) {
      if (n === 'si') si = '';
      else if (n === 'rPh') inPhonetic++;
      else if (n === 't') inT = true;
    },
    close(n) {
      if (n === 'si') {
        strings.push(si ?? '');
        si = undefined;
      } else if (n === 'rPh') inPhonetic--;
      else if (n === 't') inT = false;
    },
    text(t) {
      if (si !== undefined && inT && !inPhonetic) {
        si += t;
        if (si.length > limits.maxCellChars) tooLong();
      }
    },
  });
  await r.read('xl/sharedStrings.xml', (t) => sst.write(t));
  sst.close();
  return strings;
}

async function readWorkbook(r: XlsxReader, name: string, onRow: RowSink, limits: UploadLimits): Promise<void> {
  const { sheetPath, date1904 } = await firstSheetOf(r, name);
  // Number formats of the cell styles (percent and date cells read as the user sees them).
  const styleFormats = await styleFormatsOf(r);
  // Shared strings: rich text runs joined, phonetic guides (rPh) left out.
  const strings = await sharedStringsOf(r, name, limits);
  const tooLong = () => textTooLong(name, limits);

  // The sheet, row by row.
  let line = 0;
  let cells: string[] | undefined;
  let col = 0;
  let cell: { type: string; style: number } | undefined;
  let value = '';
  let inValue = false;
  let inInline = 0;
  let inInlineT = false;
  let anyText = false;
  const colOf = (ref: string | undefined) => {
    const m = ref ? /^([A-Z]+)/i.exec(ref) : null;
    if (!m) return col + 1;
    let c = 0;
    for (const ch of m[1].toUpperCase()) c = c * 26 + (ch.charCodeAt(0) - 64);
    return c;
  };
  const sheet = sax({
    open(n, a) {
      if (n === 'row') {
        const r = a.r !== undefined ? Number(a.r) : line + 1;
        if (!Number.isSafeInteger(r) || r < 1) throw new UploadError(`${name}: a row has the number "${a.r}".`);
        if (r > limits.maxLines)
          throw new UploadLimitError(
            422,
            'maxLines',
            `${name}: row ${fmt(r)} of the first worksheet is beyond ${fmt(limits.maxLines)} lines, the most a file may have.`,
          );
        while (line < r - 1) onRow([], ++line); // rows the sheet leaves out are blank lines
        cells = [];
        col = 0;
      } else if (n === 'c' && cells) {
        const c = colOf(a.r);
        if (c > limits.maxColumns)
          throw new UploadLimitError(
            422,
            'maxColumns',
            `${name}: line ${fmt(line + 1)} has a cell in column ${fmt(c)}, beyond ${fmt(limits.maxColumns)} columns, the most a line may have.`,
          );
        col = c;
        cell = { type: a.t ?? 'n', style: Number(a.s ?? 0) };
        value = '';
      } else if (n === 'v' && cell) inValue = true;
      else if (n === 'is' && cell) inInline++;
      else if (n === 'rPh')
        inInline += 1000; // phonetic guide inside inline text: skipped
      else if (n === 't' && inInline > 0 && inInline < 1000) inInlineT = true;
    },
    close(n) {
      if (n === 'v') inValue = false;
      else if (n === 'is') inInline--;
      else if (n === 'rPh') inInline -= 1000;
      else if (n === 't') inInlineT = false;
      else if (n === 'c' && cell && cells) {
        const text = cellValue(cell.type, value, styleFormats[cell.style] ?? '', strings, date1904);
        if (text !== '') {
          while (cells.length < col - 1) cells.push('');
          cells[col - 1] = text;
          if (text.trim() !== '') anyText = true;
        }
        cell = undefined;
      } else if (n === 'row' && cells) {
        while (cells.length && cells[cells.length - 1] === '') cells.pop();
        onRow(cells, ++line);
        cells = undefined;
      }
    },
    text(t) {
      if (cell && (inValue || inInlineT)) {
        value += t;
        if (value.length > limits.maxCellChars) tooLong();
      }
    },
  });
  if (!(await r.read(sheetPath, (t) => sheet.write(t)))) throw new UploadError(`${name} has no worksheet.`);
  sheet.close();
  if (!anyText) throw new UploadError(`${name} has no rows in its first worksheet.`);
}

function cellValue(type: string, v: string, format: string, strings: string[], date1904: boolean): string {
  switch (type) {
    case 's':
      return strings[Number(v)] ?? '';
    case 'str':
    case 'inlineStr':
      return v;
    case 'b':
      return v === '' ? '' : v === '1' || v === 'true' ? 'TRUE' : 'FALSE';
    case 'e':
      return v;
    case 'd':
      return v === '' ? '' : dateText(new Date(v));
    default: {
      if (v.trim() === '') return '';
      const x = Number(v);
      if (!Number.isFinite(x)) return v;
      if (format && isDateFmt(format)) return dateText(new Date(Math.round((x - 25569 + (date1904 ? 1462 : 0)) * 24 * 3600 * 1000)));
      // A percentage cell stores 0.05 for "5%": give the text the user sees, which a discount column reads.
      if (format && isPercentFmt(format)) return numberText(Number((x * 100).toPrecision(15))) + '%';
      return numberText(x);
    }
  }
}

function dateText(d: Date): string {
  if (Number.isNaN(d.getTime())) return '';
  return d
    .toISOString()
    .replace(/T00:00:00\.000Z$/, '')
    .replace(/\.000Z$/, 'Z');
}
