import { findHeaderRow, headerScore, suggestColumns } from '../../src/sheet/header';
import { ColumnRole, columnLetter, mappingFromRoles } from '../../src/scan/mapping';

function roles(s: { header: string; role: ColumnRole }[]): Record<string, ColumnRole> {
  const out: Record<string, ColumnRole> = {};
  for (const c of s) out[c.header] = c.role;
  return out;
}

describe('findHeaderRow', () => {
  test('title rows and blank rows above the header are passed over', () => {
    const values = [
      ['ACME Wholesale - Price list March 2024', '', '', ''],
      ['Prices valid until 31/03, subject to stock', '', '', ''],
      ['', '', '', ''],
      ['UPC', 'Description', 'Unit Cost', 'Case Pack'],
      [12345678905, 'Widget', 12.5, 6],
      [36000291452, 'Gadget', '$1,299.00', 12],
    ];
    expect(findHeaderRow(values)).toBe(3);
  });
  test('the header is row 0 in a tidy sheet', () => {
    expect(
      findHeaderRow([
        ['Item #', 'EAN', 'Price'],
        ['A-1', '4006381333931', 3],
      ]),
    ).toBe(0);
  });
  test('a two-cell title row with a date does not beat the real header', () => {
    const values = [
      ['Supplier:', 'Best Goods Ltd', '', '', ''],
      ['Date', new Date(2024, 2, 1), '', '', ''],
      ['Barcode', 'Product name', 'Wholesale', 'MAP', 'Qty available'],
      ['036000291452', 'Soap', '2.10', '3.99', 100],
    ];
    expect(findHeaderRow(values)).toBe(2);
  });
  test('a sheet of bare data has no header row', () => {
    expect(
      findHeaderRow([
        [12345678905, 12.5, 6],
        [36000291452, 3.2, 12],
      ]),
    ).toBe(-1);
  });
});

describe('suggestColumns', () => {
  test('a realistic US price list: every role found, the rest custom, samples as shown', () => {
    const values = [
      ['ACME Wholesale price list', '', '', '', '', '', '', '', '', '', ''],
      ['Item #', 'UPC', 'Description', 'Brand', 'Case Pack', 'Wholesale Price', 'MSRP', 'MAP', 'Qty Available', 'Image URL', 'Discount %'],
      ['AC-100', 12345678905, 'Widget, large', 'Acme', 6, 12.5, 24.99, 19.99, 40, 'https://img/x.jpg', 0.1],
      ['AC-101', '036000291452', 'Gadget', 'Acme', 12, '$1,299.00', 2000, '', 'In stock', '', ''],
    ];
    const s = suggestColumns(values, 1, { firstSheetColumn: 2 });
    expect(roles(s)).toEqual({
      'Item #': 'sku',
      UPC: 'identifier',
      Description: 'custom',
      Brand: 'custom',
      'Case Pack': 'pack_quantity',
      'Wholesale Price': 'cost',
      MSRP: 'custom',
      MAP: 'map',
      'Qty Available': 'stock',
      'Image URL': 'image',
      'Discount %': 'discount',
    });
    expect(s[1]).toEqual({ index: 1, letter: 'C', header: 'UPC', sample: '12345678905', role: 'identifier' });
    expect(s[0].letter).toBe('B');
  });

  test('display values are used for samples when given', () => {
    const values = [
      ['UPC', 'Cost'],
      [12345678905, 12.5],
    ];
    const display = [
      ['UPC', 'Cost'],
      ['012345678905', '$12.50'],
    ];
    const s = suggestColumns(values, 0, { display });
    expect(s.map((c) => c.sample)).toEqual(['012345678905', '$12.50']);
  });

  test('samples skip blanks below the header', () => {
    const s = suggestColumns(
      [
        ['EAN', 'Price', 'Notes'],
        ['', '', ''],
        ['4006381333931', '3,50 €', 'new'],
      ],
      0,
    );
    expect(s.map((c) => c.sample)).toEqual(['4006381333931', '3,50 €', 'new']);
    expect(s.map((c) => c.role)).toEqual(['identifier', 'cost', 'custom']);
  });

  test('with UPC and EAN columns, one is the identifier and the other is kept as custom', () => {
    const s = suggestColumns(
      [
        ['EAN', 'UPC', 'Cost'],
        ['4006381333931', '036000291452', 1],
      ],
      0,
    );
    expect(s.map((c) => c.role)).toEqual(['identifier', 'custom', 'cost']);
  });

  test('"Item code" is the identifier when it holds barcodes, the SKU when it holds codes', () => {
    const withBarcodes = suggestColumns(
      [
        ['Item code', 'Cost'],
        ['036000291452', 2],
        ['4006381333931', 3],
      ],
      0,
    );
    expect(withBarcodes[0].role).toBe('identifier');
    const withCodes = suggestColumns(
      [
        ['Item code', 'Barcode', 'Cost'],
        ['AB-12', '036000291452', 2],
      ],
      0,
    );
    expect(withCodes.map((c) => c.role)).toEqual(['sku', 'identifier', 'cost']);
  });

  test('no header naming the identifier: the column full of identifiers is suggested', () => {
    const s = suggestColumns(
      [
        ['Code', 'Name', 'Cost'],
        ['036000291452', 'Soap', 2],
        ['4006381333931', 'Pen', 3],
        ['9780306406157', 'Book', 4],
      ],
      0,
    );
    expect(s.map((c) => c.role)).toEqual(['identifier', 'custom', 'cost']);
  });

  test('bare data without header: identifier and cost from the values, columns named by letter', () => {
    const s = suggestColumns(
      [
        [12345678905, 'Widget', 12.5, 6],
        [36000291452, 'Gadget', 3.25, 12],
      ],
      -1,
    );
    expect(s.map((c) => c.header)).toEqual(['Column A', 'Column B', 'Column C', 'Column D']);
    expect(s.map((c) => c.role)).toEqual(['identifier', 'custom', 'cost', 'custom']);
  });

  test('retail prices are not taken for the cost, and MAP price goes to MAP', () => {
    expect(headerScore('MSRP', 'cost')).toBe(0);
    expect(headerScore('Retail Price', 'cost')).toBe(0);
    expect(headerScore('MAP Price', 'cost')).toBe(0);
    expect(headerScore('MAP Price', 'map')).toBe(100);
    expect(headerScore('Unit cost (USD)', 'cost')).toBeGreaterThan(0);
    expect(headerScore('Case Qty', 'stock')).toBe(0);
    expect(headerScore('Case Qty', 'pack_quantity')).toBeGreaterThan(0);
    expect(headerScore('Case Cost', 'pack_quantity')).toBe(0);
  });

  test('an empty column without header is ignored; a headed column without data is ignored', () => {
    const s = suggestColumns(
      [
        ['UPC', '', 'Cost', 'Comments'],
        ['036000291452', '', 2, ''],
      ],
      0,
    );
    expect(s.map((c) => c.role)).toEqual(['identifier', 'ignore', 'cost', 'ignore']);
    expect(s[1].header).toBe('Column B');
  });
});

