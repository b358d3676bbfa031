/** POST /api/v3/scans: multipart upload of CSV or XLSX with attributes (document 2.1, 4.1), over HTTP. */
import ExcelJS from 'exceljs';
import type { RunningService } from '../../emulator/service/server';
import { Client, KEY_A, KEY_B, KEY_CA, P, attrs, csv, startTestService, upc } from './scans-fixtures';

let svc: RunningService;
let a: Client;
beforeAll(async () => {
  svc = await startTestService();
  a = new Client(svc.url, KEY_A);
});
afterAll(async () => {
  await svc.stop();
});

const scanCount = () => svc.ctx.db.prepare('SELECT count(*) FROM scans').pluck().get() as number;
const LIST = csv([
  ['UPC', 'Cost', 'Title'],
  [P.plain.upc, '10.00', 'Plain'],
  ['', '', ''],
  [P.cheap.upc, '3.50', 'Cheap'],
  ['12345', '1', 'bad id'],
]);

test('a CSV upload answers 201 at once with the queued scan record, then finishes in the background', async () => {
  const up = await a.upload(LIST, attrs({ header: true, name: '  Supplier A  ' }));
  expect(up.status).toBe(201);
  expect(up.body).toMatchObject({
    marketplace: 'US',
    marketplace_id: 1,
    status: 'queued',
    name: 'Supplier A',
    source_type: 'Upload',
    lines: 3,
    lines_done: 0,
    products: 0,
    errors: 0,
  });
  expect(up.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  expect(up.body.options).toEqual({ marketplace_id: 'US', name: '  Supplier A  ', header: true });
  const done = await a.waitFor(up.body.id);
  // Header and the fully empty row are not lines; 2 products found, 1 line failed.
  expect(done).toMatchObject({ status: 'success', lines: 3, lines_done: 3, products: 2, errors: 1 });
  expect(done.completed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  const rows = await a.results(up.body.id);
  expect(rows.body.data.map((p: any) => p.asin)).toEqual([P.plain.asin, P.cheap.asin]);
});

test('an XLSX upload gives the same results as the same list in CSV', async () => {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Prices');
  ws.addRow(['UPC', 'Cost']);
  ws.addRow([P.plain.upc, 10]);
  ws.addRow([P.cheap.upc, 3.5]);
  const data = Buffer.from(await wb.xlsx.writeBuffer());
  const up = await a.upload(
    data,
    attrs({ header: true }),
    'prices.xlsx',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  );
  expect(up.status).toBe(201);
  const done = await a.waitFor(up.body.id);
  expect(done).toMatchObject({ status: 'success', lines: 2, products: 2, errors: 0, filename: 'prices.xlsx' });
  const rows = (await a.results(up.body.id)).body.data;
  expect(rows.map((p: any) => [p.asin, p.inputs.cost])).toEqual([
    [P.plain.asin, 1000],
    [P.cheap.asin, 350],
  ]);
});

describe('attributes that break a rule of 2.1 answer 422 naming the problem, and store nothing', () => {
  const file = csv([[P.plain.upc, '10.00', 'x']]);
  const cases: Array<[string, unknown, string, RegExp]> = [
    [
      'missing mapping.id',
      { mapping: { cost: 1 }, options: { marketplace_id: 'US', name: 'n' } },
      'attributes.mapping.id',
      /mapping\.id is required/,
    ],
    [
      'missing mapping.cost',
      { mapping: { id: 0 }, options: { marketplace_id: 'US', name: 'n' } },
      'attributes.mapping.cost',
      /mapping\.cost is required/,
    ],
    ['a column given as text', attrs({}, { cost: '1' }), 'attributes.mapping.cost', /0-indexed column number/],
    ['a fractional column', attrs({}, { map: 1.5 }), 'attributes.mapping.map', /0-indexed column number/],
    [
      'a column beyond the file',
      attrs({}, { stock_quantity: 3 }),
      'attributes.mapping.stock_quantity',
      /column 3, but the file has only 3 columns/,
    ],
    [
      'a custom column beyond the file',
      attrs({ custom_columns: ['Note'] }, { custom_columns: [9] }),
      'attributes.mapping.custom_columns.0',
      /column 9/,
    ],
    ['an unknown mapping member', attrs({}, { colour: 2 }), 'attributes.mapping.colour', /Unknown mapping member/],
    ['missing mapping', { options: { marketplace_id: 'US', name: 'n' } }, 'attributes.mapping', /mapping is required/],
    ['missing options', { mapping: { id: 0, cost: 1 } }, 'attributes.options', /options is required/],
    [
      'missing marketplace',
      { mapping: { id: 0, cost: 1 }, options: { name: 'n' } },
      'attributes.options.marketplace_id',
      /marketplace_id is required/,
    ],
    ['an unknown marketplace', attrs({ marketplace_id: 'XX' }), 'attributes.options.marketplace_id', /Unknown marketplace "XX"/],
    ['a numeric marketplace where a code is due', attrs({ marketplace_id: 1 }), 'attributes.options.marketplace_id', /marketplace code/],
    ['missing name', { mapping: { id: 0, cost: 1 }, options: { marketplace_id: 'US' } }, 'attributes.options.name', /name is required/],
    ['a blank name', attrs({ name: '   ' }), 'attributes.options.name', /non-empty/],
    ['header as text', attrs({ header: 'yes' }), 'attributes.options.header', /true or false/],
    [
      'a fractional supplier discount',
      attrs({ discount_supplier: 12.5 }),
      'attributes.options.discount_supplier',
      /integer from 0 to 10000/,
    ],
    ['a discount over 100%', attrs({ discount_supplier: 10001 }), 'attributes.options.discount_supplier', /integer from 0 to 10000/],
    ['a negative prep cost', attrs({ prep_cost: -1 }), 'attributes.options.prep_cost', /integer from 0/],
    [
      'multipack prep cost without its members',
      attrs({ multipack_prep_cost: { enabled: true } }),
      'attributes.options.multipack_prep_cost.firstN',
      /firstN must be an integer/,
    ],
    [
      'multipack override without a quantity',
      attrs({ multipack_override: true }),
      'attributes.options.multipack_override_quantity',
      /required when multipack_override is true/,
    ],
    [
      'an override quantity of 0',
      attrs({ multipack_override: true, multipack_override_quantity: 0 }),
      'attributes.options.multipack_override_quantity',
      /integer from 1/,
    ],
    [
      'custom column names not matching the mapped columns',
      attrs({ custom_columns: ['A', 'B'] }, { custom_columns: [2] }),
      'attributes.options.custom_columns',
      /must match one to one/,
    ],
    ['an unknown option', attrs({ speed: 5 }), 'attributes.options.speed', /Unknown option/],
    ['attributes that are not an object', [1, 2], 'attributes.', /JSON object/],
  ];
  test.each(cases)('%s', async (_what, attributes, field, message) => {
    const before = scanCount();
    const r = await a.upload(file, attributes);
    expect(r.status).toBe(422);
    const problem = r.body.errors.find((e: any) => e.field === field);
    expect(problem).toBeDefined();
    expect(problem.message).toMatch(message);
    expect(r.body.message).toMatch(message);
    expect(scanCount()).toBe(before);
  });

  test('every problem is listed at once', async () => {
    const r = await a.upload(file, { mapping: { cost: 'x' }, options: { marketplace_id: 'ZZ' } });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: any) => e.field).sort()).toEqual(
      ['attributes.mapping.cost', 'attributes.mapping.id', 'attributes.options.marketplace_id', 'attributes.options.name'].sort(),
    );
  });
});

