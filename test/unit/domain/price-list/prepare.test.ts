import { parseCsv } from '../../../../src/domain/price-list/csv';
import { buildUploadOptions, ScanOptionsInput } from '../../../../src/domain/price-list/attributes';
import {
  expectationForHeader,
  prepareScan,
  PrepareInput,
  previewSummary,
  SHEET_ROW_COLUMN,
} from '../../../../src/domain/price-list/prepare';

const OPTIONS: ScanOptionsInput = { marketplace: 'US', name: 'ACME March' };

/** A supplier sheet read from A5: two title rows, the header on sheet row 7, data from row 8. */
function messySheet(): PrepareInput {
  const values: unknown[][] = [
    ['ACME price list', '', '', '', ''], // row 5
    ['', '', '', '', ''], // row 6
    ['UPC', 'Item #', 'Description', 'Cost', 'Case Pack'], // row 7 (header)
    [12345678905, 'AC-1', 'Widget, large', '$1,299.00', 6], // row 8: lost zero, money text
    ['4006381333931', 'AC-2', '=HYPERLINK("x")', 12.5, 12], // row 9
    ['', '', '', '', ''], // row 10: blank
    [5.01234e12, 'AC-3', 'Sci', 3, 1], // row 11: digits lost
    ['036000291453', 'AC-4', 'Bad check', 3, 1], // row 12
    ['036000291452', 'AC-5', 'No cost', 'call', 1], // row 13
    ['', 'AC-6', 'No id', 3, 1], // row 14
    ['036000291452', 'AC-7', 'Twice', 0.1 + 0.2, 'lots'], // row 15: same UPC as 13, but 13 is skipped
    ['036000291452', 'AC-8', 'Twice again', '2,50', 24], // row 16: duplicate of 15
    ['', '', '', '', ''], // trailing blank, not a row of the list
    ['', '', '', '', ''],
  ];
  return {
    values,
    headerRow: 2,
    firstSheetRow: 5,
    mapping: { identifier: 0, cost: 3, sku: 1, pack_quantity: 4, custom: [2] },
    options: OPTIONS,
  };
}