test('roles stay unique (except custom) on a sheet full of look-alike headers', () => {
  const header = [
    'UPC',
    'EAN',
    'Cost',
    'Unit Price',
    'Price',
    'SKU',
    'Item #',
    'MAP',
    'UMAP',
    'Stock',
    'Inventory',
    'Pack',
    'Case Pack',
    'Image',
    'Photo',
    'Discount',
    'Rebate',
    'Title',
  ];
  const row = ['036000291452', '4006381333931', 1, 2, 3, 'a', 'b', 4, 5, 6, 7, 8, 9, 'u', 'v', 0.1, 0.2, 't'];
  const s = suggestColumns([header, row], 0);
  const unique = s.filter((c) => c.role !== 'custom' && c.role !== 'ignore').map((c) => c.role);
  expect(new Set(unique).size).toBe(unique.length);
  expect(unique.sort()).toEqual(['cost', 'discount', 'identifier', 'image', 'map', 'pack_quantity', 'sku', 'stock']);
  expect(s.filter((c) => c.role === 'custom').map((c) => c.header)).toEqual([
    'EAN',
    'Unit Price',
    'Price',
    'Item #',
    'UMAP',
    'Inventory',
    'Case Pack',
    'Photo',
    'Rebate',
    'Title',
  ]);
});

describe('mappingFromRoles', () => {
  test('builds the mapping from the dropdowns', () => {
    const r = mappingFromRoles(['sku', 'identifier', 'custom', 'cost', 'ignore', 'custom', 'stock']);
    expect(r).toEqual({ ok: true, mapping: { identifier: 1, cost: 3, sku: 0, stock: 6, custom: [2, 5] } });
  });
  test('says what is wrong, with sheet column letters', () => {
    const r = mappingFromRoles(['cost', 'cost', 'custom'], 3);
    expect(r).toEqual({
      ok: false,
      errors: ['Two columns are set as Cost (C and D).', 'Choose the column with the product identifiers (UPC, EAN, ASIN...).'],
    });
  });
  test('column letters', () => {
    expect([0, 25, 26, 27, 701, 702].map(columnLetter)).toEqual(['A', 'Z', 'AA', 'AB', 'ZZ', 'AAA']);
  });
});
