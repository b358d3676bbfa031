/** POST /api/v3/scans/{id}: paging, sorting, filtering (document 2.2, 4.1), over HTTP. */
import type { RunningService } from '../../emulator/service/server';
import { Client, KEY_A, P, attrs, csv, fillerAsin, startTestService, upc } from './scans-fixtures';

let svc: RunningService;
let a: Client;
let scan: any;
const specials = [P.plain, P.sharedA, P.multipack, P.hazmat, P.noFees, P.cheap];
beforeAll(async () => {
  svc = await startTestService();
  a = new Client(svc.url, KEY_A);
  const rows: (string | number)[][] = [['UPC', 'Cost']];
  for (let i = 0; i < 150; i++) rows.push([upc(2000 + i), ((500 + ((i * 37) % 400)) / 100).toFixed(2)]);
  for (const s of specials) rows.push([s.upc, '4.00']);
  rows.push(['not-an-id', '1.00'], [upc(999999), '2.00'], [P.plain.upc, 'free']);
  scan = await a.scan(csv(rows), attrs({ header: true }));
});
afterAll(async () => {
  await svc.stop();
});

const rows = async (body: unknown) => {
  const r = await a.results(scan.id, body);
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};
const all = async (body: Record<string, unknown> = {}) => {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const r = await rows({ ...body, page, per_page: 100 });
    out.push(...r.data);
    if (out.length >= r.count) return out;
  }
};

test('the scan found every product and listed the failed lines', () => {
  // 150 fillers + 6 specials; the shared UPC has 2 ASINs -> 157 products; 3 failed lines.
  expect(scan).toMatchObject({ status: 'success', lines: 159, products: 157, errors: 3 });
});

test('answer shape: count, data, meta, options, page, per_page; per_page defaults to 50', async () => {
  const r = await rows({});
  expect(r.count).toBe(157);
  expect(r.data).toHaveLength(50);
  expect(r.page).toBe(1);
  expect(r.per_page).toBe(50);
  expect(r.meta).toMatchObject({ status: 'success', lines: 159, lines_done: 159, products: 157, errors: 3 });
  expect(r.meta.scanned_at).toMatch(/Z$/);
  expect(r.options).toEqual({ marketplace_id: 'US', name: 'Test scan', header: true });
  // Upload order without a sort; ids are the product ids.
  expect(r.data[0].asin).toBe(fillerAsin(0));
  expect(new Set(r.data.map((p: any) => p.id)).size).toBe(50);
});

test('page 0 (the default) and page 1 are the first page; pages do not overlap; past the end is empty', async () => {
  const p0 = await rows({ page: 0, per_page: 20 });
  const p1 = await rows({ page: 1, per_page: 20 });
  const p2 = await rows({ page: 2, per_page: 20 });
  expect(p0.data.map((p: any) => p.id)).toEqual(p1.data.map((p: any) => p.id));
  expect(p2.data[0].id).toBeGreaterThan(p1.data[19].id);
  const last = await rows({ page: 8, per_page: 20 });
  expect(last.data).toHaveLength(17);
  expect((await rows({ page: 9, per_page: 20 })).data).toEqual([]);
  expect(new Set((await all()).map((p) => p.id)).size).toBe(157);
});

test('per_page above 100, below 1, a negative page or a wrong type answer 422', async () => {
  for (const body of [
    { per_page: 101 },
    { per_page: 0 },
    { page: -1 },
    { per_page: '10' },
    { tableType: 'rows' },
    { filter: 'profit>0' },
    { sort: 5 },
  ]) {
    const r = await a.results(scan.id, body);
    expect([JSON.stringify(body), r.status]).toEqual([JSON.stringify(body), 422]);
    expect(typeof r.body.message).toBe('string');
  }
  const malformed = await a.request('POST', `/api/v3/scans/${scan.id}`, '{"page": ', { 'content-type': 'application/json' });
  expect(malformed.status).toBe(400);
});

test('sort on a nested field, ascending and with - descending; the bare alias profit works too', async () => {
  const asc = (await all({ sort: 'financials.profit' })).filter((p) => p.financials.profit !== null).map((p) => p.financials.profit);
  expect(asc).toEqual([...asc].sort((x, y) => x - y));
  const desc = (await all({ sort: '-profit' })).filter((p) => p.financials.profit !== null).map((p) => p.financials.profit);
  expect(desc).toEqual([...asc].reverse());
  const byCost = (await rows({ sort: '-inputs.cost', per_page: 5 })).data.map((p: any) => p.inputs.cost);
  expect(byCost).toEqual([...byCost].sort((x: number, y: number) => y - x));
});

test('unknown values (null) sort last in both directions', async () => {
  const up = await all({ sort: 'market_fees.referral_fee' });
  const down = await all({ sort: '-market_fees.referral_fee' });
  expect(up[up.length - 1].asin).toBe(P.noFees.asin);
  expect(down[down.length - 1].asin).toBe(P.noFees.asin);
});

