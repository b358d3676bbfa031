/**
 * New scan in the browser: column dropdowns with samples and suggested roles, every option sent as
 * typed, the preview (rows that go, skipped rows by sheet row with reasons, repairs, duplicates,
 * option problems), Send, the progress card polled on a timer with Cancel, finding running scans
 * on open, and the import loop that calls importScan until the tab is complete.
 */
import type { ImportRequest, ScanProgress, ScanRequest } from '../../src/app/protocol';
import { ERROR_SCAN_NOTE } from '../../src/app/scan/progress-read';
import { NEEDS_ROOM_MARKER } from '../../src/app/failure';
import { canned, closeBrowser, openSidebar, screenshot, until } from './harness';
import { imported, preview, progress, setup } from './data';

jest.setTimeout(40_000);
afterAll(closeBrowser);

describe('columns and options', () => {
  test('one dropdown per column shows its header and a sample, with the suggested role chosen', async () => {
    const sb = await openSidebar(canned({ getScanSetup: setup(), getRunningScans: [] }));
    const { page } = sb;
    await page.locator('select[name=role-3]').waitFor();
    const cols = page.locator('.column');
    await expect(cols.count()).resolves.toBe(4);
    await expect(cols.nth(0).innerText()).resolves.toMatch(/^A\s+UPC\s+e\.g\. 012345678905/);
    await expect(cols.nth(2).innerText()).resolves.toMatch(/C\s+Unit cost\s+e\.g\. \$1,299\.00/);
    const roles = await page.locator('.column select').evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value));
    expect(roles).toEqual(['identifier', 'custom', 'cost', 'sku']);
    // Every role is offered, by its label.
    const labels = await page.locator('select[name=role-1] option').allInnerTexts();
    expect(labels).toEqual([
      'Identifier',
      'Cost',
      'SKU',
      'MAP',
      'Stock',
      'Pack quantity',
      'Image',
      'Discount',
      'Custom column',
      'Not used',
    ]);
    await expect(page.locator('input[name=name]').inputValue()).resolves.toBe('Price list 2026-11-21');
    await expect(page.locator('select[name=marketplace]').inputValue()).resolves.toBe('US');
    await sb.close();
  });

  test('the user changes roles and options; Preview and Send send exactly those, with the block the form was built from', async () => {
    const sb = await openSidebar(
      canned({
        getScanSetup: setup(),
        getRunningScans: [],
        previewScan: preview(),
        startScan: { progress: progress({ done: 0 }), preview: preview() },
      }),
    );
    const { page } = sb;
    await page.locator('select[name=role-3]').waitFor();
    // Identifier is unique: choosing it for column D frees column A.
    await page.selectOption('select[name=role-3]', 'identifier');
    await expect(page.locator('select[name=role-0]').inputValue()).resolves.toBe('ignore');
    await page.selectOption('select[name=role-0]', 'identifier');
    await expect(page.locator('select[name=role-3]').inputValue()).resolves.toBe('ignore');
    await page.selectOption('select[name=role-1]', 'ignore');
    await page.selectOption('select[name=marketplace]', 'DE');
    await page.fill('input[name=name]', 'My scan');
    await page.fill('input[name=supplierDiscount]', '5 %');
    await page.fill('input[name=prepCost]', '$0.50');
    await expect(page.locator('input[name="multipackPrepCost.firstN"]').isVisible()).resolves.toBe(false);
    await page.check('input[name="multipackPrepCost.enabled"]');
    await page.fill('input[name="multipackPrepCost.firstN"]', '2');
    await page.fill('input[name="multipackPrepCost.costForFirstN"]', '0.40');
    await page.fill('input[name="multipackPrepCost.costForRest"]', '0.10');
    await page.check('input[name=multipackOverride]');
    await page.fill('input[name=multipackOverrideQuantity]', '6');
    await page.check('input[name=pullHistoricalData]');
    // Issue 36: pictures are on unless the seller turns them off.
    await expect(page.locator('input[name=pictures]').isChecked()).resolves.toBe(true);
    await page.uncheck('input[name=pictures]');
    // Issue 36: the essential columns unless the seller asks for all of them.
    await expect(page.locator('input[name=allColumns]').isChecked()).resolves.toBe(false);
    await page.check('input[name=allColumns]');
    // Issue 24: the seller's own figures, folded under "What to buy".
    await page.getByText('What to buy').click();
    await page.fill('input[name=monthsOfCover]', '3');
    await page.selectOption('select[name=shareRule]', 'even');
    await page.fill('input[name=targetRoi]', '40');
    await page.fill('input[name=maxDiscount]', '15 %');
    await screenshot(page, 'options');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.locator('.preview .counts').waitFor();
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('article.card').waitFor();
    const expected: ScanRequest = {
      sheetName: 'Price list',
      rangeA1: 'A1:D41',
      selection: false,
      headerRow: 1,
      headers: ['UPC', 'Description', 'Unit cost', 'Item #'], // the form's headers: supplier memory (issue 23)
      roles: ['identifier', 'ignore', 'cost', 'ignore'],
      options: {
        marketplace: 'DE',
        name: 'My scan',
        supplierDiscount: '5 %',
        prepCost: '$0.50',
        multipackPrepCost: { enabled: true, firstN: '2', costForFirstN: '0.40', costForRest: '0.10' },
        multipackOverride: true,
        multipackOverrideQuantity: '6',
        pullHistoricalData: true,
        pictures: false,
        monthsOfCover: '3',
        shareRule: 'even',
        targetRoi: '40',
        maxDiscount: '15 %',
      },
      columns: 'all',
    };
    expect(sb.callsOf('previewScan')).toEqual([[expected]]);
    expect(sb.callsOf('startScan')).toEqual([[expected]]);
    await sb.close();
  });

  test('the user can say which row holds the column names (0: none); the same block is read again with it', async () => {
    const sb = await openSidebar(
      canned({
        getScanSetup: (again?: { headerRow?: number }) => (again ? setup({ headerRow: again.headerRow, rowCount: 41 }) : setup()),
        getRunningScans: [],
      }),
    );
    const { page } = sb;
    await page.locator('select[name=role-0]').waitFor();
    const line = page.locator('form.newscan > p.muted');
    await expect(line.innerText()).resolves.toContain('column names from row ');
    await page.fill('input[name=headerRow]', '0');
    await page.getByRole('button', { name: 'Use this row' }).click();
    await until(() => line.innerText().then((t) => t.includes('no header row')), true);
    const s0 = setup();
    expect(sb.callsOf('getScanSetup')).toEqual([
      [],
      [{ sheetName: s0.sheetName, rangeA1: s0.rangeA1, selection: s0.selection, headerRow: 0 }],
    ]);
    await sb.close();
  });

  test('when the add-on is not sure of the header row, it asks by the header row choice (issue 27.1)', async () => {
    const question =
      'Row 142 holds data ("90657800566", "1.55"), not column names: taken as the header row, it would never be scanned. Enter the number of the row with the column names (0 if the list has none).';
    const sb = await openSidebar(canned({ getScanSetup: setup({ headerRow: 142, headerQuestion: question }), getRunningScans: [] }));
    const { page } = sb;
    await page.locator('select[name=role-0]').waitFor();
    const asked = page.locator('.header-choice .header-question');
    await expect(asked.innerText()).resolves.toBe(question);
    // It sits right above the field that answers it.
    const [q, field] = await Promise.all([asked.boundingBox(), page.locator('input[name=headerRow]').boundingBox()]);
    expect(q!.y).toBeLessThan(field!.y);
    expect(field!.y - (q!.y + q!.height)).toBeLessThan(30);
    await screenshot(page, 'header-question');
    await sb.close();
    const sure = await openSidebar(canned({ getScanSetup: setup({ headerQuestion: '' }), getRunningScans: [] }));
    await sure.page.locator('select[name=role-0]').waitFor();
    await expect(sure.page.locator('.header-question').count()).resolves.toBe(0);
    await sure.close();
  });

  test('options left alone are sent as not set', async () => {
    const sb = await openSidebar(canned({ getScanSetup: setup(), getRunningScans: [], previewScan: preview() }));
    await sb.page.getByRole('button', { name: 'Preview' }).click();
    await sb.page.locator('.preview .counts').waitFor();
    expect(sb.callsOf('previewScan')[0][0]).toEqual({
      sheetName: 'Price list',
      rangeA1: 'A1:D41',
      selection: false,
      headerRow: 1,
      headers: ['UPC', 'Description', 'Unit cost', 'Item #'], // the form's headers: supplier memory (issue 23)
      roles: ['identifier', 'custom', 'cost', 'sku'],
      options: {
        marketplace: 'US',
        name: 'Price list 2026-11-21',
        supplierDiscount: '',
        prepCost: '',
        multipackPrepCost: null,
        multipackOverride: false,
        multipackOverrideQuantity: null,
        pullHistoricalData: false,
        pictures: true,
        // Blank: the server's defaults (2 months, 30 %, 20 %); the share rule is a choice that always has one.
        monthsOfCover: '',
        shareRule: 'fba-weighted',
        targetRoi: '',
        maxDiscount: '',
      },
    });
    await sb.close();
  });
});

