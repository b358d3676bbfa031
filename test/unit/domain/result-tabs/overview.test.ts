/**
 * The overview's formulas (src/domain/result-tabs/overview.ts) computed by the local runtime's engine
 * (HyperFormula) over a small result tab, the way Sheets would compute them after the import writes them.
 */
import { Workbook } from '../../../../emulator/gas/spreadsheet';
import {
  CATEGORY_COUNT,
  CATEGORY_KINDS,
  overviewCells,
  overviewNumberFormats,
  overviewTabName,
  quoteSheetName,
  SIZE_TIER_COUNT,
} from '../../../../src/domain/result-tabs/overview';
import { pictureCell } from '../../../../src/domain/result-tabs/picture';
import { resultTabOf } from '../../../../src/domain/result-tabs/read';
import { CANT_SEND } from '../../../../src/domain/result-tabs/verdict';
import { makeEnv } from '../../../gas/spreadsheet/env';

const HEADER = ['ASIN', 'Title', 'Profit', 'ROI', 'Your profit/mo', 'Hazmat', 'Meltable', 'Adult', 'Category', 'Verdict'];
const ROWS = [
  ['B000000001', 'Kettle', 12.5, 0.62, 300, false, false, false, 'Kitchen', 'Buy'],
  ['B000000002', 'Candle', 3.1, 0.2, 45.5, true, true, false, 'Home', 'Buy'],
  ['B000000003', 'Lamp', -1.2, -0.1, -20, false, false, false, '', 'No profit'],
  ['B000000004', 'Mug', 6, 0.35, 120, true, false, false, 'Kitchen', CANT_SEND],
];

function overviewOf(tabName: string) {
  const env = makeEnv();
  const result = env.ss.insertSheet(tabName);
  result.getRange(1, 1, 1 + ROWS.length, HEADER.length).setValues([HEADER, ...ROWS]);
  const cells = overviewCells(tabName, resultTabOf(HEADER, tabName).columns, ROWS.length);
  const width = Math.max(...cells.map((r) => r.length));
  const grid = cells.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? ''));
  const ov = env.ss.insertSheet(overviewTabName(tabName));
  ov.getRange(1, 1, grid.length, width).setValues(grid);
  const values = ov.getRange(1, 1, grid.length, width).getValues();
  const row = (label: string) => values.find((r) => r[0] === label) as unknown[];
  return { env, result, values, row, cells };
}

