/**
 * Issue 36: the playground's grid draws what Sheets draws in a cell: the picture of =IMAGE and of
 * an in-cell image, loaded from the local service's picture route; a =SPARKLINE as a small chart
 * of its cells' numbers; a colour scale as the cells' backgrounds; text, even text that looks like
 * markup, stays text. One page, in Chromium.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { type Playground, startPlayground } from '../../tools/playground/server';
import { browser, closeBrowser, until } from '../sidebar/harness';
import { trendFormula } from '../../src/domain/result-tabs/history-columns';
import { makeEnv } from '../gas/spreadsheet/env';
import { overviewCells, overviewPictureRows, overviewTabName } from '../../src/domain/result-tabs/overview';
import { PICTURE_ROW_HEIGHT, pictureCell } from '../../src/domain/result-tabs/picture';
import { resultTabOf } from '../../src/domain/result-tabs/read';

jest.setTimeout(120_000);

const LINK = 'https://images.scan-service.invalid/I/B000000001-0.png';
let pg: Playground;
let page: Page;
let dir: string;
/** The sheet row of the overview's top product. */
let overviewTop = 0;

const hasClass = (c: string) => `contains(concat(" ", normalize-space(@class), " "), " ${c} ")`;
/** The grid cell at a row (as numbered) and column letter (XPath: see playground.test.ts). */
function cell(row: number, col: string) {
  return page
    .locator(
      `xpath=//*[${hasClass('tabulator-row')}][*[${hasClass('tabulator-cell')}][@tabulator-field="_id"][normalize-space(.)="${row}"]]`,
    )
    .locator(`xpath=./*[${hasClass('tabulator-cell')}][@tabulator-field="${col}"]`);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'playground-pictures-'));
  const { wb, app, sheet, ss } = makeEnv({ wb: new Workbook({ name: 'Pictures' }) });
  wb.type('Sheet1', 'A1', 'Picture');
  wb.type('Sheet1', 'B1', '<b>Acme</b> & "bowls"');
  wb.type('Sheet1', 'C1', 30);
  wb.type('Sheet1', 'D1', 10);
  wb.type('Sheet1', 'E1', 20);
  wb.type('Sheet1', 'A2', `=IMAGE("${LINK}")`);
  wb.type('Sheet1', 'B2', '=SPARKLINE(C1:E1)');
  wb.type('Sheet1', 'C2', '=SPARKLINE(C1:E1, {"charttype","column";"color","#ea4335"})');
  wb.type('Sheet1', 'D2', '=IMAGE("https://example.com/elsewhere.png")');
  // IMAGE of a cell: loaded only when the cell holds a link of the local picture host, as a literal.
  wb.type('Sheet1', 'J2', LINK);
  wb.type('Sheet1', 'K2', '=IF(J2="","",IMAGE(J2))');
  wb.type('Sheet1', 'J3', 'http://images.scan-service.invalid/I/B000000001-0.png');
  wb.type('Sheet1', 'K3', '=IMAGE(J3)');
  wb.type('Sheet1', 'K4', '=IMAGE(J4)');
  // Text runs on over an empty cell to its right (A5), not over a formula showing nothing (A6).
  wb.type('Sheet1', 'A5', 'Overview of a scan with a long name');
  wb.type('Sheet1', 'A6', 'Overview of a scan with a long name');
  wb.type('Sheet1', 'B6', '=""');
  // The overview's bars: a SPARKLINE of a value scaled to its block's largest, on another sheet.
  // A result tab's trend chart, as the import writes it: an array of cells of one row (its history
  // at 180, 90, 60 and 30 days), the 90 days' blank (J1: a figure the service does not know).
  const history = new Map([
    ['price_180', 'C'],
    ['price_90', 'J'],
    ['price_60', 'D'],
    ['price_30', 'E'],
  ]);
  wb.type('Sheet1', 'C5', trendFormula('price_trend', '#188038', history, 1));
  wb.type('Sheet1', 'E2', `=SPARKLINE(N('Sheet1'!D1)/MAX(1,MAX(C1:E1)),{"charttype","bar";"max",1;"color1","#1a73e8"})`);
  // A colour scale over C1:E1 (30, 10, 20): white at the least, green at the most.
  sheet.setConditionalFormatRules([
    app
      .newConditionalFormatRule()
      .setGradientMinpoint('#ffffff')
      .setGradientMaxpoint('#57bb8a')
      .setRanges([sheet.getRange('C1:E1')])
      .build(),
  ]);
  // A picture row as the result tab sets it (PICTURE_ROW_HEIGHT, 60 px).
  wb.type('Sheet1', 'A7', `=IMAGE("${LINK}")`);
  wb.type('Sheet1', 'B7', 'Acme Bowls');
  wb.type('Sheet1', 'C7', '=SPARKLINE(C1:E1)');
  sheet.setRowHeight(7, 60);
  // The result tab's longest verdict in its column's width (result-columns.ts: Verdict, 130 px).
  wb.type('Sheet1', 'H1', "Can't send to FBA");
  wb.type('Sheet1', 'I1', 'next');
  sheet.setColumnWidth(8, 130);
  sheet.getRange('F1:G3').setValues([
    [-2, 'Buy'],
    [3, 'Check'],
    [0, ''],
  ]);
  // A result tab with pictures and its overview, as the import writes them: the top products'
  // pictures are IMAGE of the link cell beside them (=IF(F5="","",IMAGE(F5))), in rows 60 px high.
  const pics = ss.insertSheet('Pics');
  pics.getRange(1, 1, 4, 4).setValues([
    ['ASIN', 'Title', 'Picture', 'Your profit/mo'],
    ['B000000001', 'Kettle', pictureCell(LINK), 300],
    ['B000000002', 'Lamp', '', 120],
    ['B000000003', 'Mug', pictureCell(LINK.replace('-0.png', '-1.png')), 45],
  ]);
  const ovCells = overviewCells('Pics', resultTabOf(['ASIN', 'Title', 'Picture', 'Your profit/mo'], 'Pics').columns, 3);
  overviewTop = ovCells.findIndex((r) => r[0] === 'Rank') + 2;
  const ovWidth = Math.max(...ovCells.map((r) => r.length));
  const ov = ss.insertSheet(overviewTabName('Pics'));
  ov.getRange(1, 1, ovCells.length, ovWidth).setValues(ovCells.map((r) => Array.from({ length: ovWidth }, (_, i) => r[i] ?? '')));
  for (const [row, n] of overviewPictureRows(ovCells)) ov.setRowHeights(row, n, PICTURE_ROW_HEIGHT);
  ss.setActiveSheet(sheet);
  const file = join(dir, 'pictures.xlsx');
  writeFileSync(file, await wb.toXlsx());
  pg = await startPlayground({ workbook: file });
  // An in-cell image, as SpreadsheetApp's setValue(newCellImage()...) leaves it.
  const doc = pg.runtime().workbook;
  doc.writeImage(doc.sheets[0], 3, 1, { url: LINK.replace('-0.png', '-1.png'), title: 'Second picture', description: null });
  // The result tab's colours, set in the running document as the import sets them (a saved .xlsx
  // does not keep a "text is exactly" rule: emulator/gas/spreadsheet/xlsx.ts conditionalForXlsx):
  // a number below 0 red, above 0 green; a verdict word coloured by its value.
  const live = makeEnv({ wb: doc });
  const first = live.ss.getSheets()[0];
  const rule = () => live.app.newConditionalFormatRule();
  first.setConditionalFormatRules([
    ...first.getConditionalFormatRules(),
    rule()
      .whenNumberLessThan(0)
      .setBackground('#f4c7c3')
      .setRanges([first.getRange('F1:F3')])
      .build(),
    rule()
      .whenNumberGreaterThan(0)
      .setBackground('#b7e1cd')
      .setRanges([first.getRange('F1:F3')])
      .build(),
    rule()
      .whenTextEqualTo('Buy')
      .setBackground('#b7e1cd')
      .setRanges([first.getRange('G1:G2')])
      .build(),
  ]);
  page = await (await browser()).newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(pg.url);
});
afterAll(async () => {
  await page?.close();
  await closeBrowser();
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('IMAGE and in-cell images are pictures loaded from the local service', async () => {
  const img = cell(2, 'A').locator('img');
  await img.waitFor();
  expect(await img.getAttribute('src')).toBe(`${pg.serviceUrl}/images/I/B000000001-0.png`);
  await page.waitForFunction((el: any) => el.complete, await img.elementHandle());
  expect(await img.evaluate((el: any) => el.naturalWidth)).toBe(75);
  const inCell = cell(3, 'A').locator('img');
  expect(await inCell.getAttribute('alt')).toBe('Second picture');
  expect(await inCell.getAttribute('src')).toBe(`${pg.serviceUrl}/images/I/B000000001-1.png`);
  // A link that is not the local service's is not loaded: its address is shown as text.
  expect(await cell(2, 'D').locator('img').count()).toBe(0);
  expect(await cell(2, 'D').textContent()).toBe('https://example.com/elsewhere.png');
  // IMAGE of a cell holding a link: the same picture, through the same checks.
  expect(await cell(2, 'K').locator('img').getAttribute('src')).toBe(`${pg.serviceUrl}/images/I/B000000001-0.png`);
  expect(await cell(3, 'K').locator('img').count()).toBe(0); // http, not https
  expect(await cell(3, 'K').textContent()).toBe('http://images.scan-service.invalid/I/B000000001-0.png');
  expect(await cell(4, 'K').locator('img').count()).toBe(0); // a blank cell: no picture
  expect(await cell(4, 'K').textContent()).toBe('');
});

test('a row given a height is drawn that high, its picture fitted to it, as Sheets fits IMAGE in its cell', async () => {
  const img = cell(7, 'A').locator('img');
  await img.waitFor();
  await page.waitForFunction((el: any) => el.complete, await img.elementHandle());
  expect(await cell(7, 'A').evaluate((el: any) => el.offsetHeight)).toBe(60);
  expect(await cell(7, 'B').evaluate((el: any) => el.offsetHeight)).toBe(60);
  // The picture fills the cell's height inside its padding (2 px each side): 56 px.
  expect(await img.evaluate((el: any) => el.getBoundingClientRect().height)).toBe(56);
  // A trend chart fills its cell too (inside the padding), as Sheets draws SPARKLINE.
  expect(
    await cell(7, 'C')
      .locator('svg.sparkline')
      .evaluate((el: any) => el.getBoundingClientRect().height),
  ).toBe(56);
  expect(
    await cell(2, 'B')
      .locator('svg.sparkline')
      .evaluate((el: any) => el.getBoundingClientRect().height),
  ).toBe(18);
  // Its text sits at the bottom of the row, as Sheets aligns a cell by default.
  const gap = await cell(7, 'B').evaluate((el: any) => {
    const range = (globalThis as any).document.createRange();
    range.selectNodeContents(el);
    return el.getBoundingClientRect().bottom - range.getBoundingClientRect().bottom;
  });
  expect(gap).toBeGreaterThanOrEqual(0);
  expect(gap).toBeLessThanOrEqual(6);
  // Other rows keep the default height.
  expect(await cell(6, 'A').evaluate((el: any) => el.offsetHeight)).toBe(22);
});

test('SPARKLINE is a small chart of its cells: a line through 30, 10, 20; columns in the colour asked for', async () => {
  const line = cell(2, 'B').locator('svg.sparkline polyline');
  await line.waitFor();
  expect(await line.getAttribute('points')).toBe('0,1 50,19 100,10');
  const columns = cell(2, 'C').locator('svg.sparkline rect');
  expect(await columns.count()).toBe(3);
  expect(await cell(2, 'C').locator('svg.sparkline g').getAttribute('fill')).toBe('#ea4335');
});

test("a trend chart over an array of its row's cells is a line through them in its colour, the blank one skipped", async () => {
  const line = cell(5, 'C').locator('svg.sparkline polyline');
  await line.waitFor();
  expect(await line.getAttribute('points')).toBe('0,1 50,19 100,10');
  expect(await line.getAttribute('stroke')).toBe('#188038');
  expect(await line.getAttribute('stroke-width')).toBe('2');
});

test("a bar over a computed value, as the overview's: 10 of the largest 30 fills a third of the cell", async () => {
  const bar = cell(2, 'E').locator('svg.sparkline rect');
  await bar.waitFor();
  expect(await bar.getAttribute('width')).toBe('33.33');
  expect(await cell(2, 'E').locator('svg.sparkline g').getAttribute('fill')).toBe('#1a73e8');
});

test("rules on a number or a word paint the cells they match, as the result tab's profit and verdict colours", async () => {
  const bg = (r: number, col: string) => cell(r, col).evaluate((el: any) => (globalThis as any).getComputedStyle(el).backgroundColor);
  expect([await bg(1, 'F'), await bg(2, 'F'), await bg(3, 'F')]).toEqual(['rgb(244, 199, 195)', 'rgb(183, 225, 205)', 'rgba(0, 0, 0, 0)']);
  expect([await bg(1, 'G'), await bg(2, 'G')]).toEqual(['rgb(183, 225, 205)', 'rgba(0, 0, 0, 0)']);
});

test('text runs on over an empty cell to its right, as in Sheets; not over a value or a formula', async () => {
  const overflows = (r: number, col: string) => cell(r, col).evaluate((el: any) => el.classList.contains('overflow'));
  await cell(5, 'A').waitFor();
  expect([await overflows(5, 'A'), await overflows(6, 'A'), await overflows(1, 'B')]).toEqual([true, false, false]);
  expect(await cell(5, 'A').evaluate((el: any) => (globalThis as any).getComputedStyle(el).overflow)).toBe('visible');
});

test("text is drawn in Arial's metrics at Sheets' size (Arial 10): the longest verdict fits its 130 px column, as in Sheets", async () => {
  await page.evaluate(() => (globalThis as any).document.fonts.ready);
  const verdict = cell(1, 'H');
  expect(await verdict.evaluate((el: any) => (globalThis as any).getComputedStyle(el).fontSize)).toBe('13.3333px');
  expect(await page.evaluate(() => (globalThis as any).document.fonts.check('10pt Arimo'))).toBe(true);
  expect(await verdict.evaluate((el: any) => el.offsetWidth)).toBe(130);
  // Not cut: its text is no wider than the cell shows (a cut text scrolls wider, behind its "…").
  expect(await verdict.evaluate((el: any) => el.scrollWidth <= el.clientWidth)).toBe(true);
  expect(await verdict.textContent()).toBe("Can't send to FBA");
});

test('text that looks like markup is still shown as text', async () => {
  expect(await cell(1, 'B').textContent()).toBe('<b>Acme</b> & "bowls"');
  expect(await cell(1, 'B').locator('b').count()).toBe(0);
});

test('a colour scale paints each number between its two colours', async () => {
  const bg = (col: string) => cell(1, col).evaluate((el: any) => (globalThis as any).getComputedStyle(el).backgroundColor);
  // 10 is the least (white), 30 the most (#57bb8a), 20 half way.
  expect([await bg('D'), await bg('C'), await bg('E')]).toEqual(['rgb(255, 255, 255)', 'rgb(87, 187, 138)', 'rgb(171, 221, 197)']);
});

test("the overview's top products show their pictures: IMAGE of the link cell beside them, loaded from the local service", async () => {
  await page.getByRole('tab', { name: overviewTabName('Pics'), exact: true }).click();
  await until(() => page.locator('#tabs [aria-selected=true]').innerText(), overviewTabName('Pics'));
  const img = cell(overviewTop, 'E').locator('img');
  await img.waitFor();
  expect(await cell(overviewTop, 'C').textContent()).toBe('B000000001');
  expect(await img.getAttribute('src')).toBe(`${pg.serviceUrl}/images/I/B000000001-0.png`);
  await page.waitForFunction((el: any) => el.complete, await img.elementHandle());
  expect(await img.evaluate((el: any) => el.naturalWidth)).toBeGreaterThan(0);
  // Filling its 60 px row, as the result tab's pictures.
  expect(await img.evaluate((el: any) => el.getBoundingClientRect().height)).toBe(56);
  // The third product's own picture; the second has none, nor has a rank without a product.
  expect(
    await cell(overviewTop + 2, 'E')
      .locator('img')
      .getAttribute('src'),
  ).toBe(`${pg.serviceUrl}/images/I/B000000001-1.png`);
  expect(await cell(overviewTop + 1, 'C').textContent()).toBe('B000000002');
  expect(
    await cell(overviewTop + 1, 'E')
      .locator('img')
      .count(),
  ).toBe(0);
  expect(
    await cell(overviewTop + 3, 'E')
      .locator('img')
      .count(),
  ).toBe(0);
});
