/** processRow, convert and asinConvert over hand-made catalogs (emulator/service/engine/README.md). */
import { catalogFromRecords } from '../../../emulator/service/catalog/index';
import { checkAttributes, createEngine } from '../../../emulator/service/engine/index';
import type { ProductRow } from '../../../emulator/service/engine/types';
import { attrs, record, rules } from './fixtures';

// The worked example's listing, its single-unit sibling on the same UPC, a book, a CA copy.
const pack2 = record();
const single = record({
  asin: 'B0SINGLE01',
  title: 'Acme Mixing Bowls',
  market_pack_quantity: 1,
  rank: 800,
  buybox_price: 1399,
  brand: 'ACME',
});
const book = record({
  asin: '0306406152',
  title: 'A Book',
  brand: 'Harbor Press',
  category: 'Books',
  market_pack_quantity: 1,
  identifiers: { isbn: ['9780306406157', '0306406152'], ean: ['9780306406157'] },
  package_dimensions: { length: 9, width: 6, height: 1, weight: 0.8 },
});
const noIds = record({ asin: 'B0NOIDS001', identifiers: {}, market_pack_quantity: 1 });
const hazmat = record({
  asin: 'B0HAZMAT01',
  is_hazmat: true,
  is_meltable: true,
  is_adult: true,
  fees_available: false,
  market_pack_quantity: 1,
  identifiers: { gtin: ['10036000291459'], jan: ['4901234567894'] },
  history: { bsr: [10, 20, 30, 40], price: [100, 200, 300, 400], instock_rate: [9000, 8000, 7000, 6000], rank_drops: [1, 2, 3, 4] },
});
const caCopy = record({ marketplace_id: 2, buybox_price: 3399 });
const engine = createEngine(catalogFromRecords([pack2, single, book, noIds, hazmat, caCopy]));
const US = 1;

const exampleAttrs = attrs(
  { id: 0, cost: 1, supplier_pack_quantity: 2, discount_per_product: 3 },
  { discount_supplier: 500, prep_cost: 25, multipack_prep_cost: { enabled: true, firstN: 1, costForFirstN: 10, costForRest: 5 } },
);
const run = (row: string[], a = attrs(), r = rules(), mp = US) => engine.processRow(row, 7, a, mp, r);
const only = (row: string[], a = attrs(), r = rules()) => {
  const out = run(row, a, r);
  expect(out.error).toBeUndefined();
  return out.products;
};
const byAsin = (ps: ProductRow[], asin: string) => ps.find((p) => p.asin === asin) as any;

describe('processRow: the worked example through a supplier row', () => {
  it('gives the document figures for the 2-pack and its own for the single unit on the same UPC', () => {
    const ps = only(['012345678905', '$18.00', '3', '2%'], exampleAttrs);
    expect(ps.map((p) => p.asin)).toEqual(['B0SINGLE01', 'B0EXAMPLE1']); // best rank first
    const p = byAsin(ps, 'B0EXAMPLE1');
    expect(p.inputs).toMatchObject({
      identifier: '012345678905',
      cost: 600,
      discount_cost: 559,
      total_cogs: 1117,
      supplier_pack_quantity: 3,
    });
    expect(p.financials).toEqual({
      profit: 418,
      margin: 1673,
      roi: 3742,
      net_revenue: 1627,
      prep_cost: 40,
      inbound_shipping: 52,
      fba_storage_fees: 8,
    });
    expect(p.market_fees).toEqual({
      referral_fee: 375,
      fba_fees: 463,
      per_item_fee: 0,
      variable_closing_fee: 0,
      inbound_placement_fee: 34,
    });
    expect([p.units_per_month, p.sales_per_month, p.profit_per_month, p.size_tier, p.market_pack_quantity]).toEqual([
      315,
      787185,
      131670,
      'large_standard',
      2,
    ]);
    const s = byAsin(ps, 'B0SINGLE01');
    expect([s.market_pack_quantity, s.inputs.total_cogs, s.financials.prep_cost]).toEqual([1, 559, 25]);
  });
});