describe('prepareScan: preview of a messy sheet', () => {
  const p = prepareScan(messySheet());

  test('counts for the preview', () => {
    expect(p.counts).toEqual({
      dataRows: 9,
      send: 4,
      skipped: 5,
      repairedRows: 2,
      duplicateRows: 2,
      warnings: 1,
      bySkipReason: { 'blank-row': 1, 'scientific-notation': 1, 'invalid-identifier': 1, 'unusable-cost': 1, 'no-identifier': 1 },
    });
    expect(p.ok).toBe(true);
    expect(p.problems).toEqual([]);
  });

  test('skipped rows name real sheet rows and say why', () => {
    expect(p.skipped.map((s) => [s.sheetRow, s.reason, s.detail])).toEqual([
      [10, 'blank-row', 'blank'],
      [11, 'scientific-notation', 'scientific-notation'],
      [12, 'invalid-identifier', 'bad-check-digit'],
      [13, 'unusable-cost', 'not-a-number'],
      [14, 'no-identifier', 'blank'],
    ]);
    expect(p.skipped[1].message).toBe(
      'Row 11: "5.01234E+12" was stored in scientific notation and its last digits are lost; format the column as plain text and re-enter the identifiers.',
    );
    expect(p.skipped[3].message).toBe('Row 13: Cost "call" is not an amount.');
    expect(p.skipped[4].message).toBe('Row 14: no identifier in column A.');
  });

  test('repairs list row, column, before and after', () => {
    expect(p.repaired).toEqual([
      { sheetRow: 8, column: 'A', role: 'identifier', before: '12345678905', after: '012345678905', what: 'leading-zeros' },
      { sheetRow: 8, column: 'D', role: 'cost', before: '$1,299.00', after: '1299.00', what: 'money-text' },
      { sheetRow: 16, column: 'D', role: 'cost', before: '2,50', after: '2.50', what: 'money-text' },
    ]);
  });

  test('duplicates are reported and all sent', () => {
    expect(p.duplicates).toEqual([{ identifier: '036000291452', sheetRows: [15, 16] }]);
    expect(p.rows.map((r) => r.sheetRow)).toEqual([8, 9, 15, 16]);
  });

  test('unreadable optional cells are sent blank with a warning, never skip the row', () => {
    expect(p.warnings).toEqual([
      {
        sheetRow: 15,
        column: 'E',
        role: 'pack_quantity',
        value: 'lots',
        message: 'Row 15: Pack quantity "lots" is not a whole number of 1 or more. It is sent blank.',
      },
    ]);
  });

  test('the CSV: header line, repaired values, exact decimals, quoting, sheet row last', () => {
    expect(p.csvHeader).toEqual(['UPC', 'Cost', 'Item #', 'Case Pack', 'Description', SHEET_ROW_COLUMN]);
    expect(parseCsv(p.csv)).toEqual([
      ['UPC', 'Cost', 'Item #', 'Case Pack', 'Description', 'Sheet row'],
      ['012345678905', '1299.00', 'AC-1', '6', 'Widget, large', '8'],
      ['4006381333931', '12.50', 'AC-2', '12', '=HYPERLINK("x")', '9'],
      ['036000291452', '0.30', 'AC-7', '', 'Twice', '15'],
      ['036000291452', '2.50', 'AC-8', '24', 'Twice again', '16'],
    ]);
    expect(p.csv.split('\r\n')[1]).toBe('012345678905,1299.00,AC-1,6,"Widget, large",8');
  });

  test('the sidebar summary lists the first entries, says how many more, and is plain JSON', () => {
    const sum = previewSummary(p, 2);
    expect(sum.skipped.map((s) => s.sheetRow)).toEqual([10, 11]);
    expect(sum.notListed).toEqual({ skipped: 3, repaired: 1, warnings: 0, duplicates: 0 });
    expect(sum.counts).toEqual(p.counts);
    expect(JSON.parse(JSON.stringify(sum))).toEqual(sum);
    expect(sum).not.toHaveProperty('csv');
  });

  test('attributes index the CSV we built (contract 2.1)', () => {
    expect(p.attributes).toEqual({
      mapping: { id: 0, cost: 1, supplier_sku: 2, supplier_pack_quantity: 3, custom_columns: [4, 5] },
      options: { marketplace_id: 'US', name: 'ACME March', header: true, custom_columns: ['Description', 'Sheet row'] },
    });
  });
});

