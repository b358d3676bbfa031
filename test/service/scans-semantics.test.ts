/**
 * What a scan computes: every upload option reaching the results, and the account's own data
 * (blocklists, multipack corrections, listing matches) applied (document 2.1, 2.3, 4.6), over HTTP.
 */
import type { RunningService } from '../../emulator/service/server';
import { Client, KEY_A, KEY_B, P, attrs, csv, startTestService, upc } from './scans-fixtures';

let svc: RunningService;
let a: Client;
beforeAll(async () => {
  svc = await startTestService();
  a = new Client(svc.url, KEY_A);
});
afterAll(async () => {
  await svc.stop();
});

/** Scans `rows` with the attributes and answers its product rows by ASIN. */
async function productsOf(c: Client, rows: (string | number)[][], attributes: unknown): Promise<Record<string, any>> {
  const done = await c.scan(csv(rows), attributes);
  expect(done.status).toBe('success');
  const r = await c.results(done.id, { per_page: 100 });
  return Object.fromEntries(r.body.data.map((p: any) => [p.asin, p]));
}

test('cost is read in cents; discount_supplier (basis points) lowers discount_cost and total_cogs and raises profit by the same', async () => {
  const base = (await productsOf(a, [[P.plain.upc, '10.00']], attrs()))[P.plain.asin];
  const disc = (await productsOf(a, [[P.plain.upc, '10.00']], attrs({ discount_supplier: 1000 })))[P.plain.asin];
  expect(base.inputs).toMatchObject({ cost: 1000, discount_cost: 1000, total_cogs: 1000 });
  expect(disc.inputs).toMatchObject({ cost: 1000, discount_cost: 900, total_cogs: 900 });
  expect(disc.financials.profit - base.financials.profit).toBe(100);
});

test('prep_cost is charged per unit and lowers profit by exactly that', async () => {
  const base = (await productsOf(a, [[P.plain.upc, '10.00']], attrs()))[P.plain.asin];
  const prep = (await productsOf(a, [[P.plain.upc, '10.00']], attrs({ prep_cost: 75 })))[P.plain.asin];
  expect(prep.financials.prep_cost).toBe(75);
  expect(base.financials.profit - prep.financials.profit).toBe(75);
});

test('a multipack listing costs its units per order; multipack_prep_cost charges the first N and the rest', async () => {
  const mp = { enabled: true, firstN: 2, costForFirstN: 30, costForRest: 10 };
  const base = (await productsOf(a, [[P.multipack.upc, '2.00']], attrs()))[P.multipack.asin];
  expect(base.market_pack_quantity).toBe(6);
  expect(base.inputs.total_cogs).toBe(1200);
  const withPrep = (await productsOf(a, [[P.multipack.upc, '2.00']], attrs({ multipack_prep_cost: mp })))[P.multipack.asin];
  expect(withPrep.financials.prep_cost).toBe(2 * 30 + 4 * 10);
  expect(base.financials.profit - withPrep.financials.profit).toBe(100);
  // Disabled: no charge.
  const off = (await productsOf(a, [[P.multipack.upc, '2.00']], attrs({ multipack_prep_cost: { ...mp, enabled: false } })))[
    P.multipack.asin
  ];
  expect(off.financials.prep_cost).toBe(0);
});

test('multipack_override sets the units per order of every product of the scan', async () => {
  const over = await productsOf(
    a,
    [
      [P.multipack.upc, '2.00'],
      [P.plain.upc, '2.00'],
    ],
    attrs({ multipack_override: true, multipack_override_quantity: 3 }),
  );
  expect(over[P.multipack.asin].market_pack_quantity).toBe(3);
  expect(over[P.multipack.asin].inputs.total_cogs).toBe(600);
  expect(over[P.plain.asin].market_pack_quantity).toBe(3);
  expect(over[P.plain.asin].inputs.total_cogs).toBe(600);
});

test('every mapped column reaches inputs: sku, image, pack quantity, MAP, stock, per-product discount, title, custom columns', async () => {
  const rows = [
    ['UPC', 'Pack cost', 'SKU', 'Image', 'Pack', 'MAP', 'Stock', 'Disc', 'Colour', 'Note', 'Title'],
    [P.plain.upc, '12.00', 'SKU-1', 'https://img.example/1.jpg', '4', '25.00', '120', '5%', 'red', 'n1', 'Plain thing'],
  ];
  const p = (
    await productsOf(
      a,
      rows,
      attrs(
        { header: true, custom_columns: ['Colour', 'Note'] },
        {
          supplier_sku: 2,
          supplier_image: 3,
          supplier_pack_quantity: 4,
          map: 5,
          stock_quantity: 6,
          discount_per_product: 7,
          custom_columns: [8, 9],
          supplier_title: 10,
        },
      ),
    )
  )[P.plain.asin];
  expect(p.inputs).toMatchObject({
    identifier: P.plain.upc,
    cost: 300,
    supplier_sku: 'SKU-1',
    supplier_image: 'https://img.example/1.jpg',
    supplier_pack_quantity: 4,
    map: 2500,
    stock: 120,
    discount_cost: 285,
    custom_columns: ['red', 'n1'],
    supplier_title: 'Plain thing',
  });
});

