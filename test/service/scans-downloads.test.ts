/** Downloads (CSV, XLSX, JSON) and the export of a scan (document 4.1), over HTTP. */
import ExcelJS from 'exceljs';
import type { RunningService } from '../../emulator/service/server';
import { Client, KEY_A, P, attrs, csv, startTestService, upc } from './scans-fixtures';
import { parseCsv } from '../../emulator/service/engine/upload';
import { xlsxWriterLoaded } from '../../emulator/service/scans/downloads';

let svc: RunningService;
let a: Client;
let scan: any;
beforeAll(async () => {
  svc = await startTestService();
  a = new Client(svc.url, KEY_A);
  const rows: (string | number)[][] = [['UPC', 'Cost', 'Colour', 'Note']];
  for (let i = 0; i < 120; i++) rows.push([upc(2000 + i), '5.00', i % 2 ? 'red' : 'blue', `n${i}, "quoted"`]);
  rows.push([P.hazmat.upc, '3.00', 'green', '=1+1'], [P.noFees.upc, '3.00', '', ''], ['junk', '1', '', '']);
  scan = await a.scan(
    csv(rows).replace(/n(\d+), "quoted"/g, '"n$1, ""quoted"""'),
    attrs({ header: true, custom_columns: ['Colour', 'Note'] }, { custom_columns: [2, 3] }),
  );
  expect(scan).toMatchObject({ status: 'success', products: 122, errors: 1 });
});
afterAll(async () => {
  await svc.stop();
});

const download = (type: string, body?: unknown) => a.post(`/api/v3/scans/${scan.id}/download?type=${type}`, body);
const filter = [{ name: 'financials.roi', operator: '>', value: 0 }];

test('exceljs is loaded by the first XLSX download, not by starting the service or scanning', async () => {
  expect(xlsxWriterLoaded()).toBe(false);
  expect((await download('csv')).status).toBe(200);
  expect(xlsxWriterLoaded()).toBe(false);
  expect((await download('xlsx')).status).toBe(200);
  expect(xlsxWriterLoaded()).toBe(true);
});

test('JSON download without a body: every product object with all fields, in upload order', async () => {
  const r = await download('json');
  expect(r.status).toBe(200);
  expect(r.headers.get('content-disposition')).toBe(`attachment; filename="scan-${scan.id}.json"`);
  expect(r.body).toHaveLength(122);
  const page = (await a.results(scan.id, { per_page: 100 })).body.data;
  expect(r.body.slice(0, 100)).toEqual(page);
  expect(r.body[121].asin).toBe(P.noFees.asin);
});

test('JSON download honours filter and sort; page and per_page apply when given (max 100)', async () => {
  const results = async (body: object) => {
    const out: any[] = [];
    for (let page = 1; ; page++) {
      const r = (await a.results(scan.id, { ...body, page, per_page: 100 })).body;
      out.push(...r.data);
      if (out.length >= r.count) return out;
    }
  };
  const expected = await results({ filter, sort: '-financials.profit' });
  expect(expected.length).toBeGreaterThan(0);
  expect(expected.length).toBeLessThan(122);
  const r = await download('json', { filter, sort: '-financials.profit' });
  expect(r.body.map((p: any) => p.id)).toEqual(expected.map((p) => p.id));
  const paged = await download('json', { filter, sort: '-financials.profit', page: 2, per_page: 10 });
  expect(paged.body.map((p: any) => p.id)).toEqual(expected.slice(10, 20).map((p) => p.id));
  const dflt = await download('json', { per_page: 7 });
  expect(dflt.body).toHaveLength(7);
  expect((await download('json', { per_page: 101 })).status).toBe(422);
  expect((await download('json', { filter: [{ name: 'nope', operator: '=', value: 1 }] })).status).toBe(422);
});

