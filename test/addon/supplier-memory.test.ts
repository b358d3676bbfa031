/**
 * Supplier memory (issue 23), on the BUILT add-on in the local runtime against the local Scan
 * Service: a scan remembers its column roles and options; the next New scan of the same list (rows
 * added and reordered), or of another sheet with the same header, starts with them and says so; a
 * changed header is not recognised and said so; two editors of one document never share memory;
 * Forget in Settings.
 */
import type { Workbook } from '../../emulator/gas/spreadsheet';
import { connect, listWorkbook, runtime, useServiceBehindProxy } from './scanflow-helpers';
import { suppliersKey } from '../../src/store/suppliers';

const env = useServiceBehindProxy({ SCAN_SERVICE_SPEED: '600000' });

const OWNER = 'owner@example.com';
const EDITOR = 'editor@example.com';
/** The roles the seller chose (not the suggested ones: Description ignored, the note carried). */
const CHOSEN = ['identifier', 'cost', 'ignore', 'custom'];
const OPTIONS = {
  marketplace: 'US',
  name: 'ACME week 1',
  supplierDiscount: '5',
  prepCost: '0.40',
  pullHistoricalData: true,
  monthsOfCover: '3',
  targetRoi: '40',
  shareRule: 'even',
};
const NOTE = 'Columns and options as in your scan of List on Nov 20, 2026 — change any.';

/** The list workbook (UPC, Cost) with two more columns, the owner and the editor connected. */
function setUp(): { wb: Workbook; rt: ReturnType<typeof runtime> } {
  const wb = listWorkbook(6, OWNER);
  const sh = wb.requireSheet('List');
  wb.writeInput(sh, 1, 3, 'Description');
  wb.writeInput(sh, 1, 4, 'Supplier note');
  for (let r = 2; r <= 7; r++) {
    wb.writeInput(sh, r, 3, 'Item ' + r);
    wb.writeInput(sh, r, 4, 'note ' + r);
  }
  const rt = runtime(wb);
  connect(rt, env.proxy.url, env.svc.apiKey);
  connect(rt, env.proxy.url, env.svc.apiKey, EDITOR);
  return { wb, rt };
}

function setupOf(rt: ReturnType<typeof runtime>, user?: string, sheetName?: string): any {
  return rt.scriptRun('getScanSetup', sheetName ? [{ sheetName }] : [], user ? { user } : {});
}

function start(rt: ReturnType<typeof runtime>, setup: any, roles: string[], options: Record<string, unknown>, user?: string): any {
  return rt.scriptRun(
    'startScan',
    [
      {
        roles,
        options,
        sheetName: setup.sheetName,
        rangeA1: setup.rangeA1,
        selection: setup.selection,
        headerRow: setup.headerRow,
        headers: setup.columns.map((c: any) => c.header), // as the sidebar sends them
      },
    ],
    user ? { user } : {},
  );
}

const roles = (setup: any) => setup.columns.map((c: any) => c.role);

/** The owner scans the list with the chosen roles and options. */
function scanOnce(rt: ReturnType<typeof runtime>): number {
  const first = setupOf(rt);
  expect(first.memory).toBeUndefined();
  expect(roles(first)).not.toEqual(CHOSEN); // the chosen roles differ from the suggestions: what comes back is remembered
  const started = start(rt, first, CHOSEN, OPTIONS);
  expect(started.progress.scanId).toBeGreaterThan(0);
  return started.progress.scanId;
}

test('the same list is recognised after rows were added and reordered: roles and options filled in, and said so', () => {
  const { wb, rt } = setUp();
  scanOnce(rt);
  const sh = wb.requireSheet('List');
  // Rows reordered (row 2 and row 7 swapped) and two rows added.
  const row2 = [1, 2, 3, 4].map((c) => wb.cell('List', wb.a1(2, c)).display);
  const row7 = [1, 2, 3, 4].map((c) => wb.cell('List', wb.a1(7, c)).display);
  row7.forEach((v, i) => wb.writeInput(sh, 2, i + 1, "'" + v));
  row2.forEach((v, i) => wb.writeInput(sh, 7, i + 1, "'" + v));
  wb.writeInput(sh, 8, 1, "'036000291452");
  wb.writeInput(sh, 8, 2, 3.5);
  wb.writeInput(sh, 9, 1, "'012345678905");
  wb.writeInput(sh, 9, 2, 4.5);

  const again = setupOf(rt);
  expect(again.rangeA1).toBe('A1:D9');
  expect(again.memory).toEqual({
    note: NOTE,
    options: {
      marketplace: 'US',
      supplierDiscount: '5',
      prepCost: '0.40',
      pullHistoricalData: true,
      monthsOfCover: '3',
      targetRoi: '40',
      shareRule: 'even',
    },
  });
  expect(roles(again)).toEqual(CHOSEN);
  // The scan name is the new scan's own, not the remembered one.
  expect(again.defaultName).toBe('List 2026-11-20');
});

