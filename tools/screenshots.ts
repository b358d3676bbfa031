/**
 * `npm run screenshots [-- --out DIR]`: the README's pictures, taken from the playground at desktop
 * size (1440 x 900) after a default scan of the shipped sample, driven through the page as a seller
 * would (tools/playground/drive.ts, shared with the listing's screenshots): the result tab, its
 * Overview tab, and a row action (Confirm match, a listing match) in the sidebar. Needs nothing
 * running: it builds nothing itself (the npm script builds first), starts the playground and its
 * local Scan Service, and stops them.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Seller, withPlayground } from './playground/drive';

export const README_SHOTS = ['result-tab.png', 'overview.png', 'row-action.png'] as const;
export const DESKTOP = { width: 1440, height: 900 };
export const DEFAULT_DIR = join(__dirname, '..', 'docs', 'images');

/** Takes the README's screenshots into `dir` (made if missing; the three files replaced); returns their paths. */
export async function takeReadmeScreenshots(dir = DEFAULT_DIR): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const path = (name: (typeof README_SHOTS)[number]) => join(dir, name);
  await withPlayground(DESKTOP, (s) =>
    journey(s, async (name) => {
      await s.picturesLoaded();
      await s.page.screenshot({ path: path(name) });
    }),
  );
  return README_SHOTS.map(path);
}

async function journey(s: Seller, shot: (name: (typeof README_SHOTS)[number]) => Promise<void>): Promise<void> {
  const { page, cell, sidebar, menu, select } = s;
  await s.open();
  // A default scan: the sample's block, New scan's defaults (no prep cost given).
  await s.previewScan('');
  const resultTab = await s.sendScan();
  // 1. The result tab, the sidebar saying what was imported and where.
  await shot('result-tab.png');
  // 2. The scan's overview, full width.
  await s.closeSidebar();
  await s.openOverview(resultTab);
  await shot('overview.png');
  // 3. A row action: three rows of the result tab selected, Lists > Selected rows > Confirm match.
  await page.getByRole('tab', { name: resultTab, exact: true }).click();
  await cell(1, 'A').getByText('ASIN', { exact: true }).waitFor({ timeout: 20_000 });
  await select([2, 'A'], [4, 'A']);
  await menu('Scan this sheet');
  await sidebar().getByRole('heading', { level: 2, name: 'New scan' }).waitFor({ timeout: 30_000 });
  await sidebar().getByRole('button', { name: 'Lists', exact: true }).click();
  await sidebar().getByRole('button', { name: 'Confirm match' }).click();
  const apply = sidebar().locator('.rows').getByRole('button', { name: 'Apply' });
  await apply.waitFor({ timeout: 30_000 });
  // The sidebar scrolled to the question, its Apply button and the rows' pictures (the last of them
  // in view), as a seller's would be to check the matches before applying.
  await apply.scrollIntoViewIfNeeded();
  await sidebar().locator('.rows img.picture').last().scrollIntoViewIfNeeded();
  await shot('row-action.png');
}

if (require.main === module) {
  const at = process.argv.indexOf('--out');
  const dir = at > 0 ? process.argv[at + 1] : DEFAULT_DIR;
  const t = Date.now();
  takeReadmeScreenshots(dir).then(
    (files) => console.log(`${files.join('\n')}\nscreenshots taken in ${((Date.now() - t) / 1000).toFixed(1)} s`),
    (e) => {
      console.error(e instanceof Error ? e.message : e);
      process.exitCode = 1;
    },
  );
}
