/**
 * The Lists view on the REAL add-on (built bundle in the local runtime, local service on the
 * runtime's clock): set up, sync, a conflict side by side resolved from the page, a refused row's
 * link selecting the row, nothing from a sheet ever parsed as HTML.
 */
import { Workbook } from '../../emulator/gas/spreadsheet';
import type { Runtime } from '../../emulator/gas';
import { connect } from '../addon/scanflow-helpers';
import { api, listsRuntime, startClockedService, tab, type ClockedService } from '../addon/lists-helpers';
import { closeBrowser, openSidebar, screenshot, until, type Sidebar } from './harness';

jest.setTimeout(55_000);
const KEY = 'sidebar-lists-key-0123456789';
let svc: ClockedService;
let rt: Runtime;
let wb: Workbook;
let sb: Sidebar;

beforeAll(async () => {
  svc = await startClockedService([KEY]);
  wb = new Workbook({ name: 'Lists' });
  rt = listsRuntime(wb, svc.clock);
  connect(rt, svc.url, KEY);
  sb = await openSidebar((fn, args) => rt.scriptRun(fn, args), { view: 'lists' });
});
afterAll(async () => {
  await sb?.close();
  await closeBrowser();
  rt?.close();
  await svc?.stop();
});

test('set up, sync, resolve a conflict from the page, select a refused row', async () => {
  const { page } = sb;
  await page.getByRole('heading', { level: 2, name: 'Lists' }).waitFor();
  await page.getByRole('button', { name: 'Set up lists' }).click();
  await page.getByText('SCAN_MULTIPACK on Scan multipack').waitFor();

  wb.type('Scan multipack', 'A2', 'US');
  wb.type('Scan multipack', 'B2', 'B00000000S1');
  wb.type('Scan multipack', 'C2', 2);
  const bait = '<img src=x onerror=alert(1)>';
  wb.type('Scan multipack', 'A3', 'US');
  wb.type('Scan multipack', 'B3', bait);
  wb.type('Scan multipack', 'C3', 2);
  await api(svc.url, KEY, 'POST', '/api/v3/multipack-corrections', {
    marketplace_id: 'US',
    corrections: [{ asin: 'B00000000S1', quantity: 5 }],
  });

  await page.getByRole('button', { name: 'Sync now' }).click();
  const card = page.locator('.report[data-list=multipack]');
  await card.locator('.conflict').waitFor();
  await expect(card.locator('.side').allInnerTexts()).resolves.toEqual(['Sheet\n2', 'Service\n5']);
  await until(
    () => card.locator('li').first().innerText(),
    `Row 3 ASIN "${bait}" must be 10 to 25 characters long (it has ${bait.length})`,
  );
  expect(await page.locator('img').count()).toBe(0);
  await screenshot(page, 'lists-conflict');

  await card.getByRole('button', { name: 'Row 3' }).click();
  await until(() => sb.callsOf('selectRow'), [['Scan multipack', 3]]);

  await card.getByRole('button', { name: "Keep the service's", exact: true }).click();
  await until(() => sb.callsOf('resolveConflicts'), [['multipack', ['US\tB00000000S1'], 'service']]);
  await until(() => tab(wb, 'Scan multipack')[1], ['US', 'B00000000S1', 5]);
  await page
    .locator('.lists-status [data-list=multipack]')
    .getByText(/Last sync/)
    .waitFor();
  expect(sb.errors).toEqual([]);
  const width = await page.evaluate('document.documentElement.scrollWidth');
  expect(width).toBeLessThanOrEqual(300);
});

test('the Lists view says when a daily quota of Google stopped the automatic sync and when it resumes', async () => {
  const { page } = sb;
  const at = rt.state.clock.now();
  const until24 = at + 24 * 3600_000;
  rt.properties.user('owner@example.com').set('scan.quotaStop', JSON.stringify({ q: 'urlfetch', at, until: until24 }));
  const hm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
  const day = new Date(until24).toLocaleString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
  await page.getByLabel('Sync automatically every hour').check();
  await page
    .getByText(
      `Automatic sync stopped by Google's daily quota (URL Fetch calls) at ${hm(at)}; it resumes after ${hm(until24)} on ${day}. Nothing was lost: it continues where it stopped.`,
    )
    .waitFor();
  expect(sb.errors).toEqual([]);
});
