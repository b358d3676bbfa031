import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Workbook } from '../../../../emulator/gas/spreadsheet';
import {
  cellKind,
  findHeader,
  findHeaderRow,
  headerRowConfidence,
  headerScore,
  suggestColumns,
} from '../../../../src/domain/price-list/header';
import { ColumnRole, columnLetter, mappingFromRoles } from '../../../../src/domain/price-list/mapping';
import { parseCsv } from '../../../../src/domain/price-list/csv';
import { ORDER_FORM_HEADERS, ORDER_FORM_HEADER_ROW, ORDER_FORM_WORDS_ONLY_ROW, orderFormRows } from './order-form';

const SAMPLES = join(__dirname, '..', '..', '..', '..', 'samples');

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

/** Selection heights tried at every start row (short ones, the 11 and 21, long ones up to the whole list). */
const HEIGHTS = [2, 3, 4, 5, 7, 10, 11, 16, 21, 31, 60, 260, 400];

describe('the header row of every selection of the shipped sample price list', () => {
  let xlsx: unknown[][];
  let csv: unknown[][];
  beforeAll(async () => {
    xlsx = (await Workbook.fromXlsx(join(SAMPLES, 'supplier-price-list.xlsx'))).values('Price List');
    csv = parseCsv(readFileSync(join(SAMPLES, 'supplier-price-list.csv'), 'utf8'));
  });

  /** Every selection A{start}:G{start+height-1} that holds data: what findHeader answers, where it is not row 1 (sure). */
  function wrongSelections(rows: unknown[][]): string[] {
    const wrong: string[] = [];
    for (let start = 1; start <= rows.length; start++) {
      for (const height of HEIGHTS) {
        // What the add-on reads: the rows above (the sample is 7 columns wide, so all of them) and the selection's first 260.
        const block = rows.slice(start - 1, start - 1 + Math.min(height, 260));
        const found = findHeader({ block, blockRow: start, above: rows.slice(0, start - 1), aboveFirstRow: 1 });
        if (found.sheetRow !== 1 || found.confidence !== 'sure')
          wrong.push('A' + start + ':G' + (start + height - 1) + ' -> row ' + found.sheetRow + ' (' + found.confidence + ')');
      }
    }
    return wrong;
  }

  test('XLSX cells (numbers as numbers): every start row and height finds row 1, sure; never a data row', () => {
    expect(xlsx.length).toBe(301);
    expect(wrongSelections(xlsx)).toEqual([]);
  });

  test('the CSV as text (every cell a string): every selection finds row 1, sure', () => {
    expect(wrongSelections(csv)).toEqual([]);
  });

  test('selections of some columns only (every window of 2+ columns, B:D, C:G...), at every start row, 11 rows high: row 1, sure', () => {
    const wrong: string[] = [];
    for (let c1 = 0; c1 < 7; c1++)
      for (let c2 = c1 + 1; c2 < 7; c2++) {
        const cut = (rows: unknown[][]) => rows.map((row) => row.slice(c1, c2 + 1));
        for (let start = 1; start <= xlsx.length; start++) {
          const found = findHeader({
            block: cut(xlsx.slice(start - 1, start + 10)),
            blockRow: start,
            above: cut(xlsx.slice(0, start - 1)),
          });
          if (found.sheetRow !== 1 || found.confidence !== 'sure')
            wrong.push(`columns ${c1}-${c2} from row ${start}: ${found.sheetRow} (${found.confidence})`);
        }
      }
    expect(wrong).toEqual([]);
  });

  test('samples/tiny.csv: every selection (any start, any end) finds row 1, sure', () => {
    const tiny = parseCsv(readFileSync(join(SAMPLES, 'tiny.csv'), 'utf8'));
    const wrong: string[] = [];
    for (let start = 1; start <= tiny.length; start++)
      for (let end = start + 1; end <= tiny.length; end++) {
        const found = findHeader({ block: tiny.slice(start - 1, end), blockRow: start, above: tiny.slice(0, start - 1) });
        if (found.sheetRow !== 1 || found.confidence !== 'sure') wrong.push(`A${start}:C${end}: ${found.sheetRow} (${found.confidence})`);
      }
    expect(wrong).toEqual([]);
  });

  test('a block of data rows holds no header row: the selections of issue 27 and every other one below row 1', () => {
    // Row 142 ("SKU-10139", 90657800566, "Original Wood Glue 2-Pack Refill", ...) was taken for A150:G170 before.
    const wrong: string[] = [];
    for (let start = 2; start <= xlsx.length; start++)
      for (const height of HEIGHTS) {
        const block = xlsx.slice(start - 1, start - 1 + height);
        if (block.length < 2) continue;
        const inside = findHeaderRow(block);
        if (inside >= 0) wrong.push('A' + start + ':G' + (start + height - 1) + ' -> row ' + (start + inside));
      }
    expect(wrong).toEqual([]);
  });
});

