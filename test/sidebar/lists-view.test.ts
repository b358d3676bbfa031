/**
 * Lists with canned server answers (issue 27 items 7 and 8): row actions go through the busy state
 * (a double click on Apply applies once; a new step takes the previous error away), a row action
 * refreshes the lists' status, and the entries a sync would change or delete are named.
 * Screenshots: /tmp/sidebar-lists-view-*.png.
 */
import type { ListsStatus, RowActionPreview, RowActionsView, SyncReport } from '../../src/app/protocol';
import { canned, closeBrowser, openSidebar, screenshot, until } from './harness';

jest.setTimeout(40_000);
afterAll(closeBrowser);

const status = (count: number | null, sheetName: string | null): ListsStatus => ({
  lists: [
    {
      list: 'brands',
      title: 'Brand blocklist',
      rangeName: 'SCAN_BRAND_BLOCKLIST',
      sheetName,
      count,
      lastSync: null,
      lastResult: count === null ? 'not synced yet with this account' : 'Row action: Block 2 brands (US): Acme, Zed.',
      state: null,
    },
  ],
  autoSync: false,
  unfinished: false,
  notice: null,
});
const rows: RowActionsView = { actions: [{ id: 'blockBrands', label: 'Block brand' }], hint: 'Units, tags or note', recent: [] };
const preview: RowActionPreview = {
  action: 'blockBrands',
  list: 'brands',
  summary: 'Block 2 brands (US): Acme, Zed',
  skipped: [],
  count: 2,
  selected: 2,
  sheetName: 'Price list',
  message: 'Block 2 brands (US): Acme, Zed.',
};

test('row actions: a new step takes the previous error away; a double click on Apply applies once; the status is read again after', async () => {
  let previews = 0;
  let applied = false;
  const sb = await openSidebar(
    canned({
      getListsStatus: () => (applied ? status(2, 'Scan brand blocklist') : status(null, null)),
      listRowActions: rows,
      previewRowAction: () => {
        if (++previews === 1) throw new Error('Select rows of a result tab first.');
        return preview;
      },
      applyRowAction: () => {
        applied = true;
        return { ...preview, id: 'a1', marked: 2, message: 'Blocked 2 brands (US): Acme, Zed.' };
      },
    }),
    { view: 'lists' },
  );
  const { page } = sb;
  const section = page.locator('.rows');
  // Plain words on the card, not the named range's name (issue 32).
  await until(() => page.locator('.lists-status [data-list=brands] .small.muted').innerText(), 'Not set up yet: press Set up lists');
  await section.getByRole('button', { name: 'Block brand' }).click();
  await until(() => page.locator('.msg.error .text').innerText(), 'Select rows of a result tab first.');
  await section.getByRole('button', { name: 'Block brand' }).click();
  await until(() => section.locator('.small').first().innerText(), 'Block 2 brands (US): Acme, Zed. Apply');
  // The error of the earlier try is gone next to a good preview.
  await expect(page.locator('.msg').isVisible()).resolves.toBe(false);
  await section.getByRole('button', { name: 'Apply' }).dblclick();
  await until(() => page.locator('.msg.ok .text').innerText(), 'Blocked 2 brands (US): Acme, Zed.');
  expect(sb.callsOf('applyRowAction')).toHaveLength(1);
  // The lists' status is read again: the list now has its tab and its entries.
  await until(
    () => page.locator('.lists-status [data-list=brands] .small.muted').innerText(),
    'In the tab Scan brand blocklist (named range SCAN_BRAND_BLOCKLIST)',
  );
  await expect(page.locator('.lists-status [data-list=brands] .badge').innerText()).resolves.toBe('2');
  await screenshot(page, 'lists-view-row-action');
  await sb.close();
});

const counts = (over: Partial<{ added: number; changed: number; deleted: number }> = {}) => ({ added: 0, changed: 0, deleted: 0, ...over });
const blockedReport = (): SyncReport => ({
  done: true,
  preview: false,
  message: 'Nothing was applied to Brand blocklist.',
  requests: 2,
  rateLimited: 0,
  lists: [
    {
      list: 'brands',
      title: 'Brand blocklist',
      rangeName: 'SCAN_BRAND_BLOCKLIST',
      sheetName: 'Scan brand blocklist',
      state: 'blocked',
      message: 'Nothing was applied: this sync would delete 60 of 70 entries on the service. Confirm the deletions to go ahead.',
      firstSync: false,
      sheetEntries: 10,
      serviceEntries: 70,
      toService: counts({ deleted: 60 }),
      toSheet: counts(),
      conflictCount: 0,
      conflicts: [],
      refusedCount: 0,
      refused: [],
      entries: Array.from({ length: 20 }, (_, i) => ({
        to: 'service' as const,
        change: 'deleted' as const,
        label: 'US · Brand ' + (10 + i),
      })),
      serviceDeletions: 60,
      sheetDeletions: 0,
    },
  ],
});