describe('overview of a result tab, computed', () => {
  test('money and shares are formatted as such: the marketplace money format, percent', () => {
    const { cells } = overviewOf('Scan 1');
    const formats = overviewNumberFormats(cells, '"$"#,##0.00');
    const at = (label: string | number) => formats[cells.findIndex((r) => r[0] === label)][1];
    expect([at('Expected profit a month'), at(1), at('Hazmat'), at('Products')]).toEqual(['"$"#,##0.00', '"$"#,##0.00', '0%', 'General']);
    // The same with every row padded to one width, as the import writes them: a count after the shares is no percent.
    const width = Math.max(...cells.map((r) => r.length));
    const padded = overviewNumberFormats(
      cells.map((r) => [...r, ...Array(width - r.length).fill('')]),
      '"$"#,##0.00',
    );
    expect(padded.map((r) => r[1])).toEqual(formats.map((r) => r[1] ?? 'General'));
    const category = cells.findIndex((r) => r[0] === 'Category');
    expect(padded[category + 1][1]).toBe('General');
  });

  test("its blocks in the issue's order: bands, the top products (with their pictures), flags, size tiers, categories", () => {
    const header = [...HEADER, 'Size tier'];
    const cells = overviewCells('Scan 1', resultTabOf(header, 'Scan 1').columns, ROWS.length);
    const headings = cells.filter((r, i) => i > 0 && cells[i - 1].length === 0).map((r) => r[0]);
    expect(headings).toEqual([
      'Profit per unit band',
      'ROI band',
      'Rank',
      'Flag',
      'Size tier',
      'Category',
      'Every category, as first met in the tab',
    ]);
  });

  test('a name with a quote is quoted with the quote doubled', () => {
    expect(quoteSheetName("Bob's scan")).toBe("'Bob''s scan'");
  });

  test('counts, bands, expected profit, flag shares and the top list', () => {
    const { row, values } = overviewOf("Bob's scan");
    expect(row('Products')[1]).toBe(4);
    // As the import's headline counts it: the rows with a profit, less the one Amazon will not take
    // into FBA (Mug), and not the loss (Lamp).
    expect(row('Expected profit a month')[1]).toBeCloseTo(345.5, 6);
    expect(row('Expected profit a month')[2]).toBe(`rows with a profit, less "${CANT_SEND}"`);
    expect(row('Loss (below $0)')[1]).toBe(1);
    expect(row('$2 to $5')[1]).toBe(1);
    expect(row('$5 to $10')[1]).toBe(1);
    expect(row('$10 or more')[1]).toBe(1);
    expect(row('$0 to $2')[1]).toBe(0);
    expect(row('50% or more')[1]).toBe(1);
    expect(row('30% to 50%')[1]).toBe(1);
    expect(row('15% to 30%')[1]).toBe(1);
    expect(row('Below 0%')[1]).toBe(1);
    expect(row('Hazmat')[1]).toBe(0.5);
    expect(row('Meltable')[1]).toBe(0.25);
    expect(row('Adult')[1]).toBe(0);
    const top = values.filter((r) => typeof r[0] === 'number');
    expect(top.slice(0, 4).map((r) => [r[1], r[2], r[3]])).toEqual([
      [300, 'B000000001', 'Kettle'],
      [120, 'B000000004', 'Mug'],
      [45.5, 'B000000002', 'Candle'],
      [-20, 'B000000003', 'Lamp'],
    ]);
    expect(top).toHaveLength(20);
    expect(top[4].slice(1, 4)).toEqual(['', '', '']);
    // No cell computes to an error.
    expect(values.flat().filter((v) => typeof v === 'string' && v.startsWith('#'))).toEqual([]);
  });

  test('the products per category: each category once, the biggest first, with its count and a bar', () => {
    const { values } = overviewOf('Scan 1');
    const head = values.findIndex((r) => r[0] === 'Category');
    expect(values[head].slice(0, 2)).toEqual(['Category', 'Products']);
    const listed = values.slice(head + 1, head + 1 + CATEGORY_COUNT);
    expect(listed.slice(0, 3).map((r) => [r[0], r[1]])).toEqual([
      ['Kitchen', 2],
      ['Home', 1],
      ['', ''],
    ]);
    expect(values.find((r) => r[0] === 'Other categories')![1]).toBe(0);
    expect(values.find((r) => r[0] === 'No category')![1]).toBe(1);
    expect(values.flat().filter((v) => typeof v === 'string' && v.startsWith('#'))).toEqual([]);
  });

  test('more categories than the block lists: the rest are counted as other categories', () => {
    const env = makeEnv();
    const n = CATEGORY_COUNT + 5;
    const rows = Array.from({ length: n }, (_, i) => [
      `B${String(i).padStart(9, '0')}`,
      't',
      1,
      0.1,
      1,
      false,
      false,
      false,
      `Cat ${i % (n - 2)}`,
      'Buy',
    ]);
    env.ss
      .insertSheet('Big')
      .getRange(1, 1, n + 1, HEADER.length)
      .setValues([HEADER, ...rows]);
    const cells = overviewCells('Big', resultTabOf(HEADER, 'Big').columns, n);
    const width = Math.max(...cells.map((r) => r.length));
    const ov = env.ss.insertSheet('Big – Overview');
    ov.getRange(1, 1, cells.length, width).setValues(cells.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? '')));
    const values = ov.getDataRange().getValues();
    const head = values.findIndex((r) => r[0] === 'Category');
    const listed = values.slice(head + 1, head + 1 + CATEGORY_COUNT);
    expect(listed.map((r) => r[0])).toEqual(Array.from({ length: CATEGORY_COUNT }, (_, i) => `Cat ${i}`));
    expect(listed.slice(0, 3).map((r) => r[1])).toEqual([2, 2, 1]);
    expect(values.find((r) => r[0] === 'Other categories')![1]).toBe(n - 2 - CATEGORY_COUNT);
  });

  test("the biggest categories first, wherever the tab first meets them; ties in the tab's order; the heading says when there are too many to rank", () => {
    /** The categories block of an overview over a tab with these categories: its heading's note, its rows, all values. */
    const blockOf = (cats: string[]) => {
      const env = makeEnv();
      const rows = cats.map((c, i) => [`B${String(i).padStart(9, '0')}`, 't', 1, 0.1, 1, false, false, false, c, 'Buy']);
      env.ss
        .insertSheet('Big')
        .getRange(1, 1, rows.length + 1, HEADER.length)
        .setValues([HEADER, ...rows]);
      const cells = overviewCells('Big', resultTabOf(HEADER, 'Big').columns, rows.length);
      const width = Math.max(...cells.map((r) => r.length));
      const ov = env.ss.insertSheet('Big – Overview');
      ov.getRange(1, 1, cells.length, width).setValues(cells.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? '')));
      const values = ov.getDataRange().getValues();
      const head = values.findIndex((r) => r[0] === 'Category');
      return { heading: values[head][2], listed: values.slice(head + 1, head + 1 + CATEGORY_COUNT).map((r) => [r[0], r[1]]), values };
    };
    // 30 categories met once each first, then "Toys", "Late" 5 times and "Toys" once more.
    const cats = [...Array.from({ length: 30 }, (_, i) => `Cat ${i}`), 'Toys', ...Array.from({ length: 5 }, () => 'Late'), 'Toys'];
    const { heading, listed, values } = blockOf(cats);
    expect(listed.slice(0, 4)).toEqual([
      ['Late', 5],
      ['Toys', 2],
      ['Cat 0', 1],
      ['Cat 1', 1],
    ]);
    expect(listed[CATEGORY_COUNT - 1]).toEqual([`Cat ${CATEGORY_COUNT - 3}`, 1]);
    expect(values.find((r) => r[0] === 'Other categories')![1]).toBe(cats.length - 7 - (CATEGORY_COUNT - 2));
    expect(heading).toBe('');
    // More kinds than the list holds: the heading says the ranking covers the first met.
    const many = blockOf(Array.from({ length: CATEGORY_KINDS + 3 }, (_, i) => `Kind ${i}`));
    expect(many.heading).toBe(`the biggest of the first ${CATEGORY_KINDS} categories met`);
    expect(many.listed[0]).toEqual(['Kind 0', 1]);
  });

  test('a saved .xlsx keeps the categories block as formulas, computed again when reopened', async () => {
    const { env } = overviewOf('Scan 1');
    const back = await Workbook.fromXlsx(await env.wb.toXlsx());
    const reopened = makeEnv({ wb: back });
    const ov = reopened.ss.getSheetByName(overviewTabName('Scan 1'))!;
    const values = ov.getDataRange().getValues();
    const head = values.findIndex((r) => r[0] === 'Category');
    expect(values.slice(head + 1, head + 3).map((r) => [r[0], r[1]])).toEqual([
      ['Kitchen', 2],
      ['Home', 1],
    ]);
    // The biggest categories are read from the list below them, made with UNIQUE (computed again too).
    expect(ov.getRange(head + 2, 1).getFormula()).toMatch(/^=IFERROR\(INDEX\(A\$\d+:A\$\d+,MATCH\(1,C\$\d+:C\$\d+,0\)\),""\)$/);
    const list = values.findIndex((r) => r[0] === 'Every category, as first met in the tab');
    expect(ov.getRange(list + 2, 1).getFormula()).toMatch(/^=IFERROR\(INDEX\(UNIQUE\(/);
    expect(values.slice(list + 1, list + 4).map((r) => r.slice(0, 3))).toEqual([
      ['Kitchen', 2, 1],
      ['Home', 1, 2],
      ['', '', ''], // the rows without a category
    ]);
    // Every bar of the block is an in-cell SPARKLINE formula, kept by the saved workbook.
    const bars = ov
      .getRange(head + 2, 3, CATEGORY_COUNT + 1, 1)
      .getFormulas()
      .flat();
    expect(bars.every((f) => /SPARKLINE\(/.test(f))).toBe(true);
    // Sheets: the result tab's category edited after the reopen still moves the count.
    reopened.ss.getSheetByName('Scan 1')!.getRange('I3').setValue('Kitchen');
    const after = ov.getDataRange().getValues();
    expect(after[head + 1].slice(0, 2)).toEqual(['Kitchen', 3]);
    // ... and its order: Home retyped three times over is now the biggest.
    const result = reopened.ss.getSheetByName('Scan 1')!;
    result.getRange('I2:I5').setValues([['Home'], ['Home'], ['Kitchen'], ['Home']]);
    expect(
      ov
        .getDataRange()
        .getValues()
        .slice(head + 1, head + 3)
        .map((r) => [r[0], r[1]]),
    ).toEqual([
      ['Home', 3],
      ['Kitchen', 1],
    ]);
  });

  test("the overview follows the seller's edits to the result tab", () => {
    const { result, env } = overviewOf('Scan 1');
    result.getRange('E3').setValue(500);
    const ov = env.ss.getSheetByName(overviewTabName('Scan 1'))!;
    const values = ov.getDataRange().getValues();
    expect(values.find((r) => r[0] === 'Expected profit a month')![1]).toBeCloseTo(800, 6);
    expect(values.find((r) => r[0] === 1)!.slice(1, 4)).toEqual([500, 'B000000002', 'Candle']);
    // A category edited in the result tab moves the products per category, and their order (the biggest first).
    result.getRange('I5').setValue('Home');
    const after = ov.getDataRange().getValues();
    const head = after.findIndex((r) => r[0] === 'Category');
    expect(after.slice(head + 1, head + 3).map((r) => [r[0], r[1]])).toEqual([
      ['Home', 2],
      ['Kitchen', 1],
    ]);
    result.getRange('I4').setValue('Garden');
    const later = ov.getDataRange().getValues();
    expect(later[head + 3].slice(0, 2)).toEqual(['Garden', 1]);
    expect(later.find((r) => r[0] === 'No category')![1]).toBe(0);
  });
});

/**
 * The top products' pictures (issue 36): each top row has its own IMAGE, whose address is taken by
 * formula from the ranked row's Picture cell on the result tab, only when that cell is the add-on's
 * `=IMAGE("https://…")` (its address passing pictureAddress's rules).
 */
describe("the overview's top products show their own pictures", () => {
  const PIC_HEADER = ['ASIN', 'Title', 'Picture', 'Profit', 'ROI', 'Your profit/mo', 'Category', 'Verdict'];
  const link = (asin: string) => `https://images.scan-service.invalid/I/${asin}-0.png`;
  const PIC_ROWS = [
    ['B000000001', 'Kettle', pictureCell(link('B000000001')), 12.5, 0.62, 300, 'Kitchen', 'Buy'],
    ['B000000002', 'Candle', pictureCell(link('B000000002')), 3.1, 0.2, 45.5, 'Home', 'Buy'],
    ['B000000003', 'Lamp', '', -1.2, -0.1, -20, '', 'No profit'],
    ['B000000004', 'Mug', pictureCell(link('B000000004')), 6, 0.35, 120, 'Kitchen', 'Buy'],
  ];

  function pictured() {
    const env = makeEnv();
    const result = env.ss.insertSheet('Pics');
    result.getRange(1, 1, 1 + PIC_ROWS.length, PIC_HEADER.length).setValues([PIC_HEADER, ...PIC_ROWS]);
    const cells = overviewCells('Pics', resultTabOf(PIC_HEADER, 'Pics').columns, PIC_ROWS.length);
    const width = Math.max(...cells.map((r) => r.length));
    const ov = env.ss.insertSheet(overviewTabName('Pics'));
    ov.getRange(1, 1, cells.length, width).setValues(cells.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? '')));
    /** The top list: per rank, [ASIN, the address its picture cell shows ('' for none), that cell's formula]. */
    const top = (sheet = ov) => {
      const values = sheet.getDataRange().getValues();
      const head = values.findIndex((r) => r[0] === 'Rank');
      const at = (h: string) => values[head].indexOf(h);
      expect(at('Picture')).toBeGreaterThan(0);
      expect(at('Picture link')).toBeGreaterThan(0);
      const formulas = sheet.getDataRange().getFormulas();
      return values.slice(head + 1, head + 1 + 20).map((r, i) => {
        const formula = formulas[head + 1 + i][at('Picture')];
        // The picture cell shows IMAGE of the link cell beside it (IMAGE's url "a reference to a cell
        // containing the appropriate text", support.google.com/docs/answer/3093333), none when it is blank.
        const linkCell = `${String.fromCharCode(65 + at('Picture link'))}${head + 2 + i}`;
        expect(formula).toBe(`=IF(${linkCell}="","",IMAGE(${linkCell}))`);
        return [r[2], r[at('Picture link')]];
      });
    };
    return { env, result, ov, top };
  }

  test('each top row shows the picture of the product it ranks, and a blank row none', () => {
    const { top } = pictured();
    expect(top().slice(0, 5)).toEqual([
      ['B000000001', link('B000000001')],
      ['B000000004', link('B000000004')],
      ['B000000002', link('B000000002')],
      ['B000000003', ''], // no picture in its row
      ['', ''],
    ]);
  });

  test("it follows the seller's edits: a new top product, a picture the add-on wrote again", () => {
    const { result, top } = pictured();
    result.getRange('F3').setValue(900); // Candle is now the top product
    result.getRange('C3').setValue(pictureCell(link('B000000009')));
    expect(top()[0]).toEqual(['B000000002', link('B000000009')]);
  });

  test('an overtyped Picture cell that is not the add-on\'s =IMAGE("https://…") shows no picture, and no text of it becomes a formula', () => {
    const { result, top, ov } = pictured();
    const overtypes = [
      '=IMAGE("javascript:alert(1)")',
      '=IMAGE("https://images.scan-service.invalid/a"".png")', // a quote inside the address
      '=IMAGE("https://images.scan-service.invalid/a.png"&"x")',
      '=IMAGE("https://images.scan-service.invalid/a.png",4,10,10)',
      '=IMAGE("http://images.scan-service.invalid/a.png")',
      'https://images.scan-service.invalid/a.png', // text, not a formula
    ];
    const before = ov.getDataRange().getFormulas();
    for (const overtype of overtypes) {
      result.getRange('C2').setValue(overtype);
      expect([overtype, top()[0]]).toEqual([overtype, ['B000000001', '']]);
      expect(ov.getDataRange().getFormulas()).toEqual(before);
    }
  });

  test('a saved .xlsx keeps the pictures as formulas, computed again when reopened', async () => {
    const { env } = pictured();
    const back = await Workbook.fromXlsx(await env.wb.toXlsx());
    const reopened = makeEnv({ wb: back });
    const ov = reopened.ss.getSheetByName(overviewTabName('Pics'))!;
    const values = ov.getDataRange().getValues();
    const head = values.findIndex((r) => r[0] === 'Rank');
    const at = values[head].indexOf('Picture link');
    expect(at).toBeGreaterThan(0);
    expect(values.slice(head + 1, head + 3).map((r) => r[at])).toEqual([link('B000000001'), link('B000000004')]);
    reopened.ss.getSheetByName('Pics')!.getRange('C2').setValue('=IMAGE("javascript:x")');
    expect(ov.getDataRange().getValues()[head + 1][at]).toBe('');
  });
});

