/**
 * Lists > Selected rows on the REAL add-on (built bundle in the local runtime, local service on the
 * runtime's clock): a result tab's selected rows, an action's preview and Apply from the page, Undo,
 * and text from the sheet never parsed as HTML.
 */
import { api, tab } from '../addon/lists-helpers';
import { screenshot, until } from './harness';
import { useListsSidebar } from './lists-sidebar';

jest.setTimeout(55_000);
const KEY = 'sidebar-rows-key-0123456789';
const BAIT = '<img src=x onerror=alert(1)>';
const env = useListsSidebar(KEY, 'Rows', (wb, rt) => {
  // A result tab as an import leaves it (header by the layout, the tab record by sheet id).
  wb.addSheet('Price list (scan 7)');
  const rows = [
    ['ASIN', 'Title', 'Identifier', 'Brand'],
    ['B000000R01', 'One', '012345678905', BAIT],
    ['B000000R02', 'Two', '012345678912', 'Acme'],
    ['B000000R03', 'Three', '012345678929', ''],
  ];
  rows.forEach((r, i) => r.forEach((v, j) => v !== '' && wb.type('Price list (scan 7)', wb.a1(i + 1, j + 1), v)));
  rt.properties.document!.set(
    'scan.tab.7',
    JSON.stringify({ sheetId: wb.requireSheet('Price list (scan 7)').id, errorsSheetId: null, marketplace: 'US' }),
  );
  const s = wb.requireSheet('Price list (scan 7)');
  wb.activeSheet = s;
  wb.activeRange = { sheet: s, r1: 2, c1: 1, r2: 4, c2: 4 };
});

test('preview, apply and undo an action on the selected rows from the page', async () => {
  const { page } = env.sb;
  const section = page.locator('.rows');
  await section.getByRole('heading', { name: 'Selected rows' }).waitFor();
  await section.getByRole('button', { name: 'Block brand' }).click();
  await until(
    () => section.locator('.small').first().innerText(),
    `Block 2 brands (US): ${BAIT}, Acme. 1 of the 3 selected rows has no brand: skipped. Apply`,
  );
  expect(await page.locator('img').count()).toBe(0);
  expect(env.wb.sheetNames()).toEqual(['Sheet1', 'Price list (scan 7)']);
  await section.getByRole('button', { name: 'Apply' }).click();
  await until(
    () => tab(env.wb, 'Scan brand blocklist').slice(1),
    [
      ['US', BAIT],
      ['US', 'Acme'],
    ],
  );
  const onService = async () =>
    ((await api(env.svc.url, KEY, 'GET', '/api/v3/brand-blocklist?per_page=1000')).data as any[]).map((b) => b.name).sort();
  expect(await onService()).toEqual([BAIT, 'Acme'].sort());
  await until(() => tab(env.wb, 'Price list (scan 7)').map((r) => r[6]), ['List', 'blocked brand', 'blocked brand', '']);
  await screenshot(page, 'rows-applied');

  // an action that asks: the box holds the units
  await section.getByPlaceholder('Units, tags or note').fill('6');
  await section.getByRole('button', { name: 'Set units per order…' }).click();
  await section.getByRole('button', { name: 'Apply' }).click();
  await until(
    () => tab(env.wb, 'Scan multipack').slice(1),
    [
      ['US', 'B000000R01', 6],
      ['US', 'B000000R02', 6],
      ['US', 'B000000R03', 6],
    ],
  );

  await section
    .getByText(/^Block 2 brands/)
    .getByRole('button', { name: 'Undo' })
    .click();
  await until(() => tab(env.wb, 'Scan brand blocklist').slice(1), []);
  expect(await onService()).toEqual([]);
  await until(() => tab(env.wb, 'Price list (scan 7)').map((r) => r[6]), ['List', '', '', '']);
  expect(env.sb.callsOf('undoRowAction').length).toBe(1);
  // the undone action leaves the list; the other one is still offered
  await until(() => section.getByRole('button', { name: 'Undo' }).count(), 1);
  expect(env.sb.errors).toEqual([]);
  const width = await page.evaluate('document.documentElement.scrollWidth');
  expect(width).toBeLessThanOrEqual(300);
});