test('sort on a text field is by that text; ties keep upload order', async () => {
  const list = await all({ sort: '-brand' });
  expect(list[0].brand).toBe('Zeta');
  const acme = list.filter((p) => p.brand === 'Acme').map((p) => p.id);
  expect(acme).toEqual([...acme].sort((x, y) => x - y));
});

test('each operator on a numeric nested field, and the count follows the filter', async () => {
  const everything = await all();
  const roi = (p: any) => p.financials.roi;
  const pivot = roi(everything[10]);
  const cases: Array<[string, (v: number) => boolean]> = [
    ['>', (v) => v > pivot],
    ['>=', (v) => v >= pivot],
    ['<', (v) => v < pivot],
    ['<=', (v) => v <= pivot],
    ['=', (v) => v === pivot],
    ['!=', (v) => v !== pivot],
  ];
  for (const [operator, keep] of cases) {
    const expected = everything.filter((p) => roi(p) !== null && keep(roi(p))).map((p) => p.id);
    const got = await all({ filter: [{ name: 'financials.roi', operator, value: pivot }] });
    expect([operator, got.map((p) => p.id)]).toEqual([operator, expected]);
  }
});

test('the examples of the document work: profit > and roi >= with bare names, ANDed', async () => {
  const everything = await all();
  const expected = everything.filter((p) => p.financials.profit > 500 && p.financials.roi >= 5000).map((p) => p.id);
  expect(expected.length).toBeGreaterThan(0);
  const r = await rows({
    per_page: 100,
    filter: [
      { name: 'profit', operator: '>', value: 500 },
      { name: 'roi', operator: '>=', value: 5000 },
    ],
  });
  expect(r.count).toBe(expected.length);
  expect(r.data.map((p: any) => p.id)).toEqual(expected.slice(0, 100));
});

test('filters on inputs, booleans, text and null', async () => {
  const cost = await all({ filter: [{ name: 'inputs.cost', operator: '=', value: 400 }] });
  expect(cost.map((p) => p.asin).sort()).toEqual(
    [P.plain.asin, P.sharedA.asin, P.sharedB.asin, P.multipack.asin, P.hazmat.asin, P.noFees.asin, P.cheap.asin].sort(),
  );
  const hazmat = await all({ filter: [{ name: 'is_hazmat', operator: '=', value: true }] });
  expect(hazmat.map((p) => p.asin)).toEqual([P.hazmat.asin]);
  expect((await rows({ filter: [{ name: 'is_hazmat', operator: '!=', value: true }] })).count).toBe(156);
  const zeta = await all({ filter: [{ name: 'brand', operator: '=', value: 'Zeta' }] });
  expect(zeta.map((p) => p.asin)).toEqual([P.cheap.asin]);
  // Exact text: other case does not match.
  expect((await rows({ filter: [{ name: 'brand', operator: '=', value: 'zeta' }] })).count).toBe(0);
  const noFee = await all({ filter: [{ name: 'market_fees.referral_fee', operator: '=', value: null }] });
  expect(noFee.map((p) => p.asin)).toEqual([P.noFees.asin]);
  // A null never matches a comparison.
  expect(
    (await all({ filter: [{ name: 'market_fees.referral_fee', operator: '>=', value: 0 }] })).some((p) => p.asin === P.noFees.asin),
  ).toBe(false);
});

test('unknown field, unknown operator, text compared with >, wrong value type: 422 naming the filter', async () => {
  const cases: Array<[unknown, RegExp, string]> = [
    [{ name: 'profitt', operator: '>', value: 1 }, /Unknown field "profitt"/, 'filter.0.name'],
    [{ name: 'financials.nope', operator: '>', value: 1 }, /Unknown field "financials.nope"/, 'filter.0.name'],
    [{ name: 'inputs', operator: '=', value: 1 }, /Unknown field "inputs"/, 'filter.0.name'],
    [{ name: 'profit', operator: '=>', value: 1 }, /must be one of|Unknown operator/, ''],
    [{ name: 'brand', operator: '>', value: 'A' }, /only = and != apply/, 'filter.0.operator'],
    [{ name: 'profit', operator: '>', value: '100' }, /must be a number/, 'filter.0.value'],
    [{ name: 'is_adult', operator: '=', value: 1 }, /must be a boolean/, 'filter.0.value'],
    [{ name: 'profit', operator: '>', value: null }, /null can only be compared with = or !=/, 'filter.0.value'],
  ];
  for (const [f, message, field] of cases) {
    const r = await a.results(scan.id, { filter: [f] });
    expect([JSON.stringify(f), r.status]).toEqual([JSON.stringify(f), 422]);
    expect(r.body.message).toMatch(message);
    if (field) expect(r.body.errors.map((e: any) => e.field)).toContain(field);
  }
  const sort = await a.results(scan.id, { sort: '-nope' });
  expect(sort.status).toBe(422);
  expect(sort.body.message).toMatch(/Unknown field "nope"/);
});

