/**
 * Settings in the browser: the key only ever shown as the server masks it (the field starts empty
 * and is emptied after saving), Save sends what was typed, Test connection shows the plain message,
 * the owner-only formula key sharing, and a refused or missing key anywhere opening Settings.
 */
import type { SettingsInput } from '../../src/app/protocol';
import { canned, closeBrowser, openSidebar, screenshot, until } from './harness';
import { setup, settings } from './data';
import { newScanHelp } from '../../src/app/scan/help';

jest.setTimeout(40_000);
afterAll(closeBrowser);

const NEW_KEY = 'new-key-0123456789abcdef-XYZW';

describe('settings', () => {
  test('shows the saved key masked and never puts a key into the page', async () => {
    const sb = await openSidebar(canned({ getSettings: settings() }), { view: 'settings' });
    const { page } = sb;
    await expect(page.locator('[data-role=masked-key]').innerText()).resolves.toBe('Saved key: ••••••••cdef');
    await expect(page.locator('input[name=apiKey]').inputValue()).resolves.toBe('');
    await expect(page.locator('input[name=apiKey]').getAttribute('type')).resolves.toBe('password');
    await expect(page.locator('input[name=serviceUrl]').inputValue()).resolves.toBe('https://scan.example.com');
    await expect(page.locator('select[name=defaultMarketplace]').inputValue()).resolves.toBe('US');
    await expect(page.locator('select[name=defaultMarketplace] option').allInnerTexts()).resolves.toEqual([
      'US – United States',
      'CA – Canada',
      'DE – Germany',
    ]);
    await sb.close();
  });

  test('Save sends the typed key, address and marketplace, then empties the key field and shows the new mask', async () => {
    const saved: SettingsInput[] = [];
    const sb = await openSidebar(
      canned({
        getSettings: settings({ hasApiKey: false, apiKeyMasked: '' }),
        saveSettings: (input: SettingsInput) => {
          saved.push(input);
          return settings({ apiKeyMasked: '••••••••XYZW', serviceUrl: 'https://other.example.com', defaultMarketplace: 'DE' });
        },
      }),
      { view: 'settings' },
    );
    const { page } = sb;
    await expect(page.locator('[data-role=masked-key]').innerText()).resolves.toBe('No key saved yet.');
    await page.fill('input[name=apiKey]', NEW_KEY);
    await page.fill('input[name=serviceUrl]', 'https://other.example.com/');
    await page.selectOption('select[name=defaultMarketplace]', 'DE');
    await page.getByRole('button', { name: 'Save' }).click();
    await until(() => page.locator('[data-role=masked-key]').innerText(), 'Saved key: ••••••••XYZW');
    // The owner's first key also turns formulas on (the box is ticked; issue 27 item 4).
    // Checked with the service before it is kept (issue 32 item 10).
    expect(saved).toEqual([
      { apiKey: NEW_KEY, serviceUrl: 'https://other.example.com/', defaultMarketplace: 'DE', formulasOnMyKey: true, check: true },
    ]);
    await expect(page.locator('input[name=apiKey]').inputValue()).resolves.toBe('');
    await expect(page.locator('input[name=serviceUrl]').inputValue()).resolves.toBe('https://other.example.com');
    await expect(page.locator('.msg.ok .text').innerText()).resolves.toBe('Settings saved.');
    const text =
      (await page.content()) + (await page.evaluate('JSON.stringify([...document.querySelectorAll("input")].map((i) => i.value))'));
    expect(text).not.toContain(NEW_KEY);
    // Saving again without typing a key keeps the saved one (no apiKey sent).
    await page.getByRole('button', { name: 'Save' }).click();
    await until(() => saved.length, 2);
    expect(saved[1]).toEqual({ serviceUrl: 'https://other.example.com', defaultMarketplace: 'DE', check: true });
    await sb.close();
  });

  test('a save the service could not check says so, with why (issue 32 item 10)', async () => {
    const why =
      'The Scan Service at https://scan.example.com is not answering (Address unavailable): it may be down for a moment. Test again in a few minutes.';
    const sb = await openSidebar(
      canned({
        getSettings: settings(),
        saveSettings: settings({
          apiKeyMasked: '••••••••XYZW',
          checked: { ok: false, problem: 'unreachable', message: 'The settings are saved, but the key could not be checked: ' + why },
        }),
      }),
      { view: 'settings' },
    );
    const { page } = sb;
    await page.fill('input[name=apiKey]', NEW_KEY);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await until(() => page.locator('.msg .text').innerText(), 'The settings are saved, but the key could not be checked: ' + why);
    await sb.close();
  });

  test('a refused save shows the server message and keeps what was typed', async () => {
    const sb = await openSidebar(
      canned({
        getSettings: settings(),
        saveSettings: () => {
          throw new Error('Error: The service address "http://scan.example.com" must use https://');
        },
      }),
      { view: 'settings' },
    );
    const { page } = sb;
    await page.fill('input[name=serviceUrl]', 'http://scan.example.com');
    await page.getByRole('button', { name: 'Save' }).click();
    await until(() => page.locator('.msg.error .text').innerText(), 'The service address "http://scan.example.com" must use https://');
    await expect(page.locator('input[name=serviceUrl]').inputValue()).resolves.toBe('http://scan.example.com');
    await sb.close();
  });

  test('Test connection tests what was typed WITHOUT saving it (a mistyped key never replaces the good one)', async () => {
    let n = 0;
    const sb = await openSidebar(
      canned({
        getSettings: settings(),
        saveSettings: settings({ apiKeyMasked: '••••••••XYZW' }),
        testConnection: () =>
          ++n === 1
            ? { ok: true, message: 'Connected to https://scan.example.com: the key works and has access to United States (US).' }
            : {
                ok: false,
                problem: 'bad-key',
                message:
                  'The Scan Service at https://scan.example.com refused the API key (401). Copy the key again from Integrations > API Access and save it.',
              },
      }),
      { view: 'settings' },
    );
    const { page } = sb;
    await page.getByRole('button', { name: 'Test connection' }).click();
    await until(
      () => page.locator('.result .ok').innerText(),
      'Connected to https://scan.example.com: the key works and has access to United States (US).',
    );
    expect(sb.callsOf('saveSettings')).toEqual([]);
    await page.fill('input[name=apiKey]', NEW_KEY);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await until(
      () => page.locator('.result .error').innerText(),
      'The Scan Service at https://scan.example.com refused the API key (401). Copy the key again from Integrations > API Access and save it. Nothing was saved.',
    );
    expect(sb.callsOf('saveSettings')).toEqual([]);
    expect(sb.callsOf('testConnection')).toEqual([
      [null],
      [{ apiKey: NEW_KEY, serviceUrl: 'https://scan.example.com', defaultMarketplace: 'US' }],
    ]);
    await expect(page.locator('[data-role=masked-key]').innerText()).resolves.toBe('Saved key: ••••••••cdef');
    // The key field is where the user goes next.
    await until(() => page.evaluate('document.activeElement && document.activeElement.name'), 'apiKey');
    await screenshot(page, 'settings-bad-key');
    await sb.close();
  });

  test('the owner can let formulas run on the key; the checkbox follows the server, and the hint says whose quota it spends', async () => {
    const sb = await openSidebar(
      canned({ getSettings: settings(), setFormulaKeySharing: (on: boolean) => settings({ formulaKeyShared: on }) }),
      { view: 'settings' },
    );
    const { page } = sb;
    const box = page.getByLabel('Formulas in this spreadsheet run on my key');
    await expect(box.isChecked()).resolves.toBe(false);
    await box.check();
    await until(() => sb.callsOf('setFormulaKeySharing'), [[true]]);
    await until(() => page.locator('.msg.ok .text').innerText(), 'Formulas here now run on your key.');
    await expect(page.getByText(/counts against your quota/).count()).resolves.toBe(1);
    await until(() => box.isEnabled(), true);
    await box.uncheck();
    await until(() => sb.callsOf('setFormulaKeySharing'), [[true], [false]]);
    await expect(box.isChecked()).resolves.toBe(false);
    await sb.close();
  });

  test('a refused sharing change puts the checkbox back', async () => {
    const sb = await openSidebar(
      canned({
        getSettings: settings(),
        setFormulaKeySharing: () => {
          throw new Error('Only the owner of this spreadsheet can share their key with its formulas.');
        },
      }),
      { view: 'settings' },
    );
    const box = sb.page.getByLabel('Formulas in this spreadsheet run on my key');
    await box.click();
    await until(
      () => sb.page.locator('.msg.error .text').innerText(),
      'Only the owner of this spreadsheet can share their key with its formulas.',
    );
    await until(() => box.isChecked(), false);
    // The box can be tried again.
    await until(() => box.isEnabled(), true);
    await sb.close();
  });

  test("an editor who does not own the spreadsheet gets no sharing checkbox, and the server's reason (owner named, or a shared drive)", async () => {
    const why =
      'Formulas such as =ASIN_FROM_UPC() run on the key of this spreadsheet\'s owner (owner@example.com), who turns them on in Settings. Until then, "Convert selected column" converts with your own key.';
    const sb = await openSidebar(canned({ getSettings: settings({ isOwner: false, formulaNote: why }) }), { view: 'settings' });
    await sb.page.getByText(why).waitFor();
    await expect(sb.page.locator('input[type=checkbox]').count()).resolves.toBe(0);
    await sb.close();
  });
});

