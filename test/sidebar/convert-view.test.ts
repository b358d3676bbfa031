/**
 * Convert a column in the browser: the options go to convertSelectedColumn, which is called again
 * while it is not done (only the first call may start over), progress and the final message shown.
 */
import type { ColumnConversionProgress, ColumnConversionRequest } from '../../src/app/protocol';
import { canned, closeBrowser, openSidebar, screenshot, until } from './harness';
import { settings } from './data';

jest.setTimeout(30_000);
afterAll(closeBrowser);

const step = (over: Partial<ColumnConversionProgress>): ColumnConversionProgress => ({
  done: false,
  rowsDone: 0,
  totalRows: 5000,
  targetA1: "'Codes'!B2:B5001",
  sourceA1: "'Codes'!A2:A5001",
  conversion: 'ASIN_FROM_UPC',
  marketplace: 'DE',
  message: '',
  ...over,
});

test('converts in as many calls as the server needs, with the chosen options; only the first may start over', async () => {
  const answers = [
    step({ rowsDone: 2000 }),
    step({ rowsDone: 4000 }),
    step({ done: true, rowsDone: 5000, message: "Converted 5,000 rows into 'Codes'!B2:B5001 (4,210 found)." }),
  ];
  let i = 0;
  const sb = await openSidebar(
    canned({
      getSettings: settings(),
      convertSelectedColumn: () => answers[i++],
    }),
    { view: 'convert' },
  );
  const { page } = sb;
  await page.locator('select[name=marketplace] option[value=DE]').waitFor({ state: 'attached' });
  await page.selectOption('select[name=conversion]', 'ASIN_FROM_UPC');
  await page.selectOption('select[name=marketplace]', 'DE');
  await page.selectOption('select[name=matches]', 'all');
  await page.check('input[name=restart]');
  await screenshot(page, 'convert');
  await page.getByRole('button', { name: 'Convert selected column' }).click();
  await until(() => page.locator('.convert-status').innerText(), "Converted 5,000 rows into 'Codes'!B2:B5001 (4,210 found).");
  const base: ColumnConversionRequest = { matches: 'all', conversion: 'ASIN_FROM_UPC', marketplace: 'DE' };
  expect(sb.callsOf('convertSelectedColumn')).toEqual([
    [{ ...base, restart: true }],
    [{ ...base, restart: false }],
    [{ ...base, restart: false }],
  ]);
  await sb.close();
});

test('defaults send no conversion or marketplace (the server chooses); progress is shown between calls', async () => {
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => (release = r));
  let n = 0;
  const sb = await openSidebar(
    canned({
      getSettings: settings(),
      convertSelectedColumn: async () => {
        if (++n === 1) return step({ rowsDone: 1500 });
        await gate;
        return step({ done: true, rowsDone: 5000, message: 'Done.' });
      },
    }),
    { view: 'convert' },
  );
  const { page } = sb;
  await page.getByRole('button', { name: 'Convert selected column' }).click();
  await until(() => page.locator('.convert-status').innerText(), "Converting 'Codes'!A2:A5001: 1,500 of 5,000 rows into 'Codes'!B2:B5001…");
  await expect(page.getByRole('button', { name: 'Convert selected column' }).isDisabled()).resolves.toBe(true);
  release();
  await until(() => page.locator('.convert-status').innerText(), 'Done.');
  expect(sb.callsOf('convertSelectedColumn')).toEqual([[{ matches: 'first', restart: false }], [{ matches: 'first', restart: false }]]);
  await sb.close();
});

test('a failure is shown plainly; a missing key opens Settings', async () => {
  const sb = await openSidebar(
    canned({
      getSettings: settings({ hasApiKey: false, apiKeyMasked: '' }),
      convertSelectedColumn: () => {
        throw new Error(
          '[open-settings] No API key is saved yet. Open Extensions > Settings and paste the key from Integrations > API Access.',
        );
      },
    }),
    { view: 'convert' },
  );
  const { page } = sb;
  await page.getByRole('button', { name: 'Convert selected column' }).click();
  await until(() => page.locator('nav [aria-current=true]').getAttribute('data-view'), 'settings');
  await until(
    () => page.locator('.msg.error .text').innerText(),
    'No API key is saved yet. Open Extensions > Settings and paste the key from Integrations > API Access.',
  );
  await sb.close();
});
