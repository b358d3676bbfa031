/**
 * Settings and menu, on the BUILT add-on in the local runtime against the local Scan Service:
 * where the key is stored (user properties only), masking, per-user isolation, address rules,
 * the connection test's plain messages, and onOpen in AuthMode NONE and LIMITED.
 */
import { Workbook } from '../../emulator/gas/spreadsheet';
import { spawnService, type SpawnedService } from '../../emulator/service/spawn';
import { closedPort, connect, everythingOutsideUserProperties, runtime, thrown } from './scanflow-helpers';
import { formulaShareKey, SETTINGS_KEY } from '../../src/store/keys';

const GOOD = 'good-key-0123456789abcdef';
const CA_ONLY = 'ca-only-key-9876543210fedcba';
const OWNER = 'owner@example.com';
const EDITOR = 'editor@example.com';

let svc: SpawnedService;

beforeAll(async () => {
  svc = await spawnService({ SCAN_SERVICE_API_KEYS: `${GOOD},${CA_ONLY}:CA`, SCAN_SERVICE_SPEED: '60000' });
});
afterAll(async () => {
  await svc?.stop();
});

function fresh() {
  const wb = new Workbook({ name: 'Prices', owner: OWNER });
  wb.type('Sheet1', 'A1', 'UPC');
  const rt = runtime(wb);
  return { wb, rt };
}

