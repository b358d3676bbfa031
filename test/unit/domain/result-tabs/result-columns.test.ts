import { findMarketplace } from '../../../../contract/marketplaces';
import { columnIndex, resultBlock, resultColumns } from '../../../../src/domain/result-tabs/result-columns';
import { errorsBlock, sheetRowField } from '../../../../src/domain/result-tabs/errors-columns';
import { columnLetter } from '../../../../src/domain/price-list/mapping';

const US = findMarketplace('US')!;
const DE = findMarketplace('DE')!;

/** A product as contract 2.3 describes it, with members the contract does not list. */
function product(): Record<string, unknown> {
  return {
    id: 991,
    asin: 'B00EXAMPLE',
    market_title: 'Widget, large (12 pack)',
    brand: 'Acme',
    color: 'Blue',
    size_name: 'L',
    category: 'Home & Kitchen',
    rank: 15230,
    buybox_price: 2499,
    lowest_price_new_fba: 2450,
    lowest_price_new_fbm: null,
    lowest_price_used_fba: 1800,
    lowest_price_used_fbm: 1700,
    market_pack_quantity: 2,
    size_tier: 'Large Standard-Size',
    competitive_sellers: 3,
    new_fba_offers_count: 4,
    new_fbm_offers_count: 2,
    total_offers_count: 6,
    is_hazmat: false,
    is_meltable: true,
    is_adult: false,
    units_per_month: 120,
    sales_per_month: 299880,
    profit_per_month: 60000,
    inputs: {
      identifier: '012345678905',
      cost: 500,
      discount_cost: 450,
      total_cogs: 900,
      stock: 40,
      map: 1999,
      supplier_sku: '=cmd|calc',
      supplier_pack_quantity: 6,
      custom_columns: ['Blue widget', '8'],
    },
    financials: { profit: 500, margin: 2001, roi: 5556, net_revenue: 1585, prep_cost: 100, inbound_shipping: 85, fba_storage_fees: 12 },
    market_fees: { referral_fee: 375, fba_fees: 512, per_item_fee: null, variable_closing_fee: 0, inbound_placement_fee: 27 },
    flags: ['Private label', { name: 'Amazon on listing' }],
    monthly_sold: 100, // a member the contract does not list
    historical: { bsr_30: -1 },
  };
}