test('attributes that are not JSON, or missing, or a missing file answer 422', async () => {
  const before = scanCount();
  const notJson = await a.upload(csv([[P.plain.upc, '1']]), '{"mapping": ');
  expect(notJson.status).toBe(422);
  expect(notJson.body.message).toMatch(/attributes is not valid JSON/);
  const noAttrs = await a.upload(csv([[P.plain.upc, '1']]), undefined);
  expect(noAttrs.status).toBe(422);
  expect(noAttrs.body.message).toMatch(/attributes is required/);
  const noFile = await a.upload(null, attrs());
  expect(noFile.status).toBe(422);
  expect(noFile.body.message).toMatch(/file is required/);
  expect(scanCount()).toBe(before);
});

test.each([
  ['two file parts', 'file'],
  ['two attributes parts', 'attributes'],
  ['an attributes text part and an attributes JSON blob part', 'attributes'],
])('%s answer 422 naming the repeated part, and store nothing (no part is silently chosen)', async (what, repeated) => {
  const before = scanCount();
  const good = attrs({ name: 'Twice' });
  const form = new FormData();
  form.append('file', new Blob([csv([[P.plain.upc, '10.00']])], { type: 'text/csv' }), 'first.csv');
  if (repeated === 'file') form.append('file', new Blob([csv([[P.cheap.upc, '3.50']])], { type: 'text/csv' }), 'second.csv');
  form.append('attributes', JSON.stringify(good));
  if (what.includes('blob')) form.append('attributes', new Blob([JSON.stringify(good)], { type: 'application/json' }), 'attributes.json');
  else if (repeated === 'attributes') form.append('attributes', JSON.stringify(attrs({ name: 'Other' })));
  const r = await a.request('POST', '/api/v3/scans', form);
  expect(r.status).toBe(422);
  expect(r.body.message).toMatch(new RegExp(`${repeated} was sent 2 times; send exactly one ${repeated} part`));
  expect(r.body.errors).toEqual([{ index: 0, field: repeated, message: expect.stringMatching(/sent 2 times/) }]);
  expect(scanCount()).toBe(before);
});

