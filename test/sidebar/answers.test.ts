/**
 * Issue 27, item 2: an answer appears where the seller is looking — next to the button that caused
 * it, in view at 300 px — and is heard (role alert/status); Send cannot go twice from a double click;
 * a button that cannot work is not offered (XLSX "into a tab"); a failure never erases an earlier
 * success link. Screenshots: /tmp/sidebar-answers-*.png.
 */
import type { Page } from 'playwright-core';
import { canned, closeBrowser, openSidebar, screenshot, until } from './harness';
import { listPage, preview, progress, setup } from './data';

jest.setTimeout(40_000);
afterAll(closeBrowser);

const thrower = (m: string) => () => {
  throw new Error(m);
};

/** The message line's box lies inside the 300 x 900 viewport as the page is scrolled now. */
async function msgInView(page: Page): Promise<boolean> {
  // Scroll offsets are whole pixels and layout is not: a bottom at 900.34 of 900 is in view.
  return (await page.evaluate(`(() => {
    const m = document.querySelector('.msg');
    const r = m.getBoundingClientRect();
    return !m.hidden && r.height > 0 && r.top >= 0 && Math.round(r.bottom) <= window.innerHeight;
  })()`)) as boolean;
}

/** Whether the message line comes after `selector` in the page (below it). */
async function msgAfter(page: Page, selector: string): Promise<boolean> {
  return (await page.evaluate(
    `!!(document.querySelector(${JSON.stringify(selector)}).compareDocumentPosition(document.querySelector('.msg')) & Node.DOCUMENT_POSITION_FOLLOWING)`,
  )) as boolean;
}

test('a refused Send is answered under the Send button, in view and as an alert, at the bottom of the long form', async () => {
  const refusal = 'The Scan Service is busy (too many requests). Wait 30 seconds, then press Send again.';
  const sb = await openSidebar(canned({ getScanSetup: setup(), getRunningScans: [], startScan: thrower(refusal) }));
  const { page } = sb;
  const send = page.getByRole('button', { name: 'Send', exact: true });
  await send.click();
  await until(() => page.locator('.msg.error .text').innerText(), refusal);
  // The form is taller than the frame: the answer is where the seller just clicked.
  expect(await page.evaluate('document.body.scrollHeight')).toBeGreaterThan(900);
  await expect(page.locator('.msg').getAttribute('role')).resolves.toBe('alert');
  await until(() => msgInView(page), true);
  expect(
    await page.evaluate("document.querySelector('.msg').previousElementSibling.contains(document.querySelector('button.action'))"),
  ).toBe(true);
  await screenshot(page, 'answers-send-refused');
  // Another view puts the message line back under the tabs.
  await page.locator('nav button[data-view=help]').click();
  await page.getByRole('heading', { level: 2, name: 'Help' }).waitFor();
  expect(await msgAfter(page, 'nav')).toBe(true);
  expect(await page.evaluate("document.querySelector('nav').nextElementSibling.classList.contains('msg')")).toBe(true);
  await sb.close();
});

test('a double click on Send starts one scan', async () => {
  const sb = await openSidebar(
    canned({
      getScanSetup: setup(),
      getRunningScans: [],
      getScanProgress: progress(),
      startScan: { progress: progress({ done: 0 }), preview: preview() },
    }),
  );
  const { page } = sb;
  await page.getByRole('button', { name: 'Send', exact: true }).dblclick();
  await page.locator('.preview p.ok').waitFor();
  await page.getByRole('button', { name: 'Send again…' }).waitFor();
  expect(sb.callsOf('startScan')).toHaveLength(1);
  await sb.close();
});

describe('Scans card downloads', () => {
  const finished = progress({ scanId: 50, name: 'Newest', status: 'success', done: 36, completedAt: '2026-11-20T10:00:00Z' });

  test('XLSX is not offered "into a tab" (the server always refuses it): choosing XLSX sets Drive and disables the tab choice', async () => {
    const sb = await openSidebar(canned({ listScans: listPage(1, [finished], false) }), { view: 'history' });
    const { page } = sb;
    const card = page.locator('article.card', { hasText: 'Newest' });
    await card.getByLabel('Download to').selectOption('tab');
    await card.getByLabel('Download format').selectOption('xlsx');
    await expect(card.getByLabel('Download to').inputValue()).resolves.toBe('drive');
    await expect(
      card.locator('select[aria-label="Download to"] option[value=tab]').evaluate((o) => (o as unknown as { disabled: boolean }).disabled),
    ).resolves.toBe(true);
    await card.getByLabel('Download format').selectOption('json');
    await expect(
      card.locator('select[aria-label="Download to"] option[value=tab]').evaluate((o) => (o as unknown as { disabled: boolean }).disabled),
    ).resolves.toBe(false);
    await sb.close();
  });

  test('a failed download keeps the earlier "Saved to Drive" link, and its message is next to the Download button', async () => {
    const sb = await openSidebar(
      canned({
        listScans: listPage(1, [finished], false),
        downloadScan: (_id: number, format: string) => {
          if (format === 'json') throw new Error('The Scan Service could not prepare the JSON download. Try again in a minute.');
          return { fileName: 'Newest.csv', url: 'https://drive.google.com/file/d/abc123/view', sheetName: null };
        },
      }),
      { view: 'history' },
    );
    const { page } = sb;
    const card = page.locator('article.card', { hasText: 'Newest' });
    await card.getByRole('button', { name: 'Download' }).click();
    await until(() => card.locator('.action-result a').innerText(), 'Newest.csv');
    await card.getByLabel('Download format').selectOption('json');
    await card.getByRole('button', { name: 'Download' }).click();
    await until(
      () => page.locator('.msg.error .text').innerText(),
      'The Scan Service could not prepare the JSON download. Try again in a minute.',
    );
    await expect(card.locator('.action-result[data-for=download]').innerText()).resolves.toBe('Saved to Drive: Newest.csv');
    await expect(card.locator('.msg').count()).resolves.toBe(1);
    await until(() => msgInView(page), true);
    await screenshot(page, 'answers-download-failed');
    await sb.close();
  });
});
