/**
 * Hostile uploads of issue 14 (and legitimate big ones to compare), built in memory: a minimal
 * ZIP writer (so a part can declare a size it does not have) and the XLSX parts around one sheet.
 * Used by bench/service-hostile.ts and test/service/hostile-uploads.test.ts.
 */
import { constants, createDeflateRaw, crc32, deflateRawSync } from 'node:zlib';

interface Part {
  name: string;
  /** Deflated bytes, their CRC and real size. */
  packed: Buffer;
  crc: number;
  size: number;
  /** Size written in the headers (default: the real one). */
  declared?: number;
}

function part(name: string, data: Buffer | string): Part {
  const raw = Buffer.isBuffer(data) ? data : Buffer.from(data, 'utf8');
  return { name, packed: deflateRawSync(raw, { level: 9 }), crc: crc32(raw), size: raw.length };
}

/** A ZIP of deflated parts (no data descriptors, no ZIP64). */
export function zip(parts: Part[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name, 'utf8');
    const size = p.declared ?? p.size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(p.crc >>> 0, 14);
    local.writeUInt32LE(p.packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(p.crc >>> 0, 16);
    central.writeUInt32LE(p.packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, p.packed);
    centrals.push(central, name);
    offset += 30 + name.length + p.packed.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** An XLSX whose first sheet is `sheet` (an already deflated part named xl/worksheets/sheet1.xml). */
export function xlsxAround(sheet: Part): Buffer {
  return zip([
    part(
      '[Content_Types].xml',
      `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
    ),
    part(
      '_rels/.rels',
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    part(
      'xl/workbook.xml',
      `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${NS}" xmlns:r="${REL}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    part(
      'xl/_rels/workbook.xml.rels',
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    ),
    sheet,
  ]);
}

const SHEET_HEAD = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${NS}"><sheetData>`;
const SHEET_TAIL = '</sheetData></worksheet>';

/** A sheet part deflated as a stream from `pieces` (so a 1 GiB sheet never exists in memory). */
async function streamedSheet(pieces: () => Iterable<string | Buffer>, level = 6): Promise<Part> {
  const deflate = createDeflateRaw({ level });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((r) => deflate.on('end', r));
  let crc = 0;
  let size = 0;
  for (const p of pieces()) {
    const b = Buffer.isBuffer(p) ? p : Buffer.from(p, 'utf8');
    crc = crc32(b, crc);
    size += b.length;
    if (!deflate.write(b)) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  return { name: 'xl/worksheets/sheet1.xml', packed: Buffer.concat(out), crc, size };
}

export interface Upload {
  what: string;
  filename: string;
  data: Buffer;
}

/** ~1.6 KB: one row, numbered 30,000,000. */
export function rowThirtyMillion(): Upload {
  const sheet = part(
    'xl/worksheets/sheet1.xml',
    `${SHEET_HEAD}<row r="30000000"><c r="A30000000" t="inlineStr"><is><t>036000291452</t></is></c><c r="B30000000"><v>3.5</v></c></row>${SHEET_TAIL}`,
  );
  return { what: 'XLSX, one row numbered 30,000,000', filename: 'row-30m.xlsx', data: xlsxAround(sheet) };
}

/** 20 MiB of blank lines (under the 32 MiB upload limit). */
export function blankLinesCsv(): Upload {
  return { what: 'CSV, 20 MiB of blank lines', filename: 'blank.csv', data: Buffer.alloc(20 * 1024 * 1024, '\n') };
}

/** 3,000,000 tiny rows. */
export async function threeMillionRows(): Promise<Upload> {
  const sheet = await streamedSheet(function* () {
    yield SHEET_HEAD;
    const rows: string[] = [];
    for (let r = 1; r <= 3_000_000; r++) {
      rows.push(`<row r="${r}"><c><v>1</v></c></row>`);
      if (rows.length === 10_000) yield rows.splice(0).join('');
    }
    yield rows.join('');
    yield SHEET_TAIL;
  });
  return { what: 'XLSX, 3,000,000 tiny rows', filename: 'rows-3m.xlsx', data: xlsxAround(sheet) };
}

/**
 * A sheet that unpacks to 1 GiB; `lying`: its headers declare 1 KiB. Deflating 1 GiB takes about 3 s
 * of CPU, so the sheet is built as raw deflate pieces that each end on a full flush (byte-aligned, no
 * shared history; what pigz does): one mebibyte of spaces is deflated once and its bytes repeated.
 * Unpacked, it is the same 1 GiB a single stream would give.
 */
export async function gigabyteSheet(lying = false): Promise<Upload> {
  const mib = Buffer.alloc(1024 * 1024, ' ');
  const flushed = { finishFlush: constants.Z_FULL_FLUSH };
  const head = Buffer.from(SHEET_HEAD, 'utf8');
  const tail = Buffer.from(SHEET_TAIL, 'utf8');
  const packedMib = deflateRawSync(mib, flushed);
  const packed: Buffer[] = [deflateRawSync(head, flushed)];
  let crc = crc32(head);
  for (let i = 0; i < 1024; i++) {
    packed.push(packedMib);
    crc = crc32(mib, crc);
  }
  packed.push(deflateRawSync(tail)); // the last piece ends the stream (its final block)
  crc = crc32(tail, crc);
  const sheet: Part = {
    name: 'xl/worksheets/sheet1.xml',
    packed: Buffer.concat(packed),
    crc,
    size: head.length + 1024 * mib.length + tail.length,
  };
  if (lying) sheet.declared = 1024;
  return {
    what: `XLSX unpacking to 1 GiB${lying ? ' (declaring 1 KiB)' : ''}`,
    filename: lying ? 'bomb-lying.xlsx' : 'bomb.xlsx',
    data: xlsxAround(sheet),
  };
}

/** A legitimate price list of `n` rows (header + UPC, cost, title, stock), CSV or XLSX. */
export async function priceList(n: number, kind: 'csv' | 'xlsx'): Promise<Upload> {
  const upc = (i: number) => {
    const body = String(10_000_000 + i).padStart(11, '0');
    let sum = 0;
    for (let k = body.length - 1, w = 3; k >= 0; k--, w = w === 3 ? 1 : 3) sum += Number(body[k]) * w;
    return body + ((10 - (sum % 10)) % 10);
  };
  if (kind === 'csv') {
    const lines = ['UPC,Cost,Title,Stock'];
    for (let i = 0; i < n; i++) lines.push(`${upc(i)},${(3 + (i % 50) / 10).toFixed(2)},Product number ${i},${i % 40}`);
    return { what: `CSV, ${n.toLocaleString('en-US')} rows`, filename: 'list.csv', data: Buffer.from(lines.join('\n') + '\n') };
  }
  const sheet = await streamedSheet(function* () {
    yield SHEET_HEAD +
      '<row r="1"><c r="A1" t="inlineStr"><is><t>UPC</t></is></c><c r="B1" t="inlineStr"><is><t>Cost</t></is></c><c r="C1" t="inlineStr"><is><t>Title</t></is></c><c r="D1" t="inlineStr"><is><t>Stock</t></is></c></row>';
    const rows: string[] = [];
    for (let i = 0; i < n; i++) {
      const r = i + 2;
      rows.push(
        `<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>${upc(i)}</t></is></c><c r="B${r}"><v>${(3 + (i % 50) / 10).toFixed(2)}</v></c><c r="C${r}" t="inlineStr"><is><t>Product number ${i}</t></is></c><c r="D${r}"><v>${i % 40}</v></c></row>`,
      );
      if (rows.length === 5_000) yield rows.splice(0).join('');
    }
    yield rows.join('') + SHEET_TAIL;
  });
  return { what: `XLSX, ${n.toLocaleString('en-US')} rows`, filename: 'list.xlsx', data: xlsxAround(sheet) };
}

/** Largest resident set of a process so far (Linux VmHWM), in MiB. */
export function peakRssMiB(pid: number): number {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const status = (require('node:fs') as typeof import('node:fs')).readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmHWM:\s+(\d+) kB/.exec(status);
  if (!m) throw new Error(`no VmHWM for process ${pid}`);
  return Number(m[1]) / 1024;
}
