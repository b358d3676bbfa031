/**
 * The Marketplace listing's screenshot steps (tools/listing/screenshots.ts), driven through the
 * playground as `npm run listing` drives them, with what each picture would show read from the page
 * instead of a PNG (the lead regenerates the listing itself): the third picture, 3-overview.png, is
 * the scan's Overview tab, not the result tab.
 */
import { journey, SHOTS } from '../../tools/listing/screenshots';
import { SCREENSHOT } from '../../tools/listing/requirements';
import { withPlayground } from '../../tools/playground/drive';

jest.setTimeout(240_000);

test('each listing picture shows its tab: the result tab, then its Overview, lists, a purchase order', async () => {
  const seen: Record<string, { tab: string; a1: string }> = {};
  await withPlayground({ width: SCREENSHOT.width, height: SCREENSHOT.height }, (s) =>
    journey(s, async (name) => {
      await s.picturesLoaded();
      seen[name] = { tab: await s.page.locator('#tabs [aria-selected=true]').innerText(), a1: await s.cell(1, 'A').innerText() };
    }),
  );
  expect(Object.keys(seen)).toEqual([...SHOTS]);
  const resultTab = seen['2-result-tab.png'].tab;
  expect(resultTab).toMatch(/^Price List \d{4}-\d\d-\d\d$/);
  expect(seen['2-result-tab.png'].a1).toBe('ASIN');
  // The overview's tab name may be shortened to fit a saved .xlsx; its title names the result tab.
  expect(seen['3-overview.png'].tab).toMatch(/ – Overview$/);
  expect(seen['3-overview.png'].a1).toBe(`Overview of ${resultTab}`);
  expect(seen['5-purchase-order.png'].tab).toMatch(/– PO/);
});