test('another sheet with the same header (columns in another order) is recognised as the same supplier', () => {
  const { wb, rt } = setUp();
  scanOnce(rt);
  const week2 = wb.addSheet('ACME week 2');
  const order = ['Supplier note', 'Cost', 'UPC', 'Description'];
  order.forEach((n, i) => wb.writeInput(week2, 1, i + 1, n));
  wb.writeInput(week2, 2, 1, 'note');
  wb.writeInput(week2, 2, 2, 2.5);
  wb.writeInput(week2, 2, 3, "'036000291452");
  wb.writeInput(week2, 2, 4, 'Tissue');
  const s = setupOf(rt, undefined, 'ACME week 2');
  expect(s.memory.note).toBe(NOTE);
  expect(s.columns.map((c: any) => [c.header, c.role])).toEqual([
    ['Supplier note', 'custom'],
    ['Cost', 'cost'],
    ['UPC', 'identifier'],
    ['Description', 'ignore'],
  ]);
  // Scanned there too, the supplier is remembered once, under its newest sheet.
  start(rt, s, roles(s), { ...OPTIONS, ...s.memory.options, name: 'ACME week 2' });
  const list = rt.scriptRun('getRememberedSuppliers') as any[];
  expect(list).toEqual([
    {
      id: expect.any(String),
      sheetName: 'ACME week 2',
      scannedOn: 'Nov 20, 2026',
      columns: 'Cost: cost, Identifier: upc',
      // What its next scan and re-scans use (the widths, checked against the room check: test/sidebar/supplier-memory-view.test.ts).
      uses: ['Pictures: on', expect.stringMatching(/^Columns: the essential ones \(up to \d+ in the result tab; all: up to \d+\)$/)],
      // No re-scan schedule yet; the choices Settings offers for one.
      rule: '',
      schedule: '',
      email: false,
      emailLabel: 'Email me a summary after each run',
      scanId: expect.any(Number),
      choices: expect.arrayContaining([['w1@6', 'Every Monday at 06:00']]),
    },
  ]);
});

test('a header that changed is not recognised: columns guessed again, and the form says since when', () => {
  const { wb, rt } = setUp();
  scanOnce(rt);
  wb.writeInput(wb.requireSheet('List'), 1, 2, 'Unit cost USD');
  const s = setupOf(rt);
  expect(s.memory).toEqual({ note: 'The header row changed since Nov 20, 2026: columns guessed again.' });
  expect(roles(s)).not.toEqual(CHOSEN);
  expect(s.columns[1]).toEqual(expect.objectContaining({ header: 'Unit cost USD', role: 'cost' })); // guessed, as a first scan
});

test('two editors of one document never see or change each other memory (user properties, nothing in the document)', () => {
  const { wb, rt } = setUp();
  scanOnce(rt);
  const ownerList = rt.scriptRun('getRememberedSuppliers') as any[];
  expect(ownerList).toHaveLength(1);
  // The editor opens New scan on the same list: their own memory is empty.
  const editorSetup = setupOf(rt, EDITOR);
  expect(editorSetup.memory).toBeUndefined();
  expect(roles(editorSetup)).not.toEqual(CHOSEN);
  expect(rt.scriptRun('getRememberedSuppliers', [], { user: EDITOR })).toEqual([]);
  // Forgetting by the owner's id as the editor changes nothing of the owner's.
  expect(rt.scriptRun('forgetSupplier', [ownerList[0].id], { user: EDITOR })).toEqual([]);
  expect(rt.scriptRun('getRememberedSuppliers')).toEqual(ownerList);
  // The editor scans with other choices; each keeps their own.
  start(rt, editorSetup, roles(editorSetup), { marketplace: 'US', name: 'Editor scan', supplierDiscount: '9' }, EDITOR);
  expect(setupOf(rt, EDITOR).memory.options).toEqual({ marketplace: 'US', supplierDiscount: '9' });
  expect(setupOf(rt).memory.options.supplierDiscount).toBe('5');
  expect(roles(setupOf(rt))).toEqual(CHOSEN);
  // Nothing of it is in the document's properties (shared by every editor).
  expect(Object.keys(rt.properties.document!.toObject()).filter((k) => k.includes('supplier'))).toEqual([]);
  expect(JSON.stringify(rt.properties.document!.toObject())).not.toContain(ownerList[0].id);
  expect(rt.properties.user(OWNER).get(suppliersKey(wb.id))).not.toBeNull();
});

test('Forget in Settings: the supplier is no longer filled in', () => {
  const { rt } = setUp();
  const scanId = scanOnce(rt);
  const [s] = rt.scriptRun('getRememberedSuppliers') as any[];
  expect(s).toEqual({
    id: expect.any(String),
    sheetName: 'List',
    scannedOn: 'Nov 20, 2026',
    columns: 'Identifier: upc, Cost: cost',
    // What its next scan and re-scans use (the widths, checked against the room check: test/sidebar/supplier-memory-view.test.ts).
    uses: ['Pictures: on', expect.stringMatching(/^Columns: the essential ones \(up to \d+ in the result tab; all: up to \d+\)$/)],
    rule: '',
    schedule: '',
    email: false,
    emailLabel: 'Email me a summary after each run',
    // The scan just sent: its card offers "Scan this list again".
    scanId,
    choices: expect.arrayContaining([['', 'Not scanned again']]),
  });
  expect(rt.scriptRun('forgetSupplier', [s.id])).toEqual([]);
  const after = setupOf(rt);
  expect(after.memory).toBeUndefined();
  expect(roles(after)).not.toEqual(CHOSEN);
});
