/**
 * Supplier memory in the sidebar (issue 23): New scan says what it filled in and sends the
 * remembered roles and options as chosen (one role changed by one choice of its dropdown); a changed
 * header is said; Settings lists the remembered suppliers with Forget, and (on the real add-on) what
 * each one's next scan and re-scans use: Pictures, the column choice with the result tab's width,
 * and what Forget resets. At 300 px, with axe-core's
 * WCAG 2.1 AA rules. Screenshots: /tmp/sidebar-memory-*.png.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PreviewSummary, RememberedSupplier, ScanRequest } from '../../src/app/protocol';
import { settingsHelp } from '../../src/app/settings/help';
import { createRuntime } from '../../emulator/gas';
import { spawnService } from '../../emulator/service/spawn';
import { connect, listWorkbook, START } from '../addon/scanflow-helpers';
import { canned, closeBrowser, DIST, openSidebar, screenshot, type Sidebar, until } from './harness';
import { listPage, preview, progress, settings, setup } from './data';

jest.setTimeout(60_000);
afterAll(closeBrowser);

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

async function violations(sb: Sidebar): Promise<string[]> {
  await sb.page.addScriptTag({ content: AXE });
  return (await sb.page.evaluate(`axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
    .then((r) => r.violations.flatMap((v) => v.nodes.map((n) => v.id + ': ' + n.target.join(' '))))`)) as string[];
}

const NOTE = 'Columns and options as in your scan of ACME week 46 on Nov 13, 2026 — change any.';
const recalled = setup({
  columns: [
    { index: 0, letter: 'A', header: 'UPC', sample: '012345678905', role: 'identifier' },
    { index: 1, letter: 'B', header: 'Description', sample: 'Blue widget, 12 pack', role: 'ignore' },
    { index: 2, letter: 'C', header: 'Unit cost', sample: '$1,299.00', role: 'cost' },
    { index: 3, letter: 'D', header: 'Item #', sample: 'W-100', role: 'custom' },
  ],
  memory: {
    note: NOTE,
    options: {
      marketplace: 'CA',
      supplierDiscount: '5',
      prepCost: '0.40',
      multipackPrepCost: { enabled: true, firstN: '2', costForFirstN: '0.30', costForRest: '0.10' },
      pullHistoricalData: true,
      pictures: false,
      monthsOfCover: '3',
      targetRoi: '40',
      shareRule: 'even',
    },
    // Issue 36: the list's last scan had All columns (a request field, remembered beside the options).
    columns: 'all',
  },
});

test('a recognised list: the form says so, starts with the remembered roles and options, and one choice changes one role', async () => {
  let sent: ScanRequest | null = null;
  const sb = await openSidebar(
    canned({
      getScanSetup: recalled,
      getRunningScans: [],
      startScan: (r: ScanRequest) => {
        sent = r;
        return { progress: progress(), preview: preview(), notice: null };
      },
    }),
  );
  const { page } = sb;
  await expect(page.getByRole('status').filter({ hasText: 'Columns and options as in' }).innerText()).resolves.toBe(NOTE);
  await expect(page.getByRole('checkbox', { name: 'All columns' }).isChecked()).resolves.toBe(true);
  await page.locator('select[name=role-1]').selectOption('custom'); // one click: the Description column is carried after all
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await until(() => sent !== null, true);
  expect(sent!.roles).toEqual(['identifier', 'custom', 'cost', 'custom']);
  expect(sent!.headers).toEqual(['UPC', 'Description', 'Unit cost', 'Item #']); // what the scan is remembered by
  expect(sent!.options).toEqual({
    marketplace: 'CA',
    name: 'Price list 2026-11-21',
    pictures: false,
    supplierDiscount: '5',
    prepCost: '0.40',
    multipackPrepCost: { enabled: true, firstN: '2', costForFirstN: '0.30', costForRest: '0.10' },
    multipackOverride: false,
    multipackOverrideQuantity: null,
    pullHistoricalData: true,
    shareRule: 'even',
    monthsOfCover: '3',
    targetRoi: '40',
    maxDiscount: '',
  });
  expect(sent!.columns).toBe('all'); // sent as remembered, as the list's scheduled re-scans send it
  await expect(page.locator('input[name="multipackPrepCost.firstN"]').isVisible()).resolves.toBe(true);
  await screenshot(page, 'memory-recognised');
  expect(await violations(sb)).toEqual([]);
  expect(sb.errors).toEqual([]);
  await sb.close();
});

test('a changed header: the form says so, and the options start blank', async () => {
  const sb = await openSidebar(
    canned({
      getScanSetup: setup({ memory: { note: 'The header row changed since Nov 13, 2026: columns guessed again.' } }),
      getRunningScans: [],
    }),
  );
  const { page } = sb;
  await expect(page.getByRole('status').filter({ hasText: 'header row changed' }).innerText()).resolves.toBe(
    'The header row changed since Nov 13, 2026: columns guessed again.',
  );
  await expect(page.locator('input[name=supplierDiscount]').inputValue()).resolves.toBe('');
  await expect(page.locator('select[name=marketplace]').inputValue()).resolves.toBe('US');
  await expect(page.getByRole('checkbox', { name: 'All columns' }).isChecked()).resolves.toBe(false);
  expect(await violations(sb)).toEqual([]);
  await sb.close();
});

/** A remembered supplier without a re-scan schedule (what the server sends; choices cut to two). */
const CHOICES: Array<[string, string]> = [
  ['', 'Not scanned again'],
  ['w1@6', 'Every Monday at 06:00'],
];
/** What its next scan and re-scans use besides the roles (the server's words). */
const USES = ['Pictures: on', 'Columns: the essential ones (up to 40 in the result tab; all: up to 71)'];
const NOT_SCHEDULED = {
  rule: '',
  choices: CHOICES,
  schedule: '',
  email: false,
  emailLabel: 'Email me a summary after each run',
  scanId: 0,
};

