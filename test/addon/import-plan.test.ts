/**
 * The pure planning of result imports (src/app/results/import-plan.ts) and the download cell typing
 * (src/app/results/download-grids.ts): filter units, tab names, format runs, input headers, checkpoint reading,
 * the work budget.
 */
import {
  apiFilters,
  decodeCheckpoint,
  encodeCheckpoint,
  formatRuns,
  formatSpans,
  inputCells,
  inputHeaders,
  requestKey,
  uploadWidth,
  WorkBudget,
  type ImportCheckpoint,
  addToSummary,
  emptySummary,
  summaryText,
  shortScanName,
} from '../../src/app/results/import-plan';
import { moneyText } from '../../contract/numbers';
import { csvGrid, fileNameFor, jsonGrid } from '../../src/app/results/download-grids';
import { notSentRecord, notSentRows } from '../../src/app/records/not-sent';

describe('apiFilters', () => {
  test('money in currency becomes cents, percents become basis points, other fields unchanged', () => {
    expect(
      apiFilters([
        { field: 'profit', operator: '>=', value: 2.5 },
        { field: 'financials.roi', operator: '>', value: 30 },
        { field: 'margin', operator: '<', value: 12.34 },
        { field: 'rank', operator: '<=', value: 50000 },
        { field: 'buybox_price', operator: '<', value: 0.1 + 0.2 },
      ]),
    ).toEqual({
      ok: true,
      value: [
        { name: 'profit', operator: '>=', value: 250 },
        { name: 'financials.roi', operator: '>', value: 3000 },
        { name: 'margin', operator: '<', value: 1234 },
        { name: 'rank', operator: '<=', value: 50000 },
        { name: 'buybox_price', operator: '<', value: 30 },
      ],
    });
  });
  test('refuses what the API cannot take, with the field named', () => {
    expect(apiFilters([{ field: 'roi', operator: '>', value: NaN }])).toEqual({ ok: false, message: 'The filter on roi needs a number.' });
    expect(apiFilters([{ field: 'roi', operator: '=>' as never, value: 1 }])).toEqual({
      ok: false,
      message: 'The filter on roi has an unknown comparison "=>".',
    });
    expect(apiFilters([{ field: ' ', operator: '>', value: 1 }])).toEqual({ ok: false, message: 'A filter has no field.' });
    expect(apiFilters([{ field: 'profit', operator: '>', value: 1e20 }])).toEqual({
      ok: false,
      message: 'The filter on profit has a number out of range.',
    });
    expect(apiFilters(undefined)).toEqual({ ok: true, value: [] });
  });
  test('requestKey: the same request gives the same key, null and empty alike', () => {
    expect(requestKey(null)).toBe(requestKey({}));
    expect(requestKey({ sort: '-roi' })).not.toBe(requestKey({ sort: 'roi' }));
  });
});

describe('tab names', () => {
  test("a scan's name in messages: one line, trimmed, at most 90 characters, a fallback for blank names", () => {
    expect(shortScanName('  Spring\n list\t2026 ', 4)).toBe('Spring list 2026');
    expect(shortScanName('', 7)).toBe('Scan 7');
    expect(shortScanName('x'.repeat(120), 1)).toHaveLength(90);
  });
  test('file names lose characters Drive users trip over', () => {
    expect(fileNameFor('a/b: c?', 3, 'csv')).toBe('a b c (scan 3).csv');
  });
});

describe('column blocks and the errors tab inputs', () => {
  test('formatRuns groups contiguous equal formats and skips text columns', () => {
    expect(formatRuns(['$', '$', null, '%', '%', '$', null])).toEqual([
      { start: 0, count: 2, format: '$' },
      { start: 3, count: 2, format: '%' },
      { start: 5, count: 1, format: '$' },
    ]);
  });
  test('formatSpans: one span per stretch of formatted columns, each column keeping its own format; unformatted columns are never written', () => {
    const formats = ['$', '$', null, '%', '%', '$', null, '#', null];
    const spans = formatSpans(formats);
    expect(spans).toEqual([
      { start: 0, formats: ['$', '$'] },
      { start: 3, formats: ['%', '%', '$'] },
      { start: 7, formats: ['#'] },
    ]);
    // The same cells get the same formats as one call per run of equal formats gave (fewer calls).
    const bySpans = new Array<string | null>(formats.length).fill(null);
    for (const s of spans) s.formats.forEach((f, i) => (bySpans[s.start + i] = f));
    const byRuns = new Array<string | null>(formats.length).fill(null);
    for (const r of formatRuns(formats)) for (let i = 0; i < r.count; i++) byRuns[r.start + i] = r.format;
    expect(bySpans).toEqual(byRuns);
    expect(spans.length).toBeLessThan(formatRuns(formats).length);
  });
  test('input headers name the mapped columns; cells are guarded text padded to the width', () => {
    const mapping = { id: 0, cost: 2, custom_columns: [3] };
    expect(uploadWidth(mapping)).toBe(4);
    expect(inputHeaders(4, mapping, ['Sheet row'])).toEqual(['Input: Identifier', 'Input: column 2', 'Input: Cost', 'Input: Sheet row']);
    expect(inputCells(['=1+1', 'x', null], 4)).toEqual(["'=1+1", 'x', '', '']);
  });
});