describe('processRow: every field of the product object (document 2.3)', () => {
  const p = byAsin(only(['012345678905', '10.00']), 'B0EXAMPLE1');
  it('has the top-level fields', () => {
    for (const k of [
      'id',
      'asin',
      'market_title',
      'brand',
      'color',
      'size_name',
      'category',
      'rank',
      'buybox_price',
      'lowest_price_new_fba',
      'lowest_price_new_fbm',
      'lowest_price_used_fba',
      'lowest_price_used_fbm',
      'market_pack_quantity',
      'size_tier',
      'competitive_sellers',
      'new_fba_offers_count',
      'new_fbm_offers_count',
      'total_offers_count',
      'number_of_variations',
      'parent_asin',
      'is_hazmat',
      'is_meltable',
      'is_adult',
      'is_brand_blocklisted',
      'small_and_light_eligible',
      'units_per_month',
      'sales_per_month',
      'profit_per_month',
      'inputs',
      'financials',
      'market_fees',
      'dimensions',
      'identifiers',
      'inbound_eligibility',
      'images',
      'errors',
      'flags',
    ]) {
      expect(p).toHaveProperty([k]);
    }
    expect(p).toMatchObject({
      market_title: 'Acme Mixing Bowls, Pack of 2',
      brand: 'Acme',
      rank: 5000,
      buybox_price: 2499,
      lowest_price_used_fbm: 1800,
      is_brand_blocklisted: false,
    });
  });
  it('has the nested objects with their members', () => {
    expect(Object.keys(p.inputs).sort()).toEqual(
      [
        'cost',
        'custom_columns',
        'discount_cost',
        'identifier',
        'map',
        'stock',
        'supplier_image',
        'supplier_pack_quantity',
        'supplier_sku',
        'supplier_title',
        'total_cogs',
      ].sort(),
    );
    expect(Object.keys(p.financials).sort()).toEqual(
      ['fba_storage_fees', 'inbound_shipping', 'margin', 'net_revenue', 'prep_cost', 'profit', 'roi'].sort(),
    );
    expect(p.dimensions).toEqual({
      package_dimensions: { length: 10, width: 6, height: 3, weight: 1.2 },
      item_dimensions: { length: 9.5, width: 5.5, height: 2.5, weight: 1.1 },
    });
    expect(p.identifiers).toEqual({ upc: ['012345678905'], ean: ['0012345678905'] });
    expect(p.inbound_eligibility).toEqual({ eligible: true, updated_at: 1763337600, ineligible_codes: [] });
    // One picture per catalog image, drawn and served by the local service (catalog/pictures.ts).
    expect(p.images).toEqual([{ marketplace_id: 1, url: 'https://images.scan-service.invalid/I/B0EXAMPLE1-0.png' }]);
    expect([p.errors, p.flags]).toEqual([[], []]);
  });
  it('has the tolerated extras; historical data is -1 unless pulled', () => {
    expect(p).toMatchObject({
      line: 7,
      marketplace_id: 1,
      sale_price: 2499,
      listing_match: null,
      bsr_percentage: 17,
      monthly_sold: 315,
      bsr_30_days: -1,
      price_180_days: -1,
    });
    const h = byAsin(only(['10036000291459', '1'], attrs({}, { pull_historical_data: true })), 'B0HAZMAT01');
    expect([h.bsr_30_days, h.price_60_days, h.instock_rate_90_days, h.sales_rank_drops_180_days]).toEqual([10, 200, 7000, 4]);
    const known = byAsin(only(['012345678905', '1'], attrs({}, { pull_historical_data: true })), 'B0EXAMPLE1');
    expect(known.bsr_30_days).toBe(-1); // the listing has no history in the catalog
  });
  it('reads the optional mapped columns', () => {
    const a = attrs(
      { supplier_sku: 2, supplier_image: 3, map: 4, stock_quantity: 5, custom_columns: [6, 2, 9], supplier_title: 7 } as any,
      { custom_columns: ['Notes', 'SKU again', 'missing'] },
    );
    const q = byAsin(
      only(['012345678905', '10', ' SKU-1 ', 'https://img.example/1.jpg', '$30.00', '1,200', 'fragile', 'Bowl set'], a),
      'B0EXAMPLE1',
    );
    expect(q.inputs).toMatchObject({
      supplier_sku: 'SKU-1',
      supplier_image: 'https://img.example/1.jpg',
      map: 3000,
      stock: 1200,
      custom_columns: ['fragile', ' SKU-1 ', ''],
      supplier_title: 'Bowl set',
    });
    expect(q.flags.map((f: any) => f.code)).toContain('below_map'); // 2499 < 2 units x 30.00
  });
  it('an unreadable MAP or stock is ignored with a flag, not an error', () => {
    const q = byAsin(only(['012345678905', '10', 'lots', 'tbd'], attrs({ stock_quantity: 2, map: 3 })), 'B0EXAMPLE1');
    expect([q.inputs.stock, q.inputs.map]).toEqual([null, null]);
    expect(q.flags.map((f: any) => f.code)).toEqual(['invalid_map', 'invalid_stock']);
  });
});

