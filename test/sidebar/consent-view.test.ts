/**
 * Granular consent in the sidebar (the BUILT page, canned server): the lines under the tabs name each
 * permission the seller did not give, each a link to Google's authorisation window (getConsent);
 * nothing when every permission is given.
 */
import { canned, closeBrowser, openSidebar } from './harness';
import { settings, setup } from './data';
import type { ConsentView } from '../../src/app/protocol';

jest.setTimeout(60_000);
afterAll(closeBrowser);

const LINK = 'https://script.google.com/macros/d/local-script-id/authorize';
const TEXT =
  'Save to Drive needs the permission "See, edit, create, and delete only the specific Google Drive files you use with this app", which you did not give the add-on. Allow it in Google.';

test('each missing permission is a line under the tabs linking to Google', async () => {
  const missing: ConsentView = { notices: [{ about: 'drive', text: TEXT, url: LINK }] };
  const sb = await openSidebar(canned({ getConsent: missing, getSettings: settings(), getScanSetup: setup() }));
  const line = sb.page.locator('.consent a');
  await line.waitFor();
  await expect(line.innerText()).resolves.toBe(TEXT);
  await expect(line.getAttribute('href')).resolves.toBe(LINK);
  await expect(line.getAttribute('target')).resolves.toBe('_blank');
  expect(sb.errors).toEqual([]);
  await sb.close();
});

test('nothing under the tabs when every permission is given', async () => {
  const sb = await openSidebar(canned({ getConsent: { notices: [] }, getSettings: settings(), getScanSetup: setup() }));
  await sb.page.getByRole('heading', { level: 2 }).first().waitFor();
  await sb.page.waitForLoadState('networkidle');
  expect(sb.callsOf('getConsent')).toHaveLength(1);
  await expect(sb.page.locator('.consent').innerText()).resolves.toBe('');
  await sb.close();
});