describe('checkpoint', () => {
  const cp: ImportCheckpoint = {
    v: 1,
    scanId: 3,
    request: requestKey(null),
    filters: [],
    sort: '',
    phase: 'products',
    marketplace: 'US',
    customColumns: ['Sheet row'],
    mapping: { id: 0, cost: 1 },
    sheetRowField: -1,
    scanName: 'x',
    productsTotal: 10000,
    productsDone: 2500,
    errorsTotal: 20,
    errorsDone: 0,
    stagingId: 11,
    errorsStagingId: 12,
    finalName: null,
    finalErrorsName: null,
  };
  test('round-trips and stays far below the 9 KB property limit', () => {
    expect(decodeCheckpoint(encodeCheckpoint(cp))).toEqual(cp);
    expect(encodeCheckpoint(cp).length).toBeLessThan(1000);
  });
  test('anything else reads as no checkpoint', () => {
    expect(decodeCheckpoint(null)).toBeNull();
    expect(decodeCheckpoint('{')).toBeNull();
    expect(decodeCheckpoint(JSON.stringify({ ...cp, v: 2 }))).toBeNull();
    expect(decodeCheckpoint(JSON.stringify({ ...cp, phase: 'other' }))).toBeNull();
    expect(decodeCheckpoint(JSON.stringify({ ...cp, productsDone: -1 }))).toBeNull();
  });
});

describe('WorkBudget', () => {
  test('takes the larger of the clock and the work counted', () => {
    let t = 1000;
    const b = new WorkBudget(() => t, 1000, 240_000);
    expect(b.used()).toBe(300); // start-up
    b.chargeWrite(100_000); // one call of 100,000 cells: 120 + 3,000 ms
    expect(b.used()).toBe(3420);
    t += 10_000;
    expect(b.used()).toBe(10_000);
    expect(b.fits(229_000)).toBe(true);
    expect(b.fits(231_000)).toBe(false);
  });
  test('a fetchAll is counted once: the time the clock saw it take (its own costs are in it), or its fixed and size costs when more', () => {
    let t = 1000;
    const b = new WorkBudget(() => t, 1000, 240_000);
    // 25 requests, largest answer 100 KB, the clock saw 2 s: counted 2 s (not 2 s + 250 + 24 x 20 + 50 ms).
    b.chargeFetch(25, 100 * 1024, 2000);
    expect(b.used()).toBe(300 + 2000);
    // A clock that did not move (a fetch answered at once): its fixed and size costs.
    b.chargeFetch(25, 100 * 1024, 0);
    expect(b.used()).toBe(300 + 2000 + 250 + 24 * 20 + 50);
  });
});

describe('downloads into a tab', () => {
  test('CSV: numbers in quantity columns, codes and text guarded, blank lines dropped', () => {
    const csv = 'asin,inputs.identifier,buybox_price,market_title,financials.roi\r\nB000000001,012345678905,1999,=1+1,\r\n\r\n';
    expect(csvGrid(csv)).toEqual([
      ['asin', 'inputs.identifier', 'buybox_price', 'market_title', 'financials.roi'],
      ["'B000000001", "'012345678905", 1999, "'=1+1", ''],
    ]);
  });
  test("CSV neutralised by the service ('=...): the supplier's text comes back, still guarded; other apostrophes stay", () => {
    const csv = `a,b,c,d,e,f,g\r\n'=cmd|' /C calc'!A0,'+1+1,'-2+3,'@SUM(1+1),"' ""=x",'plain,''=y\r\n`;
    expect(csvGrid(csv)).toEqual([
      ['a', 'b', 'c', 'd', 'e', 'f', 'g'],
      ["'=cmd|' /C calc'!A0", "'+1+1", "'-2+3", "'@SUM(1+1)", ' "=x', "''plain", "''=y"],
    ]);
  });
  test('JSON: dotted columns in order of first appearance, arrays of text joined, custom columns one each', () => {
    const json = JSON.stringify([
      {
        asin: 'B1',
        financials: { profit: 120 },
        identifiers: { upc: ['1', '2'] },
        inputs: { custom_columns: ['5', '=x'] },
        flags: [{ code: 'a' }],
      },
      { asin: 'B2', financials: { profit: null }, is_hazmat: true },
    ]);
    expect(jsonGrid(json)).toEqual([
      ['asin', 'financials.profit', 'identifiers.upc', "'inputs.custom_columns.1", "'inputs.custom_columns.2", 'flags', 'is_hazmat'],
      ["'B1", 120, "'1|2", "'5", "'=x", '[{"code":"a"}]', ''],
      ["'B2", '', '', '', '', '', true],
    ]);
    expect(() => jsonGrid('{"a":1}')).toThrow('The Scan Service sent a JSON file the add-on cannot read.');
  });
});