describe('prepareScan: details', () => {
  test('the whole cost column decides "1,299": European column', () => {
    const p = prepareScan({
      values: [
        ['EAN', 'Preis'],
        ['4006381333931', '1.299,00 €'],
        ['9780306406157', '1,299'],
      ],
      headerRow: 0,
      firstSheetRow: 1,
      mapping: { identifier: 0, cost: 1 },
      options: OPTIONS,
      includeSheetRow: false,
    });
    expect(parseCsv(p.csv).slice(1)).toEqual([
      ['4006381333931', '1299.00'],
      ['9780306406157', '1.30'],
    ]);
    expect(p.repaired[1]).toMatchObject({ sheetRow: 3, before: '1,299', after: '1.30', what: 'rounded' });
  });

  test('a number format that shows the zeros is trusted (display values)', () => {
    const p = prepareScan({
      values: [
        ['UPC', 'Cost'],
        [12345678905, 1],
      ],
      display: [
        ['UPC', 'Cost'],
        ['012345678905', '$1.00'],
      ],
      headerRow: 0,
      firstSheetRow: 1,
      mapping: { identifier: 0, cost: 1 },
      options: OPTIONS,
    });
    expect(p.rows[0].fields[0]).toBe('012345678905');
    expect(p.repaired).toEqual([]);
  });

  test('the header tells what the column holds: an ambiguous number in a UPC column is a UPC', () => {
    const input = (header: string): PrepareInput => ({
      values: [
        [header, 'Cost'],
        [1000000052, 1],
      ],
      headerRow: 0,
      firstSheetRow: 1,
      mapping: { identifier: 0, cost: 1 },
      options: OPTIONS,
    });
    expect(prepareScan(input('UPC')).rows[0].fields[0]).toBe('001000000052');
    const anyCol = prepareScan(input('Code'));
    expect(anyCol.skipped[0]).toMatchObject({ sheetRow: 2, reason: 'ambiguous-identifier' });
    expect(expectationForHeader('ISBN-13')).toBe('isbn');
    expect(expectationForHeader('EAN / UPC')).toBe('gtin');
  });

  test('MAP, stock, discount and image columns', () => {
    const p = prepareScan({
      values: [
        ['UPC', 'Cost', 'MAP', 'Stock', 'Disc', 'Img'],
        ['036000291452', 2, '$3.99', '1,200', 0.1, 'http://i/1.jpg'],
        ['4006381333931', 2, 'n/a', -3, '15%', ''],
        ['9780306406157', 2, '', '', '7.5', ''],
      ],
      headerRow: 0,
      firstSheetRow: 1,
      mapping: { identifier: 0, cost: 1, map: 2, stock: 3, discount: 4, image: 5 },
      options: OPTIONS,
      includeSheetRow: false,
    });
    expect(p.csvHeader).toEqual(['UPC', 'Cost', 'Img', 'MAP', 'Stock', 'Disc']);
    expect(p.rows.map((r) => r.fields)).toEqual([
      ['036000291452', '2.00', 'http://i/1.jpg', '3.99', '1200', '1000'],
      ['4006381333931', '2.00', '', '', '', '1500'],
      ['9780306406157', '2.00', '', '', '', '750'],
    ]);
    expect(p.warnings.map((w) => w.message)).toEqual([
      'Row 3: MAP "n/a" is not an amount. It is sent blank.',
      'Row 3: Stock "-3" is not a whole number. It is sent blank.',
    ]);
    expect(p.attributes!.mapping).toEqual({
      id: 0,
      cost: 1,
      supplier_image: 2,
      map: 3,
      stock_quantity: 4,
      discount_per_product: 5,
      custom_columns: [],
    });
  });

  test('no header row: data from the first row, columns named by letter', () => {
    const p = prepareScan({
      values: [
        [12345678905, 12.5, 'Widget'],
        [36000291452, 3, 'Gadget'],
      ],
      headerRow: -1,
      firstSheetRow: 1,
      firstSheetColumn: 3,
      mapping: { identifier: 0, cost: 1, custom: [2] },
      options: OPTIONS,
    });
    expect(p.csvHeader).toEqual(['Column C', 'Column D', 'Column E', 'Sheet row']);
    expect(p.rows.map((r) => r.sheetRow)).toEqual([1, 2]);
    expect(p.repaired[0].column).toBe('C');
  });

  test('nothing to send and bad options: not ok, with every problem named', () => {
    const p = prepareScan({
      values: [
        ['UPC', 'Cost'],
        ['12345', 1],
      ],
      headerRow: 0,
      firstSheetRow: 1,
      mapping: { identifier: 0, cost: 1 },
      options: { marketplace: 'XX', name: ' ' },
    });
    expect(p.ok).toBe(false);
    expect(p.attributes).toBeNull();
    expect(p.csv).toBe('');
    expect(p.problems.map((x) => x.field)).toEqual(['marketplace', 'name', 'rows']);
  });
});