describe('first run', () => {
  test('issue 27 item 4: the owner saving their first key turns formulas on in the same step (ticked, quota said); unticked, Save leaves them off', async () => {
    for (const tick of [true, false]) {
      const sb = await openSidebar(
        canned({
          getSettings: settings({ hasApiKey: false, apiKeyMasked: '' }),
          saveSettings: (input: SettingsInput) => settings({ apiKeyMasked: '••••••••XYZW', formulaKeyShared: !!input.formulasOnMyKey }),
        }),
        { view: 'settings' },
      );
      const { page } = sb;
      const box = page.getByLabel('Formulas in this spreadsheet run on my key');
      await expect(box.isChecked()).resolves.toBe(true);
      await expect(page.getByText(/counts against your quota/).count()).resolves.toBe(1);
      if (tick) await screenshot(page, 'settings-first-key-formulas');
      else await box.uncheck();
      await page.fill('input[name=apiKey]', NEW_KEY);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('button', { name: 'Continue to New scan' }).waitFor();
      expect(sb.callsOf('saveSettings')).toEqual([
        [
          {
            apiKey: NEW_KEY,
            serviceUrl: 'https://scan.example.com',
            defaultMarketplace: 'US',
            ...(tick ? { formulasOnMyKey: true } : {}),
            check: true,
          },
        ],
      ]);
      await expect(
        page
          .locator('.result .ok')
          .innerText()
          .then((t) => t.trim()),
      ).resolves.toBe(tick ? 'Your key is saved. Formulas here run on it.' : 'Your key is saved.');
      // Now the Formulas section holds the one switch, following what the server said.
      await until(() => page.getByLabel('Formulas in this spreadsheet run on my key').count(), 1);
      await expect(page.getByLabel('Formulas in this spreadsheet run on my key').isChecked()).resolves.toBe(tick);
      if (tick) await screenshot(page, 'settings-first-key-saved');
      await sb.close();
    }
  });

  test('Settings says what the key is and where to find it; the first key saved leads on to New scan', async () => {
    const sb = await openSidebar(
      canned({
        getSettings: settings({ hasApiKey: false, apiKeyMasked: '' }),
        saveSettings: settings({ apiKeyMasked: '••••••••XYZW' }),
        getScanSetup: setup(),
        getRunningScans: [],
      }),
      { view: 'settings' },
    );
    const { page } = sb;
    await expect(page.locator('.view p.small').first().innerText()).resolves.toContain('Integrations > API Access');
    await page.fill('input[name=apiKey]', NEW_KEY);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Continue to New scan' }).click();
    await page.locator('select[name=role-0]').waitFor();
    await expect(page.locator('nav [aria-current=true]').getAttribute('data-view')).resolves.toBe('scan');
    await sb.close();
  });

  test('a scan sent without a key asks for it in place: the columns and options chosen stay, Send goes on after', async () => {
    let n = 0;
    const sb = await openSidebar(
      canned({
        getScanSetup: setup(),
        getRunningScans: [],
        saveSettings: settings({ apiKeyMasked: '••••••••XYZW' }),
        startScan: () => {
          if (++n === 1)
            throw new Error('Exception: [open-settings] No API key is saved yet. Paste the key from Integrations > API Access.');
          throw new Error('The Scan Service is busy (too many requests). Try again in a few minutes.');
        },
      }),
    );
    const { page } = sb;
    await page.locator('select[name=role-0]').waitFor();
    await page.fill('input[name=name]', 'My March list');
    await page.getByRole('button', { name: 'Send' }).click();
    const panel = page.locator('.keypanel');
    await panel.waitFor();
    await expect(panel.locator('p.error').innerText()).resolves.toBe(
      'No API key is saved yet. Paste the key from Integrations > API Access.',
    );
    // What the key is and where to find it: New scan's setup brings the words.
    await expect(panel.locator('p.small').innerText()).resolves.toBe(newScanHelp().key);
    await expect(page.locator('nav [aria-current=true]').getAttribute('data-view')).resolves.toBe('scan');
    await panel.locator('input[name=apiKey]').fill(NEW_KEY);
    await panel.getByRole('button', { name: 'Save key' }).click();
    await until(() => page.locator('.preview p.ok').innerText(), 'Key saved. Press Send (or Preview) again.');
    expect(sb.callsOf('saveSettings')).toEqual([[{ apiKey: NEW_KEY, check: true }]]);
    await expect(page.locator('input[name=name]').inputValue()).resolves.toBe('My March list');
    await page.getByRole('button', { name: 'Send' }).click();
    await until(() => sb.callsOf('startScan').length, 2);
    expect((sb.callsOf('startScan')[1][0] as { options: { name: string } }).options.name).toBe('My March list');
    await sb.close();
  });
});

