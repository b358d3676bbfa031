/**
 * Every view of the built page passes axe-core's WCAG 2.0/2.1 A and AA rules at 300 px (issue 27,
 * item 12): colour contrast, document title and language, a level-one heading, names for the
 * progress bar and every control. Each view is shown with data in it (cards, a preview, reports, a
 * secret, messages), since an empty view hides most of what can fail. Screenshots: /tmp/sidebar-a11y-*.png.
 */
import { readFileSync } from 'node:fs';
import type { ConsentView, ListReport, ListsStatus, RowActionsView, SyncReport, WebhookList } from '../../src/app/protocol';
import { canned, closeBrowser, openSidebar, screenshot, type Sidebar } from './harness';
import { listPage, preview, progress, setup, settings } from './data';
import { webhookHelp } from '../../src/app/webhooks/help';
import { getHelp } from '../../src/app/help/help';

jest.setTimeout(60_000);
afterAll(closeBrowser);

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe's violations of WCAG 2.0/2.1 A and AA on the page as it is now: "rule: target" lines. */
async function violations(sb: Sidebar): Promise<string[]> {
  await sb.page.addScriptTag({ content: AXE });
  const found =
    (await sb.page.evaluate(`axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
    .then((r) => r.violations.flatMap((v) => v.nodes.map((n) => v.id + ': ' + n.target.join(' ') + ' ' + (n.failureSummary || '').split('\\n').slice(1, 2).join(''))))`)) as string[];
  return found;
}

const lists: ListsStatus = {
  lists: [
    {
      list: 'brands',
      title: 'Brand blocklist',
      rangeName: 'SCAN_BRAND_BLOCKLIST',
      sheetName: 'Scan brands',
      count: 3,
      lastSync: '2026-11-25T10:00:00Z',
      lastResult: 'Synced',
      state: 'synced',
    },
    {
      list: 'tags',
      title: 'Tags',
      rangeName: 'SCAN_TAGS',
      sheetName: null,
      count: null,
      lastSync: null,
      lastResult: 'not synced yet',
      state: null,
    },
  ],
  autoSync: false,
  unfinished: false,
  notice: null,
};
const counts = { added: 0, changed: 0, deleted: 0 };
const report = (over: Partial<ListReport>): ListReport => ({
  list: 'brands',
  title: 'Brand blocklist',
  rangeName: 'SCAN_BRAND_BLOCKLIST',
  sheetName: 'Scan brands',
  state: 'conflicts',
  message: '1 conflict',
  firstSync: false,
  sheetEntries: 3,
  serviceEntries: 3,
  toService: counts,
  toSheet: counts,
  conflictCount: 1,
  conflicts: [{ key: 'US|acme', label: 'US · Acme', row: 3, base: 'x', sheet: 'x', service: null }],
  refusedCount: 1,
  refused: [{ row: 4, reason: 'no marketplace' }],
  entries: [{ to: 'service', change: 'deleted', label: 'US · Acme' }],
  serviceDeletions: 0,
  sheetDeletions: 0,
  ...over,
});
const sync: SyncReport = {
  done: true,
  preview: false,
  lists: [
    report({}),
    report({
      list: 'asins',
      title: 'ASIN blocklist',
      state: 'blocked',
      message: 'would delete 3 of 4 entries',
      conflicts: [],
      conflictCount: 0,
      serviceDeletions: 3,
    }),
  ],
  message: 'Synced with 1 conflict.',
  requests: 3,
  rateLimited: 0,
};
const rows: RowActionsView = {
  actions: [
    { id: 'blockBrands', label: 'Block brands' },
    { id: 'addNote', label: 'Add note' },
  ],
  hint: 'Units, tags or note',
  recent: [{ id: 'a1', at: '2026-11-25T10:00:00Z', action: 'blockBrands', summary: 'Blocked 2 brands', undone: false }],
};
const hooks: WebhookList = {
  webhooks: [
    {
      id: 1,
      name: 'Team chat',
      url: 'https://hooks.example.com/1',
      events: ['scan.complete'],
      active: false,
      createdAt: '2026-11-25T10:00:00',
      updatedAt: '',
    },
  ],
  limit: 10,
  atLimit: false,
  limitMessage: null,
  events: ['scan.complete'],
  help: webhookHelp(),
};

/** Granular consent: a permission the seller did not give, and a re-authorisation the hourly run found. */
const consent: ConsentView = {
  notices: [
    {
      about: 'reauth',
      text: 'The hourly run at Nov 28, 14:00 found that Google needs you to allow this add-on again (missing: "Send email as you") (you did not give it, or an update asks for it): until you do, what needs it does not run while the sidebar is closed. Allow the add-on again.',
      url: 'https://script.google.com/macros/d/local-script-id/authorize',
    },
    {
      about: 'drive',
      text: 'Save to Drive needs the permission "See, edit, create, and delete only the specific Google Drive files you use with this app", which you did not give the add-on. Allow it in Google.',
      url: 'https://script.google.com/macros/d/local-script-id/authorize',
    },
  ],
};

const DUE = 'The weekly scan of List is due (Mon Nov 23, 06:00): send it now (a paid scan)?';

