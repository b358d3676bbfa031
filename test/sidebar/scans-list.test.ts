/**
 * Scans, issue 27 items 10 and 11: the filters of each card are folded until asked (two cards fit
 * in the frame), Open tab after a filtered import opens the filtered tab, and a refused list call
 * (429) keeps the list shown and says why. Screenshots: /tmp/sidebar-scans-list-*.png.
 */
import { canned, closeBrowser, openSidebar, screenshot, until } from './harness';
import { imported, listPage, progress } from './data';

jest.setTimeout(40_000);
afterAll(closeBrowser);

const done = (id: number, name: string, resultSheet: string | null = null) =>
  progress({ scanId: id, name, status: 'success', done: 36, completedAt: '2026-11-20T10:00:00Z', resultSheet });

test('each card folds its filters until asked: two scans fit in the 900 px frame', async () => {
  const sb = await openSidebar(canned({ listScans: listPage(1, [done(50, 'Newest', 'Newest'), done(49, 'Older')], false) }), {
    view: 'history',
  });
  const { page } = sb;
  const cards = page.locator('article.card');
  await until(() => cards.count(), 2);
  await expect(cards.first().getByLabel('Profit at least').isVisible()).resolves.toBe(false);
  const bottom = await cards.nth(1).evaluate((c) => c.getBoundingClientRect().bottom);
  expect(bottom).toBeLessThan(900);
  await screenshot(page, 'scans-list-folded');
  await cards.first().getByText('Filters and sort').click();
  await expect(cards.first().getByLabel('Profit at least').isVisible()).resolves.toBe(true);
  await expect(cards.nth(1).getByLabel('Profit at least').isVisible()).resolves.toBe(false);
  await sb.close();
});

test('Open tab after a filtered import asks for the filtered tab; after a plain import, the full one', async () => {
  const sb = await openSidebar(
    canned({
      listScans: listPage(1, [done(50, 'Newest', 'Newest')], false),
      importScan: (_id: number, r: { filters: unknown[] }) =>
        imported({ scanId: 50, sheetName: r.filters.length ? 'Newest (filtered)' : 'Newest', errorsSheetName: null }),
      openResultTab: (_id: number, filtered: boolean) => ({ sheetName: filtered ? 'Newest (filtered)' : 'Newest' }),
    }),
    { view: 'history' },
  );
  const { page } = sb;
  const card = page.locator('article.card');
  await card.getByText('Filters and sort').click();
  await card.getByLabel('Profit at least').fill('2');
  await card.getByRole('button', { name: 'Import again' }).click();
  await until(() => card.locator('.import-status').innerText(), '34 rows in tab Newest (filtered).');
  await card.getByRole('button', { name: 'Open tab' }).click();
  await until(() => card.locator('.import-status').innerText(), 'Tab Newest (filtered) is open.');
  await card.getByLabel('Profit at least').fill('');
  await card.getByRole('button', { name: 'Import again' }).click();
  await until(() => card.locator('.import-status').innerText(), '34 rows in tab Newest.');
  await card.getByRole('button', { name: 'Open tab' }).click();
  await until(() => card.locator('.import-status').innerText(), 'Tab Newest is open.');
  expect(sb.callsOf('openResultTab')).toEqual([
    [50, true],
    [50, false],
  ]);
  await sb.close();
});

test('a refused Refresh (429) keeps the scans shown and says why', async () => {
  const busyMessage = 'The Scan Service is busy (too many requests). Wait 30 seconds, then try again.';
  let n = 0;
  const sb = await openSidebar(
    canned({
      listScans: () => {
        if (++n === 2) throw new Error(busyMessage);
        return listPage(1, [done(50, 'Newest'), done(49, 'Older')], false);
      },
    }),
    { view: 'history' },
  );
  const { page } = sb;
  const names = () => page.locator('article.card .name').allInnerTexts();
  await until(names, ['Newest', 'Older']);
  await page.getByRole('button', { name: 'Refresh' }).click();
  await until(() => page.locator('.msg.error .text').innerText(), busyMessage);
  expect(await names()).toEqual(['Newest', 'Older']);
  await screenshot(page, 'scans-list-429');
  await page.getByRole('button', { name: 'Refresh' }).click();
  await until(() => page.locator('.msg').isVisible(), false);
  expect(await names()).toEqual(['Newest', 'Older']);
  await sb.close();
});