describe('processRow: error rows', () => {
  it.each([
    [['', '10'], 'missing_identifier'],
    [['5.01234E+12', '10'], 'invalid_identifier'],
    [['012345678906', '10'], 'invalid_identifier'],
    [['036000291452', '10'], 'not_found'],
    [['B0UNKNOWN1', '10'], 'not_found'],
    [['012345678905', 'call'], 'invalid_cost'],
    [['012345678905', ''], 'invalid_cost'],
    [['012345678905', '0.00'], 'invalid_cost'],
    [['012345678905', '-1'], 'invalid_cost'],
    [['012345678905', '10', 'x'], 'invalid_pack_quantity'],
    [['012345678905', '10', '0'], 'invalid_pack_quantity'],
    [['012345678905', '10', '1', '120%'], 'invalid_discount'],
  ])('%j -> %s', (row, code) => {
    const out = run(row as string[], attrs({ supplier_pack_quantity: 2, discount_per_product: 3 }));
    expect(out.products).toEqual([]);
    expect(out.error).toMatchObject({ line: 7, code, identifier: (row as string[])[0].trim(), input: row });
    expect(out.error!.message.length).toBeGreaterThan(10);
  });
  it('a row whose cells are all empty is blank: no product, no error', () => {
    expect(run(['', '  '])).toEqual({ products: [], blank: true });
  });
  it('looks only in the scan marketplace', () => {
    expect(run(['012345678905', '10'], attrs(), rules(), 2).products.map((p) => [p.asin, p.buybox_price])).toEqual([['B0EXAMPLE1', 3399]]);
    expect(run(['012345678905', '10'], attrs(), rules(), 4).error?.code).toBe('not_found');
  });
});

describe('processRow: identifiers of every kind', () => {
  it.each([
    ['012345678905', ['B0SINGLE01', 'B0EXAMPLE1']],
    ['12345678905', ['B0SINGLE01', 'B0EXAMPLE1']],
    ['0012345678905', ['B0SINGLE01', 'B0EXAMPLE1']],
    ['b0example1', ['B0EXAMPLE1']],
    ['0306406152', ['0306406152']],
    ['9780306406157', ['0306406152']],
    ['10036000291459', ['B0HAZMAT01']],
    ['4901234567894', ['B0HAZMAT01']],
  ])('%s finds %j', (id, asins) => {
    expect(only([id, '10']).map((p) => p.asin)).toEqual(asins);
  });
  it('finds a UPC-A by its UPC-E (zero-suppressed) form', () => {
    const e = createEngine(catalogFromRecords([record({ identifiers: { upc: ['042100005264'] } })]));
    expect(e.processRow(['04252614', '5'], 2, attrs(), US, rules()).products.map((p) => p.asin)).toEqual(['B0EXAMPLE1']);
    expect(e.convert(US, ['04252614'])).toEqual({ '04252614': ['B0EXAMPLE1', '042100005264'] });
  });
  it('flags a UPC whose leading zeros were restored', () => {
    expect(only(['12345678905', '10'])[0].flags).toEqual([
      { code: 'identifier_padded', message: expect.stringContaining('leading zeros') },
    ]);
    expect(only(['012345678905', '10'])[0].flags).toEqual([]);
  });
});