const server = () =>
  canned({
    getConsent: consent,
    getSettings: settings(),
    getScanSetup: setup({ running: [progress()] }),
    getHelp: getHelp(),
    getRunningScans: [progress()],
    getScanProgress: progress(),
    getDueScans: [{ id: 'h1', slot: Date.UTC(2026, 10, 23, 6), question: DUE }],
    sendDueScan: {
      message: 'Sent scan 41 (List 2026-11-23) on Mon Nov 23, 09:12; its Changes tab follows its import. Next run: Mon Nov 30, 06:00.',
      progress: progress({ scanId: 41, name: 'List 2026-11-23' }),
    },
    previewScan: preview(),
    listScans: listPage(
      1,
      [
        progress({
          scanId: 40,
          name: 'Monday list',
          status: 'success',
          done: 36,
          resultSheet: 'Monday list',
          completedAt: '2026-11-20T10:00:00Z',
        }),
        progress({ scanId: 39, name: 'Old list', status: 'error', done: 30, completedAt: '2026-11-19T10:00:00Z' }),
      ],
      true,
    ),
    getListsStatus: lists,
    syncNow: sync,
    listRowActions: rows,
    previewRowAction: {
      action: 'blockBrands',
      list: 'brands',
      summary: 'Block 2 brands',
      skipped: [],
      count: 2,
      selected: 2,
      sheetName: 'R',
      message: 'Block 2 brands (US): Acme, Zed.',
      // Issue 36: the rows with their pictures (one missing), as a match action shows them.
      pictures: [
        {
          sheetRow: 2,
          supplierTitle: 'Acme pump 12V',
          title: 'Acme Tire Inflator',
          picture: 'https://images.scan-service.invalid/I/B000000001-0.png',
        },
        { sheetRow: 3, supplierTitle: '', title: 'Zed Mug', picture: null },
      ],
    },
    listWebhooks: hooks,
    createWebhook: { webhook: hooks.webhooks[0], secret: 'a'.repeat(64) },
    testConnection: { ok: true, message: 'Connected to the Scan Service.' },
    startScan: () => {
      throw new Error('The Scan Service is busy (too many requests). Wait 30 seconds, then press Send again.');
    },
  });

/** What each view needs done after it opens so that its parts are on the page. */
const VIEWS: Array<[string, string, (sb: Sidebar) => Promise<void>]> = [
  [
    'scan',
    'scan',
    async ({ page }) => {
      await page.getByRole('button', { name: 'Preview' }).click();
      await page.locator('.preview').first().waitFor();
      await page.locator('.card .bar').first().waitFor();
    },
  ],
  [
    'scan, a due scheduled run sent from the sidebar',
    'scan',
    async ({ page }) => {
      await page.getByText(DUE).waitFor();
      await page.getByRole('button', { name: 'Send it now: ' + DUE }).click();
      await page.getByText(/^Sent scan 41 /).waitFor();
      await page.locator('.card', { hasText: 'List 2026-11-23' }).waitFor();
    },
  ],
  [
    'scan, a refused Send',
    'scan',
    async ({ page }) => {
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await page.locator('.msg.error').waitFor();
    },
  ],
  [
    'history',
    'history',
    async ({ page }) => {
      await page.locator('.card').nth(1).waitFor();
      await page.getByText(DUE).waitFor();
      await page.getByText('Filters and sort').first().click();
    },
  ],
  ['convert', 'convert', async ({ page }) => void (await page.getByRole('heading', { level: 2 }).waitFor())],
  [
    'lists',
    'lists',
    async ({ page }) => {
      await page.getByRole('button', { name: 'Block brands' }).click();
      await page.getByRole('button', { name: 'Apply' }).waitFor();
      await page.getByRole('button', { name: 'Sync now' }).click();
      await page.locator('.report .conflict').waitFor();
    },
  ],
  [
    'settings',
    'settings',
    async ({ page }) => {
      await page.getByRole('button', { name: 'Test connection' }).click();
      await page.locator('.ok[data-problem], span.ok').first().waitFor();
    },
  ],
  [
    'webhooks',
    'settings',
    async ({ page }) => {
      await page.getByRole('button', { name: 'Manage webhooks' }).click();
      await page.getByLabel('Name').fill('Zap');
      await page.getByLabel('Address').fill('https://hooks.zapier.com/x');
      await page.getByRole('button', { name: /^Add/ }).click();
      await page.locator('.secret').waitFor();
      await page.getByText('Sample event (for Zapier or Make)').click();
      await page.getByText('What can receive webhooks').click();
    },
  ],
  ['help', 'help', async ({ page }) => void (await page.locator('dl.help dd').first().waitFor())],
  ['scan, the missing permissions under the tabs', 'scan', async ({ page }) => void (await page.locator('.consent a').nth(1).waitFor())],
];

test.each(VIEWS)(
  'the %s view passes axe-core WCAG 2.1 AA, with a title, a language and a level-one heading',
  async (name, view, fillIn) => {
    const sb = await openSidebar(server(), { view });
    await sb.page.getByRole('heading', { level: 2 }).first().waitFor();
    await fillIn(sb);
    await screenshot(sb.page, 'a11y-' + name.replace(/\W+/g, '-'));
    expect(await violations(sb)).toEqual([]);
    await expect(sb.page.title()).resolves.not.toBe('');
    await expect(sb.page.locator('html').getAttribute('lang')).resolves.toBe('en');
    await expect(sb.page.getByRole('heading', { level: 1 }).count()).resolves.toBe(1);
    expect(sb.errors).toEqual([]);
    await sb.close();
  },
);
