/**
 * The Lists view on the REAL add-on (built bundle in the local runtime, local service on the
 * runtime's clock): set up, sync, a conflict side by side resolved from the page, a refused row's
 * link selecting the row, nothing from a sheet ever parsed as HTML.
 */
import { api, tab } from '../addon/lists-helpers';
import { screenshot, until } from './harness';
import { useListsSidebar } from './lists-sidebar';
import { plantQuotaStop } from '../../src/store/fixtures';

jest.setTimeout(55_000);
const KEY = 'sidebar-lists-key-0123456789';
const env = useListsSidebar(KEY, 'Lists');

test('set up, sync, resolve a conflict from the page, select a refused row', async () => {
  const { page } = env.sb;
  await page.getByRole('heading', { level: 2, name: 'Lists' }).waitFor();
  await page.getByRole('button', { name: 'Set up lists' }).click();
  await page.getByText('In the tab Scan multipack (named range SCAN_MULTIPACK)').waitFor();

  env.wb.type('Scan multipack', 'A2', 'US');
  env.wb.type('Scan multipack', 'B2', 'B00000000S1');
  env.wb.type('Scan multipack', 'C2', 2);
  const bait = '<img src=x onerror=alert(1)>';
  env.wb.type('Scan multipack', 'A3', 'US');
  env.wb.type('Scan multipack', 'B3', bait);
  env.wb.type('Scan multipack', 'C3', 2);
  await api(env.svc.url, KEY, 'POST', '/api/v3/multipack-corrections', {
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
  await until(() => env.sb.callsOf('selectRow'), [['Scan multipack', 3]]);

  await card.getByRole('button', { name: "Keep the service's", exact: true }).click();
  await until(() => env.sb.callsOf('resolveConflicts'), [['multipack', ['US\tB00000000S1'], 'service']]);
  await until(() => tab(env.wb, 'Scan multipack')[1], ['US', 'B00000000S1', 5]);
  await page
    .locator('.lists-status [data-list=multipack]')
    .getByText(/Last sync/)
    .waitFor();
  expect(env.sb.errors).toEqual([]);
  const width = await page.evaluate('document.documentElement.scrollWidth');
  expect(width).toBeLessThanOrEqual(300);
});

test('the Lists view says when a daily quota of Google stopped the automatic sync and when it resumes', async () => {
  const { page } = env.sb;
  const at = env.rt.state.clock.now();
  const until24 = at + 24 * 3600_000;
  // A quota stop planted (src/store/fixtures.ts): the trigger that records one is tested in test/addon/lists-quota.test.ts.
  env.rt.properties.user('owner@example.com').set(...plantQuotaStop({ q: 'urlfetch', at, until: until24 }));
  const hm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
  const day = new Date(until24).toLocaleString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
  await page.getByLabel('Sync automatically every hour').check();
  await page
    .getByText(
      `Automatic sync stopped by Google's daily quota (URL Fetch calls) at ${hm(at)}; it resumes after ${hm(until24)} on ${day}. Nothing was lost: it continues where it stopped.`,
    )
    .waitFor();
  expect(env.sb.errors).toEqual([]);
});