describe('storing the key', () => {
  test('the key is kept in the user properties only, shown masked, and never reaches document/script properties, logs, UI or cells', async () => {
    const { wb, rt } = fresh();
    const view = rt.scriptRun('saveSettings', [{ apiKey: GOOD, serviceUrl: svc.url, defaultMarketplace: 'de' }]) as any;
    expect(view).toEqual(
      expect.objectContaining({
        apiKeyMasked: '••••••••cdef',
        hasApiKey: true,
        serviceUrl: svc.url,
        defaultMarketplace: 'DE',
        isOwner: true,
        formulaKeyShared: false,
      }),
    );
    expect(view.marketplaces).toContainEqual({ code: 'US', name: 'United States' });
    expect(JSON.stringify(view)).not.toContain(GOOD);
    // The user's own store has it, in one property.
    const mine = rt.properties.user(OWNER).toObject();
    expect(Object.keys(mine)).toEqual([SETTINGS_KEY]);
    expect(JSON.parse(mine[SETTINGS_KEY])).toEqual({ v: 1, apiKey: GOOD, serviceUrl: svc.url, marketplace: 'DE' });
    // Use it (test connection, a scan setup) so logs have content, then look everywhere else.
    expect(rt.scriptRun('testConnection')).toEqual(expect.objectContaining({ ok: true }));
    rt.scriptRun('getScanSetup');
    expect(rt.logs.join('\n')).toMatch(/scan-service: POST \/api\/v3\/asin-convert/);
    const everywhere = everythingOutsideUserProperties(rt, wb);
    expect(everywhere).not.toContain(GOOD);
    expect(everywhere).not.toContain(GOOD.slice(0, 12));
    await rt.stop();
  });

  test('getSettings of another user shows no key: keys are per user', async () => {
    const { rt } = fresh();
    connect(rt, svc.url, GOOD, OWNER);
    const other = rt.scriptRun('getSettings', [], { user: EDITOR }) as any;
    expect(other).toEqual(expect.objectContaining({ apiKeyMasked: '', hasApiKey: false, isOwner: false, defaultMarketplace: 'US' }));
    expect(JSON.stringify(rt.properties.user(EDITOR).toObject())).not.toContain(GOOD);
    // The editor's calls use no key at all: they are told to open Settings.
    expect(thrown(() => rt.scriptRun('getScanProgress', [1], { user: EDITOR }))).toMatch(/^\[open-settings\] No API key is saved yet/);
    // The editor saves their own key; the owner's stays.
    connect(rt, svc.url, CA_ONLY, EDITOR);
    expect(JSON.parse(rt.properties.user(OWNER).get(SETTINGS_KEY)!).apiKey).toBe(GOOD);
    expect(JSON.parse(rt.properties.user(EDITOR).get(SETTINGS_KEY)!).apiKey).toBe(CA_ONLY);
    await rt.stop();
  });

  test('a blank key keeps the saved one; a pasted "Bearer " prefix and spaces are removed; short keys are fully masked', async () => {
    const { rt } = fresh();
    connect(rt, svc.url, '  Bearer ' + GOOD + '  ');
    expect(JSON.parse(rt.properties.user(OWNER).get(SETTINGS_KEY)!).apiKey).toBe(GOOD);
    const v = rt.scriptRun('saveSettings', [{ apiKey: '', defaultMarketplace: 'CA' }]) as any;
    expect(v.apiKeyMasked).toBe('••••••••cdef');
    expect(JSON.parse(rt.properties.user(OWNER).get(SETTINGS_KEY)!)).toEqual(expect.objectContaining({ apiKey: GOOD, marketplace: 'CA' }));
    const short = rt.scriptRun('saveSettings', [{ apiKey: 'abcdefghij' }]) as any;
    expect(short.apiKeyMasked).toBe('••••••••');
    await rt.stop();
  });

  test('refused input changes nothing and says what to fix', async () => {
    const { rt } = fresh();
    connect(rt, svc.url, GOOD);
    const before = rt.properties.user(OWNER).get(SETTINGS_KEY);
    expect(thrown(() => rt.scriptRun('saveSettings', [{ serviceUrl: 'http://scan.example.com' }]))).toMatch(
      /must use https:\/\/ \(plain http would send the API key unencrypted/,
    );
    expect(thrown(() => rt.scriptRun('saveSettings', [{ serviceUrl: 'https://scan.example.com/?key=1' }]))).toMatch(
      /must not have a query/,
    );
    expect(thrown(() => rt.scriptRun('saveSettings', [{ serviceUrl: 'https://user:pw@scan.example.com' }]))).toMatch(
      /must not contain a user name or password/,
    );
    expect(thrown(() => rt.scriptRun('saveSettings', [{ serviceUrl: 'ftp://scan.example.com' }]))).toMatch(/must start with https:\/\//);
    expect(thrown(() => rt.scriptRun('saveSettings', [{ defaultMarketplace: 'XX' }]))).toMatch(/Unknown marketplace "XX"/);
    expect(thrown(() => rt.scriptRun('saveSettings', [{ apiKey: 'has space inside' }]))).toMatch(/does not look like an API key/);
    expect(rt.properties.user(OWNER).get(SETTINGS_KEY)).toBe(before);
    await rt.stop();
  });

  test('addresses: https anywhere, http only on loopback; trailing slash and a pasted /api/v3 are removed; blank means the default', async () => {
    const { rt } = fresh();
    const save = (serviceUrl: string) => (rt.scriptRun('saveSettings', [{ serviceUrl }]) as any).serviceUrl;
    expect(save('https://Scan.Example.com/')).toBe('https://scan.example.com');
    expect(save('https://scan.example.com:8443/tenant/api/v3/')).toBe('https://scan.example.com:8443/tenant');
    expect(save('http://localhost:8787')).toBe('http://localhost:8787');
    expect(save('http://127.0.0.1:9')).toBe('http://127.0.0.1:9');
    expect(save('http://[::1]:8787/')).toBe('http://[::1]:8787');
    expect(save('')).toBe('https://app.rocketsource.io');
    await rt.stop();
  });
});

test('formula sharing: reported for the owner only; a new key, address or marketplace rewrites every share of the user', async () => {
  const { wb, rt } = fresh();
  connect(rt, svc.url, GOOD, OWNER, 'US');
  const on = rt.scriptRun('setFormulaKeySharing', [true]) as any;
  expect(on).toEqual(expect.objectContaining({ formulaKeyShared: true, isOwner: true }));
  expect((rt.scriptRun('getSettings', [], { user: EDITOR }) as any).formulaKeyShared).toBe(false);
  // A share of another spreadsheet of the same user, and an unrelated property.
  rt.properties
    .user(OWNER)
    .set(formulaShareKey('other-sheet-id'), JSON.stringify({ v: 1, apiKey: GOOD, baseUrl: svc.url, marketplace: 'US' }));
  rt.properties.user(OWNER).set('unrelated', 'x');
  rt.scriptRun('saveSettings', [{ apiKey: CA_ONLY, defaultMarketplace: 'CA' }]);
  for (const id of [wb.id, 'other-sheet-id']) {
    expect(JSON.parse(rt.properties.user(OWNER).get(formulaShareKey(id))!)).toEqual({
      v: 1,
      apiKey: CA_ONLY,
      baseUrl: svc.url,
      marketplace: 'CA',
    });
  }
  expect(rt.properties.user(OWNER).get('unrelated')).toBe('x');
  expect(everythingOutsideUserProperties(rt, wb)).not.toContain(CA_ONLY);
  await rt.stop();
});

describe('test connection', () => {
  test('a good key on a marketplace the account has: ok, in one authenticated call', async () => {
    const { rt } = fresh();
    connect(rt, svc.url, GOOD, undefined, 'US');
    const before = rt.executions.length;
    const r = rt.scriptRun('testConnection') as any;
    expect(r).toEqual({ ok: true, message: `Connected to ${svc.url}: the key works and has access to United States (US).` });
    expect(rt.executions[before].counters.urlFetchRequests).toBe(1);
    await rt.stop();
  });

  test('a wrong key: "refused the API key (401)"', () => {
    const { rt } = fresh();
    connect(rt, svc.url, 'wrong-key-000000000000');
    expect(rt.scriptRun('testConnection')).toEqual({
      ok: false,
      problem: 'bad-key',
      message: `The Scan Service at ${svc.url} refused the API key (401). Copy the key again from Integrations > API Access and save it.`,
    });
  });

  test('an address nobody answers: the service is not answering (an outage is not blamed on the address)', async () => {
    const port = await closedPort();
    const { rt } = fresh();
    connect(rt, `http://127.0.0.1:${port}`, GOOD);
    const r = rt.scriptRun('testConnection') as any;
    expect(r.ok).toBe(false);
    expect(r.problem).toBe('unreachable');
    expect(r.message).toMatch(
      new RegExp(
        `^The Scan Service at http://127\\.0\\.0\\.1:${port} is not answering \\(.*Address unavailable.*\\): it may be down for a moment\\. Test again in a few minutes\\.$`,
      ),
    );
    expect(r.message).not.toContain(GOOD);
    await rt.stop();
  });

  test('a key whose account lacks the default marketplace: 403 named; with that marketplace it works', async () => {
    const { rt } = fresh();
    connect(rt, svc.url, CA_ONLY, undefined, 'US');
    const r = rt.scriptRun('testConnection') as any;
    expect(r).toEqual(expect.objectContaining({ ok: false, problem: 'no-marketplace-access' }));
    expect(r.message).toMatch(/^The key works, but the account has no access to the default marketplace United States \(US\) \(403\)/);
    rt.scriptRun('saveSettings', [{ defaultMarketplace: 'CA' }]);
    expect(rt.scriptRun('testConnection')).toEqual(expect.objectContaining({ ok: true }));
    await rt.stop();
  });

  test('testing a typed key uses it without saving it: a wrong one never replaces the good one, a good one is still to be saved', async () => {
    const { rt } = fresh();
    connect(rt, svc.url, GOOD, undefined, 'US');
    const saved = rt.properties.user(OWNER).toObject();
    const bad = rt.scriptRun('testConnection', [
      { apiKey: 'wrong-key-000000000000', serviceUrl: svc.url, defaultMarketplace: 'US' },
    ]) as any;
    expect(bad).toEqual(expect.objectContaining({ ok: false, problem: 'bad-key' }));
    expect(rt.properties.user(OWNER).toObject()).toEqual(saved);
    // A typed marketplace is tested too, and nothing is stored either.
    const ca = rt.scriptRun('testConnection', [{ apiKey: CA_ONLY, serviceUrl: svc.url, defaultMarketplace: 'CA' }]) as any;
    expect(ca).toEqual(expect.objectContaining({ ok: true }));
    expect(rt.properties.user(OWNER).toObject()).toEqual(saved);
    // What settings would refuse is refused the same way.
    expect(thrown(() => rt.scriptRun('testConnection', [{ apiKey: 'short' }]))).toMatch(/does not look like an API key/);
    expect(rt.scriptRun('testConnection')).toEqual(expect.objectContaining({ ok: true }));
    await rt.stop();
  });

  test('no key saved: says so without calling', async () => {
    const { rt } = fresh();
    const r = rt.scriptRun('testConnection') as any;
    expect(r).toEqual(expect.objectContaining({ ok: false, problem: 'no-key' }));
    expect(rt.executions[rt.executions.length - 1].counters.urlFetchRequests).toBe(0);
    await rt.stop();
  });
});

describe("saving with a check (the sidebar's Save; issue 32 item 10)", () => {
  test('a new key the service refuses is not saved: the good saved key stays in use, and the message says so', async () => {
    const { rt } = fresh();
    connect(rt, svc.url, GOOD);
    expect(thrown(() => rt.scriptRun('saveSettings', [{ apiKey: 'wrong-key-000000000000', check: true }]))).toBe(
      `The Scan Service at ${svc.url} refused this key (401), so nothing was saved: your saved key (••••••••cdef) is still the one in use. Copy the key again from Integrations > API Access and paste it here.`,
    );
    expect(rt.scriptRun('getSettings')).toMatchObject({ apiKeyMasked: '••••••••cdef', hasApiKey: true });
    expect(rt.scriptRun('testConnection')).toMatchObject({ ok: true });
    await rt.stop();
  });

  test('a first key that works is saved with what the check found', async () => {
    const { rt } = fresh();
    const view = rt.scriptRun('saveSettings', [{ apiKey: GOOD, serviceUrl: svc.url, check: true }]) as any;
    expect(view.hasApiKey).toBe(true);
    expect(view.checked).toEqual({
      ok: true,
      message: `Settings saved. Connected to ${svc.url}: the key works and has access to United States (US).`,
    });
    await rt.stop();
  });

  test('the service not answering cannot tell a key is wrong: saved, and the view says it was not checked and why (the service, not the address)', async () => {
    const port = await closedPort();
    const { rt } = fresh();
    const view = rt.scriptRun('saveSettings', [{ apiKey: GOOD, serviceUrl: `http://127.0.0.1:${port}`, check: true }]) as any;
    expect(view.hasApiKey).toBe(true);
    expect(view.checked).toMatchObject({ ok: false, problem: 'unreachable' });
    expect(view.checked.message).toMatch(
      /^The settings are saved, but the key could not be checked: The Scan Service at http:\/\/127\.0\.0\.1:\d+ is not answering .*it may be down for a moment/,
    );
    await rt.stop();
  });
});

describe('menu', () => {
  const expected = ['Scan this sheet', 'Scans (history)', null, 'Settings', 'Help'];
  for (const authMode of ['NONE', 'LIMITED'] as const) {
    test(`onOpen in AuthMode.${authMode} builds the add-on menu and touches no properties or network`, async () => {
      const { rt } = fresh();
      connect(rt, svc.url, GOOD);
      const seen = rt.uiEvents.length;
      rt.open({ authMode });
      const exec = rt.executions[rt.executions.length - 1];
      expect(exec.ok).toBe(true);
      const menus = rt.uiEvents.slice(seen).filter((e) => e.kind === 'menu') as any[];
      expect(menus).toHaveLength(1);
      const captions = menus[0].items.map((i: any) => (i ? i.caption : null));
      // Other features add their items (the formulas' "Convert selected column"); the scan flow's are there in this order.
      expect(captions.filter((c: string | null) => expected.includes(c))).toEqual(expected);
      expect(menus[0].items[0].functionName).toBe('menuScanSheet');
      expect(exec.counters.urlFetchRequests).toBe(0);
      await rt.stop();
    });
  }

  const openedView = (rt: ReturnType<typeof runtime>, fn: string) => {
    const seen = rt.uiEvents.length;
    rt.run(fn);
    const sidebars = rt.uiEvents.slice(seen).filter((e) => e.kind === 'sidebar') as any[];
    expect(sidebars).toHaveLength(1);
    return /data-view="([^"]*)"/.exec(sidebars[0].html)![1];
  };

  test('each menu item opens the sidebar at its view; without a key, scan and history open Settings first', async () => {
    const { rt } = fresh();
    expect(['menuScanSheet', 'menuScanHistory', 'menuSettings', 'menuHelp'].map((fn) => openedView(rt, fn))).toEqual([
      'settings',
      'settings',
      'settings',
      'help',
    ]);
    connect(rt, svc.url, GOOD);
    expect(['menuScanSheet', 'menuScanHistory', 'menuSettings', 'menuHelp'].map((fn) => openedView(rt, fn))).toEqual([
      'scan',
      'history',
      'settings',
      'help',
    ]);
    await rt.stop();
  });
});