test('CSV download: header of dotted field names, one row per product, stored units, custom columns by name, quoting', async () => {
  const r = await download('csv', { sort: 'id' });
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^text\/csv/);
  const text = r.raw.toString('utf8');
  const lines = text.trimEnd().split('\r\n');
  expect(lines).toHaveLength(123);
  const header = lines[0].split(',');
  expect(header.slice(0, 3)).toEqual(['id', 'asin', 'market_title']);
  for (const c of [
    'financials.profit',
    'financials.roi',
    'inputs.cost',
    'market_fees.referral_fee',
    'dimensions.package_dimensions.weight',
    'identifiers.upc',
    'inputs.custom_columns.Colour',
    'inputs.custom_columns.Note',
  ])
    expect(header).toContain(c);
  expect(header).not.toContain('inputs.custom_columns');
  const json = (await download('json')).body;
  // A simple CSV reader for the check (quotes, doubled quotes, commas inside quotes).
  const parse = (line: string) => {
    const out: string[] = [];
    let cur = '';
    let q = false;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      if (q) {
        if (ch === '"' && line[i + 1] === '"') (cur += '"'), i++;
        else if (ch === '"') q = false;
        else cur += ch;
      } else if (ch === '"') q = true;
      else if (ch === ',') out.push(cur), (cur = '');
      else cur += ch;
    }
    out.push(cur);
    return out;
  };
  const first = parse(lines[1]);
  const col = (name: string) => first[header.indexOf(name)];
  expect(col('asin')).toBe(json[0].asin);
  expect(col('inputs.cost')).toBe('500');
  expect(col('financials.profit')).toBe(String(json[0].financials.profit));
  expect(col('is_hazmat')).toBe('false');
  expect(col('identifiers.upc')).toBe(upc(2000));
  expect(col('inputs.custom_columns.Colour')).toBe('blue');
  expect(col('inputs.custom_columns.Note')).toBe('n0, "quoted"');
  const noFees = parse(lines[122]);
  expect(noFees[header.indexOf('market_fees.referral_fee')]).toBe('');
  const hazmat = parse(lines[121]);
  // Issue 14 item 4: formula-like text is neutralised in CSV downloads (was sent as =1+1).
  expect(hazmat[header.indexOf('inputs.custom_columns.Note')]).toBe("'=1+1");
});

test('CSV download neutralises formula-like supplier text (OWASP) and keeps numbers numbers; JSON keeps the text', async () => {
  const cells = ["=cmd|' /C calc'!A0", '+1+1', '-2+3', '@SUM(1+1)', '\t=1+2', '-2.5', '+3', '-', 'plain - text', '1e5'];
  const rows = [['UPC', 'Cost', 'Cell'], ...cells.map((c, i) => [upc(2200 + i), '4.00', `"${c}"`])];
  const s = await a.scan(csv(rows), attrs({ header: true, custom_columns: ['Cell'] }, { custom_columns: [2] }));
  const [header, ...body] = parseCsv(
    (await a.post(`/api/v3/scans/${s.id}/download?type=csv`, { sort: 'id' })).raw.toString('utf8').trimEnd(),
  );
  const sent = body.map((r) => r[header.indexOf('inputs.custom_columns.Cell')]);
  expect(sent).toEqual(["'=cmd|' /C calc'!A0", "'+1+1", "'-2+3", "'@SUM(1+1)", "'\t=1+2", '-2.5', '+3', "'-", 'plain - text', '1e5']);
  const json = (await a.post(`/api/v3/scans/${s.id}/download?type=json`, { sort: 'id' })).body;
  expect(json.map((p: any) => p.inputs.custom_columns[0])).toEqual(cells);
});

test('CSV download honours filter and sort', async () => {
  const json = (await download('json', { filter, sort: '-financials.roi' })).body;
  const lines = (await download('csv', { filter, sort: '-financials.roi' })).raw.toString('utf8').trimEnd().split('\r\n');
  expect(lines).toHaveLength(json.length + 1);
  const idCol = lines[0].split(',').indexOf('id');
  expect(lines.slice(1).map((l) => Number(l.split(',')[idCol]))).toEqual(json.map((p: any) => p.id));
});

