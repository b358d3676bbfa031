/**
 * The sidebar page as built: it opens on the view the menu asked for, every view renders from the
 * server's data, the tabs switch views, and the page is small and never builds HTML from text.
 * Screenshots of each view go to /tmp/sidebar-<view>.png (layout at 300 px).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canned, closeBrowser, DIST, openSidebar, screenshot } from './harness';
import { listPage, progress, setup, settings } from './data';
import { getHelp } from '../../src/app/help/help';
import { newScanHelp } from '../../src/app/scan/help';
import { settingsHelp } from '../../src/app/settings/help';

jest.setTimeout(30_000);
afterAll(closeBrowser);

const server = () =>
  canned({
    getSettings: settings(),
    getScanSetup: setup({ running: [progress()] }),
    getRunningScans: [progress()],
    getDueScans: [],
    getScanProgress: progress(),
    getHelp: getHelp(),
    listScans: listPage(
      1,
      [
        progress({
          scanId: 40,
          name: 'Monday list',
          status: 'success',
          done: 36,
          resultSheet: 'Monday list',
          completedAt: '2026-11-20T10:00:00Z',
        }),
        progress(),
      ],
      true,
    ),
  });

describe('the built page', () => {
  const html = readFileSync(join(DIST, 'Sidebar.html'), 'utf8');
  const script = /<script>([\s\S]*)<\/script>/.exec(html)![1];
  test('builds no HTML from strings: no innerHTML, outerHTML, insertAdjacentHTML or document.write in its script', () => {
    expect(script).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
  });
});

describe('views', () => {
  test.each([
    // Every view also asks once for the permissions the seller did not give (getConsent, granular consent).
    ['scan', 'New scan', ['getConsent', 'getDueScans', 'getRunningScans', 'getScanSetup']],
    ['history', 'Scans', ['getConsent', 'getDueScans', 'listScans']],
    ['convert', 'Convert a column', ['getConsent', 'getSettings']],
    ['settings', 'Settings', ['getConsent', 'getSettings']],
    ['help', 'Help', ['getConsent', 'getHelp']],
  ])('opens on the "%s" view the template names, with its data', async (view, title, fns) => {
    const sb = await openSidebar(server(), { view });
    const { page } = sb;
    await page.getByRole('heading', { level: 2, name: title }).waitFor();
    await expect(page.locator('nav [aria-current=true]').getAttribute('data-view')).resolves.toBe(view);
    if (view === 'scan') await page.locator('select[name=role-0]').waitFor();
    if (view === 'history') await page.locator('article.card').nth(1).waitFor();
    if (view === 'settings') await page.locator('[data-role=masked-key]').waitFor();
    if (view === 'help') await page.locator('dl.help dd').first().waitFor();
    await page.waitForLoadState('networkidle');
    expect([...new Set(sb.calls.map((c) => c.fn))].sort()).toEqual([...fns].sort());
    await screenshot(page, view);
    // 300 px wide: nothing wider than the sidebar.
    const width = await page.evaluate('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(300);
    expect(sb.errors).toEqual([]);
    await sb.close();
  });

  // The words that only explain come with the views' data (they cost the page nothing): the seller reads the same words.
  test("Help, the New scan hints and the Settings explanations show the words of the server's answers", async () => {
    const sb = await openSidebar(
      canned({
        getHelp: getHelp(),
        getSettings: settings({ hasApiKey: false, apiKeyMasked: '' }),
        getScanSetup: setup(),
        getRunningScans: [],
      }),
      { view: 'help' },
    );
    const { page } = sb;
    await page.locator('dl.help dd').first().waitFor();
    const steps = getHelp().steps;
    await expect(page.locator('dl.help dt').allInnerTexts()).resolves.toEqual(steps.map((x) => x.title));
    await expect(page.locator('dl.help dd').allInnerTexts()).resolves.toEqual(steps.map((x) => x.text));
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.locator('[data-role=masked-key]').waitFor();
    const sh = settingsHelp();
    await expect(page.locator('.view p.small').first().innerText()).resolves.toBe(sh.about);
    const settingsHints = await page.locator('.view .hint').allInnerTexts();
    expect(settingsHints).toEqual(expect.arrayContaining([sh.formulasNeedKey, sh.webhooks]));
    await page.getByRole('button', { name: 'New scan' }).click();
    await page.locator('select[name=role-0]').waitFor();
    const nh = newScanHelp();
    const scanHints = await page.locator('.view .hint').allInnerTexts();
    expect(scanHints).toEqual(
      expect.arrayContaining([
        nh.headerRow,
        nh.supplierDiscount,
        nh.prepCost,
        nh.multipackPrepCost,
        nh.multipackOverride,
        nh.pullHistoricalData,
        nh.pictures,
        nh.allColumns,
      ]),
    );
    expect(sb.errors).toEqual([]);
    await sb.close();
  });

  test('an unknown or unevaluated initial view falls back to New scan', async () => {
    const sb = await openSidebar(server(), { view: '<?= initialView ?>' });
    await sb.page.getByRole('heading', { level: 2, name: 'New scan' }).waitFor();
    await sb.close();
  });

  test('the tabs switch views and load each from the server again', async () => {
    const sb = await openSidebar(server(), { view: 'help' });
    const { page } = sb;
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.locator('[data-role=masked-key]').waitFor();
    await page.getByRole('button', { name: 'Scans' }).click();
    await page.getByRole('heading', { level: 2, name: 'Scans' }).waitFor();
    await page.locator('article.card').first().waitFor();
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.locator('[data-role=masked-key]').waitFor();
    expect(sb.callsOf('getSettings')).toHaveLength(2);
    expect(sb.callsOf('listScans')).toEqual([[1]]);
    await sb.close();
  });
});