describe('result tab layout', () => {
  test('columns in the order a seller reads them, supplier inputs and custom columns last', () => {
    const cols = resultColumns(['Description', 'Sheet row']);
    expect(cols.map((c) => c.header)).toEqual([
      'ASIN',
      'Title',
      'Picture',
      'Description',
      'Verdict',
      'Identifier',
      'Brand',
      'Category',
      'Rank',
      'Buy Box',
      'Referral fee',
      'FBA fee',
      'Other fees',
      'Net revenue',
      'Cost',
      'Cost after discount',
      'Units/order',
      'Total cost',
      'Prep',
      'Inbound shipping',
      'Profit',
      'Margin',
      'ROI',
      'Break-even cost',
      'Cost for 30% ROI',
      'Check',
      'Storage/mo',
      'Units/mo',
      'Sales/mo',
      'Profit/mo',
      'Your units/mo',
      'Your profit/mo',
      'Lowest FBA',
      'Lowest FBM',
      'FBA offers',
      'FBM offers',
      'Offers',
      'Flags',
      'Hazmat',
      'Meltable',
      'Adult',
      'Size tier',
      'SKU',
      'MAP',
      'Stock',
      'Pack qty',
      'Sheet row',
    ]);
    expect(new Set(cols.map((c) => c.key)).size).toBe(cols.length);
    expect(columnIndex(cols, 'profit')).toBe(20);
    expect(columnIndex(cols, 'roi')).toBe(22);
  });

  test('values of a realistic product: money as amounts, basis points as fractions, guarded text', () => {
    const b = resultBlock([product()], { marketplace: US, customColumns: ['Description', 'Sheet row'] });
    const row: Record<string, unknown> = {};
    b.headers.forEach((h, i) => (row[h] = b.values[0][i]));
    expect(row).toEqual({
      ASIN: '=HYPERLINK("https://www.amazon.com/dp/B00EXAMPLE","B00EXAMPLE")',
      Title: "'Widget, large (12 pack)", // has a digit: guarded so Sheets keeps the text
      Picture: '', // no images
      Description: 'Blue widget',
      Verdict: 'Check',
      Identifier: "'012345678905",
      Brand: 'Acme',
      Category: 'Home & Kitchen',
      Rank: 15230,
      'Buy Box': 24.99,
      'Referral fee': 3.75,
      'FBA fee': 5.12,
      'Other fees': 0.27,
      'Net revenue': 15.85,
      Cost: 5,
      'Cost after discount': 4.5,
      'Units/order': 2,
      'Total cost': 9,
      Prep: 1,
      'Inbound shipping': 0.85,
      Profit: 5,
      Margin: 0.2001,
      // Issue 27.9: ONE ROI, on everything the order costs: 5.00 ÷ (9.00 + 1.00 + 0.85), not the service's 55.56 % (5.00 ÷ 9.00).
      ROI: 0.460829, // 0.4608294…, to 0.0001 %
      // (15.85 − 1.00 − 0.85) ÷ 2 units ÷ (4.50 ÷ 5.00) = 7.777…, rounded down.
      'Break-even cost': 7.77,
      // (15.85 ÷ 1.3 − 1.00 − 0.85) ÷ 2 ÷ 0.9 = 5.745…, rounded down.
      'Cost for 30% ROI': 5.74,
      Check: '',
      'Storage/mo': 0.12,
      'Units/mo': 120,
      'Sales/mo': 2998.8,
      'Profit/mo': 600,
      // FBA Buy Box (lowest FBA 24.50 ≤ Buy Box 24.99): 4 FBA + 2 FBM × ½ = 5 offers; 120 ÷ 6 = 20,
      // capped by the stock: 40 units ÷ 2 per order ÷ 2 months = 10.
      'Your units/mo': 10,
      'Your profit/mo': 50,
      'Lowest FBA': 24.5,
      'Lowest FBM': '',
      'FBA offers': 4,
      'FBM offers': 2,
      Offers: 6,
      Flags: 'Private label, Amazon on listing',
      Hazmat: false,
      Meltable: true,
      Adult: false,
      'Size tier': 'Large Standard-Size',
      SKU: "'=cmd|calc",
      MAP: 19.99,
      Stock: 40,
      'Pack qty': 6,
      'Sheet row': 8,
    });
  });

  test('number formats per column follow the marketplace currency', () => {
    const us = resultBlock([], { marketplace: US });
    const de = resultBlock([], { marketplace: DE });
    const fmt = (b: typeof us, key: string) => b.formats[columnIndex(b.columns, key)];
    expect(fmt(us, 'profit')).toBe('"$"#,##0.00');
    expect(fmt(de, 'profit')).toBe('#,##0.00" €"');
    expect(fmt(us, 'roi')).toBe('0.00%');
    expect(fmt(us, 'rank')).toBe('#,##0');
    expect(fmt(us, 'identifier')).toBeNull();
    expect(us.values).toEqual([]);
    expect(us.widths.every((w) => w >= 60)).toBe(true);
    expect(us.formats.length).toBe(us.headers.length);
  });

  test('links as text plus URLs, for a caller that links with rich text', () => {
    const b = resultBlock([product(), { asin: 'bad asin' }], { marketplace: DE, links: 'text' });
    expect(b.values[0][0]).toBe("'B00EXAMPLE");
    expect(b.urls).toEqual(['https://www.amazon.de/dp/B00EXAMPLE', null]);
  });

  test('a product with almost nothing gives blanks, never "undefined" or errors', () => {
    const b = resultBlock([{ asin: 'B00EXAMPLE', financials: null, market_fees: {} }], { marketplace: US });
    const values = b.values[0];
    expect(values[0]).toMatch(/^=HYPERLINK/);
    // (issue 36: the verdict of a product with no profit figure says to check it)
    const verdict = b.headers.indexOf('Verdict');
    expect(values[verdict]).toBe('Check');
    expect(
      values
        .filter((_, i) => i !== verdict)
        .slice(1)
        .every((v) => v === ''),
    ).toBe(true);
  });

  test('an ASIN that is not 10 letters/digits is not put into a formula', () => {
    const b = resultBlock([{ asin: 'B00X","evil' }], { marketplace: US });
    expect(b.values[0][0]).toBe('\'B00X","evil'); // plain guarded text
    const c = resultBlock([{ asin: '=1+1' }], { marketplace: US });
    expect(c.values[0][0]).toBe("'=1+1");
  });

  test('text from the service that starts with a formula character stays text', () => {
    const b = resultBlock([{ asin: 'B00EXAMPLE', market_title: '+Plus size', brand: '@home', category: '-Other' }], { marketplace: US });
    const at = (key: string) => b.values[0][columnIndex(b.columns, key)];
    expect([at('title'), at('brand'), at('category')]).toEqual(["'+Plus size", "'@home", "'-Other"]);
  });

  test('profit can be followed from the columns shown: Buy Box − fees = Net revenue; Net revenue − Total cost − Prep − Inbound = Profit', () => {
    const b = resultBlock([product()], { marketplace: US });
    const at = (key: string) => b.values[0][columnIndex(b.columns, key)] as number;
    const cents = (x: number) => Math.round(x * 100);
    expect(cents(at('buybox_price')) - cents(at('referral_fee')) - cents(at('fba_fees')) - cents(at('other_fees'))).toBe(
      cents(at('net_revenue')),
    );
    expect(cents(at('net_revenue')) - cents(at('total_cogs')) - cents(at('prep_cost')) - cents(at('inbound_shipping'))).toBe(
      cents(at('profit')),
    );
    // A 2-pack: the total cost of one order is two discounted units, not the one-unit Cost.
    expect(at('units_per_order')).toBe(2);
    expect(cents(at('total_cogs'))).toBe(2 * cents(at('discount_cost')));
  });

  test('issue 27.9: ROI checks against the all-in cost on every row, and its header note says which definition', () => {
    const rows = [product(), { ...product(), financials: { profit: -120, net_revenue: 1065, prep_cost: 0, inbound_shipping: 85 } }];
    const b = resultBlock(rows, { marketplace: US });
    const at = (r: number, key: string) => b.values[r][columnIndex(b.columns, key)] as number;
    for (const r of [0, 1]) {
      const allIn = at(r, 'total_cogs') + at(r, 'prep_cost') + at(r, 'inbound_shipping');
      expect(at(r, 'roi')).toBeCloseTo(at(r, 'profit') / allIn, 6);
    }
    const note = b.notes[columnIndex(b.columns, 'roi')];
    expect(note).toMatch(/^ROI = Profit ÷ \(Total cost \+ Prep \+ Inbound shipping\)/);
    // The figures a seller decides on say how they are computed; plain inputs do not need a note.
    for (const key of ['profit', 'profit_per_month', 'your_units', 'your_profit', 'break_even', 'target_cost'])
      expect(b.notes[columnIndex(b.columns, key)]).not.toBe('');
    expect(b.notes[columnIndex(b.columns, 'brand')]).toBe('');
  });

  test("issue 27.3: the expected share's note names the rule and the months the seller chose", () => {
    const weighted = resultBlock([], { marketplace: US });
    const even = resultBlock([product()], {
      marketplace: US,
      decision: { monthsOfCover: 3, shareRule: 'even', targetRoiBps: 5000, maxDiscountBps: 1000 },
    });
    const note = (b: typeof even) => b.notes[columnIndex(b.columns, 'your_units')];
    expect(note(weighted)).toContain('an FBM offer counts ½ when the Buy Box is FBA');
    expect(note(weighted)).toContain('÷ 2 months of cover');
    expect(note(even)).toContain('each counting 1');
    expect(note(even)).toContain('÷ 3 months of cover');
    expect(even.headers).toContain('Cost for 50% ROI');
    // Every offer counts 1: 120 ÷ (4 + 2 + 1) = 17.1; the stock caps at 40 ÷ 2 ÷ 3 = 6.7.
    expect(even.values[0][columnIndex(even.columns, 'your_units')]).toBe(6.7);
    expect(even.values[0][columnIndex(even.columns, 'your_profit')]).toBe(33.5);
  });

  test('a cost many times the Buy Box is flagged as a likely typo; a plausible one is not', () => {
    const typo = { ...product(), inputs: { cost: 25000, total_cogs: 25000 } }; // $250 for a $24.99 item
    const b = resultBlock([typo, product(), { asin: 'B00EXAMPLE', inputs: { cost: 9000 } }], { marketplace: US });
    const check = columnIndex(b.columns, 'check');
    expect(b.values[0][check]).toBe("'" + 'Cost is 10× the Buy Box: check the cost (a pack price or a missing decimal point?)'); // guarded text, as all text
    expect(b.values[1][check]).toBe('');
    expect(b.values[2][check]).toBe(''); // no Buy Box: nothing to compare with
  });

  test('history columns only when the scan pulled historical data, read flat or nested, -1 blank', () => {
    expect(resultColumns([], false).some((c) => c.key === 'bsr_90')).toBe(false);
    const flat = {
      asin: 'B00EXAMPLE',
      bsr_90_days: 15000,
      price_90_days: 2399,
      instock_rate_90_days: 8500,
      sales_rank_drops_30_days: 12,
      sales_rank_drops_90_days: -1,
    };
    const nested = {
      asin: 'B00EXAMPLE',
      historical: {
        bsr: { d90: 15000 },
        price: { d90: 2399 },
        amazon_in_stock_rate: { d90: 8500 },
        sales_rank_drops: { d30: 12, d90: null },
      },
    };
    const b = resultBlock([flat, nested], { marketplace: US, historical: true });
    const pickRow = (r: number) =>
      ['bsr_90', 'price_90', 'instock_90', 'drops_30', 'drops_90'].map((k) => b.values[r][columnIndex(b.columns, k)]);
    expect(pickRow(0)).toEqual([15000, 23.99, 0.85, 12, '']);
    expect(pickRow(1)).toEqual(pickRow(0));
    // They sit after the competition columns (the rank trend chart first, issue 36), before the risk flags.
    expect(columnIndex(b.columns, 'rank_trend')).toBe(columnIndex(b.columns, 'offers') + 1);
    expect(columnIndex(b.columns, 'flags')).toBe(columnIndex(b.columns, 'drops_90') + 1);
  });

  test('history trends (issue 36): rank and price at 180, 90, 60, 30 days beside a chart of them and today, oldest to newest, coloured by direction', () => {
    const headers = resultColumns([], true).map((c) => c.header);
    const from = headers.indexOf('Rank trend');
    expect(headers.slice(from, from + 10)).toEqual([
      'Rank trend',
      'Avg rank 180d',
      'Avg rank 90d',
      'Avg rank 60d',
      'Avg rank 30d',
      'Price trend',
      'Avg price 180d',
      'Avg price 90d',
      'Avg price 60d',
      'Avg price 30d',
    ]);
    const rising = {
      asin: 'B00EXAMPLE',
      rank: 900,
      buybox_price: 2000,
      bsr_180_days: 1500,
      bsr_90_days: -1,
      bsr_60_days: 1200,
      price_180_days: 2500,
    };
    const flat = { asin: 'B00EXAMPLE', rank: 900, buybox_price: 2000, historical: { bsr: { d30: 900 }, price: { d180: 1500 } } };
    const unknown = { asin: 'B00EXAMPLE', rank: 900, buybox_price: 2000, bsr_30_days: -1 };
    const b = resultBlock([rising, flat, unknown], { marketplace: US, historical: true, firstRow: 7 });
    const L = (k: string) => columnLetter(columnIndex(b.columns, k));
    const at = (r: number, k: string) => b.values[r][columnIndex(b.columns, k)];
    const spark = (row: number, keys: string[], colour: string) =>
      `=SPARKLINE({${keys.map((k) => L(k) + row).join(',')}},{"charttype","line";"color","${colour}";"empty","ignore";"nan","ignore";"linewidth",2})`;
    const rankKeys = ['bsr_180', 'bsr_90', 'bsr_60', 'bsr_30', 'rank'];
    const priceKeys = ['price_180', 'price_90', 'price_60', 'price_30', 'buybox_price'];
    // Rank 1500 -> 900: selling more, green; price 25.00 -> 20.00: falling, red. Row 7 is the block's first.
    expect(at(0, 'rank_trend')).toBe(spark(7, rankKeys, '#188038'));
    expect(at(0, 'price_trend')).toBe(spark(7, priceKeys, '#d93025'));
    // Nested history: rank flat (grey), price 15.00 -> 20.00 rising (green), on the block's second row.
    expect(at(1, 'rank_trend')).toBe(spark(8, rankKeys, '#80868b'));
    expect(at(1, 'price_trend')).toBe(spark(8, priceKeys, '#188038'));
    // Fewer than two known figures: no chart.
    expect([at(2, 'rank_trend'), at(2, 'price_trend')]).toEqual(['', '']);
    // Only the columns in the tab are charted.
    const some = resultBlock([rising], {
      marketplace: US,
      historical: true,
      only: ['asin', 'rank', 'rank_trend', 'bsr_180', 'buybox_price'],
    });
    expect(some.headers).toEqual(['ASIN', 'Rank', 'Buy Box', 'Rank trend', 'Avg rank 180d']);
    expect(some.values[0].slice(1)).toEqual([
      900,
      20,
      '=SPARKLINE({E2,B2},{"charttype","line";"color","#188038";"empty","ignore";"nan","ignore";"linewidth",2})',
      1500,
    ]);
  });

  test("all columns (issue 36): the essential ones stay the default; 'all' adds the documented fields beside their columns, in seller's units", () => {
    const essential = resultColumns().map((c) => c.header);
    const all = resultColumns([], false, undefined, 'all').map((c) => c.header);
    expect(all.filter((h) => !essential.includes(h))).toEqual([
      'Listing UPC',
      'Listing EAN',
      'Listing ISBN',
      'Listing GTIN',
      'Listing JAN',
      'Parent ASIN',
      'Variations',
      'Fee problem',
      'Lowest used FBA',
      'Lowest used FBM',
      'Competing sellers',
      'Can send to FBA',
      'Why not FBA',
      'FBA checked on',
      'Small and Light',
      'Brand blocked',
      'Package (in)',
      'Package weight (lb)',
    ]);
    // Every essential column keeps its order.
    expect(all.filter((h) => essential.includes(h))).toEqual(essential);
    const p = {
      asin: 'B00EXAMPLE',
      identifiers: { upc: ['012345678905'], ean: ['0012345678905', '4006381333931'] },
      inbound_eligibility: { eligible: false, updated_at: 1700000000, ineligible_codes: ['MELTABLE_OUT_OF_SEASON', 'NEW_CODE'] },
      dimensions: { package_dimensions: { length: 12, width: 8.5, height: 3, weight: 0.125 } },
      market_fees: { error: '=fee failed' },
      lowest_price_used_fba: 1299,
    };
    const b = resultBlock([p], { marketplace: US, columnSet: 'all' });
    const at = (h: string) => b.values[0][b.headers.indexOf(h)];
    expect(at('Listing UPC')).toBe("'012345678905"); // text: zeros kept
    expect(at('Listing EAN')).toBe("'0012345678905, 4006381333931");
    expect(at('Can send to FBA')).toBe(false);
    expect(at('Why not FBA')).toBe('Meltable, and Amazon takes it in only in the cool season; code NEW_CODE');
    expect(at('FBA checked on')).toEqual(new Date(1700000000 * 1000));
    expect(b.formats[b.headers.indexOf('FBA checked on')]).toBe('yyyy-mm-dd');
    expect(at('Package (in)')).toBe("'12 × 8.5 × 3");
    expect(at('Package weight (lb)')).toBe(0.125);
    expect(at('Fee problem')).toBe("'=fee failed"); // service text never becomes a formula
    expect(at('Lowest used FBA')).toBe(12.99);
  });

  test("the supplier's description sits beside the marketplace title, other custom columns stay last", () => {
    const cols = resultColumns(['Case size', 'Product Name', 'Sheet row']).map((c) => c.header);
    expect(cols.slice(0, 6)).toEqual(['ASIN', 'Title', 'Picture', 'Product Name', 'Verdict', 'Identifier']);
    expect(cols.slice(-2)).toEqual(['Case size', 'Sheet row']);
    expect(
      resultColumns(['Notes'])
        .map((c) => c.header)
        .slice(0, 5),
    ).toEqual(['ASIN', 'Title', 'Picture', 'Verdict', 'Identifier']);
  });
});

