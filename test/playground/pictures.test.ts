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
import { browser, closeBrowser } from '../sidebar/harness';
import { makeEnv } from '../gas/spreadsheet/env';

jest.setTimeout(120_000);

const LINK = 'https://images.scan-service.invalid/I/B000000001-0.png';
let pg: Playground;
let page: Page;
let dir: string;

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
  const { wb, app, sheet } = makeEnv({ wb: new Workbook({ name: 'Pictures' }) });
  wb.type('Sheet1', 'A1', 'Picture');
  wb.type('Sheet1', 'B1', '<b>Acme</b> & "bowls"');
  wb.type('Sheet1', 'C1', 30);
  wb.type('Sheet1', 'D1', 10);
  wb.type('Sheet1', 'E1', 20);
  wb.type('Sheet1', 'A2', `=IMAGE("${LINK}")`);
  wb.type('Sheet1', 'B2', '=SPARKLINE(C1:E1)');
  wb.type('Sheet1', 'C2', '=SPARKLINE(C1:E1, {"charttype","column";"color","#ea4335"})');
  wb.type('Sheet1', 'D2', '=IMAGE("https://example.com/elsewhere.png")');
  // A colour scale over C1:E1 (30, 10, 20): white at the least, green at the most.
  sheet.setConditionalFormatRules([
    app
      .newConditionalFormatRule()
      .setGradientMinpoint('#ffffff')
      .setGradientMaxpoint('#57bb8a')
      .setRanges([sheet.getRange('C1:E1')])
      .build(),
  ]);
  const file = join(dir, 'pictures.xlsx');
  writeFileSync(file, await wb.toXlsx());
  pg = await startPlayground({ workbook: file });
  // An in-cell image, as SpreadsheetApp's setValue(newCellImage()...) leaves it.
  const doc = pg.runtime().workbook;
  doc.writeImage(doc.sheets[0], 3, 1, { url: LINK.replace('-0.png', '-1.png'), title: 'Second picture', description: null });
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
});

test('SPARKLINE is a small chart of its cells: a line through 30, 10, 20; columns in the colour asked for', async () => {
  const line = cell(2, 'B').locator('svg.sparkline polyline');
  await line.waitFor();
  expect(await line.getAttribute('points')).toBe('0,1 50,19 100,10');
  const columns = cell(2, 'C').locator('svg.sparkline rect');
  expect(await columns.count()).toBe(3);
  expect(await cell(2, 'C').locator('svg.sparkline g').getAttribute('fill')).toBe('#ea4335');
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
