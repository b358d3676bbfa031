/**
 * The listing's screenshots, 1280 x 800, taken from the playground (`npm run playground`, the built
 * add-on in the local Apps Script runtime with the local Scan Service) by driving it as a seller
 * would: the sample price list scanned from the sidebar, the result tab, the scan's Overview tab,
 * the lists synced, and a purchase order. The playground runs as a child process, as people run it:
 * an add-on dialog blocks its thread until answered in the page.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type Seller, withPlayground } from '../playground/drive';
import { SCREENSHOT } from './requirements';

export const SHOTS = ['1-scan-journey.png', '2-result-tab.png', '3-overview.png', '4-lists.png', '5-purchase-order.png'] as const;

/** Takes the screenshots into `dir` (emptied first); returns their file names. */
export async function takeScreenshots(dir: string): Promise<string[]> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  await withPlayground({ width: SCREENSHOT.width, height: SCREENSHOT.height }, (s) =>
    journey(s, async (name) => {
      await s.picturesLoaded();
      await s.page.screenshot({ path: join(dir, name) });
    }),
  );
  return [...SHOTS];
}

/** The seller's steps, `shot` taken at each of SHOTS (exported for its test). */
export async function journey(s: Seller, shot: (name: (typeof SHOTS)[number]) => Promise<void>): Promise<void> {
  const { page, cell, sidebar, menu, select } = s;
  await s.open();
  // 1. The scan journey: a block selected, the sidebar's New scan with its preview.
  // A prep cost: a result tab made without one has no Prep column, and the purchase order refuses
  // such a tab ("lacks the column Prep"; reported, src/app/buy/plan.ts is not this tool's).
  await s.previewScan('0.50');
  await shot('1-scan-journey.png');
  // 2. The result tab the import writes, beside the finished scan.
  const resultTab = await s.sendScan();
  await shot('2-result-tab.png');
  // 3. The scan's Overview tab, made at import, full width.
  await s.closeSidebar();
  await s.openOverview(resultTab);
  await shot('3-overview.png');
  // 4. Lists set up and synced with the account.
  await menu('Scan this sheet');
  await sidebar().getByRole('heading', { level: 2, name: 'New scan' }).waitFor({ timeout: 30_000 });
  await sidebar().getByRole('button', { name: 'Lists', exact: true }).click();
  await sidebar().getByRole('button', { name: 'Set up lists' }).click();
  await page.getByRole('tab', { name: 'Scan brand blocklist', exact: true }).waitFor({ timeout: 30_000 });
  await sidebar().getByRole('button', { name: 'Sync now' }).click();
  await sidebar().getByText('Lists synced.').waitFor({ timeout: 60_000 });
  await sidebar().locator('.lists-status [data-list=brands]').waitFor();
  await shot('4-lists.png');
  // 5. A purchase order from rows of the result tab.
  await page.click('#sidebar-close');
  await page.getByRole('tab', { name: resultTab, exact: true }).click();
  await cell(1, 'A').getByText('ASIN', { exact: true }).waitFor({ timeout: 20_000 });
  await select([2, 'A'], [12, 'A']);
  await menu('Purchase order from selected rows');
  await page.getByRole('dialog').waitFor({ timeout: 30_000 });
  await page.locator('#dialog-buttons button').first().click();
  await page.locator('#tabs [aria-selected=true]', { hasText: /– PO/ }).waitFor({ timeout: 30_000 });
  await cell(1, 'A').waitFor();
  await shot('5-purchase-order.png');
}