describe('buildUploadOptions: sidebar dollars and percents to cents and basis points', () => {
  test('every option converted', () => {
    const r = buildUploadOptions(
      {
        marketplace: 'de',
        name: ' Scan 1 ',
        supplierDiscount: '5,5 %',
        prepCost: '$0.35',
        multipackPrepCost: { enabled: true, firstN: '2', costForFirstN: 0.5, costForRest: '0.10' },
        multipackOverride: true,
        multipackOverrideQuantity: 3,
        pullHistoricalData: true,
      },
      ['Title'],
    );
    expect(r).toEqual({
      ok: true,
      options: {
        marketplace_id: 'DE',
        name: 'Scan 1',
        header: true,
        discount_supplier: 550,
        prep_cost: 35,
        multipack_prep_cost: { enabled: true, firstN: 2, costForFirstN: 50, costForRest: 10 },
        multipack_override: true,
        multipack_override_quantity: 3,
        pull_historical_data: true,
        custom_columns: ['Title'],
      },
    });
  });
  test('float artefacts in typed numbers do not leak', () => {
    const r = buildUploadOptions({ marketplace: 1, name: 'x', prepCost: 0.1 + 0.2, supplierDiscount: 0.1 + 0.2 }, []);
    expect(r).toMatchObject({ ok: true, options: { marketplace_id: 'US', prep_cost: 30, discount_supplier: 30 } });
  });
  test('bad inputs are each named', () => {
    const r = buildUploadOptions(
      {
        marketplace: 'US',
        name: 'x',
        supplierDiscount: '120%',
        prepCost: 'abc',
        multipackPrepCost: { enabled: true, firstN: 0, costForFirstN: '' },
        multipackOverride: true,
        multipackOverrideQuantity: '2.5',
      },
      [],
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map((p) => p.field)).toEqual([
      'supplierDiscount',
      'prepCost',
      'multipackPrepCost.firstN',
      'multipackPrepCost.costForFirstN',
      'multipackOverrideQuantity',
    ]);
    expect(r.problems[1].message).toBe('Prep cost "abc" is not an amount.');
  });
});

describe('prepareScan: a skipped row names every problem it has', () => {
  test('a bad identifier, a cost "ten" and a discount "ten" on one row: all three in its message, the identifier first', () => {
    const p = prepareScan({
      values: [
        ['UPC', 'Cost', 'Discount', 'Stock'],
        ['036000291453', 'ten', 'ten', 'lots'], // row 2: bad check digit, cost and discount unreadable, stock too
        ['036000291452', 3, 'ten', 5], // row 3: goes, with a warning for the discount
        ['', 'ten', '5%', ''], // row 4: no identifier and no cost
      ],
      headerRow: 0,
      firstSheetRow: 1,
      mapping: { identifier: 0, cost: 1, discount: 2, stock: 3 },
      options: OPTIONS,
    });
    expect(p.skipped.map((s) => [s.sheetRow, s.reason])).toEqual([
      [2, 'invalid-identifier'],
      [4, 'no-identifier'],
    ]);
    const row2 = p.skipped[0];
    expect(row2.problems).toHaveLength(4);
    expect(row2.problems[0]).toMatch(/check digit/);
    expect(row2.problems[1]).toMatch(/Cost/);
    // Optional cells in upload column order (stock before discount).
    expect(row2.problems.slice(2)).toEqual(['Stock "lots" is not a whole number.', 'Discount "ten" is not a percent from 0 to 100.']);
    expect(row2.message).toBe('Row 2: ' + row2.problems.join(' Also: '));
    expect(p.skipped[1].message).toMatch(/^Row 4: no identifier in column A\. Also: .*Cost/);
    // The row that goes keeps the warning form it always had.
    expect(p.warnings.map((w) => w.message)).toEqual(['Row 3: Discount "ten" is not a percent from 0 to 100. It is sent blank.']);
  });
});

describe('identifiers of several kinds in one "UPC" column (issue 27.5)', () => {
  test('an ASIN is sent as it is, with the EAN, GTIN-14 and ISBN rows; a description in the column still skips its row', () => {
    const p = prepareScan({
      values: [
        ['UPC', 'Cost'],
        ['B033M82FJB', 7.4],
        ['4006381333931', 2],
        ['10695094441586', 3],
        ['9781240955848', 4],
        [36000291452, 5],
        ['Blue widget', 6],
      ],
      headerRow: 0,
      firstSheetRow: 1,
      mapping: { identifier: 0, cost: 1 },
      options: OPTIONS,
    });
    expect(p.rows.map((r) => r.fields[0])).toEqual(['B033M82FJB', '4006381333931', '10695094441586', '9781240955848', '036000291452']);
    expect(p.skipped.map((s) => [s.sheetRow, s.reason])).toEqual([[7, 'invalid-identifier']]);
    expect(p.ok).toBe(true);
  });
});