test('Settings lists the remembered suppliers when opened; Forget removes one', async () => {
  const list: RememberedSupplier[] = [
    {
      id: 'a1',
      sheetName: 'ACME week 46',
      scannedOn: 'Nov 13, 2026',
      columns: 'Identifier: upc, Cost: unit cost',
      uses: USES,
      ...NOT_SCHEDULED,
    },
    {
      id: 'b2',
      sheetName: 'Bolt Supply',
      scannedOn: 'Nov 2, 2026',
      columns: 'Identifier: ean, Cost: price, SKU: item no',
      uses: ['Pictures: off', 'Columns: all (up to 70 in the result tab; the essential ones: up to 39)'],
      ...NOT_SCHEDULED,
    },
  ];
  const sb = await openSidebar(
    canned({
      getSettings: settings(),
      getRememberedSuppliers: list,
      forgetSupplier: (id: string) => list.filter((s) => s.id !== id),
    }),
    { view: 'settings' },
  );
  const { page } = sb;
  await page.getByText('Remembered suppliers').click();
  await page.getByRole('button', { name: 'Forget Bolt Supply (Nov 2, 2026)' }).waitFor();
  await screenshot(page, 'memory-settings');
  expect(await violations(sb)).toEqual([]);
  await page.getByRole('button', { name: 'Forget ACME week 46 (Nov 13, 2026)' }).click();
  await page.getByRole('button', { name: 'Forget ACME week 46 (Nov 13, 2026)' }).waitFor({ state: 'detached' });
  expect(sb.callsOf('forgetSupplier')).toEqual([['a1']]);
  await expect(page.locator('ul.suppliers li').allInnerTexts()).resolves.toEqual([
    // (issue 23: each supplier also has its re-scan select, the email opt-in and Save)
    'Bolt Supply · Nov 2, 2026 · Identifier: ean, Cost: price, SKU: item no Forget\n\nPictures: off · Columns: all (up to 70 in the result tab; the essential ones: up to 39)\n\nNot scanned again\nEvery Monday at 06:00\nEmail me a summary after each run\nSave',
  ]);
  expect(sb.callsOf('getRememberedSuppliers')).toHaveLength(1); // loaded once, when opened
  expect(sb.errors).toEqual([]);
  await sb.close();
});

test('Remembered suppliers: a re-scan schedule is set with one select + Save, paused in one click, and says its next run and cost', async () => {
  const LINE =
    'Scanned again every Monday at 06:00. Next run: Mon Nov 23, 06:00. Each run is a paid scan at the Scan Service, like one you start.';
  let item: RememberedSupplier = {
    id: 'a1',
    sheetName: 'ACME',
    scannedOn: 'Nov 13, 2026',
    columns: 'Identifier: upc',
    uses: USES,
    ...NOT_SCHEDULED,
  };
  const sb = await openSidebar(
    canned({
      getSettings: settings(),
      getRememberedSuppliers: () => [item],
      saveSchedule: (_id: string, rule: string) => {
        item = { ...item, rule, schedule: LINE };
        return { schedules: [], notice: null };
      },
      pauseSchedule: () => {
        item = { ...item, schedule: 'Scanned again every Monday at 06:00. Paused. Save to run it again.' };
        return [];
      },
    }),
    { view: 'settings' },
  );
  const { page } = sb;
  await page.getByText('Remembered suppliers').click();
  const when = page.getByRole('combobox', { name: 'When to scan ACME again' });
  await when.selectOption('w1@6');
  await page.getByRole('button', { name: 'Save when to scan ACME' }).click();
  await page.getByText(LINE).waitFor();
  // Saved with the supplier's latest scan (what the first run compares with) and the email left off (opt-in).
  expect(sb.callsOf('saveSchedule')).toEqual([['a1', 'w1@6', 0, false]]);
  await screenshot(page, 'schedule-settings');
  expect(await violations(sb)).toEqual([]);
  await page.getByRole('button', { name: 'Pause scanning ACME' }).click();
  await page.getByText('Paused. Save to run it again.', { exact: false }).waitFor();
  expect(sb.callsOf('pauseSchedule')).toEqual([['a1']]);
  expect(sb.errors).toEqual([]);
  await sb.close();
});

