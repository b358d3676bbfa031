/**
 * Scans (history) in the browser: pages of scans with status and counts, Older/Newer, delete only
 * after the confirm step, downloads to Drive (the link) or into a tab, export (the link it answers
 * with), cancel of a running scan, and only http(s) links ever get an href.
 */
import { canned, closeBrowser, openSidebar, screenshot, until } from './harness';
import { listPage, progress } from './data';

jest.setTimeout(40_000);
afterAll(closeBrowser);

const done = (id: number, name: string) =>
  progress({
    scanId: id,
    name,
    status: 'success',
    done: 36,
    products: 34,
    errors: 2,
    completedAt: '2026-11-20T10:00:00Z',
    resultSheet: null,
  });

const pages: Record<number, ReturnType<typeof listPage>> = {
  1: listPage(1, [done(50, 'Newest'), progress({ scanId: 49, name: 'Running one' })], true),
  2: listPage(2, [done(48, 'Older A'), progress({ scanId: 47, name: 'Failed one', status: 'error', done: 3 })], true),
  3: listPage(3, [progress({ scanId: 46, name: 'Stopped one', status: 'cancelled', done: 10 })], false),
};

describe('history', () => {
  test('lists scans with status and counts, page by page', async () => {
    const sb = await openSidebar(canned({ listScans: (p: number) => pages[p] }), { view: 'history' });
    const { page } = sb;
    const names = () => page.locator('article.card .name').allInnerTexts();
    await until(names, ['Newest', 'Running one']);
    const first = page.locator('article.card').first();
    await expect(first.locator('.badge').innerText()).resolves.toBe('Done');
    await expect(first.innerText()).resolves.toContain('36 rows · 34 products · 2 errors');
    await expect(page.locator('article.card').nth(1).locator('.progress').innerText()).resolves.toBe(
      '9 of 36 rows · 120 products/min · under a minute left',
    );
    await expect(page.getByRole('button', { name: '‹ Newer' }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Older ›' }).click();
    await until(names, ['Older A', 'Failed one']);
    await expect(page.locator('article.card').nth(1).locator('.badge').innerText()).resolves.toBe('Failed');
    await expect(page.locator('.pager').innerText()).resolves.toContain('Page 2');
    await page.getByRole('button', { name: 'Older ›' }).click();
    await until(names, ['Stopped one']);
    await expect(page.getByRole('button', { name: 'Older ›' }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: '‹ Newer' }).click();
    await until(names, ['Older A', 'Failed one']);
    expect(sb.callsOf('listScans')).toEqual([[1], [2], [3], [2]]);
    await sb.close();
  });

  test('a scan the hourly trigger stopped importing says why, as text', async () => {
    const note = 'automatic import stopped: <b>422</b> The filter is not valid — import it from Scans';
    const page1 = listPage(1, [{ ...done(51, 'Stuck'), autoImportStopped: note }, done(50, 'Newest')], false);
    const sb = await openSidebar(canned({ listScans: () => page1 }), { view: 'history' });
    const card = sb.page.locator('article.card').first();
    await until(() => card.locator('.name').innerText(), 'Stuck');
    await expect(card.innerText()).resolves.toContain(note);
    await expect(card.locator('b').count()).resolves.toBe(0);
    await expect(sb.page.locator('article.card').nth(1).innerText()).resolves.not.toContain('automatic import stopped');
    await sb.close();
  });

  test('delete asks first: Keep calls nothing, Delete calls deleteScan and removes the scan', async () => {
    const sb = await openSidebar(canned({ listScans: pages[1], deleteScan: { deleted: true } }), { view: 'history' });
    const { page } = sb;
    const card = page.locator('article.card', { hasText: 'Newest' });
    await card.getByRole('button', { name: 'Delete…' }).click();
    await expect(card.locator('.confirm').innerText()).resolves.toContain(
      'Delete "Newest" and its results at the Scan Service? This cannot be undone.',
    );
    await screenshot(page, 'delete-confirm');
    await card.getByRole('button', { name: 'Keep' }).click();
    await expect(card.locator('.confirm').count()).resolves.toBe(0);
    expect(sb.callsOf('deleteScan')).toEqual([]);
    await card.getByRole('button', { name: 'Delete…' }).click();
    await card.getByRole('button', { name: 'Delete', exact: true }).click();
    await until(() => page.locator('article.card .name').allInnerTexts(), ['Running one']);
    expect(sb.callsOf('deleteScan')).toEqual([[50]]);
    await expect(page.locator('.msg.ok').innerText()).resolves.toContain('Scan "Newest" deleted.');
    // A running scan cannot be deleted from here (cancel it first).
    await expect(page.locator('article.card', { hasText: 'Running one' }).getByRole('button', { name: 'Delete…' }).count()).resolves.toBe(
      0,
    );
    await sb.close();
  });

  test('download to Drive shows the file link; into a tab names the tab', async () => {
    const sb = await openSidebar(
      canned({
        listScans: pages[1],
        downloadScan: (id: number, format: string, target: string) =>
          target === 'drive'
            ? { fileName: `Newest.${format}`, url: 'https://drive.google.com/file/d/abc123/view', sheetName: null }
            : { fileName: `Newest.${format}`, url: null, sheetName: 'Newest (download)' },
      }),
      { view: 'history' },
    );
    const { page } = sb;
    const card = page.locator('article.card', { hasText: 'Newest' });
    await card.getByLabel('Download format').selectOption('xlsx');
    await card.getByRole('button', { name: 'Download' }).click();
    const a = card.locator('.action-result a');
    await until(() => a.innerText(), 'Newest.xlsx');
    await expect(a.getAttribute('href')).resolves.toBe('https://drive.google.com/file/d/abc123/view');
    await expect(a.getAttribute('target')).resolves.toBe('_blank');
    await expect(a.getAttribute('rel')).resolves.toContain('noopener');
    await card.getByLabel('Download format').selectOption('json');
    await card.getByLabel('Download to').selectOption('tab');
    await card.getByRole('button', { name: 'Download' }).click();
    await until(() => card.locator('.action-result[data-for="download"]').innerText(), 'Written to tab Newest (download).');
    expect(sb.callsOf('downloadScan')).toEqual([
      [50, 'xlsx', 'drive'],
      [50, 'json', 'tab'],
    ]);
    await sb.close();
  });

  test('export shows the link the service answered with; a non-http(s) link is shown as text only', async () => {
    let n = 0;
    const sb = await openSidebar(
      canned({
        listScans: pages[1],
        exportScan: () =>
          ++n === 1
            ? { url: 'https://sheets.example.com/export/77', message: 'Exported to your spreadsheet service.' }
            : { url: 'javascript:alert(1)', message: 'Exported.' },
      }),
      { view: 'history' },
    );
    const { page } = sb;
    const card = page.locator('article.card', { hasText: 'Newest' });
    await card.getByRole('button', { name: 'Export' }).click();
    await until(
      () => card.locator('.action-result[data-for="export"]').innerText(),
      'Exported to your spreadsheet service. Open the export',
    );
    await expect(card.locator('.action-result a').getAttribute('href')).resolves.toBe('https://sheets.example.com/export/77');
    await card.getByRole('button', { name: 'Export' }).click();
    await until(() => card.locator('.action-result[data-for="export"]').innerText(), 'Exported. Open the export');
    await expect(card.locator('.action-result a').count()).resolves.toBe(0);
    await expect(page.locator('a[href^="javascript"]').count()).resolves.toBe(0);
    expect(sb.callsOf('exportScan')).toEqual([[50], [50]]);
    await sb.close();
  });

  test('download and export answer on their own lines: the Drive link stays when Export answers', async () => {
    const sb = await openSidebar(
      canned({
        listScans: pages[1],
        downloadScan: { fileName: 'Newest.csv', url: 'https://drive.google.com/file/d/abc123/view', sheetName: null },
        exportScan: { url: null, message: 'Export is not set up for your Scan Service account.' },
      }),
      { view: 'history' },
    );
    const { page } = sb;
    const card = page.locator('article.card', { hasText: 'Newest' });
    await card.getByRole('button', { name: 'Download' }).click();
    await until(() => card.locator('.action-result[data-for="download"] a').innerText(), 'Newest.csv');
    await card.getByRole('button', { name: 'Export' }).click();
    await until(() => card.locator('.action-result[data-for="export"]').innerText(), 'Export is not set up for your Scan Service account.');
    await expect(card.locator('.action-result[data-for="download"] a').getAttribute('href')).resolves.toBe(
      'https://drive.google.com/file/d/abc123/view',
    );
    await sb.close();
  });

  test("issue 27.3: an imported scan's card shows the seller's expected profit a month with its basis, whole, at 300 px", async () => {
    const summary =
      // What the import of the shipped sample says (npm start): was "$3,314,428.99 profit a month from them".
      '196 of 291 products profitable · best ROI 434.36% · $429,954.14 profit a month expected for you (units ÷ (offers + 1), ' +
      'an FBM offer counting ½ where the Buy Box is FBA, capped by stock for 2 months; 1 without a sales estimate or offer count not counted)';
    const imported = { ...done(52, 'Sample'), resultSheet: 'Sample', summary };
    const sb = await openSidebar(canned({ listScans: listPage(1, [imported], false) }), { view: 'history' });
    const card = sb.page.locator('article.card').first();
    await until(() => card.locator('.summary').innerText(), summary);
    await screenshot(sb.page, 'buy-summary-card');
    await sb.close();
  });

  test('open: a scan with a tab here offers "Open tab", which brings that tab to the front; one without a tab does not', async () => {
    const imported = progress({
      scanId: 51,
      name: 'Imported',
      status: 'success',
      done: 36,
      products: 34,
      errors: 2,
      completedAt: '2026-11-20T10:00:00Z',
      resultSheet: 'Imported',
    });
    const sb = await openSidebar(
      canned({ listScans: listPage(1, [imported, done(50, 'Newest')], false), openResultTab: { sheetName: 'Imported (renamed)' } }),
      { view: 'history' },
    );
    const { page } = sb;
    const card = page.locator('article.card', { hasText: 'Imported' });
    await until(() => card.locator('.import-status').innerText(), 'Results are in tab Imported.');
    // With a tab, opening it is the main next step; importing again is the lesser one.
    await expect(card.getByRole('button', { name: 'Open tab' }).getAttribute('class')).resolves.toBe('action');
    await expect(card.getByRole('button', { name: 'Import again' }).getAttribute('class')).resolves.toBe('');
    await expect(card.locator('.results .buttons button').allInnerTexts()).resolves.toEqual(['Open tab', 'Import again', 'Compare…']);
    await expect(page.locator('article.card', { hasText: 'Newest' }).getByRole('button', { name: 'Open tab' }).isVisible()).resolves.toBe(
      false,
    );
    await card.getByRole('button', { name: 'Open tab' }).click();
    await until(() => card.locator('.import-status').innerText(), 'Tab Imported (renamed) is open.');
    // Not after a filtered import: the full tab.
    expect(sb.callsOf('openResultTab')).toEqual([[51, false]]);
    await sb.close();
  });

  test('failed and cancelled scans can be downloaded and exported too (their rows so far); a running one cannot', async () => {
    const sb = await openSidebar(
      canned({
        listScans: (p: number) => pages[p],
        downloadScan: { fileName: 'Stopped one.csv', url: 'https://drive.google.com/file/d/s1/view', sheetName: null },
      }),
      { view: 'history' },
    );
    const { page } = sb;
    await until(() => page.locator('article.card .name').allInnerTexts(), ['Newest', 'Running one']);
    await expect(page.locator('article.card', { hasText: 'Running one' }).getByRole('button', { name: 'Download' }).count()).resolves.toBe(
      0,
    );
    await page.getByRole('button', { name: 'Older ›' }).click();
    await until(() => page.locator('article.card .name').allInnerTexts(), ['Older A', 'Failed one']);
    await expect(page.locator('article.card', { hasText: 'Failed one' }).getByRole('button', { name: 'Export' }).count()).resolves.toBe(1);
    await page.getByRole('button', { name: 'Older ›' }).click();
    await until(() => page.locator('article.card .name').allInnerTexts(), ['Stopped one']);
    const card = page.locator('article.card', { hasText: 'Stopped one' });
    await card.getByRole('button', { name: 'Download' }).click();
    await until(() => card.locator('.action-result a').innerText(), 'Stopped one.csv');
    expect(sb.callsOf('downloadScan')).toEqual([[46, 'csv', 'drive']]);
    await sb.close();
  });

  test('a running scan can be cancelled from the history', async () => {
    const sb = await openSidebar(
      canned({ listScans: pages[1], cancelScan: progress({ scanId: 49, name: 'Running one', status: 'cancelled', done: 9 }) }),
      { view: 'history' },
    );
    const card = sb.page.locator('article.card', { hasText: 'Running one' });
    await card.getByRole('button', { name: 'Cancel' }).click();
    await until(() => card.locator('.badge').innerText(), 'Cancelled');
    expect(sb.callsOf('cancelScan')).toEqual([[49]]);
    // Once stopped it may be deleted.
    await expect(card.getByRole('button', { name: 'Delete…' }).count()).resolves.toBe(1);
    await sb.close();
  });

  test('a failed call is shown plainly and loses nothing', async () => {
    const sb = await openSidebar(
      canned({
        listScans: pages[1],
        deleteScan: () => {
          throw new Error('The Scan Service had a problem (error 503). Try again later.');
        },
      }),
      { view: 'history' },
    );
    const { page } = sb;
    const card = page.locator('article.card', { hasText: 'Newest' });
    await card.getByRole('button', { name: 'Delete…' }).click();
    await card.getByRole('button', { name: 'Delete', exact: true }).click();
    await until(() => page.locator('.msg.error .text').innerText(), 'The Scan Service had a problem (error 503). Try again later.');
    await expect(page.locator('article.card .name').allInnerTexts()).resolves.toEqual(['Newest', 'Running one']);
    await sb.close();
  });

  test('a refused Cancel says why, keeps the scan running on its card and the button usable again', async () => {
    let refusals = 0;
    const sb = await openSidebar(
      canned({
        listScans: pages[1],
        cancelScan: () => {
          refusals++;
          throw new Error('The Scan Service had a problem (error 503). Try again later.');
        },
      }),
      { view: 'history' },
    );
    const { page } = sb;
    const card = page.locator('article.card', { hasText: 'Running one' });
    const cancel = card.getByRole('button', { name: 'Cancel' });
    await cancel.click();
    await until(() => page.locator('.msg.error .text').innerText(), 'The Scan Service had a problem (error 503). Try again later.');
    await until(() => cancel.isEnabled(), true);
    await expect(card.locator('.badge').innerText()).resolves.not.toBe('Cancelled');
    // The user's next try is a new step: the old error goes, the new refusal shows again.
    await cancel.click();
    await until(() => refusals, 2);
    await until(() => page.locator('.msg.error .text').innerText(), 'The Scan Service had a problem (error 503). Try again later.');
    await screenshot(page, 'history-refused-cancel');
    await sb.close();
  });
});

test('Scans: running scans that Google gave no hourly trigger (20 per person) get the notice above the list', async () => {
  const notice = 'Automatic import and automatic sync cannot run in this document: Google allows each person 20 automatic triggers.';
  const sb = await openSidebar(canned({ listScans: () => listPage(1, [progress({ scanId: 49, name: 'Running one' })], false, notice) }), {
    view: 'history',
  });
  await sb.page.locator('article.card').waitFor();
  await expect(sb.page.locator('p.warn').innerText()).resolves.toBe(notice);
  await screenshot(sb.page, 'history-trigger-limit');
  await sb.close();
});