test('every scalar field of the described product can be filtered and sorted on', async () => {
  const doc = (await a.get('/openapi.json')).body;
  const names: string[] = [];
  const walk = (schema: any, prefix: string) => {
    if (schema.$ref) schema = doc.components.schemas[schema.$ref.split('/').pop()];
    for (const [k, s0] of Object.entries<any>(schema.properties ?? {})) {
      const s = s0.$ref ? doc.components.schemas[s0.$ref.split('/').pop()] : s0;
      const types = ([] as string[]).concat(s.type);
      if (types.includes('object')) walk(s, `${prefix}${k}.`);
      else if (!types.includes('array')) names.push(prefix + k);
    }
  };
  walk(doc.components.schemas.ScanProduct, '');
  expect(names).toEqual(
    expect.arrayContaining(['financials.profit', 'inputs.cost', 'dimensions.package_dimensions.weight', 'inbound_eligibility.eligible']),
  );
  for (const name of names) {
    const s = await a.results(scan.id, { sort: `-${name}`, per_page: 1 });
    expect([name, s.status]).toEqual([name, 200]);
    const f = await a.results(scan.id, { filter: [{ name, operator: '!=', value: null }], per_page: 1 });
    expect([name, f.status]).toEqual([name, 200]);
  }
});

test('the errors table lists the failed lines with line, identifier, code, message and cells; it sorts and filters too', async () => {
  const r = await rows({ tableType: 'errors' });
  expect(r.count).toBe(3);
  // Lines are rows of the file, header included: 150 fillers + 6 specials after the header.
  expect(r.data.map((e: any) => [e.line, e.identifier, e.code])).toEqual([
    [158, 'not-an-id', 'invalid_identifier'],
    [159, upc(999999), 'not_found'],
    [160, P.plain.upc, 'invalid_cost'],
  ]);
  expect(r.data[2].input).toEqual([P.plain.upc, 'free']);
  expect(typeof r.data[2].message).toBe('string');
  const desc = await rows({ tableType: 'errors', sort: '-line' });
  expect(desc.data.map((e: any) => e.line)).toEqual([160, 159, 158]);
  const notFound = await rows({ tableType: 'errors', filter: [{ name: 'code', operator: '=', value: 'not_found' }] });
  expect(notFound.data.map((e: any) => e.line)).toEqual([159]);
  const bad = await a.results(scan.id, { tableType: 'errors', sort: 'profit' });
  expect(bad.status).toBe(422);
});

test('odd bodies and ids answer 4xx with a message, never 500', async () => {
  const bodies: unknown[] = [
    [],
    [1],
    'x',
    { filter: [null] },
    { filter: [{}] },
    { filter: [{ name: 'profit' }] },
    { page: 1e20 },
    { per_page: 1.5 },
    { filter: [{ name: 'profit', operator: '>', value: { a: 1 } }] },
  ];
  for (const body of bodies) {
    const r = await a.results(scan.id, body);
    expect([JSON.stringify(body), r.status >= 400 && r.status < 500]).toEqual([JSON.stringify(body), true]);
    expect(typeof r.body.message).toBe('string');
  }
  for (const id of ['0', '-1', '1.5', '99999999999999999999', 'null']) {
    const r = await a.results(id as unknown as number, {});
    expect([id, r.status]).toEqual([id, 404]);
  }
});

test('every product links its pictures on the https picture host, and the service serves each as a PNG without a key', async () => {
  const data = await all();
  const links = data.flatMap((p: any) => p.images.map((i: any) => i.url));
  expect(data.every((p: any) => p.images.length >= 1)).toBe(true);
  for (const link of links) expect(link).toMatch(/^https:\/\/images\.scan-service\.invalid\/I\/[A-Z0-9]{10}-\d\.png$/);
  // The host never resolves: the local clients map it to the service's own route.
  const path = new URL(links[0]).pathname;
  const first = await fetch(svc.url + '/images' + path);
  expect(first.status).toBe(200);
  expect(first.headers.get('content-type')).toBe('image/png');
  const png = Buffer.from(await first.arrayBuffer());
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  expect(png.readUInt32BE(16)).toBe(75); // width, from the IHDR chunk
  // Same link, same picture; another product, another picture.
  expect(Buffer.from(await (await fetch(svc.url + '/images' + path)).arrayBuffer())).toEqual(png);
  const other = new URL(links.find((l: string) => !l.includes(path.slice(3, 13)))!).pathname;
  expect(Buffer.from(await (await fetch(svc.url + '/images' + other)).arrayBuffer())).not.toEqual(png);
  expect((await fetch(svc.url + '/images/I/..%2Fsecret.png')).status).toBe(404);
});