describe('processRow: options', () => {
  const cogs = (a: ReturnType<typeof attrs>, row = ['012345678905', '10.00'], r = rules()) => byAsin(only(row, a, r), 'B0EXAMPLE1');
  it('discount_supplier (bp) and discount_per_product (bp or %) compound', () => {
    expect(cogs(attrs({}, { discount_supplier: 1000 })).inputs.discount_cost).toBe(900);
    expect(cogs(attrs({ discount_per_product: 2 }), ['012345678905', '10.00', '1000']).inputs.discount_cost).toBe(900);
    expect(cogs(attrs({ discount_per_product: 2 }, { discount_supplier: 1000 }), ['012345678905', '10.00', '10%']).inputs).toMatchObject({
      cost: 1000,
      discount_cost: 810,
      total_cogs: 1620,
    });
  });
  it('prep_cost per marketplace unit, multipack prep only for multipacks', () => {
    const a = attrs({}, { prep_cost: 30, multipack_prep_cost: { enabled: true, firstN: 1, costForFirstN: 20, costForRest: 10 } });
    const ps = only(['012345678905', '10'], a);
    expect(byAsin(ps, 'B0EXAMPLE1').financials.prep_cost).toBe(30 + 20 + 10);
    expect(byAsin(ps, 'B0SINGLE01').financials.prep_cost).toBe(30);
    const off = attrs({}, { prep_cost: 30, multipack_prep_cost: { enabled: false, firstN: 1, costForFirstN: 20, costForRest: 10 } });
    expect(byAsin(only(['012345678905', '10'], off), 'B0EXAMPLE1').financials.prep_cost).toBe(30);
  });
  it('supplier pack quantity divides the cost', () => {
    expect(cogs(attrs({ supplier_pack_quantity: 2 }), ['012345678905', '12.00', '4']).inputs).toMatchObject({
      cost: 300,
      total_cogs: 600,
      supplier_pack_quantity: 4,
    });
  });
  it('multipack_override sets units per order for every product; off or without a quantity it does nothing', () => {
    const o = cogs(attrs({}, { multipack_override: true, multipack_override_quantity: 5 }));
    expect([o.market_pack_quantity, o.inputs.total_cogs, o.market_pack_quantity_source]).toEqual([5, 5000, 'override']);
    expect(o.flags.map((f: any) => f.code)).toContain('multipack_override');
    expect(cogs(attrs({}, { multipack_override: false, multipack_override_quantity: 5 })).market_pack_quantity).toBe(2);
  });
  it('an account multipack correction changes units, cost and profit, and wins over the override', () => {
    const r = rules({ multipackCorrections: new Map([['B0EXAMPLE1', 3]]) });
    const c = cogs(attrs(), undefined, r);
    const plain = cogs(attrs());
    expect([c.market_pack_quantity, c.catalog_pack_quantity, c.inputs.total_cogs, c.market_pack_quantity_source]).toEqual([
      3,
      2,
      3000,
      'correction',
    ]);
    expect(c.financials.profit).toBe(plain.financials.profit - 1000);
    expect(c.flags.map((f: any) => f.code)).toContain('multipack_corrected');
    expect(cogs(attrs({}, { multipack_override: true, multipack_override_quantity: 5 }), undefined, r).market_pack_quantity).toBe(3);
  });
  it('hazmat, meltable, adult and missing fees show as flags and errors', () => {
    const h = byAsin(only(['10036000291459', '1']), 'B0HAZMAT01');
    expect(h.flags.map((f: any) => f.code)).toEqual(['hazmat', 'meltable', 'adult']);
    expect(h.errors.map((f: any) => f.code)).toEqual(['fees_unavailable']);
    expect(h.market_fees).toMatchObject({
      referral_fee: null,
      fba_fees: null,
      per_item_fee: null,
      variable_closing_fee: null,
      error: expect.any(String),
    });
    expect(h.financials.profit).toBeNull();
  });
});

describe('processRow: account rules', () => {
  it('drops a blocked brand by exact, case-sensitive match and says so in `dropped`', () => {
    const out = run(['012345678905', '10'], attrs(), rules({ blockedBrands: new Set(['Acme']) }));
    expect(out.products.map((p) => p.asin)).toEqual(['B0SINGLE01']); // brand "ACME" is not "Acme"
    expect(out.dropped).toEqual([{ asin: 'B0EXAMPLE1', reason: 'brand_blocklisted' }]);
    expect(out.error).toBeUndefined();
    expect((out.products[0] as any).flags.map((f: any) => f.code)).toEqual(['brand_blocklist_case_variant']);
    expect((out.products[0] as any).is_brand_blocklisted).toBe(false);
  });
  it('drops a blocked ASIN, exact match only', () => {
    expect(run(['012345678905', '10'], attrs(), rules({ blockedAsins: new Set(['B0SINGLE01']) })).products.map((p) => p.asin)).toEqual([
      'B0EXAMPLE1',
    ]);
    expect(run(['012345678905', '10'], attrs(), rules({ blockedAsins: new Set(['b0single01']) })).products).toHaveLength(2);
  });
  it('a row whose every product is dropped has no products and no error', () => {
    const out = run(['012345678905', '10'], attrs(), rules({ blockedAsins: new Set(['B0SINGLE01', 'B0EXAMPLE1']) }));
    expect(out).toEqual({
      products: [],
      dropped: [
        { asin: 'B0SINGLE01', reason: 'asin_blocklisted' },
        { asin: 'B0EXAMPLE1', reason: 'asin_blocklisted' },
      ],
    });
  });
  it('a listing match with is_match false stops that identifier/ASIN pairing only; true is shown', () => {
    const r = rules({
      listingMatches: new Map([
        ['012345678905\u0000B0SINGLE01', false],
        ['012345678905\u0000B0EXAMPLE1', true],
      ]),
    });
    const out = run(['012345678905', '10'], attrs(), r);
    expect(out.products.map((p) => [p.asin, (p as any).listing_match])).toEqual([['B0EXAMPLE1', true]]);
    expect(out.dropped).toEqual([{ asin: 'B0SINGLE01', reason: 'listing_mismatch' }]);
    expect((out.products[0] as any).flags.map((f: any) => f.code)).toContain('listing_match_confirmed');
    // The pairing is by the identifier as written: another spelling of the UPC is another pairing.
    expect(run(['12345678905', '10'], attrs(), r).products).toHaveLength(2);
  });
});