test('Scans shows each schedule with its last Changes summary', async () => {
  const line = 'ACME: Scanned again every Monday at 06:00. Next run: Mon Dec 21, 06:00. Last changes: 1 profit down · 2 unchanged.';
  const sb = await openSidebar(canned({ listScans: listPage(1, [], false, null, [line]), getRunningScans: [] }), { view: 'history' });
  await sb.page.getByText(line).waitFor();
  await screenshot(sb.page, 'schedule-scans');
  expect(await violations(sb)).toEqual([]);
  await sb.close();
});

test('New scan\'s finished card: "Scan this list again" sets the list\'s schedule with one select + Save (the email opt-in beside it), shows the next run and the cost, pauses and removes in one click', async () => {
  const LINE =
    'Scanned again every Monday at 06:00. Next run: Mon Nov 23, 06:00. Each run is a paid scan at the Scan Service, like one you start.';
  let item: RememberedSupplier = {
    id: 'a1',
    sheetName: 'ACME',
    scannedOn: 'Nov 20, 2026',
    columns: 'Identifier: upc',
    uses: USES,
    ...NOT_SCHEDULED,
    scanId: 52,
  };
  const done = progress({
    scanId: 52,
    name: 'ACME 2026-11-20',
    status: 'success',
    done: 36,
    products: 34,
    errors: 2,
    completedAt: '2026-11-20T10:00:00Z',
    resultSheet: 'ACME 2026-11-20',
  });
  const sb = await openSidebar(
    canned({
      getScanSetup: setup(),
      getRunningScans: [done],
      getScanProgress: () => done,
      // Another remembered list, scanned earlier: not this card's.
      getRememberedSuppliers: () => [{ ...item, id: 'b2', sheetName: 'Bolt', scanId: 40 }, item],
      saveSchedule: (_id: string, rule: string, _scan: number, email: boolean) => {
        item = { ...item, rule, email, schedule: LINE };
        return { schedules: [], notice: null };
      },
      pauseSchedule: () => {
        item = { ...item, schedule: 'Scanned again every Monday at 06:00. Paused. Save to run it again.' };
        return [];
      },
      removeSchedule: () => {
        item = { ...item, rule: '', email: false, schedule: '' };
        return [];
      },
    }),
  );
  const { page } = sb;
  const card = page.locator('article.card');
  await card.getByText('Scan this list again').click();
  const when = card.getByRole('combobox', { name: 'When to scan ACME again' });
  await when.selectOption('w1@6');
  await card.getByLabel('Email me a summary after each run').check();
  await card.getByRole('button', { name: 'Save when to scan ACME' }).click();
  await card.getByText(LINE).waitFor();
  expect(sb.callsOf('saveSchedule')).toEqual([['a1', 'w1@6', 52, true]]);
  await expect(card.getByLabel('Email me a summary after each run').isChecked()).resolves.toBe(true);
  await screenshot(page, 'schedule-card');
  expect(await violations(sb)).toEqual([]);
  await card.getByRole('button', { name: 'Pause scanning ACME' }).click();
  await card.getByText('Paused. Save to run it again.', { exact: false }).waitFor();
  await card.getByRole('button', { name: 'Remove scanning ACME' }).click();
  await card.getByRole('button', { name: 'Remove scanning ACME' }).waitFor({ state: 'detached' });
  expect(sb.callsOf('pauseSchedule')).toEqual([['a1']]);
  expect(sb.callsOf('removeSchedule')).toEqual([['a1']]);
  await expect(when.inputValue()).resolves.toBe('');
  expect(sb.errors).toEqual([]);
  await sb.close();
});

test('a card whose scan is not the latest of a remembered list says so instead', async () => {
  const done = progress({
    scanId: 30,
    name: 'Old',
    status: 'success',
    done: 36,
    products: 34,
    errors: 2,
    completedAt: '2026-11-20T10:00:00Z',
    resultSheet: 'Old',
  });
  const sb = await openSidebar(
    canned({
      getScanSetup: setup(),
      getRunningScans: [done],
      getScanProgress: () => done,
      getRememberedSuppliers: [
        { id: 'a1', sheetName: 'ACME', scannedOn: 'Nov 20, 2026', columns: 'Identifier: upc', uses: USES, ...NOT_SCHEDULED, scanId: 52 },
      ],
    }),
  );
  await sb.page.getByText('Scan this list again').click();
  await sb.page.getByText('Only the latest scan of a list can be scheduled.').waitFor();
  expect(sb.errors).toEqual([]);
  await sb.close();
});