test('pull_historical_data fills the historical members; without it they are -1', async () => {
  const off = (await productsOf(a, [[P.plain.upc, '10.00']], attrs()))[P.plain.asin];
  const on = (await productsOf(a, [[P.plain.upc, '10.00']], attrs({ pull_historical_data: true })))[P.plain.asin];
  expect(off.bsr_30_days).toBe(-1);
  expect(on.bsr_30_days).toBe(4000);
  expect(on.sales_rank_drops_180_days).toBe(160);
});

test('header false scans the first row too (a header row then fails as a line)', async () => {
  const done = await a.scan(
    csv([
      ['UPC', 'Cost'],
      [P.plain.upc, '1.00'],
    ]),
    attrs(),
  );
  expect(done).toMatchObject({ lines: 2, products: 1, errors: 1 });
});

test('an identifier on several ASINs gives one product row per ASIN', async () => {
  const rows = await productsOf(a, [[P.sharedA.upc, '5.00']], attrs());
  expect(Object.keys(rows).sort()).toEqual([P.sharedA.asin, P.sharedB.asin].sort());
});

test('a scan where no line gives a product ends with status error', async () => {
  const done = await a.scan(
    csv([
      [upc(999998), '1.00'],
      ['junk', '1.00'],
    ]),
    attrs(),
  );
  expect(done).toMatchObject({ status: 'error', products: 0, errors: 2 });
});

describe("the account's own data", () => {
  // Each test uses its own account where rules would leak into others: B is only used here.
  const b = () => new Client(svc.url, KEY_B);

  test('blocked brands are dropped from results, matched exactly (case-sensitive); other accounts are unaffected', async () => {
    const add = await b().post('/api/v3/brand-blocklist', { marketplace_id: 'US', brands: ['BlockCo'] });
    expect(add.status).toBe(200);
    const rows = [
      [P.sharedA.upc, '5.00'],
      [P.caseBrand.upc, '5.00'],
    ];
    const got = await productsOf(b(), rows, attrs());
    expect(Object.keys(got).sort()).toEqual([P.sharedA.asin, P.caseBrand.asin].sort());
    const other = await productsOf(a, rows, attrs());
    expect(Object.keys(other)).toContain(P.sharedB.asin);
    await b().del('/api/v3/brand-blocklist', { marketplace_id: 'US', brands: ['BlockCo'] });
  });

  test('blocked ASINs are dropped from results; a line whose only product is blocked is not an error', async () => {
    await b().post('/api/v3/asin-blocklist', { marketplace_id: 'US', asins: [P.cheap.asin] });
    const done = await b().scan(
      csv([
        [P.cheap.upc, '1.00'],
        [P.plain.upc, '1.00'],
      ]),
      attrs(),
    );
    expect(done).toMatchObject({ status: 'success', products: 1, errors: 0 });
    const r = await b().results(done.id);
    expect(r.body.data.map((p: any) => p.asin)).toEqual([P.plain.asin]);
    await b().del('/api/v3/asin-blocklist', { marketplace_id: 'US', asins: [P.cheap.asin] });
  });

  test('a multipack correction changes units per order, and so cost and profit', async () => {
    const before = (await productsOf(b(), [[P.multipack.upc, '2.00']], attrs()))[P.multipack.asin];
    await b().post('/api/v3/multipack-corrections', { marketplace_id: 'US', corrections: [{ asin: P.multipack.asin, quantity: 2 }] });
    const after = (await productsOf(b(), [[P.multipack.upc, '2.00']], attrs()))[P.multipack.asin];
    expect(before.market_pack_quantity).toBe(6);
    expect(after.market_pack_quantity).toBe(2);
    expect(after.inputs.total_cogs).toBe(400);
    expect(after.financials.profit - before.financials.profit).toBe(800);
    await b().del('/api/v3/multipack-corrections', { marketplace_id: 'US', asins: [P.multipack.asin] });
  });

  test('a listing match with is_match false stops that identifier pairing with that ASIN only', async () => {
    await b().post('/api/v3/listing-matches', {
      marketplace_id: 'US',
      matches: [{ identifier: P.sharedA.upc, asin: P.sharedB.asin, is_match: false }],
    });
    const got = await productsOf(b(), [[P.sharedA.upc, '5.00']], attrs());
    expect(Object.keys(got)).toEqual([P.sharedA.asin]);
    await b().del('/api/v3/listing-matches', { marketplace_id: 'US', matches: [{ identifier: P.sharedA.upc, asin: P.sharedB.asin }] });
    const again = await productsOf(b(), [[P.sharedA.upc, '5.00']], attrs());
    expect(Object.keys(again).sort()).toEqual([P.sharedA.asin, P.sharedB.asin].sort());
  });

  test('rules of another marketplace do not apply', async () => {
    await b().post('/api/v3/asin-blocklist', { marketplace_id: 'CA', asins: [P.plain.asin] });
    const got = await productsOf(b(), [[P.plain.upc, '1.00']], attrs());
    expect(Object.keys(got)).toEqual([P.plain.asin]);
    await b().del('/api/v3/asin-blocklist', { marketplace_id: 'CA', asins: [P.plain.asin] });
  });
});
