/**
 * A seller's week (issue 32) in the playground, in Chromium: the real CLI (tools/playground/main.ts)
 * in a child process on the SHIPPED sample, one page, defaults only. Monday: a block in the middle
 * of the list selected, scanned from the real sidebar and imported; the Negotiate tab and a purchase
 * order from the menu; a quantity typed into the PO (its formulas recompute). Then File > Save as
 * .xlsx, File > Open of that file (a new runtime on it), and the Scans card of Monday's scan knows
 * its tab. One page, no screenshots (the CPU is shared).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { browser, closeBrowser, ROOT, until } from '../sidebar/harness';

jest.setTimeout(120_000);

let child: ChildProcess;
let output = '';
let page: Page;
const week = {} as { tab: string; saved: string };

const hasClass = (c: string) => `contains(concat(" ", normalize-space(@class), " "), " ${c} ")`;
/** The grid cell at a row (as numbered) and column letter of the sheet shown (XPath: see playground.test.ts). */
function cell(row: number, col: string) {
  return page
    .locator(
      `xpath=//*[${hasClass('tabulator-row')}][*[${hasClass('tabulator-cell')}][@tabulator-field="_id"][normalize-space(.)="${row}"]]`,
    )
    .locator(`xpath=./*[${hasClass('tabulator-cell')}][@tabulator-field="${col}"]`);
}
async function menu(caption: string): Promise<void> {
  await page.click('#ext-menu-button');
  await page.getByRole('menuitem', { name: caption, exact: true }).click();
}
/** Selects a block by typing it into the name box; waits until the runtime has the selection. */
async function select(a1: string): Promise<void> {
  await page.locator('#name-box').fill(a1);
  const selected = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/select');
  await page.locator('#name-box').press('Enter');
  await selected;
}
async function typeInto(row: number, col: string, text: string): Promise<void> {
  await cell(row, col).dblclick();
  const input = page.getByLabel(`Edit ${col}${row}`);
  await input.fill(text);
  await input.press('Enter');
}
/** The add-on's alert in the page: its text, answered OK. */
async function alertText(title: string): Promise<string> {
  await page.getByRole('dialog').waitFor({ timeout: 20_000 });
  await until(() => page.locator('#dialog-title').innerText(), title, 20_000);
  const text = await page.locator('#dialog-prompt').innerText();
  await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
  return text;
}
const tabs = () => page.locator('#tabs [role=tab]').allInnerTexts();
const sidebar = (): FrameLocator => page.frameLocator('#sidebar-frame');