describe('processRow is pure', () => {
  it('gives the same outcome for the same inputs', () => {
    const a = run(['012345678905', '10.00', '1', '5%'], exampleAttrs);
    const b = run(['012345678905', '10.00', '1', '5%'], exampleAttrs);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });
});

describe('convert (POST /api/v3/convert)', () => {
  it('keys each matched input as given: every matching ASIN best rank first, then their identifiers other than the input', () => {
    expect(engine.convert(US, ['012345678905', '12345678905', '9780306406157', '036000291452', 'junk', '4901234567894'])).toEqual({
      '012345678905': ['B0SINGLE01', 'B0EXAMPLE1', '0012345678905'],
      '12345678905': ['B0SINGLE01', 'B0EXAMPLE1', '012345678905', '0012345678905'],
      '9780306406157': ['0306406152'], // the book's ISBN-10 is its ASIN, not repeated
      '4901234567894': ['B0HAZMAT01', '10036000291459'],
    });
  });
  it('lists the identifiers of every matched product, product by product, without repeats', () => {
    const a = record({ asin: 'B0AAAAAAA1', rank: 10, identifiers: { upc: ['012345678905'], gtin: ['10012345678902'] } });
    const b = record({
      asin: 'B0BBBBBBB1',
      rank: 20,
      identifiers: { upc: ['012345678905'], ean: ['0012345678905'], jan: ['4901234567894'] },
    });
    const e = createEngine(catalogFromRecords([b, a]));
    expect(e.convert(US, ['012345678905'])).toEqual({
      '012345678905': ['B0AAAAAAA1', 'B0BBBBBBB1', '10012345678902', '0012345678905', '4901234567894'],
    });
  });
  it('omits inputs that match nothing or are not identifiers; other marketplaces are separate', () => {
    expect(engine.convert(US, ['036000291452', 'B0EXAMPLE1', ''])).toEqual({});
    expect(engine.convert(2, ['012345678905'])).toEqual({ '012345678905': ['B0EXAMPLE1', '0012345678905'] });
  });
});

describe('asinConvert (POST /api/v3/asin-convert)', () => {
  it('gives each known ASIN its identifiers by kind and omits ASINs without any', () => {
    expect(engine.asinConvert(US, ['B0EXAMPLE1', '0306406152', 'B0NOIDS001', 'B0UNKNOWN1', 'B0HAZMAT01', 'b0example1'])).toEqual({
      B0EXAMPLE1: { upc: ['012345678905'], ean: ['0012345678905'] },
      '0306406152': { ean: ['9780306406157'], isbn: ['9780306406157', '0306406152'] },
      B0HAZMAT01: { gtin: ['10036000291459'], jan: ['4901234567894'] },
    });
  });
});

describe('checkAttributes', () => {
  it('lists range problems the schema cannot express', () => {
    expect(checkAttributes(attrs({}, {}))).toEqual([]);
    const problems = checkAttributes({
      mapping: { id: -1, cost: 1.5 } as any,
      options: { marketplace_id: 'US', name: 'x', discount_supplier: 10001, prep_cost: -5, multipack_override: true },
    });
    expect(problems.map((p) => p.field)).toEqual([
      'mapping.id',
      'mapping.cost',
      'options.discount_supplier',
      'options.prep_cost',
      'options.multipack_override_quantity',
    ]);
  });
});