describe('preview', () => {
  test('results that will not fit: the preview says so with the numbers and what fits, and Send anyway is a choice sent only when ticked', async () => {
    const message =
      'The results will not fit in this spreadsheet. About 40 products need about 1,400 cells; the spreadsheet has 900 of its 10,000,000 cells left.\nWhat fits:\n• Delete older result tabs you no longer need: "Old list" (5,000 cells).';
    const room = {
      fits: false,
      lines: 36,
      products: 41,
      columns: 34,
      needed: 1428,
      limit: 10_000_000,
      used: 9_999_100,
      left: 900,
      resultTabs: [{ name: 'Old list', cells: 5000 }],
      message,
    };
    const sb = await openSidebar(
      canned({
        getScanSetup: setup(),
        getRunningScans: [],
        previewScan: preview({ room }),
        startScan: { progress: progress({ done: 0 }), preview: preview({ room }) },
      }),
    );
    const { page } = sb;
    const anyway = page.getByRole('checkbox', { name: /Send anyway/ });
    await page.getByRole('button', { name: 'Preview' }).waitFor();
    await expect(anyway.isVisible()).resolves.toBe(false);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.locator('.preview .room').waitFor();
    await expect(page.locator('.preview .room p').allInnerTexts()).resolves.toEqual(message.split('\n'));
    await expect(anyway.isVisible()).resolves.toBe(true);
    await screenshot(page, 'room');
    await anyway.check();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await until(() => sb.callsOf('startScan').length, 1);
    expect(sb.callsOf('startScan')[0][0]).toMatchObject({ sendWhenFull: true });
    await sb.close();
  });

  test('Send refused for room (the needs-room marker, whatever the words): Send anyway is offered and the message shows no marker', async () => {
    const words = 'Not sent, so nothing is charged. The sheet has grown since the preview: about 1,400 cells are needed, 900 are left.';
    const sb = await openSidebar(
      canned({
        getScanSetup: setup(),
        getRunningScans: [],
        previewScan: preview(),
        startScan: () => {
          throw new Error('Exception: ' + NEEDS_ROOM_MARKER + words);
        },
      }),
    );
    const { page } = sb;
    const anyway = page.getByRole('checkbox', { name: /Send anyway/ });
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('alert').waitFor();
    await expect(page.getByRole('alert').locator('.text').innerText()).resolves.toBe(words);
    await expect(anyway.isVisible()).resolves.toBe(true);
    await sb.close();
  });

  test('lists the rows that go, skipped rows by sheet row with the reason, repairs, warnings and duplicates', async () => {
    const sb = await openSidebar(canned({ getScanSetup: setup(), getRunningScans: [], previewScan: preview() }));
    const { page } = sb;
    await page.getByRole('button', { name: 'Preview' }).click();
    const box = page.locator('.preview');
    await box.locator('.counts').waitFor();
    await expect(box.locator('p.ok').innerText()).resolves.toBe('36 rows will be sent.');
    await expect(box.locator('.counts').innerText()).resolves.toBe(
      '40 data rows: 36 to send, 3 skipped (2 rows without identifier, 1 unusable cost), 2 repaired, 2 duplicate rows, 1 warning.',
    );
    await expect(box.locator('details', { hasText: 'Skipped rows' }).locator('li').allInnerTexts()).resolves.toEqual([
      'Row 7: no identifier.',
      'Row 12: no identifier.',
      'Row 19: the cost "call us" is not a number.',
    ]);
    await box.getByText('Repaired cells').click();
    await expect(box.locator('details', { hasText: 'Repaired cells' }).locator('li').allInnerTexts()).resolves.toEqual([
      'A4: 12345678905 → 012345678905',
      'C9: 1.299,00 € → 1299.00',
    ]);
    await box.getByText('Duplicates').click();
    await expect(box.locator('details', { hasText: 'Duplicates' }).locator('li').allInnerTexts()).resolves.toEqual([
      '012345678905 on rows 4, 30',
    ]);
    await box.getByText('Warnings').click();
    await expect(box.locator('details', { hasText: 'Warnings' }).locator('li').allInnerTexts()).resolves.toEqual([
      'D22: stock "lots" is not a number; sent blank.',
    ]);
    await screenshot(page, 'preview');
    await sb.close();
  });

  test('option problems are listed and their fields marked; long lists say how many were left out', async () => {
    const bad = preview({
      ok: false,
      problems: [
        { field: 'supplierDiscount', message: 'Supplier discount must be a percent from 0 to below 100.' },
        { field: 'name', message: 'Give the scan a name.' },
      ],
      notListed: { skipped: 250, repaired: 0, warnings: 0, duplicates: 0 },
    });
    const sb = await openSidebar(canned({ getScanSetup: setup(), getRunningScans: [], previewScan: bad }));
    const { page } = sb;
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.locator('.preview .problems').waitFor();
    await expect(page.locator('.preview p.error').innerText()).resolves.toBe('Nothing can be sent yet.');
    await expect(page.locator('.preview .problems li').allInnerTexts()).resolves.toEqual([
      'Supplier discount must be a percent from 0 to below 100.',
      'Give the scan a name.',
    ]);
    await expect(page.locator('[aria-invalid=true]').evaluateAll((els) => els.map((e) => e.getAttribute('name')))).resolves.toEqual([
      'name',
      'supplierDiscount',
    ]);
    await expect(page.locator('.preview details', { hasText: 'Skipped rows' }).locator('li').last().innerText()).resolves.toBe(
      'and 250 more',
    );
    await sb.close();
  });

  test('a missing role and a bad option: both listed in the preview box, not in green, no counts of unread rows (issue 27.6)', async () => {
    const problems = [
      { field: 'roles', message: 'Choose the column with the product identifiers (UPC, EAN, ASIN...).' },
      { field: 'supplierDiscount', message: 'Supplier discount must be a percent from 0 to below 100.' },
    ];
    const zero = { dataRows: 0, send: 0, skipped: 0, repairedRows: 0, duplicateRows: 0, warnings: 0, bySkipReason: {} };
    const sb = await openSidebar(
      canned({
        getScanSetup: setup(),
        getRunningScans: [],
        previewScan: preview({ ok: false, problems, counts: zero, skipped: [], repaired: [], warnings: [], duplicates: [] }),
      }),
    );
    const { page } = sb;
    await page.fill('input[name=supplierDiscount]', 'ten');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.locator('.preview .problems').waitFor();
    await expect(page.locator('.preview .problems li').allInnerTexts()).resolves.toEqual(problems.map((p) => p.message));
    await expect(page.locator('.preview p.error').innerText()).resolves.toBe('Nothing can be sent yet.');
    await expect(page.locator('.preview p.ok').count()).resolves.toBe(0);
    await expect(page.locator('.preview .counts').count()).resolves.toBe(0);
    await expect(page.locator('input[name=supplierDiscount]').getAttribute('aria-invalid')).resolves.toBe('true');
    await screenshot(page, 'preview-two-problems');
    await sb.close();
  });

  test('a failure of the sheet read is shown plainly with a way to try again', async () => {
    let n = 0;
    const sb = await openSidebar(
      canned({
        getRunningScans: [],
        getScanSetup: () => (++n === 1 ? thrower('The active sheet is empty: open the price list first.') : setup()),
      }),
    );
    const { page } = sb;
    await expect(page.locator('.msg.error').innerText()).resolves.toContain('The active sheet is empty: open the price list first.');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.locator('select[name=role-0]').waitFor();
    await sb.close();
  });

  test('an error belongs to the step that failed: the next step takes it away, a new failure shows again', async () => {
    let n = 0;
    const sb = await openSidebar(
      canned({
        getScanSetup: setup(),
        getRunningScans: [],
        previewScan: () =>
          ++n === 1 || n === 3 ? thrower('Choose the column with the product identifiers (UPC, EAN, ASIN...).') : preview(),
      }),
    );
    const { page } = sb;
    const preview1 = page.getByRole('button', { name: 'Preview' });
    await preview1.click();
    await until(() => page.locator('.msg.error .text').innerText(), 'Choose the column with the product identifiers (UPC, EAN, ASIN...).');
    await preview1.click();
    await page.locator('.preview p.ok').waitFor();
    await expect(page.locator('.msg').isVisible()).resolves.toBe(false);
    await preview1.click();
    await until(() => page.locator('.msg.error .text').innerText(), 'Choose the column with the product identifiers (UPC, EAN, ASIN...).');
    await sb.close();
  });

  test('every option says in a line what it does', async () => {
    const sb = await openSidebar(canned({ getScanSetup: setup(), getRunningScans: [] }));
    const { page } = sb;
    await page.locator('select[name=role-0]').waitFor();
    const hintOf = (label: string) => page.locator('.form-group', { hasText: label }).locator('.hint').first().innerText();
    await expect(hintOf('Multipack prep cost')).resolves.toMatch(/first N units/);
    await expect(hintOf('Multipack override')).resolves.toMatch(/pack of this many units/);
    await expect(hintOf('Pull historical data')).resolves.toMatch(/90-day average rank/);
    await expect(hintOf('Pictures')).resolves.toMatch(/picture of each product beside its title/);
    await expect(hintOf('Prep cost per unit')).resolves.toMatch(/taken off the profit/);
    // The service takes prep_cost per unit (its result column "Per unit"), not per order (issue 27).
    await expect(hintOf('Prep cost per unit')).resolves.toMatch(/one unit costs/);
    await expect(page.locator('.hint', { hasText: /per order|one order/ }).count()).resolves.toBe(0);
    await sb.close();
  });
});