describe('the header row of an order form (title rows, header on row 4, columns C to H)', () => {
  const rows = orderFormRows();

  test('every selection from any row to any row below the header finds row 4, sure', () => {
    const wrong: string[] = [];
    for (let start = 1; start <= rows.length; start++) {
      for (let end = Math.max(start + 1, ORDER_FORM_HEADER_ROW + 1); end <= rows.length; end++) {
        const found = findHeader({ block: rows.slice(start - 1, end), blockRow: start, above: rows.slice(0, start - 1), aboveFirstRow: 1 });
        if (found.sheetRow !== ORDER_FORM_HEADER_ROW || found.confidence !== 'sure')
          wrong.push('C' + start + ':H' + end + ' -> row ' + found.sheetRow + ' (' + found.confidence + ')');
      }
    }
    expect(wrong).toEqual([]);
  });

  test('its product rows full of header words ("Twin Pack", "Case", "Each") are not header rows; the row of words only is at most a guess', () => {
    for (let r = ORDER_FORM_HEADER_ROW + 1; r <= rows.length; r++) {
      const conf = headerRowConfidence(rows, r - 1);
      expect([r, conf]).toEqual([r, r === ORDER_FORM_WORDS_ONLY_ROW ? 'guess' : 'none']);
    }
    expect(headerRowConfidence(rows, ORDER_FORM_HEADER_ROW - 1)).toBe('sure');
    expect(rows[ORDER_FORM_HEADER_ROW - 1]).toEqual(ORDER_FORM_HEADERS);
  });
});

describe('a header row differs in kind from the rows under it', () => {
  test('cell kinds: values (numbers, identifiers, amounts), codes, words', () => {
    expect([12.5, '036000291452', 'B033M82FJB', '$1,299.00', 'USD 24.00', '1.299,00 €', new Date(2024, 0, 1), true].map(cellKind)).toEqual(
      Array(8).fill('value'),
    );
    expect(['SKU-10001', '7-98051-94682-7x', 'AB12'].map(cellKind)).toEqual(['code', 'code', 'text']);
    expect(['UPC', 'EAN13', 'GTIN-14', 'Unit Cost', 'Wood Glue 2-Pack Refill', 'Qty Avail'].map(cellKind)).toEqual(Array(6).fill('text'));
    expect(['', '  ', null].map(cellKind)).toEqual(['blank', 'blank', 'blank']);
  });

  test('a data row with a header word in its description is no header; words naming nothing are only a guess', () => {
    const values = [
      ['Item Code', 'UPC', 'Description', 'Unit Cost'],
      ['SKU-10139', 90657800566, 'Original Wood Glue 2-Pack Refill', 1.55],
      ['SKU-10140', '036000291452', 'Cost Saver Pack', '$2.10'],
    ];
    expect(values.map((_r, i) => headerRowConfidence(values, i))).toEqual(['sure', 'none', 'none']);
    const german = [
      ['Artikel', 'Strichcode', 'Bezeichnung', 'Einkauf'],
      ['A-1', '4006381333931', 'Stift', 1.2],
    ];
    expect(headerRowConfidence(german, 0)).toBe('guess');
    expect(findHeader({ block: german, blockRow: 1 })).toEqual({ sheetRow: 1, confidence: 'guess' });
  });

  test('a title row of two words above the header loses to the header (the lowest sure row wins)', () => {
    const values = [
      ['ACME Wholesale', 'Price list March', '', ''],
      ['UPC', 'Description', 'Unit Cost', 'MAP'],
      [36000291452, 'Widget', 2.1, 3.99],
      ['4006381333931', 'Pen', 1.2, 2.5],
    ];
    expect(findHeader({ block: values, blockRow: 1 })).toEqual({ sheetRow: 2, confidence: 'sure' });
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