beforeAll(async () => {
  const tsx = join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs');
  child = spawn(process.execPath, ['--import', `file://${tsx}`, join(ROOT, 'tools', 'playground', 'main.ts'), '--no-open'], {
    cwd: ROOT,
    env: { ...process.env, DISPLAY: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  await until(() => /playground on (http:\/\/127\.0\.0\.1:\d+\/)/.test(output) && /Local Scan Service: \S+\./.test(output), true, 60_000);
  const ctx = await browser();
  page = await ctx.newPage();
  await page.setViewportSize({ width: 1400, height: 900 });
  page.on('pageerror', (e) => (output += `\npage error: ${e}`));
  await page.goto(/playground on (\S+)/.exec(output)![1]);
  await until(() => cell(1, 'A').innerText(), 'Item Code', 20_000);
});

// A step that failed with a dialog of the add-on open would hold the runtime for the next ones.
afterEach(async () => {
  if (await page.locator('#dialog').isVisible()) await page.locator('#dialog-buttons button').last().click();
});

afterAll(async () => {
  await closeBrowser();
  if (child.exitCode === null) child.kill('SIGINT');
});

describe('Monday in the playground', () => {
  test('A101:G200 selected in the middle of the list, scanned from the sidebar (header row 1 above it), imported into its tab', async () => {
    await select('A101:G200');
    await menu('Scan this sheet');
    const sb = sidebar();
    await sb.getByText(/Price List · A101:G200/).waitFor({ timeout: 20_000 });
    await sb.getByRole('button', { name: 'Preview' }).click();
    await sb.getByRole('button', { name: 'Send' }).click();
    await sb.getByText(/^Imported \d+ products? into "Price List \d{4}-\d\d-\d\d"/).waitFor({ timeout: 60_000 });
    await until(
      async () => /^Price List \d{4}-\d\d-\d\d$/.test(await page.locator('#tabs [aria-selected=true]').innerText()),
      true,
      10_000,
    );
    week.tab = await page.locator('#tabs [aria-selected=true]').innerText();
    await expect(cell(1, 'A').innerText()).resolves.toBe('ASIN');
    await expect(cell(2, 'A').innerText()).resolves.toMatch(/^B0[0-9A-Z]{8}$/);
  });

  test('Negotiate tab from the menu on the result tab', async () => {
    await menu('Negotiate tab from this result tab');
    // Named to fit an .xlsx file (31 characters, src/domain/sheet/tab-name.ts): the date and the kind stay whole.
    const said = /see "([^"]+ 2026-\d\d-\d\d – Negotiate)"/.exec(await alertText('Negotiate tab'));
    expect(said).not.toBeNull();
    expect(said![1].length).toBeLessThanOrEqual(31);
    await until(async () => (await tabs()).includes(said![1]), true, 10_000);
  });

  test('purchase order from selected rows of the result tab; a quantity typed: the line cost recomputes', async () => {
    await page.getByRole('tab', { name: week.tab, exact: true }).click();
    await until(() => cell(1, 'A').innerText(), 'ASIN', 10_000);
    await select('A2:C41');
    await menu('Purchase order from selected rows');
    const said = /^Purchase order "([^"]+ – PO)": \d+ lines?\./.exec(await alertText('Purchase order'));
    expect(said).not.toBeNull();
    const po = said![1];
    await page.getByRole('tab', { name: po, exact: true }).click();
    // The PO's columns (test/addon/buy.test.ts): I Cost per unit, L Quantity, M Line cost (= L × I).
    await until(() => cell(1, 'L').innerText(), 'Quantity', 10_000);
    await expect(cell(1, 'I').innerText()).resolves.toBe('Cost per unit');
    await expect(cell(1, 'M').innerText()).resolves.toBe('Line cost');
    const unit = Number((await cell(2, 'I').innerText()).replace(/[$,]/g, ''));
    await typeInto(2, 'L', '48');
    const want = (48 * unit).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
    await until(() => cell(2, 'M').innerText(), want, 10_000);
  });
});

/** Scans (history): the one card, Monday's scan, names its tab and offers "Open tab", not "Import results". */
async function expectCardKnowsTab(): Promise<void> {
  // The frame keeps the sidebar shown before until the new one has loaded: mark the old page so that
  // only the new one is read.
  if ((await page.locator('#sidebar-frame').count()) > 0)
    await sidebar()
      .locator('body')
      .evaluate((b) => b.setAttribute('data-stale', ''), undefined, { timeout: 2000 })
      .catch(() => undefined);
  await menu('Scans (history)');
  const sb = sidebar().locator('body:not([data-stale])');
  await sb.getByRole('heading', { level: 2, name: 'Scans' }).waitFor({ timeout: 20_000 });
  await sb.locator('.card').first().waitFor({ timeout: 20_000 });
  await expect(sb.locator('.card').count()).resolves.toBe(1);
  expect(await sb.locator('.card').innerText()).toContain(`Results are in tab ${week.tab}.`);
  const buttons = await sb.locator('.card button').allInnerTexts();
  expect(buttons).toContain('Open tab');
  expect(buttons).not.toContain('Import results');
}

describe('Saved as .xlsx and opened again in the playground', () => {
  test('before the save: Scans shows Monday’s card with its tab', async () => {
    await expectCardKnowsTab();
  });

  test('File > Save as .xlsx, then File > Open of that file: every tab is back', async () => {
    const before = await tabs();
    await page.click('#file-menu-button');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Save as .xlsx' }).click()]);
    week.saved = `/tmp/seller-week-${process.pid}.xlsx`;
    await download.saveAs(week.saved);
    expect((await Workbook.fromXlsx(week.saved)).sheetNames()).toEqual(before);
    await page.locator('#file-input').setInputFiles(week.saved);
    await until(async () => (await tabs()).join('|'), before.join('|'), 20_000);
  });

  test('Scans: Monday’s card says its results are in its tab and offers no "Import results"', async () => {
    await expectCardKnowsTab();
    expect(output).not.toContain('page error');
  });
});
