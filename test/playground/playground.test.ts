/**
 * `npm run playground` in Chromium at a desktop size: the real CLI (tools/playground/main.ts) in a
 * child process, one browser, one local service. A person's journey: the sample price list in the
 * grid, the add-on's menu, a block selected with the mouse, scanned from the real sidebar, the
 * result tab in the grid; cells typed (a built-in formula and =ASIN_FROM_UPC), a row action through
 * its prompt and question, the hourly trigger on the virtual clock, lists synced to the service,
 * the workbook saved as .xlsx; then Ctrl-C stops the server and the service.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { DEMO_API_KEY } from '../../emulator/service/config';
import { MENU_ITEMS } from '../../src/entry/menu';
import { browser, closeBrowser, ROOT, until } from '../sidebar/harness';

jest.setTimeout(120_000);

let child: ChildProcess;
let output = '';
let url = '';
let serviceUrl = '';
let page: Page;
let exited: Promise<number | null>;

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: `/tmp/playground-${name}.png` });
}

// Grid rows and cells are found with XPath, which the browser evaluates natively: the same query
// as Playwright's `:has()` + `:text-is()` (run in its page script) cost about 2.7 s of the page's
// CPU per run, as the tests poll cells while the grid updates.
const hasClass = (c: string) => `contains(concat(" ", normalize-space(@class), " "), " ${c} ")`;

/** The grid row numbered `row` (its row-number cell reads exactly that). */
function gridRow(row: number) {
  return page.locator(
    `xpath=//*[${hasClass('tabulator-row')}][*[${hasClass('tabulator-cell')}][@tabulator-field="_id"][normalize-space(.)="${row}"]]`,
  );
}

/** The grid cell at a row (1-based, as numbered) and column letter of the sheet shown. */
function cell(row: number, col: string) {
  return gridRow(row).locator(`xpath=./*[${hasClass('tabulator-cell')}][@tabulator-field="${col}"]`);
}

async function menu(caption: string): Promise<void> {
  await page.click('#ext-menu-button');
  await page.getByRole('menuitem', { name: caption, exact: true }).click();
}

async function typeInto(row: number, col: string, text: string): Promise<void> {
  await cell(row, col).dblclick();
  const input = page.getByLabel(`Edit ${col}${row}`);
  await input.fill(text);
  await input.press('Enter');
}

const sidebar = (): FrameLocator => page.frameLocator('#sidebar-frame');