describe('columns that cannot be what they were chosen as: never "ready" (issue 27.1)', () => {
  const base = (header: unknown[], rows: unknown[][], mapping: PrepareInput['mapping']) =>
    prepareScan({ values: [header, ...rows], headerRow: 0, firstSheetRow: 1, mapping, options: OPTIONS });

  test('descriptions in the identifier column', () => {
    const p = base(
      ['UPC', 'Description', 'Cost'],
      [
        ['036000291452', 'Blue widget', 2],
        ['4006381333931', 'Red pen', 3],
        ['036000291452', 'Green cup', 4],
      ],
      { identifier: 1, cost: 2 },
    );
    expect(p.ok).toBe(false);
    expect(p.problems).toContainEqual({
      field: 'roles',
      message:
        'Column B ("Description") holds words such as "Blue widget" in 3 of 3 rows, not identifiers. Choose the column with the UPC, EAN or ASIN as Identifier.',
    });
  });

  test('a MSRP/MAP column as cost, and a cost at or above MAP on most rows', () => {
    const rows = [
      ['036000291452', 2.5, 5],
      ['4006381333931', 3, 6],
      ['036000291452', 4, 7],
    ];
    const named = base(['UPC', 'Unit Cost', 'MSRP/MAP'], rows, { identifier: 0, cost: 2 });
    expect(named.ok).toBe(false);
    expect(named.problems.map((x) => x.message)).toEqual([
      'Column C ("MSRP/MAP") is a selling price (MSRP, MAP, retail), not what you pay. Choose the column with your cost as Cost (if this column is your cost, rename its header).',
    ]);
    const swapped = base(['UPC', 'Price A', 'Price B'], rows, { identifier: 0, cost: 2, map: 1 });
    expect(swapped.ok).toBe(false);
    expect(swapped.problems.map((x) => x.message)).toEqual([
      'The cost is at or above MAP on 3 of 3 rows: Column C ("Price B") and Column B ("Price A") look swapped. Check which column holds your cost.',
    ]);
    expect(base(['UPC', 'Price A', 'Price B'], rows, { identifier: 0, cost: 1, map: 2 }).ok).toBe(true);
  });
});

describe('cells the upload would refuse, and messages about huge cells (issue 26.6, 26.10)', () => {
  test('a 50,000-digit identifier: the row is skipped with a cut, marked quote; never the whole cell', () => {
    const huge = '7'.repeat(50_000);
    const p = prepareScan({
      values: [
        ['UPC', 'Cost', 'Stock'],
        [huge, 2, huge],
        ['036000291452', '$' + huge, ''],
      ],
      headerRow: 0,
      firstSheetRow: 1,
      mapping: { identifier: 0, cost: 1, stock: 2 },
      options: OPTIONS,
    });
    const quoted = '"' + '7'.repeat(60) + '…" (50,000 characters)';
    expect(p.skipped.map((s) => s.message)).toEqual([
      'Row 2: ' + quoted + ' has 50000 digits; a UPC has 12, an EAN 13, a GTIN 14. Also: Stock ' + quoted + ' is not a whole number.',
      'Row 3: Cost "$' + '7'.repeat(59) + '…" (50,001 characters) is too large.',
    ]);
    expect(p.skipped[0].identifier).toBe('7'.repeat(60) + '… (50,000 characters)');
  });

  test('a SKU or custom cell over 32,767 characters is cut, marked, to fit; an image link is sent blank; both warned by row and column', () => {
    const p = prepareScan({
      values: [
        ['UPC', 'Cost', 'SKU', 'Image', 'Notes'],
        ['036000291452', 2, 'S'.repeat(40_000), 'https://x/' + 'i'.repeat(40_000), '😀'.repeat(20_000)],
      ],
      headerRow: 0,
      firstSheetRow: 1,
      firstSheetColumn: 2,
      mapping: { identifier: 0, cost: 1, sku: 2, image: 3, custom: [4] },
      options: OPTIONS,
    });
    expect(p.ok).toBe(true);
    const fields = parseCsv(p.csv)[1];
    expect(fields.map((f) => f.length)).toEqual([12, 4, 32_767, 0, expect.any(Number), 1]);
    expect(fields[2].endsWith('S … [cut: 40,000 characters]')).toBe(true);
    // The emoji column: at most 32,767 UTF-16 units and no half emoji before the mark.
    expect(fields[4].length).toBeLessThanOrEqual(32_767);
    // Characters are counted as a seller counts them: 20,000 emoji, not 40,000 UTF-16 units.
    expect(fields[4]).toMatch(/^(😀)+ … \[cut: 20,000 characters\]$/u);
    expect(p.warnings.map((w) => w.column + w.sheetRow)).toEqual(['D2', 'E2', 'F2']);
    expect(p.warnings[1].message).toBe(
      'Row 2: Image (column E): The cell has 40,010 characters; the Scan Service takes 32,767. It is sent blank.',
    );
  });
});

