/**
 * The sidebar bridged to the REAL add-on: the page the built bundle's menu action serves (its
 * HtmlService template evaluated by the local runtime), every google.script.run call executed by
 * the local Apps Script runtime against the spawned local Scan Service. One user's path: settings
 * with a wrong then a right key, a new scan of the shipped (messy) sample price list with its preview, progress until done,
 * the import into a tab, and the scan in the history.
 */
import { join } from 'node:path';
import { createRuntime, type Runtime } from '../../emulator/gas';
import type { ImportProgress } from '../../src/app/protocol';
import { spawnService, type SpawnedService } from '../../emulator/service/spawn';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { SAMPLE } from '../addon/scanflow-helpers';
import { closeAll, DIST, openSidebar, screenshot, until, type Sidebar } from './harness';
import { SETTINGS_KEY } from '../../src/store/keys';

jest.setTimeout(55_000);

const GOOD = 'sidebar-good-key-0123456789abcdef';
const OWNER = 'owner@example.com';
let svc: SpawnedService;
let rt: Runtime;
let wb: Workbook;
let sb: Sidebar;

beforeAll(async () => {
  svc = await spawnService({ SCAN_SERVICE_API_KEYS: GOOD, SCAN_SERVICE_SPEED: '60000' });
  wb = await Workbook.fromXlsx(SAMPLE, { owner: OWNER });
  rt = createRuntime({ scriptPath: join(DIST, 'Code.js'), workbook: wb, owner: OWNER, urlFetchTimeoutMs: 10_000 });
  // What Extensions > Settings shows: the runtime evaluates the built template.
  rt.run('menuSettings');
  const shown = rt.uiEvents.filter((e: { kind: string }) => e.kind === 'sidebar') as Array<{ kind: 'sidebar'; html: string }>;
  expect(shown).toHaveLength(1);
  sb = await openSidebar((fn, args) => rt.scriptRun(fn, args), { html: shown[0].html, clock: true });
});
afterAll(() => closeAll(sb, rt, svc));

test("with no key saved: the menu opens Settings, and the Scans tab comes back to Settings with the server's message", async () => {
  rt.run('menuScanHistory');
  const pages = rt.uiEvents.filter((e: { kind: string }) => e.kind === 'sidebar') as Array<{ kind: 'sidebar'; html: string }>;
  const history = await openSidebar((fn, args) => rt.scriptRun(fn, args), { html: pages[pages.length - 1].html });
  const { page } = history;
  await page.locator('[data-role=masked-key]').waitFor({ timeout: 20_000 });
  await expect(page.locator('nav [aria-current=true]').getAttribute('data-view')).resolves.toBe('settings');
  await page.getByRole('button', { name: 'Scans' }).click();
  await until(() => history.calls.filter((c) => c.fn === 'listScans' && c.error).length, 1, 20_000);
  await until(() => page.locator('nav [aria-current=true]').getAttribute('data-view'), 'settings');
  await until(
    () => page.locator('.msg.error .text').innerText(),
    history.calls.find((c) => c.fn === 'listScans')!.error!.replace('[open-settings] ', ''),
  );
  await expect(page.locator('.msg.error .text').innerText()).resolves.toMatch(/^No API key is saved yet\./);
  await history.close();
});

test("Extensions > Help: the Help view shows the built add-on's getHelp words, with no key saved", async () => {
  rt.run('menuHelp');
  const pages = rt.uiEvents.filter((e: { kind: string }) => e.kind === 'sidebar') as Array<{ kind: 'sidebar'; html: string }>;
  const help = await openSidebar((fn, args) => rt.scriptRun(fn, args), { html: pages[pages.length - 1].html });
  const { page } = help;
  await page.locator('dl.help dd').first().waitFor({ timeout: 20_000 });
  const steps = (rt.scriptRun('getHelp') as { steps: Array<{ title: string; text: string }> }).steps;
  expect(steps.length).toBeGreaterThan(0);
  await expect(page.locator('dl.help dt').allInnerTexts()).resolves.toEqual(steps.map((x) => x.title));
  await expect(page.locator('dl.help dd').allInnerTexts()).resolves.toEqual(steps.map((x) => x.text));
  expect(help.errors).toEqual([]);
  await help.close();
});

test('settings: a refused key says so; the right key is saved, shown masked and connects', async () => {
  const { page } = sb;
  await page.getByRole('heading', { level: 2, name: 'Settings' }).waitFor();
  await until(() => page.locator('[data-role=masked-key]').innerText(), 'No key saved yet.');
  await page.fill('input[name=apiKey]', 'wrong-key-00000000000');
  await page.fill('input[name=serviceUrl]', svc.url);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await until(() => page.locator('.result .error').getAttribute('data-problem'), 'bad-key', 20_000);
  await expect(page.locator('.result .error').innerText()).resolves.toMatch(/refused the API key \(401\)/);
  await page.fill('input[name=apiKey]', GOOD);
  await page.getByRole('button', { name: 'Save' }).click();
  await until(() => page.locator('[data-role=masked-key]').innerText(), 'Saved key: ••••••••' + GOOD.slice(-4));
  await page.getByRole('button', { name: 'Test connection' }).click();
  await until(
    () => page.locator('.result .ok').innerText(),
    `Connected to ${svc.url}: the key works and has access to United States (US).`,
    20_000,
  );
  expect(await page.content()).not.toContain(GOOD);
  expect(rt.properties.user(OWNER).toObject()[SETTINGS_KEY]).toContain(GOOD);
});