beforeAll(async () => {
  const tsx = join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs');
  child = spawn(process.execPath, ['--import', `file://${tsx}`, join(ROOT, 'tools', 'playground', 'main.ts'), '--no-open'], {
    cwd: ROOT,
    env: { ...process.env, DISPLAY: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // 'close', not 'exit': only then has all of its output been read.
  exited = new Promise((resolve) => child.once('close', (code) => resolve(code)));
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  // Its lines come in separate writes: wait for the last one read below, not only the first.
  await until(() => /playground on (http:\/\/127\.0\.0\.1:\d+\/)/.test(output) && /Local Scan Service: \S+\./.test(output), true, 60_000);
  url = /playground on (\S+)/.exec(output)![1];
  serviceUrl = /Local Scan Service: (\S+)\./.exec(output)![1];
  const ctx = await browser();
  page = await ctx.newPage();
  await page.setViewportSize({ width: 1400, height: 900 });
  page.on('pageerror', (e) => (output += `\npage error: ${e}`));
});

// A test that failed with a dialog of the add-on open would hold the runtime for the next ones.
afterEach(async () => {
  if (await page.locator('#dialog').isVisible()) await page.locator('#dialog-buttons button').last().click();
});

afterAll(async () => {
  await closeBrowser();
  if (child.exitCode === null) child.kill('SIGKILL');
});

test('the CLI says where the page is and that it listens on 127.0.0.1 only, opening no browser without a display', () => {
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  expect(output).toContain('It listens on 127.0.0.1 only (this machine); the page loads nothing from the internet.');
  expect(output).not.toContain('Opened it in your browser.');
});

/** Status of a GET with these headers (node:http, so Host and Origin are sent as given). */
function status(path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, url), { headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

test('another site cannot drive it: a foreign Origin or Host (DNS rebinding) is refused', async () => {
  const port = new URL(url).port;
  await expect(status('/api/state', { host: `127.0.0.1:${port}` })).resolves.toBe(200);
  await expect(status('/api/state', { host: `127.0.0.1:${port}`, origin: 'http://evil.example' })).resolves.toBe(403);
  await expect(status('/api/state', { host: `evil.example:${port}` })).resolves.toBe(403);
});

test('the page opens on the sample price list with the add-on menu as onOpen declares it, loading nothing from elsewhere', async () => {
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(url);
  await until(() => cell(1, 'A').innerText(), 'Item Code', 20_000);
  await expect(cell(2, 'D').innerText()).resolves.toBe('15.18');
  await expect(page.locator('#tabs [role=tab]').allInnerTexts()).resolves.toEqual(['Price List']);
  await expect(page.locator('#doc-name').innerText()).resolves.toBe('supplier-price-list');
  await page.click('#ext-menu-button');
  await expect(page.locator('#ext-menu .heading').innerText()).resolves.toBe('Product Sourcing Scan');
  await expect(page.locator('#ext-menu .item').allInnerTexts()).resolves.toEqual(MENU_ITEMS.filter((i) => i).map((i) => i![0]));
  await shot('menu');
  await page.click('#ext-menu-button');
  expect(requests.filter((r) => !r.startsWith(url))).toEqual([]);
});

test('an idle page polls nothing: it waits for dialogs on one held request (a long poll)', async () => {
  const sent: string[] = [];
  const onRequest = (r: { url(): string }) => sent.push(new URL(r.url()).pathname);
  page.on('request', onRequest);
  // The page polled /api/question every 300 ms: about 5 requests in this window. A held request is
  // answered after 25 s at the latest, so at most one new one can start in it.
  await page.waitForTimeout(1500);
  page.off('request', onRequest);
  expect(sent.filter((p) => p !== '/api/question')).toEqual([]);
  expect(sent.length).toBeLessThanOrEqual(1);
});

test('a state that changed nothing (after a sidebar call) does not redraw the grid', async () => {
  // A mark on a drawn cell survives only if the grid did not redraw its rows.
  await cell(2, 'D').evaluate((el) => ((el as unknown as { kept: boolean }).kept = true));
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/state');
  await page.evaluate(() => (globalThis as unknown as { __playgroundAfterCall: () => void }).__playgroundAfterCall());
  await answered;
  // The status reads "Working…" until the page has the answer; it applies it at once.
  await until(() => page.locator('#status').innerText(), '');
  await expect(cell(2, 'D').evaluate((el) => (el as unknown as { kept?: boolean }).kept)).resolves.toBe(true);
  await expect(cell(2, 'D').innerText()).resolves.toBe('15.18');
});

test('a block selected with the mouse is what the sidebar scans; the result tab appears in the grid', async () => {
  const from = await cell(1, 'A').boundingBox();
  const to = await cell(21, 'G').boundingBox();
  await page.mouse.move(from!.x + 10, from!.y + 5);
  await page.mouse.down();
  await page.mouse.move(to!.x + 10, to!.y + 5, { steps: 8 });
  await page.mouse.up();
  await until(() => page.locator('#name-box').inputValue(), 'A1:G21');
  await menu('Scan this sheet');
  const sb = sidebar();
  await sb.getByText(/Price List · A1:G21/).waitFor({ timeout: 20_000 });
  await expect(page.locator('#sidebar-frame').evaluate((f) => (f as unknown as { clientWidth: number }).clientWidth)).resolves.toBe(300);
  await sb.getByRole('button', { name: 'Preview' }).click();
  await sb.getByRole('button', { name: 'Send' }).click();
  await sb.getByText(/^Imported \d+ products? into "Price List \d{4}-\d\d-\d\d"/).waitFor({ timeout: 60_000 });
  // The import activates the result tab; the page follows the runtime.
  await until(async () => /^Price List \d{4}-\d\d-\d\d$/.test(await page.locator('#tabs [aria-selected=true]').innerText()), true, 10_000);
  const tabs = await page.locator('#tabs [role=tab]').allInnerTexts();
  expect(tabs[0]).toBe('Price List');
  expect(tabs[1]).toMatch(/^Price List \d{4}-\d\d-\d\d$/);
  // The result tab as the add-on wrote it: its header row, and the 20 selected rows.
  await expect(cell(1, 'A').innerText()).resolves.toBe('ASIN');
  await expect(cell(21, 'A').innerText()).resolves.toMatch(/^B0[0-9A-Z]{8}$/);
  // The result tab's grid is exactly its data (issue 22): there is no row 22.
  await expect(gridRow(22).count()).resolves.toBe(0);
  await shot('scanned');
});

test('typed cells: a built-in formula computed by the engine, =ASIN_FROM_UPC by the add-on once the owner shares the key', async () => {
  await page.getByRole('tab', { name: 'Price List', exact: true }).click();
  await until(() => cell(2, 'D').innerText(), '15.18');
  await typeInto(2, 'I', '=D2*2');
  await until(() => cell(2, 'I').innerText(), '30.36');
  await cell(2, 'I').click();
  await until(() => page.locator('#formula-input').inputValue(), '=D2*2');

  await typeInto(2, 'H', '=ASIN_FROM_UPC(B2:B4)');
  // Until the owner shares the key, every cell to convert says so (src/custom-functions).
  await until(async () => (await cell(2, 'H').innerText()).startsWith('Formulas are off in this spreadsheet.'), true, 20_000);
  await menu('Settings');
  const share = sidebar().getByLabel('Formulas in this spreadsheet run on my key');
  await share.check({ timeout: 20_000 });
  await sidebar().getByText('Formulas here now run on your key.').waitFor();
  await typeInto(2, 'H', '=ASIN_FROM_UPC(B2:B4)');
  await until(async () => /^B0[0-9A-Z]{8}$|^not found$/.test(await cell(2, 'H').innerText()), true, 20_000);
  await expect(cell(3, 'H').innerText()).resolves.toMatch(/^B0[0-9A-Z]{8}$|^not found$/);
  await shot('formulas');
});

test('a cell being edited keeps what the person types when the document changes under it (a sidebar call, as Sheets keeps an edit open)', async () => {
  await cell(2, 'K').dblclick();
  const input = page.getByLabel('Edit K2');
  await input.fill('kept');
  // Another change reaches the page while the editor is open, the way a sidebar call's does.
  const edited = await page.evaluate(async () => {
    const body = JSON.stringify({ sheet: 'Price List', row: 3, col: 11, input: 'changed meanwhile' });
    const res = await fetch('/api/edit?since=0', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return res.ok;
  });
  expect(edited).toBe(true);
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/state');
  await page.evaluate(() => (globalThis as unknown as { __playgroundAfterCall: () => void }).__playgroundAfterCall());
  await answered;
  // The status reads "Working…" until the page has the answer; it applies it at once.
  await until(() => page.locator('#status').innerText(), '');
  await expect(input.inputValue({ timeout: 2_000 })).resolves.toBe('kept');
  await input.press('Enter');
  await until(() => cell(2, 'K').innerText(), 'kept');
  await until(() => cell(3, 'K').innerText(), 'changed meanwhile');
});

test('lists: set up from the sidebar, a row typed in the grid, synced to the service', async () => {
  await menu('Scan this sheet');
  // The sidebar still shows the previous test's Settings (it has a Lists button too) until the new page loads.
  await sidebar().getByRole('heading', { level: 2, name: 'New scan' }).waitFor({ timeout: 20_000 });
  await sidebar().getByRole('button', { name: 'Lists', exact: true }).click();
  await sidebar().getByRole('button', { name: 'Set up lists' }).click();
  await page.getByRole('tab', { name: 'Scan brand blocklist', exact: true }).waitFor({ timeout: 20_000 });
  await page.getByRole('tab', { name: 'Scan brand blocklist', exact: true }).click();
  await typeInto(2, 'A', 'US');
  await until(() => cell(2, 'A').innerText(), 'US');
  await typeInto(2, 'B', 'Playground Test Brand');
  await until(() => cell(2, 'B').innerText(), 'Playground Test Brand');
  await sidebar().getByRole('button', { name: 'Sync now' }).click();
  await sidebar().getByText('Lists synced.').waitFor({ timeout: 30_000 });
  // The sidebar shows the report first, then reads the lists' status again (another call): wait for it.
  await sidebar().locator('.lists-status [data-list=brands]', { hasText: 'sent: 1 added' }).waitFor({ timeout: 20_000 });
  await expect(sidebar().locator('.lists-status [data-list=brands]').innerText()).resolves.toContain('sent: 1 added');
  const res = await fetch(`${serviceUrl}/api/v3/brand-blocklist?per_page=1000&page=1`, {
    headers: { authorization: `Bearer ${DEMO_API_KEY}` },
  });
  const body = await res.json();
  expect(JSON.stringify(body)).toContain('Playground Test Brand');
  await shot('lists');
});

test('a row action asks in the page as Sheets does (prompt, then question) and ends with a toast', async () => {
  const tab = (await page.locator('#tabs [role=tab]').allInnerTexts()).find((t) => /^Price List \d{4}-\d\d-\d\d$/.test(t))!;
  await page.getByRole('tab', { name: tab, exact: true }).click();
  // The click's answer switches the grid: the row is the result tab's once the page shows it active.
  await until(() => page.locator('#tabs [aria-selected=true]').innerText(), tab);
  await cell(2, 'A').click();
  await menu('Selected rows: add tags…');
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await expect(page.locator('#dialog-title').innerText()).resolves.toBe('Add tags');
  await page.getByLabel('Your answer').fill('clearance');
  await shot('prompt');
  await dialog.getByRole('button', { name: 'OK' }).click();
  // The next dialog, once the add-on has checked the rows: the question before it writes.
  await until(async () => /Go ahead\?$/.test(await page.locator('#dialog-prompt').innerText()), true, 20_000).catch(async (e) => {
    throw new Error(`${e}\nthe dialog says: ${await page.locator('#dialog-prompt').innerText()}`);
  });
  await expect(page.locator('#dialog-buttons button').allInnerTexts()).resolves.toEqual(['Yes', 'No']);
  await dialog.getByRole('button', { name: 'Yes' }).click();
  await page.locator('#toast').waitFor({ state: 'visible', timeout: 20_000 });
  await expect(page.locator('#toast-title').innerText()).resolves.toBe('Add tags');
  await shot('toast');
});

test("Confirm match shows the selected rows' pictures in the sidebar, loaded from the local service as the grid's are", async () => {
  const tab = (await page.locator('#tabs [role=tab]').allInnerTexts()).find((t) => /^Price List \d{4}-\d\d-\d\d$/.test(t))!;
  await page.getByRole('tab', { name: tab, exact: true }).click();
  await until(() => cell(1, 'A').innerText(), 'ASIN');
  const from = await cell(2, 'A').boundingBox();
  const to = await cell(4, 'A').boundingBox();
  await page.mouse.move(from!.x + 10, from!.y + 5);
  await page.mouse.down();
  await page.mouse.move(to!.x + 10, to!.y + 5, { steps: 4 });
  await page.mouse.up();
  await until(() => page.locator('#name-box').inputValue(), 'A2:A4');
  await menu('Scan this sheet');
  await sidebar().getByRole('heading', { level: 2, name: 'New scan' }).waitFor({ timeout: 20_000 });
  await sidebar().getByRole('button', { name: 'Lists', exact: true }).click();
  await sidebar().getByRole('button', { name: 'Confirm match' }).click();
  const pictures = sidebar().locator('.rows img.picture');
  await pictures.first().waitFor({ timeout: 20_000 });
  expect(await pictures.count()).toBe(3);
  for (const img of await pictures.all()) {
    // Lazy pictures load once shown, as a seller scrolls to them.
    await img.scrollIntoViewIfNeeded();
    await until(() => img.evaluate((el) => (el as unknown as { complete: boolean }).complete), true, 10_000);
    // Loaded, not broken: the service's 75 px picture, not the alt text of an address the browser cannot reach.
    expect(await img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth)).toBe(75);
  }
  await shot('row-pictures');
});

test("webhooks: added from the sidebar's Settings, kept by the service", async () => {
  await menu('Settings');
  await sidebar().getByRole('button', { name: 'Manage webhooks' }).click({ timeout: 20_000 });
  await sidebar().locator('input[name=webhookName]').fill('Team chat');
  await sidebar().locator('input[name=webhookUrl]').fill('https://hooks.example.com/playground');
  await sidebar().getByRole('button', { name: 'Add webhook' }).click();
  await sidebar().locator('input[name=secret]').waitFor({ timeout: 20_000 });
  await until(() => sidebar().locator('article.webhook .name').innerText(), 'Team chat');
  await shot('webhooks');
  await sidebar().getByRole('button', { name: 'Done' }).click();
  const res = await fetch(`${serviceUrl}/api/v4/webhooks`, { headers: { authorization: `Bearer ${DEMO_API_KEY}` } });
  expect(JSON.stringify(await res.json())).toContain('https://hooks.example.com/playground');
});

test('"Run the hourly trigger now" runs the installed trigger on the virtual clock', async () => {
  const before = await page.locator('#clock').innerText();
  expect(before).toContain('next hourly trigger');
  await page.click('#run-trigger');
  await until(async () => /: ran$/.test(await page.locator('#status').innerText()), true, 30_000);
  const after = await page.locator('#clock').innerText();
  expect(after).not.toBe(before);
});

test('Save as .xlsx gives the workbook as the runtime holds it (the same saveXlsx as the headless runner)', async () => {
  await page.click('#file-menu-button');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Save as .xlsx' }).click()]);
  expect(download.suggestedFilename()).toBe('supplier-price-list.xlsx');
  const file = `/tmp/playground-saved-${process.pid}.xlsx`;
  await download.saveAs(file);
  const wb = await Workbook.fromXlsx(file);
  expect(wb.sheetNames()).toEqual(expect.arrayContaining(['Price List', 'Scan brand blocklist']));
  expect(wb.cell('Price List', 'I2')).toMatchObject({ formula: '=D2*2', display: '30.36' });
  expect(wb.cell('Price List', 'H2').formula).toBe('=ASIN_FROM_UPC(B2:B4)');
  expect(wb.cell('Scan brand blocklist', 'B2').value).toBe('Playground Test Brand');
  expect(output).not.toContain('page error');
});

test('File > Open a .csv: a new document on it, with the add-on menu and no sidebar open', async () => {
  await page.locator('#file-input').setInputFiles(join(ROOT, 'samples', 'tiny.csv'));
  await until(() => page.locator('#doc-name').innerText(), 'tiny', 20_000);
  await expect(page.locator('#tabs [role=tab]').allInnerTexts()).resolves.toEqual(['tiny']);
  await until(() => cell(1, 'A').innerText(), 'UPC');
  await expect(cell(2, 'B').innerText()).resolves.toBe('Heavy-Duty Crew Socks Black XS');
  await expect(page.locator('#sidebar').isVisible()).resolves.toBe(false);
  await page.click('#ext-menu-button');
  await expect(page.locator('#ext-menu .item').count()).resolves.toBe(MENU_ITEMS.filter((i) => i).length);
  await page.click('#ext-menu-button');
});

test('Ctrl-C stops the server and the local service', async () => {
  child.kill('SIGINT');
  await expect(exited).resolves.toBe(0);
  expect(output).toContain('SIGINT: stopping');
  await expect(fetch(url)).rejects.toThrow();
  await expect(fetch(serviceUrl)).rejects.toThrow();
});