test('on the real add-on: a list sent from New scan with Pictures off and All columns says so in Remembered suppliers, with the widths the room check counts; Forget says what it resets and does it', async () => {
  const KEY = 'memory-view-key-0123456789abcdef';
  const OWNER = 'owner@example.com';
  const svc = await spawnService({ SCAN_SERVICE_API_KEYS: KEY, SCAN_SERVICE_SPEED: '600000' });
  const wb = listWorkbook(6, OWNER); // sheet "List": UPC, Cost
  const rt = createRuntime({ scriptPath: join(DIST, 'Code.js'), workbook: wb, owner: OWNER, startTime: START, urlFetchTimeoutMs: 10_000 });
  let sb: Sidebar | undefined;
  try {
    connect(rt, svc.url, KEY);
    rt.run('menuScanSheet');
    const pages = rt.uiEvents.filter((e: { kind: string }) => e.kind === 'sidebar') as Array<{ kind: 'sidebar'; html: string }>;
    sb = await openSidebar((fn, args) => rt.scriptRun(fn, args), { html: pages[pages.length - 1].html });
    const { page } = sb;
    // A real New scan: the seller turns Pictures off and ticks All columns, previews and sends.
    await page.locator('select[name=role-1]').waitFor({ timeout: 20_000 });
    await page.getByRole('checkbox', { name: 'Pictures' }).uncheck();
    await page.getByRole('checkbox', { name: 'All columns' }).check();
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.locator('.preview .counts').waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.locator('article.card').waitFor({ timeout: 20_000 });
    const sent = sb.callsOf('startScan')[0][0] as ScanRequest;
    expect(sent.options.pictures).toBe(false);
    expect(sent.columns).toBe('all');
    // What the room check counts for this very sheet, read through previewScan: the columns sent, and the essential ones.
    const width = (r: ScanRequest) => (rt.scriptRun('previewScan', [r]) as PreviewSummary).room!.columns;
    const all = width(sent);
    const essential = width({ ...sent, columns: 'essential' });
    expect(all).toBeGreaterThan(essential);

    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByText('Remembered suppliers').click();
    const item = page.locator('ul.suppliers li');
    await item.getByRole('button', { name: /^Forget List / }).waitFor({ timeout: 20_000 });
    await expect(item.locator('p', { hasText: 'Pictures:' }).innerText()).resolves.toBe(
      'Pictures: off · Columns: all (up to ' + all + ' in the result tab; the essential ones: up to ' + essential + ')',
    );
    // What Forget resets is said under the list, and is the Forget button's description.
    const forget = item.getByRole('button', { name: /^Forget List / });
    const note = page.locator('#' + (await forget.getAttribute('aria-describedby')));
    await expect(note.innerText()).resolves.toBe(settingsHelp().forgetSupplier);
    // A re-scan schedule, set here: Forget removes it too.
    const when = item.getByRole('combobox', { name: 'When to scan List again' });
    await when.selectOption({ index: 1 });
    await item.getByRole('button', { name: 'Save when to scan List' }).click();
    await item.getByText('Next run:', { exact: false }).waitFor({ timeout: 20_000 });
    expect(rt.scriptRun('getSchedules')).toHaveLength(1);
    await screenshot(page, 'memory-settings-real');
    expect(await violations(sb)).toEqual([]);

    await forget.click();
    await page.getByText(settingsHelp().noSuppliers).waitFor({ timeout: 20_000 });
    expect(rt.scriptRun('getSchedules')).toEqual([]);
    await expect(note.count()).resolves.toBe(0); // nothing left to forget
    // The next New scan of the list: columns guessed, the default options (Pictures on, the essential columns).
    const setups = sb.callsOf('getScanSetup').length;
    await page.getByRole('button', { name: 'New scan' }).click();
    await until(() => sb!.callsOf('getScanSetup').length > setups, true, 20_000);
    await page.locator('select[name=role-1]').waitFor({ timeout: 20_000 });
    await expect(page.getByRole('checkbox', { name: 'Pictures' }).isChecked()).resolves.toBe(true);
    await expect(page.getByRole('checkbox', { name: 'All columns' }).isChecked()).resolves.toBe(false);
    await expect(page.getByRole('status').filter({ hasText: 'Columns and options as in' }).count()).resolves.toBe(0);
    expect(sb.errors).toEqual([]);
  } finally {
    await sb?.close();
    await rt.stop();
    await svc.stop();
  }
});