function thrower(message: string): never {
  throw new Error(message);
}

describe('while it runs', () => {
  test('the progress bar follows getScanProgress on a timer; Cancel calls cancelScan and stops polling', async () => {
    const steps: ScanProgress[] = [
      progress({ done: 18, speed: 150, secondsLeft: 60 * 7 + 10 }),
      progress({ done: 27, speed: 150, secondsLeft: 240 }),
    ];
    let i = 0;
    const sb = await openSidebar(
      canned({
        getScanSetup: setup(),
        getRunningScans: [],
        startScan: { progress: progress({ done: 0, speed: 0, secondsLeft: null, status: 'queued' }), preview: preview() },
        getScanProgress: () => steps[Math.min(i++, steps.length - 1)],
        cancelScan: progress({ status: 'cancelled', done: 27 }),
      }),
      { clock: true },
    );
    const { page } = sb;
    await page.getByRole('button', { name: 'Send' }).click();
    const card = page.locator('article.card');
    await card.waitFor();
    await expect(page.locator('.preview p.ok').innerText()).resolves.toBe(
      'Sent 36 rows as scan "Price list 2026-11-21". Its progress is shown above.',
    );
    // Sending again would start another paid scan: no longer the main action, and it asks first.
    const again = page.getByRole('button', { name: 'Send again…' });
    await expect(again.getAttribute('class')).resolves.toBe('');
    await again.click();
    await expect(page.locator('form .confirm').innerText()).resolves.toContain(
      'This starts another scan of the same rows, charged again by the Scan Service.',
    );
    await page.locator('form .confirm').getByRole('button', { name: 'Cancel' }).click();
    await expect(page.locator('form .confirm').isVisible()).resolves.toBe(false);
    expect(sb.callsOf('startScan')).toHaveLength(1);
    await expect(card.locator('.progress').innerText()).resolves.toBe('0 of 36 rows');
    await expect(card.locator('.badge').innerText()).resolves.toBe('Queued');
    expect(sb.callsOf('getScanProgress')).toEqual([]);
    await page.clock.runFor(4000);
    await until(() => card.locator('.progress').innerText(), '18 of 36 rows · 150 products/min · about 7 min left');
    await expect(card.locator('.bar').getAttribute('aria-valuenow')).resolves.toBe('50');
    await expect(card.locator('.bar > div').evaluate((e) => (e as unknown as { style: { width: string } }).style.width)).resolves.toBe(
      '50%',
    );
    await page.clock.runFor(4000);
    await until(() => card.locator('.progress').innerText(), '27 of 36 rows · 150 products/min · about 4 min left');
    expect(sb.callsOf('getScanProgress')).toEqual([[41], [41]]);
    await screenshot(page, 'progress');
    await card.getByRole('button', { name: 'Cancel' }).click();
    await until(() => card.locator('.badge').innerText(), 'Cancelled');
    expect(sb.callsOf('cancelScan')).toEqual([[41]]);
    // No more polling once the scan stopped, and no import the user did not ask for: it is offered.
    await page.clock.runFor(20_000);
    expect(sb.callsOf('getScanProgress')).toHaveLength(2);
    expect(sb.callsOf('importScan')).toEqual([]);
    await expect(card.getByRole('button', { name: 'Import results' }).isVisible()).resolves.toBe(true);
    await sb.close();
  });

  test('on open, running scans are found again and followed', async () => {
    const sb = await openSidebar(
      canned({
        getScanSetup: setup({ running: [progress()] }),
        getRunningScans: [progress(), progress({ scanId: 42, name: 'Other list', status: 'queued', done: 0 })],
        getScanProgress: (id: number) => progress({ scanId: id, done: 30 }),
      }),
      { clock: true },
    );
    const { page } = sb;
    await page.locator('select[name=role-0]').waitFor();
    // Each running scan once, although both calls name scan 41.
    await expect(page.locator('article.card .name').allInnerTexts()).resolves.toEqual(['Price list 2026-11-21', 'Other list']);
    await page.clock.runFor(4000);
    await until(
      () =>
        sb
          .callsOf('getScanProgress')
          .map((a) => a[0])
          .sort(),
      [41, 42],
    );
    await sb.close();
  });
});