test("new scan: the sheet's columns with samples, a preview naming sheet rows, Send, progress to done and the import into a tab", async () => {
  const { page } = sb;
  await page.getByRole('button', { name: 'New scan' }).click();
  await page.locator('select[name=role-4]').waitFor({ timeout: 20_000 });
  const heads = await page.locator('.col-head .header').allInnerTexts();
  expect(heads).toEqual(['Item Code', 'UPC', 'Description', 'Unit Cost', 'MSRP/MAP', 'Qty Avail', 'Case Pack']);
  const roles = await page.locator('.column select').evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value));
  expect(roles).toEqual(['sku', 'identifier', 'custom', 'cost', 'map', 'stock', 'custom']);
  // The sample as the sheet shows it (this UPC was typed as a number and lost its leading zeros).
  await expect(page.locator('.column').nth(1).locator('.sample').innerText()).resolves.toMatch(/^e\.g\. \d{10,13}$/);
  await page.fill('input[name=name]', 'Sidebar run');
  await page.getByRole('button', { name: 'Preview' }).click();
  await page.locator('.preview .counts').waitFor({ timeout: 20_000 });
  // Messy rows of samples/README.md, by their sheet rows: digits lost (23), blank (67), no identifier (89), unusable cost (100).
  const skippedRows = await page
    .locator('.preview details', { hasText: 'Skipped rows' })
    .locator('li[data-row]')
    .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-row'))));
  expect(skippedRows).toEqual(expect.arrayContaining([23, 67, 89, 100]));
  await expect(page.locator('.preview .counts').innerText()).resolves.toMatch(/^300 data rows: \d+ to send, \d+ skipped/);
  await screenshot(page, 'runtime-preview');

  await page.getByRole('button', { name: 'Send' }).click();
  const card = page.locator('article.card', { hasText: 'Sidebar run' });
  await card.waitFor({ timeout: 20_000 });
  // The open sidebar polls; each tick of the page's clock is one getScanProgress in the runtime.
  const finalImport = () => sb.calls.find((c) => c.fn === 'importScan' && (c.result as ImportProgress | undefined)?.done);
  const settled = async () => !!finalImport() || (await card.locator('.badge').innerText()) === 'Failed';
  for (let i = 0; i < 30 && !(await settled()); i++) {
    await page.clock.runFor(4000);
    await new Promise((r) => setTimeout(r, 300));
  }
  await expect(card.locator('.badge').innerText()).resolves.toBe('Done');
  expect(sb.callsOf('getScanProgress').length).toBeGreaterThanOrEqual(1);
  const done = finalImport()!.result as ImportProgress;
  expect(done.rowsWritten).toBeGreaterThan(0);
  // What the server said is what the user reads; the tab it names holds that many rows below its header.
  await until(() => card.locator('.import-status').innerText(), done.message || `${done.rowsWritten} rows in tab ${done.sheetName}.`);
  expect(wb.sheetNames()).toContain(done.sheetName);
  expect(wb.requireSheet(done.sheetName).lastRow() - 1).toBe(done.rowsWritten);
  await screenshot(page, 'runtime-imported');
});

test('history lists the scan as done with its counts and downloads it to Drive', async () => {
  const { page } = sb;
  await page.getByRole('button', { name: 'Scans' }).click();
  const card = page.locator('article.card', { hasText: 'Sidebar run' });
  await card.waitFor({ timeout: 20_000 });
  await expect(card.locator('.badge').innerText()).resolves.toBe('Done');
  await expect(card.innerText()).resolves.toMatch(/\d+ rows · \d+ products · \d+ errors?/);
  await expect(card.locator('.import-status').innerText()).resolves.toBe('Results are in tab Sidebar run.');
  // Download as CSV to Drive: the link the runtime's DriveApp gave.
  await card.getByRole('button', { name: 'Download' }).click();
  await card.locator('.action-result a').waitFor({ timeout: 20_000 });
  await expect(card.locator('.action-result a').getAttribute('href')).resolves.toMatch(/^https:\/\//);
  await expect(card.locator('.action-result a').innerText()).resolves.toMatch(/\.csv$/);
  await screenshot(page, 'runtime-history');
  expect(sb.errors).toEqual([]);
  expect(sb.dialogs).toEqual([]);
});