describe('one offer count (issue 32, item 8)', () => {
  test('"Offers" is FBA offers + FBM offers, the count Your units/mo divides by, and its note says so', () => {
    // The service's total_offers_count (here 8: it also counts used offers) is not the count the tab shows.
    const p = {
      ...product(),
      new_fba_offers_count: 5,
      new_fbm_offers_count: 0,
      total_offers_count: 8,
      inputs: { ...(product().inputs as object), stock: null },
    };
    const b = resultBlock([p], { marketplace: US, customColumns: [] });
    const at = (h: string) => b.values[0][b.headers.indexOf(h)];
    expect([at('FBA offers'), at('FBM offers'), at('Offers')]).toEqual([5, 0, 5]);
    // FBA Buy Box: 120 ÷ (5 + 0 × ½ + 1) = 20.
    expect(at('Your units/mo')).toBe(20);
    expect(b.notes[b.headers.indexOf('Offers')]).toContain('Offers = FBA offers + FBM offers');
    expect(b.notes[b.headers.indexOf('Your units/mo')]).toContain('the Offers column');
    // Without FBA and FBM counts, the service's total is the one count, in both places.
    const q = { ...p, new_fba_offers_count: null, new_fbm_offers_count: null, total_offers_count: 3 };
    const c = resultBlock([q], { marketplace: US, customColumns: [] });
    expect(c.values[0][c.headers.indexOf('Offers')]).toBe(3);
    expect(c.values[0][c.headers.indexOf('Your units/mo')]).toBe(30);
  });
});