describe('import', () => {
  test('on open, a finished scan the hourly trigger could not import (it ran without the spreadsheet) is imported at once, and says why', async () => {
    const note =
      'Not imported automatically: the hourly import ran at Nov 21, 01:00 without access to this spreadsheet (Google did not open it for the trigger), so it is imported now that the sidebar is open.';
    const finished = progress({ status: 'success', done: 36, products: 34, errors: 2, completedAt: '2026-11-21T00:12:00Z' });
    const sb = await openSidebar(
      canned({
        getScanSetup: setup(),
        getRunningScans: [{ ...finished, autoImportStopped: note, importNow: true }],
        importScan: () => imported(),
      }),
      { clock: true },
    );
    const { page } = sb;
    const card = page.locator('article.card');
    await until(
      () => card.locator('.import-status').innerText(),
      '34 rows in tab Price list 2026-11-21, rows the service could not use in Price list 2026-11-21 errors.',
    );
    expect(sb.callsOf('importScan')).toEqual([[41, { filters: [] }]]);
    await expect(card.innerText()).resolves.toContain(note);
    await screenshot(page, 'import-after-trigger-without-document');
    await sb.close();
  });

  test('a finished scan listed on open without importNow is offered, not imported', async () => {
    const finished = progress({ status: 'success', done: 36, products: 34, errors: 2, completedAt: '2026-11-21T00:12:00Z' });
    const sb = await openSidebar(canned({ getScanSetup: setup(), getRunningScans: [finished], importScan: () => imported() }), {
      clock: true,
    });
    const card = sb.page.locator('article.card');
    await card.getByRole('button', { name: 'Import results' }).waitFor();
    await sb.page.clock.runFor(8000);
    expect(sb.callsOf('importScan')).toEqual([]);
    await sb.close();
  });

  test('when the scan finishes, importScan is called again and again until the tab is complete', async () => {
    const parts = [imported({ done: false, rowsWritten: 10 }), imported({ done: false, rowsWritten: 25 }), imported()];
    let i = 0;
    const sb = await openSidebar(
      canned({
        getScanSetup: setup(),
        getRunningScans: [progress({ done: 30 })],
        getScanProgress: () => progress({ status: 'success', done: 36, products: 34, errors: 2, completedAt: '2026-11-21T00:12:00Z' }),
        importScan: () => parts[i++],
      }),
      { clock: true },
    );
    const { page } = sb;
    const card = page.locator('article.card');
    await card.waitFor();
    await page.clock.runFor(4000);
    await until(
      () => card.locator('.import-status').innerText(),
      '34 rows in tab Price list 2026-11-21, rows the service could not use in Price list 2026-11-21 errors.',
    );
    expect(sb.callsOf('importScan')).toEqual([
      [41, { filters: [] }],
      [41, { filters: [] }],
      [41, { filters: [] }],
    ]);
    await expect(card.locator('.badge').innerText()).resolves.toBe('Done');
    await expect(card.getByRole('button', { name: 'Import again' }).isVisible()).resolves.toBe(true);
    await screenshot(page, 'imported');
    await sb.close();
  });

  test('a scan the service ends with an error is imported too (its errors tab says why), and says so', async () => {
    const sb = await openSidebar(
      canned({
        getScanSetup: setup(),
        getRunningScans: [progress({ done: 30 })],
        getScanProgress: () => progress({ status: 'error', done: 36, products: 0, errors: 36, note: ERROR_SCAN_NOTE }),
        importScan: imported({
          rowsWritten: 0,
          totalRows: 0,
          message: 'No products; 36 rows the service could not use are in "Price list 2026-11-21 errors".',
        }),
      }),
      { clock: true },
    );
    const { page } = sb;
    const card = page.locator('article.card');
    await card.waitFor();
    await page.clock.runFor(4000);
    await until(
      () => card.locator('.import-status').innerText(),
      'No products; 36 rows the service could not use are in "Price list 2026-11-21 errors".',
    );
    await expect(card.locator('.badge').innerText()).resolves.toBe('Failed');
    await expect(card.locator('.error').innerText()).resolves.toMatch(/ended this scan with an error/);
    expect(sb.callsOf('importScan')).toEqual([[41, { filters: [] }]]);
    await sb.close();
  });

  test('filters and sort chosen in the sidebar re-import the tab with the same request on every call', async () => {
    let i = 0;
    const sb = await openSidebar(
      canned({
        getScanSetup: setup(),
        getRunningScans: [progress({ status: 'success', done: 36, resultSheet: 'Price list 2026-11-21' })],
        importScan: () =>
          ++i % 2
            ? imported({ done: false, rowsWritten: 5, totalRows: 8 })
            : imported({ rowsWritten: 8, totalRows: 8, errorsSheetName: null }),
      }),
    );
    const { page } = sb;
    const card = page.locator('article.card');
    await expect(card.locator('.import-status').innerText()).resolves.toBe('Results are in tab Price list 2026-11-21.');
    // Already imported: nothing is imported until asked.
    expect(sb.callsOf('importScan')).toEqual([]);
    // Filters are folded until asked (issue 27: a list of scans is not a wall of filter fields).
    await expect(card.getByLabel('Profit at least').isVisible()).resolves.toBe(false);
    await card.getByText('Filters and sort').click();
    await expect(card.getByLabel('Profit at least').isVisible()).resolves.toBe(true);
    await card.getByLabel('Profit at least').fill('$2.50');
    await card.getByLabel('ROI on Total cost at least (%)').fill('30 %');
    // A thousands separator is not a decimal comma.
    await card.getByLabel('Rank at most').fill('50,000');
    await card.getByLabel('Leave out hazmat').check();
    await card.getByLabel('Sort').selectOption('-roi');
    await screenshot(page, 'filters');
    await card.getByRole('button', { name: 'Import again' }).click();
    await until(() => card.locator('.import-status').innerText(), '8 rows in tab Price list 2026-11-21.');
    const request: ImportRequest = {
      filters: [
        { field: 'profit', operator: '>=', value: 2.5 },
        { field: 'roi', operator: '>=', value: 30 },
        { field: 'rank', operator: '<=', value: 50000 },
        { field: 'is_hazmat', operator: '=', value: false },
      ],
      sort: '-roi',
    };
    expect(sb.callsOf('importScan')).toEqual([
      [41, request],
      [41, request],
    ]);
    // A filter that is not a number (or is ambiguous) is refused before any call.
    await card.getByLabel('Offers at most').fill('few');
    await card.getByRole('button', { name: 'Import again' }).click();
    await expect(card.locator('.import-status').innerText()).resolves.toBe('Offers at most: enter a number.');
    await expect(card.getByLabel('Offers at most').getAttribute('aria-invalid')).resolves.toBe('true');
    await card.getByLabel('Offers at most').fill('');
    await card.getByLabel('Buy box price at most').fill('1.299,00');
    await card.getByRole('button', { name: 'Import again' }).click();
    await expect(card.locator('.import-status').innerText()).resolves.toBe('Buy box price at most: enter a number.');
    expect(sb.callsOf('importScan')).toHaveLength(2);
    // A decimal comma is read as one.
    await card.getByLabel('Buy box price at most').fill('12,5');
    await card.getByRole('button', { name: 'Import again' }).click();
    await until(() => sb.callsOf('importScan').length, 4);
    expect(sb.callsOf('importScan')[3]).toEqual(sb.callsOf('importScan')[2]);
    expect((sb.callsOf('importScan')[2][1] as ImportRequest).filters).toContainEqual({
      field: 'buybox_price',
      operator: '<=',
      value: 12.5,
    });
    await sb.close();
  });

  test('an import failure is shown plainly', async () => {
    const sb = await openSidebar(
      canned({
        getScanSetup: setup(),
        getRunningScans: [progress({ status: 'success', done: 36, resultSheet: 'Tab' })],
        importScan: () => thrower('Exception: The Scan Service refused the request: filter field "rnk" is unknown'),
      }),
    );
    await sb.page.getByRole('button', { name: 'Import again' }).click();
    await expect(sb.page.locator('.msg.error').innerText()).resolves.toContain(
      'The Scan Service refused the request: filter field "rnk" is unknown',
    );
    // Google's "Exception: " prefix is not shown.
    await expect(sb.page.locator('.msg.error').innerText()).resolves.not.toContain('Exception:');
    await sb.close();
  });
});

test('a scan started where Google refused the hourly trigger (20 per person): the New scan view says it will not be imported automatically and what to do', async () => {
  const notice =
    'Automatic import and automatic sync cannot run in this document: Google allows each person 20 automatic triggers for this add-on (one per document), and your other documents use all 20. To free one, open a document you no longer need, turn off "Sync automatically" under Lists and import or delete its running scans. Until then everything works by hand here: open the sidebar to import finished scans, and use Sync now.';
  const sb = await openSidebar(
    canned({
      getScanSetup: setup(),
      getRunningScans: [],
      startScan: { progress: progress({ done: 0, speed: 0, secondsLeft: null, status: 'queued' }), preview: preview(), notice },
      getScanProgress: progress({ done: 0, speed: 0, secondsLeft: null, status: 'queued' }),
    }),
    { clock: true },
  );
  const { page } = sb;
  await page.getByRole('button', { name: 'Send' }).click();
  await page.locator('article.card').waitFor();
  await expect(page.locator('.preview p.warn').innerText()).resolves.toBe(notice);
  await screenshot(page, 'scan-trigger-limit');
  await sb.close();
});