test('a file that is not CSV or XLSX, an empty file and a header-only file answer 422 with the reason', async () => {
  const before = scanCount();
  const pdf = await a.upload(Buffer.from('%PDF-1.4\n%\xe2\xe3\n1 0 obj'), attrs(), 'list.pdf', 'application/pdf');
  expect(pdf.status).toBe(422);
  expect(pdf.body.message).toMatch(/PDF/);
  const binary = await a.upload(Buffer.from([0, 1, 2, 3, 0, 0, 9, 8, 7, 0, 0, 0]), attrs(), 'list.bin', 'application/octet-stream');
  expect(binary.status).toBe(422);
  expect(binary.body.message).toMatch(/not a CSV or XLSX/);
  const empty = await a.upload('', attrs());
  expect(empty.status).toBe(422);
  expect(empty.body.message).toMatch(/empty/);
  const headerOnly = await a.upload('UPC,Cost\n', attrs({ header: true }));
  expect(headerOnly.status).toBe(422);
  expect(headerOnly.body.message).toMatch(/no data lines below the header/);
  expect(scanCount()).toBe(before);
});

test('more than 100,000 data lines answer 422', async () => {
  const big = 'UPC,Cost\n' + `${P.plain.upc},1.00\n`.repeat(100_001);
  const r = await a.upload(big, attrs({ header: true }));
  expect(r.status).toBe(422);
  expect(r.body.message).toMatch(/100001 data lines; a scan takes at most 100000/);
});

test('a marketplace the key has no access to answers 403; one it has answers 201', async () => {
  const ca = new Client(svc.url, KEY_CA);
  const file = csv([[P.canada.upc, '5.00']]);
  const before = scanCount();
  const us = await ca.upload(file, attrs({ marketplace_id: 'US' }));
  expect(us.status).toBe(403);
  expect(us.body.message).toMatch(/no access to marketplace US/);
  expect(scanCount()).toBe(before);
  const ok = await ca.upload(file, attrs({ marketplace_id: 'CA' }));
  expect(ok.status).toBe(201);
  expect(await ca.waitFor(ok.body.id)).toMatchObject({ status: 'success', marketplace: 'CA', marketplace_id: 2, products: 1 });
});

test('a body that is not multipart answers 400, a missing key 401', async () => {
  const json = await a.post('/api/v3/scans', { file: 'x', attributes: attrs() });
  expect(json.status).toBe(400);
  expect(json.body.message).toMatch(/multipart\/form-data/);
  const anon = await fetch(svc.url + '/api/v3/scans', { method: 'POST', body: new FormData() });
  expect(anon.status).toBe(401);
});

test('a file over the upload limit answers 413 and stores nothing', async () => {
  const small = await startTestService({ maxUploadBytes: 2000 });
  try {
    const c = new Client(small.url, KEY_A);
    const r = await c.upload('UPC,Cost\n' + `${upc(2001)},1.00\n`.repeat(200), attrs({ header: true }));
    expect(r.status).toBe(413);
    expect(r.body.message).toMatch(/too large/);
    expect(small.ctx.db.prepare('SELECT count(*) FROM scans').pluck().get()).toBe(0);
  } finally {
    await small.stop();
  }
});

test("another account's scan is not found, and neither is an unknown id", async () => {
  const up = await a.upload(csv([[P.plain.upc, '1.00']]), attrs());
  await a.waitFor(up.body.id);
  const b = new Client(svc.url, KEY_B);
  for (const [method, path] of [
    ['GET', `/api/v3/scans/${up.body.id}`],
    ['POST', `/api/v3/scans/${up.body.id}`],
    ['POST', `/api/v3/scans/${up.body.id}/download?type=json`],
    ['GET', `/api/v3/scans/${up.body.id}/cancel`],
    ['POST', `/api/v3/scans/${up.body.id}/export`],
    ['DELETE', `/api/v3/scans/${up.body.id}`],
    ['GET', '/api/v3/scans/999999'],
    ['GET', '/api/v3/scans/abc'],
  ]) {
    const r = await b.request(method, path);
    expect([path, r.status]).toEqual([path, 404]);
    expect(typeof r.body.message).toBe('string');
  }
  // Still there for its owner.
  expect((await a.get(`/api/v3/scans/${up.body.id}`)).status).toBe(200);
  expect((await b.get('/api/v3/scans')).body.total).toBe(0);
});
