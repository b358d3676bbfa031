/**
 * Lists > Selected rows on the REAL add-on (built bundle in the local runtime, local service: the
 * list areas on the runtime's clock, scans in real time behind them): a result tab made by a
 * seller's New scan and its import with defaults, its selected rows, an action's preview and Apply
 * from the page, Undo, and text from the sheet never parsed as HTML.
 */
import { catalogWithBrands, startImportService, startSheetScan, waitFinished } from '../addon/import-helpers';
import { api, tab } from '../addon/lists-helpers';
import { screenshot, until } from './harness';
import { useListsSidebar } from './lists-sidebar';

jest.setTimeout(55_000);
const KEY = 'sidebar-rows-key-0123456789';
const BAIT = '<img src=x onerror=alert(1)>';
/** The supplier's products as the service's catalog sells them: under the hostile brand, under Acme, under none. */
const BRANDS = [BAIT, 'Acme', null];
/** What the import made: its result tab, and every tab the document has then. */
const imported = { sheet: '', tabs: [] as string[] };

const env = useListsSidebar(
  KEY,
  'Rows',
  async (wb, rt) => {
    // A seller's New scan of their supplier tab, then the import of its result (entry points, defaults).
    const scanId = startSheetScan(rt, wb, 'Sheet1', BRANDS.length, 'Price list');
    await waitFinished(env.scans!, scanId);
    let p: any;
    do p = rt.scriptRun('importScan', [scanId, null]);
    while (!p.done);
    imported.sheet = p.sheetName;
    imported.tabs = wb.sheetNames();
    // Every product row of the result tab selected, all its columns.
    const s = wb.requireSheet(imported.sheet);
    wb.activeSheet = s;
    wb.activeRange = { sheet: s, r1: 2, c1: 1, r2: tab(wb, imported.sheet).length, c2: s.lastColumn() };
  },
  () => startImportService({ SCAN_SERVICE_CATALOG: catalogWithBrands(BRANDS), SCAN_SERVICE_API_KEYS: KEY }),
);

/** A column of the result tab by its header (the last of that name: the add-on's mark columns come last), header included. */
const column = (name: string) => {
  const v = tab(env.wb, imported.sheet);
  const j = (v[0] as string[]).lastIndexOf(name);
  if (j < 0) throw new Error(`no column "${name}" on ${imported.sheet}`);
  return v.map((r) => r[j]);
};

test('preview, apply and undo an action on the selected rows from the page', async () => {
  const { page } = env.sb;
  // The premise: the import's rows carry the catalog's brands (one row none), in the tab's order.
  const asins = column('ASIN').slice(1) as string[];
  const brands = column('Brand').slice(1) as string[];
  expect([...brands].sort()).toEqual([BAIT, 'Acme', ''].sort());
  const branded = brands.filter((b) => b !== '');

  const section = page.locator('.rows');
  await section.getByRole('heading', { name: 'Selected rows' }).waitFor();
  await section.getByRole('button', { name: 'Block brand' }).click();
  await until(
    () => section.locator('.small').first().innerText(),
    `Block 2 brands (US): ${branded.join(', ')}. 1 of the 3 selected rows has no brand: skipped. Apply`,
  );
  expect(await page.locator('img').count()).toBe(0);
  // The preview makes no tab: the document has the tabs the import left, no list tab yet.
  expect(imported.tabs).toContain(imported.sheet);
  expect(env.wb.sheetNames()).toEqual(imported.tabs);
  await section.getByRole('button', { name: 'Apply' }).click();
  await until(
    () => tab(env.wb, 'Scan brand blocklist').slice(1),
    branded.map((b) => ['US', b]),
  );
  const onService = async () =>
    ((await api(env.svc.url, KEY, 'GET', '/api/v3/brand-blocklist?per_page=1000')).data as any[]).map((b) => b.name).sort();
  expect(await onService()).toEqual([BAIT, 'Acme'].sort());
  await until(() => column('List'), ['List', ...brands.map((b) => (b ? 'blocked brand' : ''))]);
  await screenshot(page, 'rows-applied');

  // an action that asks: the box holds the units
  await section.getByPlaceholder('Units, tags or note').fill('6');
  await section.getByRole('button', { name: 'Set units per order…' }).click();
  await section.getByRole('button', { name: 'Apply' }).click();
  await until(
    () => tab(env.wb, 'Scan multipack').slice(1),
    asins.map((a) => ['US', a, 6]),
  );

  await section
    .getByText(/^Block 2 brands/)
    .getByRole('button', { name: 'Undo' })
    .click();
  await until(() => tab(env.wb, 'Scan brand blocklist').slice(1), []);
  expect(await onService()).toEqual([]);
  await until(() => column('List'), ['List', ...asins.map(() => '')]);
  expect(env.sb.callsOf('undoRowAction').length).toBe(1);
  // the undone action leaves the list; the other one is still offered
  await until(() => section.getByRole('button', { name: 'Undo' }).count(), 1);
  expect(env.sb.errors).toEqual([]);
  const width = await page.evaluate('document.documentElement.scrollWidth');
  expect(width).toBeLessThanOrEqual(300);
});