describe('errors tab layout', () => {
  test('sheet row from the uploaded sheet-row column, identifier as text, the reason', () => {
    const attrs = {
      mapping: { id: 0, cost: 1, custom_columns: [2, 3] },
      options: { marketplace_id: 'US', name: 'x', custom_columns: ['Description', 'Sheet row'] },
    };
    const field = sheetRowField(attrs);
    expect(field).toBe(3);
    const b = errorsBlock(
      [
        { line: 2, identifier: '012345678905', code: 'not_found', message: 'No product found', input: ['012345678905', '1.00', 'x', '17'] },
        { line: 3, identifier: '=bad', message: null, code: 'invalid_identifier', input: [] },
      ],
      { sheetRowField: field },
    );
    expect(b.headers).toEqual(['Sheet row', 'File line', 'Identifier', 'Reason']);
    expect(b.values).toEqual([
      [17, 2, "'012345678905", 'No product found'],
      ['', 3, "'=bad", 'invalid_identifier'],
    ]);
    expect(b.formats).toEqual(['0', '0', null, null]);
  });
  test('without a sheet-row column the sheet row is blank', () => {
    expect(sheetRowField({ mapping: { custom_columns: [] }, options: {} })).toBe(-1);
    expect(errorsBlock([{ line: 5, identifier: 'B00EXAMPLE', message: 'Blocked brand' }]).values).toEqual([
      ['', 5, "'B00EXAMPLE", 'Blocked brand'],
    ]);
  });
});
