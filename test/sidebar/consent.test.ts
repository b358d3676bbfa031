/**
 * Granular consent in the sidebar (the BUILT page, canned server): the banner under the tabs names each
 * permission the seller did not give with Google's authorisation link, and a failure that a missing
 * permission caused shows its words and the link (src/domain/consent/marker.ts), never the marker.
 */
import { canned, closeBrowser, openSidebar } from './harness';
import { settings, setup } from './data';
import { CONSENT_MARKER } from '../../src/domain/consent/marker';

jest.setTimeout(60_000);
afterAll(closeBrowser);

const LINK = 'https://script.google.com/macros/d/local-script-id/authorize';
const TEXT =
  'Automatic import, automatic sync and scheduled re-scans (the hourly run while the sidebar is closed) needs the permission "Allow this application to run when you are not present", which you did not give the add-on.';

test('the banner lists each missing permission with its link; nothing when all are given', async () => {
  const sb = await openSidebar(
    canned({
      getConsent: { missing: [{ feature: 'trigger', text: TEXT, url: LINK }], reauth: null, reauthUrl: null },
      getSettings: settings(),
      getScanSetup: setup(),
    }),
  );
  const banner = sb.page.locator('.consent');
  await banner.locator('a').waitFor();
  await expect(banner.innerText()).resolves.toContain(TEXT);
  await expect(banner.locator('a').getAttribute('href')).resolves.toBe(LINK);
  await expect(banner.locator('a').innerText()).resolves.toBe('Allow it in Google');
  await sb.close();

  const none = await openSidebar(
    canned({ getConsent: { missing: [], reauth: null, reauthUrl: null }, getSettings: settings(), getScanSetup: setup() }),
  );
  await none.page.getByRole('heading', { level: 2 }).first().waitFor();
  await expect(none.page.locator('.consent').isHidden()).resolves.toBe(true);
  expect(none.errors).toEqual([]);
  await none.close();
});

test('a failure a missing permission caused: its words and the link, without the marker', async () => {
  const words =
    'Save to Drive needs the permission "x", which you did not give the add-on. Allow it in Google\'s window, then try again; nothing was changed.';
  const sb = await openSidebar(
    canned({
      getConsent: { missing: [], reauth: null, reauthUrl: null },
      getSettings: settings(),
      getScanSetup: setup(),
      startScan: () => {
        throw new Error(CONSENT_MARKER + LINK + '] ' + words);
      },
    }),
  );
  await sb.page.getByRole('button', { name: 'Send', exact: true }).click();
  const msg = sb.page.locator('.msg.error');
  await msg.locator('a').waitFor();
  await expect(msg.locator('.text').innerText()).resolves.toBe(words);
  await expect(msg.locator('a').getAttribute('href')).resolves.toBe(LINK);
  await sb.close();
});