/**
 * The share of rows in each size tier (issue 36: "the share of rows with each flag (hazmat,
 * meltable, adult, size tier)"): the tiers are whatever words the result tab's Size tier column
 * holds, listed A to Z by INDEX(SORT(UNIQUE(…)), k), each with COUNTIF of it over the products.
 */
describe('the overview gives the share of rows in each size tier the result tab holds', () => {
  const TIER_HEADER = ['ASIN', 'Title', 'Your profit/mo', 'Hazmat', 'Size tier'];
  const TIERS = [
    'small_standard',
    'large_standard',
    'small_standard',
    '',
    'small_oversize',
    'small_standard',
    'large_standard',
    'small_standard',
  ];

  function tiered(tiers = TIERS) {
    const env = makeEnv();
    const result = env.ss.insertSheet('Tiers');
    const rows = tiers.map((t, i) => [`B${String(i).padStart(9, '0')}`, 't', 10 * i, i === 1, t]);
    result.getRange(1, 1, 1 + rows.length, TIER_HEADER.length).setValues([TIER_HEADER, ...rows]);
    const cells = overviewCells('Tiers', resultTabOf(TIER_HEADER, 'Tiers').columns, rows.length);
    const width = Math.max(...cells.map((r) => r.length));
    const ov = env.ss.insertSheet(overviewTabName('Tiers'));
    ov.getRange(1, 1, cells.length, width).setValues(cells.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? '')));
    return { env, result, ov, cells };
  }
  /** The block's heading note and its rows (label, share): the tiers', then the rows without one. */
  const block = (values: unknown[][]) => {
    const head = values.findIndex((r) => r[0] === 'Size tier');
    expect(values[head][1]).toBe('Share of rows');
    const end = head + SIZE_TIER_COUNT + 2;
    expect(values[end - 1][0]).toBe('No size tier');
    return { note: values[head][2], rows: values.slice(head + 1, end).map((r) => [r[0], r[1]]) };
  };
  const listed = (shares: [string, number][]) => [...shares, ...Array.from({ length: SIZE_TIER_COUNT - shares.length }, () => ['', ''])];

  test('each tier once, A to Z, with its share of the rows; the rows without one counted apart; shares formatted as percent', () => {
    const { ov, cells } = tiered();
    const values = ov.getDataRange().getValues();
    const { note, rows } = block(values);
    expect(note).toBe('');
    expect(rows).toEqual([
      ...listed([
        ['large_standard', 2 / 8],
        ['small_oversize', 1 / 8],
        ['small_standard', 4 / 8],
      ]),
      ['No size tier', 1 / 8],
    ]);
    // Each share has its bar, an in-cell SPARKLINE; no cell computes to an error.
    const head = values.findIndex((r) => r[0] === 'Size tier');
    const bars = ov
      .getRange(head + 2, 3, SIZE_TIER_COUNT + 1, 1)
      .getFormulas()
      .flat();
    expect(bars.every((f) => /^=SPARKLINE\(/.test(f))).toBe(true);
    expect(values.flat().filter((v) => typeof v === 'string' && v.startsWith('#'))).toEqual([]);
    const formats = overviewNumberFormats(cells, '"$"#,##0.00');
    expect(formats.slice(head + 1, head + 2 + SIZE_TIER_COUNT).map((r) => r[1])).toEqual(Array(SIZE_TIER_COUNT + 1).fill('0%'));
    expect(formats[values.findIndex((r) => r[0] === 'Hazmat')][1]).toBe('0%');
    expect(formats[head][1]).toBe('General');
  });

  test("it follows the seller's edits: a tier changed, a new tier, a tier blanked", () => {
    const { result, ov } = tiered();
    result.getRange('E3').setValue('medium_oversize'); // the second row, large_standard before
    result.getRange('E5').setValue('special_oversize'); // the blank one
    result.getRange('E2').setValue(''); // small_standard before
    expect(block(ov.getDataRange().getValues()).rows).toEqual([
      ...listed([
        ['large_standard', 1 / 8],
        ['medium_oversize', 1 / 8],
        ['small_oversize', 1 / 8],
        ['small_standard', 3 / 8],
        ['special_oversize', 1 / 8],
      ]),
      ['No size tier', 1 / 8],
    ]);
  });

  test('more tiers than the block lists: the heading says the rest are not listed', () => {
    const { ov } = tiered(Array.from({ length: SIZE_TIER_COUNT + 2 }, (_, i) => `tier ${String.fromCharCode(97 + i)}`));
    const { note, rows } = block(ov.getDataRange().getValues());
    expect(note).toBe(`the first ${SIZE_TIER_COUNT} tiers A to Z; more not listed`);
    expect(rows[0]).toEqual(['tier a', 1 / (SIZE_TIER_COUNT + 2)]);
    expect(rows[SIZE_TIER_COUNT - 1][0]).toBe(`tier ${String.fromCharCode(97 + SIZE_TIER_COUNT - 1)}`);
  });

  test('a saved .xlsx keeps the block as formulas, computed again when reopened and after an edit', async () => {
    const { env } = tiered();
    const back = await Workbook.fromXlsx(await env.wb.toXlsx());
    const reopened = makeEnv({ wb: back });
    const ov = reopened.ss.getSheetByName(overviewTabName('Tiers'))!;
    const values = ov.getDataRange().getValues();
    const head = values.findIndex((r) => r[0] === 'Size tier');
    expect(ov.getRange(head + 2, 1).getFormula()).toBe(`=IFERROR(INDEX(SORT(UNIQUE('Tiers'!E2:E9),1,TRUE),1)&"","")`);
    expect(ov.getRange(head + 2, 2).getFormula()).toMatch(/^=IF\(A\d+="","",IFERROR\(COUNTIF\('Tiers'!E2:E9,A\d+\)\//);
    expect(block(values).rows.slice(0, 3)).toEqual([
      ['large_standard', 2 / 8],
      ['small_oversize', 1 / 8],
      ['small_standard', 4 / 8],
    ]);
    reopened.ss
      .getSheetByName('Tiers')!
      .getRange('E2:E3')
      .setValues([['small_oversize'], ['small_oversize']]);
    expect(block(ov.getDataRange().getValues()).rows.slice(0, 3)).toEqual([
      ['large_standard', 1 / 8],
      ['small_oversize', 3 / 8],
      ['small_standard', 3 / 8],
    ]);
  });
});