test('a file larger than the upload limit is refused in the preview, with its size (issue 26.6)', () => {
  const long = 'é'.repeat(30_000); // 60,000 bytes in UTF-8
  const values: unknown[][] = [['UPC', 'Cost', 'Notes']];
  for (let i = 0; i < 600; i++) values.push(['036000291452', 2, long]);
  const p = prepareScan({ values, headerRow: 0, firstSheetRow: 1, mapping: { identifier: 0, cost: 1, custom: [2] }, options: OPTIONS });
  expect(p.ok).toBe(false);
  expect(p.problems).toEqual([
    {
      field: 'rows',
      message:
        'These 600 rows make an upload of 34.3 MB; the Scan Service takes at most 32.0 MB in one scan (Google\'s own limit for an add-on is 50 MB). Scan the sheet in 2 parts: select about 503 rows at a time (the header row is found above the selection) and start a scan for each. The column set to "Custom column" goes with every row: setting it to "Not used" if you do not need it makes the upload smaller.',
    },
  ]);
});

describe('prepareScan: a cost or MAP in another currency than the marketplace sells in (issue 32 item 10)', () => {
  const sheet = (values: unknown[][], marketplace: string, display?: unknown[][]) =>
    prepareScan({
      values,
      display,
      headerRow: 0,
      firstSheetRow: 1,
      mapping: { identifier: 0, cost: 1, map: 2 },
      options: { marketplace, name: 'List' },
      includeSheetRow: false,
    });

  test('"1.299,00 €" on a US scan: sent as written, with a warning naming its sheet row', () => {
    const p = sheet(
      [
        ['UPC', 'Cost', 'MAP'],
        ['036000291452', '$12.00', ''],
        ['012345678905', '1.299,00 €', '€1.500,00'],
      ],
      'US',
    );
    expect(parseCsv(p.csv).slice(1)).toEqual([
      ['036000291452', '12.00', ''],
      ['012345678905', '1299.00', '1500.00'],
    ]);
    expect(p.counts).toMatchObject({ send: 2, skipped: 0, warnings: 2 });
    expect(p.warnings.map((w) => [w.sheetRow, w.column, w.role])).toEqual([
      [3, 'B', 'cost'],
      [3, 'C', 'map'],
    ]);
    expect(p.warnings[0].message).toBe(
      'Row 3: Cost "1.299,00 €" is in EUR; the US marketplace sells in USD. It is sent as that amount in USD (the add-on converts no currency): convert it first if it is a EUR price.',
    );
  });

  test('a number shown in euros by its format counts too; the marketplace’s own currency and a dollar on CA do not', () => {
    expect(
      sheet(
        [
          ['UPC', 'Cost', 'MAP'],
          ['036000291452', 1299, ''],
        ],
        'US',
        [
          ['UPC', 'Cost', 'MAP'],
          ['036000291452', '1.299,00 €', ''],
        ],
      ).warnings,
    ).toHaveLength(1);
    expect(
      sheet(
        [
          ['EAN', 'Preis', 'UVP'],
          ['4006381333931', '1.299,00 €', ''],
        ],
        'DE',
      ).warnings,
    ).toEqual([]);
    expect(
      sheet(
        [
          ['UPC', 'Cost', 'MAP'],
          ['036000291452', '$12.00', 'CA$20'],
        ],
        'CA',
      ).warnings,
    ).toEqual([]);
  });
});