test('the deletion guard names the entries (first 20, "and 40 more") and puts them back in the sheet on request', async () => {
  const sb = await openSidebar(
    canned({
      getListsStatus: status(10, 'Scan brand blocklist'),
      listRowActions: rows,
      syncNow: blockedReport(),
      restoreListEntries: {
        restored: 60,
        message: '60 entries were put back into SCAN_BRAND_BLOCKLIST (tab Scan brand blocklist). The next sync deletes nothing there.',
        status: status(70, 'Scan brand blocklist'),
      },
    }),
    { view: 'lists' },
  );
  const { page } = sb;
  await page.getByRole('button', { name: 'Sync now' }).click();
  const card = page.locator('.report[data-list=brands]');
  await card.locator('.entries').waitFor();
  await expect(card.locator('.entries li').allInnerTexts()).resolves.toEqual([
    'Delete at the service: ' + Array.from({ length: 20 }, (_, i) => 'US · Brand ' + (10 + i)).join('; ') + ' and 40 more',
  ]);
  await expect(page.getByRole('button', { name: 'Confirm deletions and sync' }).isVisible()).resolves.toBe(true);
  // Nothing was changed: the stopped list's deletions are not counted as made.
  await expect(page.locator('.lists-progress + div p.small').first().innerText()).resolves.toBe('0 changes made, 2 requests');
  await screenshot(page, 'lists-view-guard');
  await card.getByRole('button', { name: 'Put them back in the sheet' }).dblclick();
  await until(
    () => page.locator('.msg.ok .text').innerText(),
    '60 entries were put back into SCAN_BRAND_BLOCKLIST (tab Scan brand blocklist). The next sync deletes nothing there.',
  );
  expect(sb.callsOf('restoreListEntries')).toEqual([['brands']]);
  // Nothing is left to confirm; the status counts the entries put back.
  await expect(page.getByRole('button', { name: 'Confirm deletions and sync' }).count()).resolves.toBe(0);
  await expect(page.locator('.lists-status [data-list=brands] .badge').innerText()).resolves.toBe('70');
  await screenshot(page, 'lists-view-restored');
  await sb.close();
});

test("a match action shows each selected row with its picture beside the supplier's title; hostile titles stay text, a refused address shows no picture (issue 36)", async () => {
  const HOSTILE = '<img src=x onerror="window.__pwned=1">Acme';
  const address = 'https://images.scan-service.invalid/I/B000000001-0.png';
  const match: RowActionPreview = {
    ...preview,
    action: 'confirmMatch',
    list: 'matches',
    summary: 'Confirm 3 pairings as a match (US)',
    message: 'Confirm 3 pairings as a match (US).',
    pictures: [
      { sheetRow: 2, supplierTitle: HOSTILE, title: 'Acme Tire Inflator', picture: address },
      { sheetRow: 3, supplierTitle: '', title: 'Zed Mug', picture: null },
      // A server that let a bad address through: the page checks it again.
      { sheetRow: 4, supplierTitle: 'Pump', title: 'Pump', picture: 'javascript:alert(1)' },
    ],
  };
  const sb = await openSidebar(
    canned({
      getListsStatus: status(null, null),
      listRowActions: { ...rows, actions: [{ id: 'confirmMatch', label: 'Confirm match' }] },
      previewRowAction: match,
    }),
    { view: 'lists' },
  );
  const { page } = sb;
  const section = page.locator('.rows');
  await section.getByRole('button', { name: 'Confirm match' }).click();
  await section.locator('ul.pictures li').nth(2).waitFor();
  expect(await section.locator('ul.pictures li').allInnerTexts()).toEqual([
    `Row 2: Supplier: ${HOSTILE} · Listing: Acme Tire Inflator`,
    'No picture\nRow 3: Listing: Zed Mug',
    'No picture\nRow 4: Supplier: Pump · Listing: Pump',
  ]);
  const img = section.locator('ul.pictures img');
  await expect(img.count()).resolves.toBe(1);
  await expect(img.getAttribute('src')).resolves.toBe(address);
  await expect(img.getAttribute('alt')).resolves.toBe('Acme Tire Inflator');
  await expect(page.evaluate('window.__pwned')).resolves.toBeUndefined();
  // A seller reads top to bottom: the rows and pictures Apply applies to come before it, on the page
  // and in the reading and focus order (the DOM's), so Apply is the step after looking.
  const apply = section.getByRole('button', { name: 'Apply' });
  const list = section.locator('ul.pictures');
  const [listBox, applyBox] = [await list.boundingBox(), await apply.boundingBox()];
  expect(applyBox!.y).toBeGreaterThanOrEqual(listBox!.y + listBox!.height);
  await expect(
    list.evaluate((ul) => {
      const button = [...(ul.parentElement?.querySelectorAll('button') ?? [])].find((b) => b.textContent === 'Apply');
      return button ? ul.compareDocumentPosition(button) === 4 /* Node.DOCUMENT_POSITION_FOLLOWING */ : 'no Apply beside the list';
    }),
  ).resolves.toBe(true);
  await screenshot(page, 'rows-pictures');
  await sb.close();
});