describe('a missing or refused key anywhere opens Settings', () => {
  test.each([
    ['New scan', 'scan', 'getScanSetup'],
    ['Scans', 'history', 'listScans'],
  ])('%s: the open-settings marker switches to Settings with the message', async (_label, view, fn) => {
    const answers: Record<string, unknown> = {
      getSettings: settings(),
      getRunningScans: [],
      getScanSetup: setup(),
      listScans: { scans: [], page: 1, hasMore: false },
    };
    answers[fn] = () => {
      throw new Error(
        'Exception: [open-settings] The API key was refused by the Scan Service. Open Extensions > Settings and paste the key from Integrations > API Access.',
      );
    };
    const sb = await openSidebar(canned(answers), { view });
    const { page } = sb;
    await page.locator('[data-role=masked-key]').waitFor();
    await expect(page.locator('nav [aria-current=true]').getAttribute('data-view')).resolves.toBe('settings');
    await expect(page.locator('.msg.error .text').innerText()).resolves.toBe(
      'The API key was refused by the Scan Service. Open Extensions > Settings and paste the key from Integrations > API Access.',
    );
    await sb.close();
  });

  test('other failures keep the view', async () => {
    const sb = await openSidebar(
      canned({
        getRunningScans: [],
        getScanSetup: () => {
          throw new Error('The Scan Service is busy (too many requests). Try again in a few minutes.');
        },
      }),
    );
    await until(
      () => sb.page.locator('.msg.error .text').innerText(),
      'The Scan Service is busy (too many requests). Try again in a few minutes.',
    );
    await expect(sb.page.locator('nav [aria-current=true]').getAttribute('data-view')).resolves.toBe('scan');
    expect(sb.callsOf('getSettings')).toEqual([]);
    await sb.close();
  });
});