test('the same results download to the same XLSX bytes, whenever asked: the file is dated by the scan, not the download', async () => {
  const first = await download('xlsx');
  await new Promise((r) => setTimeout(r, 2100)); // zip entry times have a 2-second resolution
  const second = await download('xlsx');
  expect(second.raw.equals(first.raw)).toBe(true);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(first.raw as any);
  expect(wb.modified?.toISOString()).toBe(new Date(scan.completed_at).toISOString());
});

test('XLSX download: sheet Products, the CSV columns, typed numbers and booleans, honouring filter and sort', async () => {
  const r = await download('xlsx', { filter, sort: '-financials.roi' });
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(r.raw as any);
  const ws = wb.getWorksheet('Products')!;
  expect(ws).toBeDefined();
  const json = (await download('json', { filter, sort: '-financials.roi' })).body;
  expect(ws.rowCount).toBe(json.length + 1);
  const header = (ws.getRow(1).values as unknown[]).slice(1);
  const csvHeader = (await download('csv')).raw.toString('utf8').split('\r\n')[0].split(',');
  expect(header).toEqual(csvHeader);
  const row2 = (ws.getRow(2).values as unknown[]).slice(1);
  expect(row2[header.indexOf('id')]).toBe(json[0].id);
  expect(row2[header.indexOf('financials.roi')]).toBe(json[0].financials.roi);
  expect(row2[header.indexOf('is_adult')]).toBe(false);
});

test('the errors table downloads too', async () => {
  const j = await download('json', { tableType: 'errors' });
  expect(j.body.map((e: any) => e.identifier)).toEqual(['junk']);
  const c = (await download('csv', { tableType: 'errors' })).raw.toString('utf8').trimEnd().split('\r\n');
  expect(c[0]).toBe('id,line,identifier,code,message,input');
  expect(c).toHaveLength(2);
  expect(c[1]).toContain('junk|1||');
});

test('a missing or unknown type answers 422', async () => {
  expect((await a.post(`/api/v3/scans/${scan.id}/download?type=pdf`)).status).toBe(422);
  expect((await a.post(`/api/v3/scans/${scan.id}/download`)).status).toBe(422);
});

test('export writes the workbook once and answers a link that serves it without a key', async () => {
  const r = await a.post(`/api/v3/scans/${scan.id}/export`, { filter, sort: '-financials.roi' });
  expect(r.status).toBe(201);
  const json = (await download('json', { filter, sort: '-financials.roi' })).body;
  expect(r.body.rows).toBe(json.length);
  expect(r.body.exported_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  expect(r.body.url).toMatch(new RegExp(`^${svc.url}/exports/[A-Za-z0-9_-]{16,64}$`));
  const file = await fetch(r.body.url);
  expect(file.status).toBe(200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(await file.arrayBuffer()) as any);
  expect(wb.getWorksheet('Products')!.rowCount).toBe(json.length + 1);
  const whole = await a.post(`/api/v3/scans/${scan.id}/export`);
  expect(whole.body.rows).toBe(122);
  // The export is a copy: deleting the scan leaves it readable.
  expect((await a.del(`/api/v3/scans/${scan.id}`)).status).toBe(200);
  expect((await fetch(whole.body.url)).status).toBe(200);
  expect((await fetch(svc.url + '/exports/AAAAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
});

test('export answers 409 when the spreadsheet-service integration is not set up', async () => {
  const off = await startTestService({ exportIntegration: false });
  try {
    const c = new Client(off.url, KEY_A);
    const done = await c.scan(csv([[P.plain.upc, '1.00']]), attrs());
    const r = await c.post(`/api/v3/scans/${done.id}/export`);
    expect(r.status).toBe(409);
    expect(r.body.message).toMatch(/integration is not set up/);
    expect(off.ctx.db.prepare('SELECT count(*) FROM scan_exports').pluck().get()).toBe(0);
  } finally {
    await off.stop();
  }
});