describe('result summary', () => {
  test('issue 27.3/27.9: counts profitable rows, the best all-in ROI among them and the profit a month EXPECTED for the seller, with its basis', () => {
    const rows = [
      // 40 a month shared with 3 FBA offers: 10 for you × 2.50 = 25.00 (not the listing's 100.00). ROI 2.50 ÷ (4.00 + 0.50 + 0.50) = 50 %.
      {
        financials: { profit: 250, roi: 6250, prep_cost: 50, inbound_shipping: 50 },
        inputs: { total_cogs: 400 },
        units_per_month: 40,
        new_fba_offers_count: 3,
        new_fbm_offers_count: 0,
        profit_per_month: 10000,
      },
      // a loss: not profitable, its ROI not the best
      {
        financials: { profit: -10, roi: 9000 },
        inputs: { total_cogs: 5 },
        units_per_month: 100,
        new_fba_offers_count: 0,
        profit_per_month: -1000,
      },
      // No sales estimate: counted as profitable, its ROI 1.00 ÷ (1.00 + 0.10 + 0.05) = 86.96 %, left out of the sum and said so.
      { financials: { profit: 100, roi: 10000, prep_cost: 10, inbound_shipping: 5 }, inputs: { total_cogs: 100 }, units_per_month: null },
      { financials: null },
    ];
    const s = addToSummary(addToSummary(emptySummary(), rows.slice(0, 2)), rows.slice(2));
    expect(s).toEqual({ products: 4, profitable: 2, bestRoiBps: (100 / 115) * 10000, profitPerMonthCents: 2500, unestimated: 1 });
    expect(summaryText(s, '"$"#,##0.00')).toBe(
      '2 of 4 products profitable · best ROI 86.96% · $25.00 profit a month expected for you from the 2 profitable, ' +
        'the other 2 (losing or no profit figure) left out (units ÷ (offers + 1), ' +
        'an FBM offer counting ½ where the Buy Box is FBA, capped by stock for 2 months; 1 without a sales estimate or offer count not counted)',
    );
    expect(moneyText(123456789, '#,##0.00" €"')).toBe('1,234,567.89 €');
    expect(moneyText(123456, '"¥"#,##0')).toBe('¥1,235');
    expect(summaryText(addToSummary(emptySummary(), [{ financials: { profit: 0 } }]), '"$"#,##0.00')).toBe('0 of 1 product profitable');
  });

  test('the summary follows the seller’s options: every offer counting 1, 1 month of cover', () => {
    const s = addToSummary(
      emptySummary(),
      [
        {
          financials: { profit: 100 },
          inputs: { total_cogs: 100, stock: 5 },
          units_per_month: 30,
          new_fba_offers_count: 1,
          new_fbm_offers_count: 1,
        },
      ],
      { monthsOfCover: 1, shareRule: 'even', targetRoiBps: 3000, maxDiscountBps: 2000 },
    );
    // 30 ÷ 3 = 10, capped by the stock of 5 for one month: 5 × 1.00.
    expect(s.profitPerMonthCents).toBe(500);
    expect(summaryText(s, '"$"#,##0.00', { monthsOfCover: 1, shareRule: 'even', targetRoiBps: 3000, maxDiscountBps: 2000 })).toBe(
      '1 of 1 product profitable · best ROI 100% · $5.00 profit a month expected for you (units ÷ (offers + 1), capped by stock for 1 month)',
    );
  });
});

describe('rows skipped before the upload', () => {
  test('blank rows are not rows of the list; the record fits a property and keeps the whole count', () => {
    const skipped = [
      { sheetRow: 4, reason: 'blank-row', message: 'Row 4 is empty.', identifier: '' },
      ...Array.from({ length: 400 }, (_, i) => ({
        sheetRow: 10 + i,
        reason: 'unusable-cost',
        message: `Row ${10 + i}: Cost "call" is not an amount.`,
        identifier: '0123456789012',
      })),
    ];
    const rec = notSentRecord(skipped)!;
    expect(rec.n).toBe(400);
    expect(rec.r.length).toBeLessThan(400);
    expect(Buffer.byteLength(JSON.stringify(rec))).toBeLessThanOrEqual(9 * 1024);
    expect(rec.r[0]).toEqual([10, 'Cost "call" is not an amount.', '0123456789012']);
    const rows = notSentRows(rec);
    expect(rows).toHaveLength(rec.r.length + 1);
    expect(rows[rows.length - 1][3]).toBe(
      `…and ${400 - rec.r.length} more rows skipped before the upload (Preview in New scan lists them).`,
    );
    expect(notSentRecord([{ sheetRow: 4, reason: 'blank-row', message: 'Row 4 is empty.', identifier: '' }])).toBeNull();
  });
});
