/**
 * Hostile text from the server (sheet headers and cells, scan names, the service's messages) is
 * shown as text: no element is created from it, no script runs, no dialog opens.
 */
import { canned, closeBrowser, openSidebar, until } from './harness';
import { imported, listPage, preview, progress, settings, setup } from './data';

jest.setTimeout(40_000);
afterAll(closeBrowser);

const IMG = '<img src=x onerror="window.__pwned=1;alert(1)">';
const SCRIPT = '<script>window.__pwned=2;alert(2)</script>';
const BREAK = '</b></li></ul><iframe srcdoc="<script>parent.__pwned=3</script>"></iframe>';

async function assertInert(sb: Awaited<ReturnType<typeof openSidebar>>): Promise<void> {
  const { page } = sb;
  await expect(page.locator('img, iframe, body script:not(:first-of-type), svg, object, embed').count()).resolves.toBe(0);
  await expect(page.evaluate('window.__pwned === undefined')).resolves.toBe(true);
  expect(sb.dialogs).toEqual([]);
  expect(sb.errors).toEqual([]);
}

describe('hostile text is shown as text', () => {
  test('new scan: headers, samples, scan name, preview lists and import tab names', async () => {
    const bad = progress({ name: IMG, marketplace: SCRIPT, status: 'running' });
    const sb = await openSidebar(
      canned({
        getScanSetup: setup({
          sheetName: SCRIPT,
          defaultName: IMG,
          columns: [
            { index: 0, letter: 'A', header: IMG, sample: SCRIPT, role: 'identifier' },
            { index: 1, letter: 'B', header: BREAK, sample: IMG, role: 'cost' },
          ],
          marketplaces: [{ code: 'US', name: IMG }],
        }),
        getRunningScans: [bad],
        getScanProgress: () => progress({ name: IMG, status: 'success', done: 36 }),
        importScan: (() => {
          let n = 0;
          // Tab names worded by the sidebar (no message), then the server's own message.
          return () =>
            ++n === 1
              ? imported({ done: false, sheetName: IMG })
              : imported({ sheetName: IMG, errorsSheetName: SCRIPT, message: n === 2 ? '' : BREAK });
        })(),
        previewScan: preview({
          ok: false,
          problems: [{ field: 'name', message: IMG }],
          skipped: [{ sheetRow: 7, reason: 'no-identifier', detail: IMG, message: 'Row 7: ' + IMG, identifier: SCRIPT, problems: [IMG] }],
          repaired: [{ sheetRow: 4, column: 'A', role: 'identifier', before: IMG, after: SCRIPT, what: 'cleaned' }],
          duplicates: [{ identifier: BREAK, sheetRows: [4, 5] }],
        }),
      }),
      { clock: true },
    );
    const { page } = sb;
    await page.locator('select[name=role-0]').waitFor();
    await expect(page.locator('.col-head .header').allInnerTexts()).resolves.toEqual([IMG, BREAK]);
    await expect(page.locator('.sample').allInnerTexts()).resolves.toEqual(['e.g. ' + SCRIPT, 'e.g. ' + IMG]);
    await expect(page.locator('input[name=name]').inputValue()).resolves.toBe(IMG);
    await expect(page.locator('article.card .name').innerText()).resolves.toBe(IMG);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.locator('.preview .problems').waitFor();
    await expect(page.locator('.preview .problems li').innerText()).resolves.toBe(IMG);
    await expect(page.locator('.preview li[data-row="7"]').innerText()).resolves.toBe('Row 7: ' + IMG);
    await page.clock.runFor(4000);
    await until(() => page.locator('.import-status').innerText(), `34 rows in tab ${IMG}, rows the service could not use in ${SCRIPT}.`);
    await page.getByRole('button', { name: 'Import again' }).click();
    await until(() => page.locator('.import-status').innerText(), BREAK);
    await page.clock.runFor(10_000);
    await assertInert(sb);
    await sb.close();
  });

  test('history, downloads, export and failure messages', async () => {
    const sb = await openSidebar(
      canned({
        listScans: listPage(1, [progress({ scanId: 5, name: IMG, status: 'success', done: 36 })], false),
        downloadScan: { fileName: IMG, url: `https://drive.example.com/"><img src=x onerror=alert(3)>`, sheetName: null },
        exportScan: { url: 'javascript:window.__pwned=4', message: SCRIPT },
        deleteScan: () => {
          throw new Error(IMG);
        },
      }),
      { view: 'history' },
    );
    const { page } = sb;
    const card = page.locator('article.card');
    await expect(card.locator('.name').innerText()).resolves.toBe(IMG);
    await card.getByRole('button', { name: 'Download' }).click();
    await until(() => card.locator('.action-result a').innerText(), IMG);
    // The quote and angle brackets stay inside the URL, percent-encoded by the URL parser.
    await expect(card.locator('.action-result a').getAttribute('href')).resolves.toBe(
      'https://drive.example.com/%22%3E%3Cimg%20src=x%20onerror=alert(3)%3E',
    );
    await card.getByRole('button', { name: 'Export' }).click();
    await until(() => card.locator('.action-result[data-for="export"]').innerText(), SCRIPT + ' Open the export');
    await expect(card.locator('.action-result[data-for="export"] a').count()).resolves.toBe(0);
    await card.getByRole('button', { name: 'Delete…' }).click();
    await expect(card.locator('.confirm').innerText()).resolves.toContain(`Delete "${IMG}"`);
    await card.getByRole('button', { name: 'Delete', exact: true }).click();
    await until(() => page.locator('.msg.error .text').innerText(), IMG);
    await assertInert(sb);
    await sb.close();
  });

  test('settings: address, marketplace names and connection message', async () => {
    const sb = await openSidebar(
      canned({
        getSettings: settings({ serviceUrl: IMG, apiKeyMasked: SCRIPT, marketplaces: [{ code: 'US', name: BREAK }] }),
        testConnection: { ok: false, problem: 'unreachable', message: IMG },
      }),
      { view: 'settings' },
    );
    const { page } = sb;
    await expect(page.locator('[data-role=masked-key]').innerText()).resolves.toBe('Saved key: ' + SCRIPT);
    await expect(page.locator('input[name=serviceUrl]').inputValue()).resolves.toBe(IMG);
    await expect(page.locator('select[name=defaultMarketplace] option').innerText()).resolves.toBe('US – ' + BREAK);
    // Test connection first saves the (unchanged) form only when something changed: nothing did.
    await page.getByRole('button', { name: 'Test connection' }).click();
    await until(() => page.locator('.result .error').innerText(), IMG);
    await assertInert(sb);
    await sb.close();
  });

  // Explanations come with the views' data (so the page stays small): they are text like everything else.
  test('explanations from the server: Help, Settings, Convert and New scan hints, the key asked for in place', async () => {
    const sb = await openSidebar(
      canned({
        getHelp: {
          steps: [
            { title: IMG, text: SCRIPT },
            { title: BREAK, text: IMG },
          ],
        },
        getSettings: settings({
          hasApiKey: false,
          apiKeyMasked: '',
          help: {
            about: IMG,
            formulasNeedKey: SCRIPT,
            webhooks: BREAK,
            noSuppliers: IMG,
            forgetSupplier: BREAK,
            convert: SCRIPT,
            formulasLabel: IMG,
            formulasOn: SCRIPT,
            formulasOff: BREAK,
            pressSave: IMG,
            nothingSaved: SCRIPT,
          },
        }),
        getScanSetup: setup({
          help: {
            headerRow: IMG,
            supplierDiscount: SCRIPT,
            prepCost: BREAK,
            multipackPrepCost: IMG,
            multipackOverride: SCRIPT,
            pullHistoricalData: BREAK,
            pictures: IMG,
            allColumns: SCRIPT,
            key: IMG,
            sendAnyway: SCRIPT,
            sendAgain: BREAK,
          },
        }),
        getRunningScans: [],
        previewScan: () => {
          throw new Error('Exception: [open-settings] No API key is saved yet.');
        },
      }),
      { view: 'help' },
    );
    const { page } = sb;
    await until(() => page.locator('dl.help dt, dl.help dd').allInnerTexts(), [IMG, SCRIPT, BREAK, IMG]);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.locator('[data-role=masked-key]').waitFor();
    await expect(page.locator('.view p.small').first().innerText()).resolves.toBe(IMG);
    await expect(page.locator('.view .hint').allInnerTexts()).resolves.toEqual(expect.arrayContaining([SCRIPT, BREAK]));
    await page.getByRole('button', { name: 'Convert', exact: true }).click();
    await until(() => page.locator('.view p.muted.small').innerText(), SCRIPT);
    await page.getByRole('button', { name: 'New scan' }).click();
    await page.locator('select[name=role-0]').waitFor();
    await expect(page.locator('.view .hint').allInnerTexts()).resolves.toEqual([IMG, SCRIPT, BREAK, IMG, SCRIPT, BREAK, IMG, SCRIPT]);
    await page.getByRole('button', { name: 'Preview' }).click();
    await until(() => page.locator('.keypanel p.small').innerText(), IMG);
    await assertInert(sb);
    await sb.close();
  });
});
