/**
 * Compare with an earlier scan (issue 23) in the Scans view: one "Compare…" button on a scan with a
 * result tab, the previous scan of the same list chosen first, the compare repeated until done and
 * its summary line on the card; the view passes axe-core WCAG 2.1 AA. Screenshot: /tmp/sidebar-compare.png.
 */
import { readFileSync } from 'node:fs';
import { canned, closeBrowser, openSidebar, screenshot, until } from './harness';
import { listPage, progress } from './data';

jest.setTimeout(40_000);
afterAll(closeBrowser);

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const scan = (id: number, name: string, resultSheet: string | null) =>
  progress({ scanId: id, name, status: 'success', done: 36, products: 34, errors: 2, completedAt: '2026-11-20T10:00:00Z', resultSheet });

test('Compare… offers the previous scan of the same list first, continues until done and shows the summary line', async () => {
  let step = 0;
  const sb = await openSidebar(
    canned({
      listScans: listPage(1, [scan(52, 'Acme 2026-11-09', 'Acme 2026-11-09'), scan(51, 'Other 2026-11-05', null)], false),
      compareChoices: {
        suggested: 50,
        scans: [
          { scanId: 50, name: 'Acme 2026-11-02', sameSupplier: true },
          { scanId: 51, name: 'Other 2026-11-05', sameSupplier: false },
        ],
        none: '',
      },
      compareScans: () =>
        ++step < 2
          ? { done: false, message: 'Read 100 of 200 products from the Scan Service; continuing…', summary: null, sheetName: null }
          : {
              done: true,
              message: 'done',
              sheetName: 'Acme 2026-11-09 – Changes',
              summary: '12 newly profitable, 3 lost the Buy Box · 900 unchanged',
            },
    }),
    { view: 'history' },
  );
  const { page } = sb;
  const card = page.locator('article.card', { hasText: 'Acme 2026-11-09' });
  // Only a scan with a result tab here offers it.
  await expect(page.locator('article.card').nth(1).getByRole('button', { name: 'Compare…' }).isVisible()).resolves.toBe(false);
  await card.getByRole('button', { name: 'Compare…' }).click();
  const pick = card.getByRole('combobox', { name: 'Compare with' });
  await until(() => pick.inputValue(), '50');
  await expect(pick.locator('option').allInnerTexts()).resolves.toEqual(['Acme 2026-11-02 (same list)', 'Other 2026-11-05']);
  await card.getByRole('button', { name: 'Compare', exact: true }).click();
  await until(
    () => card.locator('.import-status').innerText(),
    'Tab Acme 2026-11-09 – Changes: 12 newly profitable, 3 lost the Buy Box · 900 unchanged',
  );
  expect(sb.callsOf('compareChoices')).toEqual([[52]]);
  expect(sb.callsOf('compareScans')).toEqual([
    [52, 50],
    [52, 50],
  ]);
  await screenshot(page, 'compare');
  await page.addScriptTag({ content: AXE });
  const found = (await page.evaluate(
    `axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }).then((r) => r.violations.map((v) => v.id))`,
  )) as string[];
  expect(found).toEqual([]);
  await sb.close();
});
