/** parseUpload: CSV (RFC 4180) and XLSX into rows of cell text; clear errors for anything else. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { numberText, parseCsv, parseUpload } from '../../../emulator/service/engine/upload';

const csv = (s: string | Buffer) => parseUpload(Buffer.isBuffer(s) ? s : Buffer.from(s, 'utf8'), 'list.csv', 'text/csv');

async function xlsx(build: (ws: ExcelJS.Worksheet, wb: ExcelJS.Workbook) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  build(wb.addWorksheet('Sheet1'), wb);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe('CSV', () => {
  it('reads quoted commas, doubled quotes and line breaks inside quotes', async () => {
    expect(await csv('UPC,Title,Cost\r\n036000291452,"Bowl, ""large""\nblue",12.50\r\n')).toEqual([
      ['UPC', 'Title', 'Cost'],
      ['036000291452', 'Bowl, "large"\nblue', '12.50'],
    ]);
  });
  it('accepts LF, CRLF and CR line ends, no final line end, and strips a UTF-8 BOM', async () => {
    expect(await csv('\ufeffa,b\nc,d\r\ne,f\rg,h')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
      ['g', 'h'],
    ]);
  });
  it('keeps blank lines as rows so that line numbers match the file', async () => {
    const rows = await csv('h1,h2\n1,2\n\n3,4\n');
    expect(rows).toEqual([['h1', 'h2'], ['1', '2'], [''], ['3', '4']]);
  });
  it('detects semicolon and tab delimiters from the first record', async () => {
    expect(await csv('UPC;Cost\n036000291452;"1.299,00"\n')).toEqual([
      ['UPC', 'Cost'],
      ['036000291452', '1.299,00'],
    ]);
    expect(await csv('UPC\tCost\n036000291452\t12,5\n')).toEqual([
      ['UPC', 'Cost'],
      ['036000291452', '12,5'],
    ]);
  });
  it('keeps empty fields and a quote inside an unquoted field as text', async () => {
    expect(await csv('a,,c,\n5" screen,x\n')).toEqual([
      ['a', '', 'c', ''],
      ['5" screen', 'x'],
    ]);
  });
  it('keeps a value that starts with "=" as plain text', async () => {
    expect((await csv('=HYPERLINK("x"),1\n'))[0][0]).toBe('=HYPERLINK("x")');
  });
  it('reads UTF-16 with a byte order mark (Excel "Unicode text", tab-separated)', async () => {
    const text = 'UPC\tCost\r\n036000291452\t12,50 €\r\n';
    expect(await csv(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]))).toEqual([
      ['UPC', 'Cost'],
      ['036000291452', '12,50 €'],
    ]);
    const be = Buffer.from(text, 'utf16le').swap16();
    expect(await csv(Buffer.concat([Buffer.from([0xfe, 0xff]), be]))).toEqual([
      ['UPC', 'Cost'],
      ['036000291452', '12,50 €'],
    ]);
  });
  it('reads a file that is not UTF-8 as Windows-1252', async () => {
    expect(await csv(Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x2c, 0x80, 0x31, 0x0a]))).toEqual([['Café', '€1']]);
  });
  it('refuses a quoted field that is never closed, naming the line', async () => {
    await expect(csv('a,b\n1,"open\n2,3\n')).rejects.toThrow(/line 2 is never closed/);
  });
  it('parseCsv alone handles an empty last field', () => {
    expect(parseCsv('a,\n')).toEqual([['a', '']]);
  });
});

describe('XLSX', () => {
  it('reads the first sheet with numbers as people see them, formulas by their result, rich text and dates', async () => {
    const data = await xlsx((ws, wb) => {
      ws.addRow(['UPC', 'Cost', 'Note']);
      ws.addRow([36000291452, 0.1 + 0.2, { richText: [{ text: 'Bold ' }, { text: 'tail' }] }]);
      ws.addRow([5012345678900, { formula: 'B2*2', result: 0.6 }, new Date(Date.UTC(2025, 0, 5))]);
      ws.getCell('A5').value = 'after a gap';
      ws.getCell('C5').value = true;
      wb.addWorksheet('Other').addRow(['ignored']);
    });
    expect(await parseUpload(data, 'x.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')).toEqual([
      ['UPC', 'Cost', 'Note'],
      ['36000291452', '0.3', 'Bold tail'],
      ['5012345678900', '0.6', '2025-01-05'],
      [],
      ['after a gap', '', 'TRUE'],
    ]);
  });
  it('gives percentage cells as the percent the user sees, and merged ranges once', async () => {
    const data = await xlsx((ws) => {
      ws.addRow(['UPC', 'Discount', 'Note', '']);
      ws.addRow(['036000291452', 0.05, 'merged', '']);
      ws.getCell('B2').numFmt = '0%';
      ws.addRow(['036000291452', 0.125, '', '']);
      ws.getCell('B3').numFmt = '0.0%';
      ws.mergeCells('C2:D3');
    });
    expect(await parseUpload(data, 'p.xlsx', '')).toEqual([
      ['UPC', 'Discount', 'Note'],
      ['036000291452', '5%', 'merged'],
      ['036000291452', '12.5%'],
    ]);
  });
  it('tells XLSX from CSV by content, not by name', async () => {
    const data = await xlsx((ws) => ws.addRow(['a', 1]));
    expect(await parseUpload(data, 'named.csv', 'text/csv')).toEqual([['a', '1']]);
  });
  it('writes numbers without float artefacts or exponents', () => {
    expect([numberText(12.5), numberText(0.1 + 0.2), numberText(12345678905), numberText(1.005), numberText(5012345678900)]).toEqual([
      '12.5',
      '0.3',
      '12345678905',
      '1.005',
      '5012345678900',
    ]);
  });
});

describe('files that are neither', () => {
  it.each([
    ['an empty file', Buffer.alloc(0), /is empty/],
    ['only blank lines', Buffer.from('\n\r\n  \n'), /has no rows/],
    ['a PDF', Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj'), /is a PDF/],
    ['an old .xls', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), /97-2003 \(\.xls\) or password-protected/],
    ['binary junk', Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 37) % 256)), /not a CSV or XLSX file/],
    [
      'a broken XLSX',
      Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]),
      /could not be read as an XLSX workbook/,
    ],
  ])('%s is refused with a clear message', async (_what, data, message) => {
    await expect(parseUpload(data, 'upload.bin', 'application/octet-stream')).rejects.toThrow(message);
    await expect(parseUpload(data, 'upload.bin', 'application/octet-stream')).rejects.toMatchObject({ name: 'Error' });
  });
  it('an XLSX whose first sheet is empty has no rows', async () => {
    const data = await xlsx(() => undefined);
    await expect(parseUpload(data, 'empty.xlsx', '')).rejects.toThrow(/has no rows/);
  });
});

describe('the shipped samples', () => {
  const dir = join(__dirname, '..', '..', '..', 'samples');
  it('CSV and XLSX price lists give the same rows', async () => {
    const a = await parseUpload(readFileSync(join(dir, 'supplier-price-list.csv')), 'supplier-price-list.csv', 'text/csv');
    const b = await parseUpload(readFileSync(join(dir, 'supplier-price-list.xlsx')), 'supplier-price-list.xlsx', '');
    expect(a.length).toBe(301);
    expect(b.length).toBe(301);
    // Same cells apart from what a CSV export changes: blank rows, numbers in scientific notation, "-3" vs "-3.00".
    const differing = a
      .map((r, i) => (JSON.stringify(r.filter(Boolean)) === JSON.stringify(b[i].filter(Boolean)) ? -1 : i + 1))
      .filter((x) => x > 0);
    const exportedDifferently = a.map((r, i) => (r.some((c) => /^\d\.\d+E\+\d+$|^-3\.00$/.test(c)) ? i + 1 : -1)).filter((x) => x > 0);
    expect(exportedDifferently).toHaveLength(2);
    expect(differing).toEqual(exportedDifferently);
  });
});
