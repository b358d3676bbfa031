/**
 * The lists sync, on the BUILT add-on in the local runtime against the local Scan Service (on the
 * runtime's clock): each list both ways, deletions, conflicts, refused rows, two accounts, a user's
 * own table.
 */
import { Workbook } from '../../emulator/gas/spreadsheet';
import type { Runtime } from '../../emulator/gas';
import { connect } from './scanflow-helpers';
import { api, listAll, listsRuntime, rangeArea, startClockedService, tab, userTable, type ClockedService } from './lists-helpers';

// Each test has accounts of its own (fresh keys), so no test sees another's entries.
const KEYS = Array.from({ length: 32 }, (_, i) => `lists-key-${String(i).padStart(2, '0')}-aaaaaaaaaaaa`);
let nextKey = 0;
/** An account limited to the US marketplace (others answer 403). */
const US_ONLY = 'lists-key-us-only-aaaaaaaaaa';
let KEY_A = '';
let KEY_B = '';
let svc: ClockedService;

beforeAll(async () => {
  svc = await startClockedService([...KEYS, US_ONLY + ':US']);
}, 60_000);
beforeEach(() => {
  KEY_A = KEYS[nextKey++];
  KEY_B = KEYS[nextKey++];
});
afterAll(async () => {
  await svc?.stop();
});

function setUp(key = KEY_A): { rt: Runtime; wb: Workbook } {
  const wb = new Workbook({ name: 'Lists' });
  const rt = listsRuntime(wb, svc.clock);
  connect(rt, svc.url, key);
  rt.scriptRun('setUpLists');
  return { rt, wb };
}

afterEach(() => {
  // Each test starts with a fresh rate window for both accounts.
  svc.clock.advance(61_000);
});

test('set up creates a tab per list with its header and named range', async () => {
  const { rt, wb } = setUp();
  const status = rt.scriptRun('getListsStatus') as any;
  expect(status.lists.map((l: any) => [l.rangeName, l.sheetName])).toEqual([
    ['SCAN_TAGS', 'Scan tags'],
    ['SCAN_NOTES', 'Scan notes'],
    ['SCAN_BRAND_BLOCKLIST', 'Scan brand blocklist'],
    ['SCAN_ASIN_BLOCKLIST', 'Scan ASIN blocklist'],
    ['SCAN_LISTING_MATCHES', 'Scan listing matches'],
    ['SCAN_MULTIPACK', 'Scan multipack'],
  ]);
  expect(tab(wb, 'Scan listing matches')[0]).toEqual(['Marketplace', 'Identifier', 'ASIN', 'Match']);
  await rt.stop();
});

function put(wb: Workbook, sheet: string, rows: unknown[][], fromRow = 2): void {
  rows.forEach((row, i) => row.forEach((v, j) => wb.type(sheet, wb.a1(fromRow + i, j + 1), v)));
}
const byList = (r: any, id: string) => r.lists.find((l: any) => l.list === id);

test('brand blocklist both ways: first sync merges, later additions and deletions go across', async () => {
  const { rt, wb } = setUp();
  put(wb, 'Scan brand blocklist', [
    ['US', 'Acme'],
    ['DE', 'Bosch'],
    ['', 'NoMarket'],
  ]);
  await api(svc.url, KEY_A, 'POST', '/api/v3/brand-blocklist', { marketplace_id: 'US', brands: ['Zeta', 'Acme'] });
  const r1 = rt.scriptRun('syncNow') as any;
  expect(r1.done).toBe(true);
  const b1 = byList(r1, 'brands');
  expect(b1).toMatchObject({ state: 'synced', firstSync: true, toService: { added: 2 }, toSheet: { added: 1 } });
  const onService = (await listAll(svc, KEY_A, '/api/v3/brand-blocklist')).map((b) => `${b.marketplace_id}:${b.name}`).sort();
  expect(onService).toEqual(['1:Acme', '1:NoMarket', '1:Zeta', '5:Bosch']);
  expect(tab(wb, 'Scan brand blocklist').slice(1)).toEqual([
    ['US', 'Acme'],
    ['DE', 'Bosch'],
    ['', 'NoMarket'],
    ['US', 'Zeta'],
  ]);
  expect(rangeArea(wb, 'SCAN_BRAND_BLOCKLIST')).toEqual({ r1: 1, c1: 1, r2: 5, c2: 2 });

  // the sheet deletes Acme and adds Omega; the service deletes Zeta and adds Kappa
  svc.clock.advance(61_000);
  wb.type('Scan brand blocklist', 'B2', 'Omega');
  await api(svc.url, KEY_A, 'DELETE', '/api/v3/brand-blocklist', { marketplace_id: 'US', brands: ['Zeta'] });
  await api(svc.url, KEY_A, 'POST', '/api/v3/brand-blocklist', { marketplace_id: 'US', brands: ['Kappa'] });
  const r2 = byList(rt.scriptRun('syncNow'), 'brands');
  expect(r2).toMatchObject({ state: 'synced', firstSync: false, toService: { added: 1, deleted: 1 }, toSheet: { added: 1, deleted: 1 } });
  const after = (await listAll(svc, KEY_A, '/api/v3/brand-blocklist')).map((b) => `${b.marketplace_id}:${b.name}`).sort();
  expect(after).toEqual(['1:Kappa', '1:NoMarket', '1:Omega', '5:Bosch']);
  expect(tab(wb, 'Scan brand blocklist').slice(1)).toEqual([
    ['US', 'Omega'],
    ['DE', 'Bosch'],
    ['', 'NoMarket'],
    ['US', 'Kappa'],
  ]);
  // a third sync has nothing to do
  svc.clock.advance(61_000);
  expect(byList(rt.scriptRun('syncNow'), 'brands')).toMatchObject({
    state: 'unchanged',
    toService: { added: 0, changed: 0, deleted: 0 },
    toSheet: { added: 0, changed: 0, deleted: 0 },
  });
  await rt.stop();
});

test('ASIN blocklist, listing matches and multipack corrections both ways, with changed values', async () => {
  const { rt, wb } = setUp();
  put(wb, 'Scan ASIN blocklist', [['US', 'B000000001']]);
  put(wb, 'Scan listing matches', [['US', "'012345678905", 'B000000002', true]]);
  put(wb, 'Scan multipack', [['US', 'B000000003', 4]]);
  await api(svc.url, KEY_A, 'POST', '/api/v3/asin-blocklist', { marketplace_id: 'UK', asins: ['B0000000UK'] });
  await api(svc.url, KEY_A, 'POST', '/api/v3/listing-matches', {
    marketplace_id: 'US',
    matches: [{ identifier: '0099', asin: 'B000000009', is_match: false }],
  });
  await api(svc.url, KEY_A, 'POST', '/api/v3/multipack-corrections', {
    marketplace_id: 'US',
    corrections: [{ asin: 'B000000008', quantity: 2 }],
  });
  const r1 = rt.scriptRun('syncNow') as any;
  for (const id of ['asins', 'matches', 'multipack'])
    expect(byList(r1, id)).toMatchObject({ state: 'synced', toService: { added: 1 }, toSheet: { added: 1 } });
  expect(tab(wb, 'Scan ASIN blocklist').slice(1)).toEqual([
    ['US', 'B000000001'],
    ['UK', 'B0000000UK'],
  ]);
  expect(tab(wb, 'Scan listing matches').slice(1)).toEqual([
    ['US', '012345678905', 'B000000002', true],
    ['US', '0099', 'B000000009', false],
  ]);
  expect(tab(wb, 'Scan multipack').slice(1)).toEqual([
    ['US', 'B000000003', 4],
    ['US', 'B000000008', 2],
  ]);
  const matches = await listAll(svc, KEY_A, '/api/v3/listing-matches');
  expect(matches.map((m) => [m.identifier, m.asin, m.is_match]).sort()).toEqual([
    ['0099', 'B000000009', false],
    ['012345678905', 'B000000002', true],
  ]);

  // values change: the sheet sets 4 -> 6 units, the service flips the 0099 match
  svc.clock.advance(61_000);
  wb.type('Scan multipack', 'C2', 6);
  await api(svc.url, KEY_A, 'POST', '/api/v3/listing-matches', {
    marketplace_id: 'US',
    matches: [{ identifier: '0099', asin: 'B000000009', is_match: true }],
  });
  const r2 = rt.scriptRun('syncNow') as any;
  expect(byList(r2, 'multipack')).toMatchObject({ toService: { changed: 1 } });
  expect(byList(r2, 'matches')).toMatchObject({ toSheet: { changed: 1 } });
  const corr = await listAll(svc, KEY_A, '/api/v3/multipack-corrections');
  expect(corr.map((c) => [c.asin, c.quantity]).sort()).toEqual([
    ['B000000003', 6],
    ['B000000008', 2],
  ]);
  expect(tab(wb, 'Scan listing matches')[2]).toEqual(['US', '0099', 'B000000009', true]);
  await rt.stop();
});

test('tags and notes both ways: tag changes as assignments, notes get their ids', async () => {
  const { rt, wb } = setUp();
  put(wb, 'Scan tags', [['US', 'B00000000T', 'keep, check']]);
  put(wb, 'Scan notes', [['US', 'B00000000N', 'call supplier']]);
  await api(svc.url, KEY_A, 'PUT', '/api/v3/public/tags', { marketplace_id: 'US', tags: { B00000000S: ['service'] } });
  const note = await api(svc.url, KEY_A, 'POST', '/api/v3/public/notes', {
    marketplace_id: 'US',
    asin: 'B00000000M',
    note: 'from the web app',
  });
  const r1 = rt.scriptRun('syncNow') as any;
  expect(byList(r1, 'tags')).toMatchObject({ toService: { added: 1 }, toSheet: { added: 1 } });
  expect(byList(r1, 'notes')).toMatchObject({ toService: { added: 1 }, toSheet: { added: 1 } });
  expect(await api(svc.url, KEY_A, 'GET', '/api/v3/public/tags?marketplace_id=US')).toEqual({
    B00000000S: ['service'],
    B00000000T: ['check', 'keep'],
  });
  expect(tab(wb, 'Scan tags').slice(1)).toEqual([
    ['US', 'B00000000T', 'keep, check'],
    ['US', 'B00000000S', 'service'],
  ]);
  const notes = (await api(svc.url, KEY_A, 'GET', '/api/v3/public/notes')) as any[];
  const created = notes.find((n) => n.asin === 'B00000000N');
  expect(created.note).toBe('call supplier');
  expect(tab(wb, 'Scan notes').slice(1)).toEqual([
    ['US', 'B00000000N', 'call supplier', String(created.id)],
    ['US', 'B00000000M', 'from the web app', String(note.id)],
  ]);

  // the sheet drops tag "keep" and edits its note; the service deletes its note
  wb.type('Scan tags', 'C2', 'check');
  wb.type('Scan notes', 'C2', 'called: no answer');
  await api(svc.url, KEY_A, 'DELETE', `/api/v3/public/notes/${note.id}`);
  const r2 = rt.scriptRun('syncNow') as any;
  expect(byList(r2, 'tags')).toMatchObject({ toService: { changed: 1 } });
  expect(byList(r2, 'notes')).toMatchObject({ toService: { changed: 1 }, toSheet: { deleted: 1 } });
  expect((await api(svc.url, KEY_A, 'GET', '/api/v3/public/tags?marketplace_id=US')).B00000000T).toEqual(['check']);
  const notes2 = (await api(svc.url, KEY_A, 'GET', '/api/v3/public/notes')) as any[];
  expect(notes2.map((n) => [n.id, n.note])).toEqual([[created.id, 'called: no answer']]);
  expect(tab(wb, 'Scan notes').slice(1)).toEqual([['US', 'B00000000N', 'called: no answer', String(created.id)]]);
  // and nothing is left to do: no note was created twice
  expect(byList(rt.scriptRun('syncNow'), 'notes')).toMatchObject({ state: 'unchanged' });
  expect(((await api(svc.url, KEY_A, 'GET', '/api/v3/public/notes')) as any[]).length).toBe(1);
  await rt.stop();
});

test("conflicts: neither side changes until resolved; keep the sheet's, or keep the service's", async () => {
  const { rt, wb } = setUp();
  put(wb, 'Scan multipack', [
    ['US', 'B00000000C1', 2],
    ['US', 'B00000000C2', 3],
  ]);
  rt.scriptRun('syncNow');
  wb.type('Scan multipack', 'C2', 5);
  wb.type('Scan multipack', 'C3', 7);
  await api(svc.url, KEY_A, 'POST', '/api/v3/multipack-corrections', {
    marketplace_id: 'US',
    corrections: [
      { asin: 'B00000000C1', quantity: 9 },
      { asin: 'B00000000C2', quantity: 8 },
    ],
  });
  const r = byList(rt.scriptRun('syncNow'), 'multipack');
  expect(r.state).toBe('conflicts');
  expect(r.conflicts).toEqual([
    { key: 'US\tB00000000C1', label: 'US · B00000000C1', row: 2, base: '2', sheet: '5', service: '9' },
    { key: 'US\tB00000000C2', label: 'US · B00000000C2', row: 3, base: '3', sheet: '7', service: '8' },
  ]);
  const quantities = async () =>
    Object.fromEntries((await listAll(svc, KEY_A, '/api/v3/multipack-corrections')).map((c) => [c.asin, c.quantity]));
  expect(await quantities()).toEqual({ B00000000C1: 9, B00000000C2: 8 });
  expect(
    tab(wb, 'Scan multipack')
      .slice(1)
      .map((x) => x[2]),
  ).toEqual([5, 7]);

  const sheetWins = byList(rt.scriptRun('resolveConflicts', ['multipack', ['US\tB00000000C1'], 'sheet']), 'multipack');
  expect(sheetWins).toMatchObject({ toService: { changed: 1 }, conflictCount: 1 });
  expect(await quantities()).toEqual({ B00000000C1: 5, B00000000C2: 8 });
  const serviceWins = byList(rt.scriptRun('resolveConflicts', ['multipack', 'all', 'service']), 'multipack');
  expect(serviceWins).toMatchObject({ toSheet: { changed: 1 }, conflictCount: 0, state: 'synced' });
  expect(
    tab(wb, 'Scan multipack')
      .slice(1)
      .map((x) => x[2]),
  ).toEqual([5, 8]);
  expect(byList(rt.scriptRun('syncNow'), 'multipack').state).toBe('unchanged');
  await rt.stop();
});

test('refused rows are named by sheet row, stay in the sheet, are not sent, and do not block the rest', async () => {
  const { rt, wb } = setUp();
  put(wb, 'Scan multipack', [
    ['US', 'B00000000R1', 2],
    ['US', 'SHORT', 2],
    ['US', 'B00000000R2', 1.5],
    ['XX', 'B00000000R3', 2],
    ['US', 'B00000000R4', 0],
    ['US', 'B00000000R5', 2],
    ['US', 'B00000000R5', 3],
  ]);
  put(wb, 'Scan brand blocklist', [
    ['US', 'x'.repeat(256)],
    ['US', 'Fine'],
  ]);
  put(wb, 'Scan listing matches', [['US', '', 'B00000000R6', true]]);
  const preview = rt.scriptRun('previewSync') as any;
  expect(byList(preview, 'multipack').refused).toEqual([
    { row: 3, reason: 'ASIN "SHORT" must be 10 to 25 characters long (it has 5)' },
    { row: 4, reason: 'Units must be a whole number, 1 or more (got "1.5")' },
    { row: 5, reason: 'unknown marketplace "XX"' },
    { row: 6, reason: 'Units must be a whole number, 1 or more (got "0")' },
    { row: 7, reason: 'the same entry is on several rows with different values' },
    { row: 8, reason: 'the same entry is on several rows with different values' },
  ]);
  expect(byList(preview, 'brands').refused).toEqual([{ row: 2, reason: 'brand is over 255 characters (it has 256)' }]);
  expect(byList(preview, 'matches').refused).toEqual([{ row: 2, reason: 'empty identifier' }]);
  // the preview changed nothing
  expect(await listAll(svc, KEY_A, '/api/v3/multipack-corrections')).toEqual([]);
  const r = rt.scriptRun('syncNow') as any;
  expect(byList(r, 'multipack')).toMatchObject({ state: 'synced', refusedCount: 6, toService: { added: 1 } });
  expect((await listAll(svc, KEY_A, '/api/v3/multipack-corrections')).map((c) => c.asin)).toEqual(['B00000000R1']);
  expect((await listAll(svc, KEY_A, '/api/v3/brand-blocklist')).map((c) => c.name)).toEqual(['Fine']);
  expect(tab(wb, 'Scan multipack').length).toBe(8);
  // the link of a refused row selects it
  expect(rt.scriptRun('selectRow', ['Scan multipack', 4])).toEqual({ ok: true });
  await rt.stop();
});

test('the deletion guard: a cleared tab deletes nothing until confirmed', async () => {
  const { rt, wb } = setUp();
  const brands = Array.from({ length: 60 }, (_, i) => ['US', `Brand ${i}`]);
  put(wb, 'Scan brand blocklist', brands);
  rt.scriptRun('syncNow');
  expect((await listAll(svc, KEY_A, '/api/v3/brand-blocklist')).length).toBe(60);
  for (let i = 0; i < 60; i++) {
    wb.type('Scan brand blocklist', `A${i + 2}`, '');
    wb.type('Scan brand blocklist', `B${i + 2}`, '');
  }
  svc.clock.advance(61_000);
  const blocked = byList(rt.scriptRun('syncNow'), 'brands');
  expect(blocked).toMatchObject({ state: 'blocked', serviceDeletions: 60 });
  expect(blocked.message).toBe(
    'Nothing was applied: this sync would delete 60 of 60 entries on the service. Confirm the deletions to go ahead.',
  );
  expect((await listAll(svc, KEY_A, '/api/v3/brand-blocklist')).length).toBe(60);
  svc.clock.advance(61_000);
  const confirmed = byList(rt.scriptRun('syncNow', [true]), 'brands');
  expect(confirmed).toMatchObject({ state: 'synced', toService: { deleted: 60 } });
  expect(await listAll(svc, KEY_A, '/api/v3/brand-blocklist')).toEqual([]);
  await rt.stop();
});

test('the deletion guard names the entries and puts them back into the named range on request; the next sync deletes nothing (issue 27)', async () => {
  const { rt, wb } = setUp();
  const brands = Array.from({ length: 70 }, (_, i) => ['US', `Brand ${i}`]);
  put(wb, 'Scan brand blocklist', brands);
  rt.scriptRun('syncNow');
  // 60 of the 70 rows leave the sheet (cleared from the bottom up, as a slip of the mouse does).
  for (let i = 10; i < 70; i++) {
    wb.type('Scan brand blocklist', `A${i + 2}`, '');
    wb.type('Scan brand blocklist', `B${i + 2}`, '');
  }
  svc.clock.advance(61_000);
  const blocked = byList(rt.scriptRun('syncNow'), 'brands');
  expect(blocked).toMatchObject({ state: 'blocked', serviceDeletions: 60 });
  // The first 20 are named (deletions first); the counts say how many in all.
  expect(blocked.entries).toHaveLength(20);
  expect(blocked.entries[0]).toEqual({ to: 'service', change: 'deleted', label: 'US · Brand 10' });
  expect(blocked.entries.every((e: any) => e.to === 'service' && e.change === 'deleted')).toBe(true);
  svc.clock.advance(61_000);
  const r = rt.scriptRun('restoreListEntries', ['brands']) as any;
  expect(r.restored).toBe(60);
  expect(r.message).toBe(
    '60 entries were put back into SCAN_BRAND_BLOCKLIST (tab Scan brand blocklist). The next sync deletes nothing there.',
  );
  const rows = tab(wb, 'Scan brand blocklist').filter((x) => x[1] !== '');
  expect(
    rows
      .slice(1)
      .map((x) => x[1])
      .sort(),
  ).toEqual(brands.map((b) => b[1]).sort());
  // The named range covers them (the sync reads the range only).
  const area = rangeArea(wb, 'SCAN_BRAND_BLOCKLIST')!;
  expect(area.r2 - area.r1).toBeGreaterThanOrEqual(70);
  svc.clock.advance(61_000);
  const after = byList(rt.scriptRun('syncNow'), 'brands');
  expect(after).toMatchObject({ state: 'unchanged', toService: { added: 0, changed: 0, deleted: 0 }, sheetEntries: 70 });
  expect((await listAll(svc, KEY_A, '/api/v3/brand-blocklist')).length).toBe(70);
  // Nothing left to put back.
  expect((rt.scriptRun('restoreListEntries', ['brands']) as any).restored).toBe(0);
  await rt.stop();
});

test('a preview names the entries it would change, first 20 (issue 27)', async () => {
  const { rt, wb } = setUp();
  put(wb, 'Scan brand blocklist', [
    ['US', 'Acme'],
    ['US', 'Zed'],
  ]);
  const p = byList(rt.scriptRun('previewSync'), 'brands');
  expect(p.entries).toEqual([
    { to: 'service', change: 'added', label: 'US · Acme' },
    { to: 'service', change: 'added', label: 'US · Zed' },
  ]);
  await rt.stop();
});

test('two users with different accounts on one document: each has its own base; the second gets a first-sync merge', async () => {
  const { rt, wb } = setUp(KEY_A);
  put(wb, 'Scan ASIN blocklist', [['US', 'B00000000A1']]);
  rt.scriptRun('syncNow');
  const editor = 'editor@example.com';
  connect(rt, svc.url, KEY_B, editor);
  await api(svc.url, KEY_B, 'POST', '/api/v3/asin-blocklist', { marketplace_id: 'US', asins: ['B00000000B1'] });
  // the sheet row that account A sent is not deleted from B's account or from the sheet: B has no base yet
  const preview = byList(rt.scriptRun('previewSync', [], { user: editor }), 'asins');
  expect(preview).toMatchObject({ firstSync: true, toService: { added: 1, deleted: 0 }, toSheet: { added: 1, deleted: 0 } });
  rt.scriptRun('syncNow', [], { user: editor });
  expect((await listAll(svc, KEY_B, '/api/v3/asin-blocklist')).map((a) => a.asin).sort()).toEqual(['B00000000A1', 'B00000000B1']);
  expect((await listAll(svc, KEY_A, '/api/v3/asin-blocklist')).map((a) => a.asin)).toEqual(['B00000000A1']);
  // account A's next sync sends B's row to A (A's base did not have it)
  svc.clock.advance(61_000);
  expect(byList(rt.scriptRun('syncNow'), 'asins')).toMatchObject({ toService: { added: 1 } });
  // the key is in no sheet, not even the hidden base tabs
  const everything =
    wb
      .sheetNames()
      .map((n) => JSON.stringify(wb.values(n)))
      .join('\n') + JSON.stringify(rt.properties.document?.toObject());
  expect(everything).not.toContain(KEY_A);
  expect(everything).not.toContain(KEY_B);
  expect(wb.sheetNames().filter((n) => n.startsWith('_scan_base_asins_')).length).toBe(2);
  await rt.stop();
});

test("a user's own table: named range on other columns in another order, extra columns kept row by row, range grows", async () => {
  const wb = new Workbook({ name: 'Mine' });
  userTable(
    wb,
    'My stuff',
    [
      ['Comment', 'units', 'asin', 'Added by', 'MARKET PLACE'],
      ['too big', 12, 'B00000000U1', 'Ann', 'US'],
      ['check', 3, 'B00000000U2', 'Bob', 'US'],
    ],
    'SCAN_MULTIPACK',
    { row: 3, col: 2 },
  );
  wb.type('My stuff', 'G4', '=C4*2');
  wb.type('My stuff', 'E5', '=UPPER("bob")');
  // something else of the user's further down, after blank rows: not part of the table
  wb.type('My stuff', 'B10', 'Totals:');
  const rt = listsRuntime(wb, svc.clock);
  connect(rt, svc.url, KEY_A);
  await api(svc.url, KEY_A, 'POST', '/api/v3/multipack-corrections', {
    marketplace_id: 'US',
    corrections: [{ asin: 'B00000000U3', quantity: 5 }],
  });
  rt.scriptRun('syncNow');
  rt.scriptRun('syncNow');
  expect(
    tab(wb, 'My stuff')
      .slice(2, 6)
      .map((r) => r.slice(1, 7)),
  ).toEqual([
    ['Comment', 'units', 'asin', 'Added by', 'MARKET PLACE', ''],
    ['too big', 12, 'B00000000U1', 'Ann', 'US', wb.cell('My stuff', 'G4').value],
    ['check', 3, 'B00000000U2', wb.cell('My stuff', 'E5').value, 'US', ''],
    ['', 5, 'B00000000U3', '', 'US', ''],
  ]);
  expect(rangeArea(wb, 'SCAN_MULTIPACK')).toEqual({ r1: 3, c1: 2, r2: 6, c2: 6 });
  // the service removes U1: its row goes with the user's cells of that row, the others stay on their rows' data
  svc.clock.advance(61_000);
  await api(svc.url, KEY_A, 'DELETE', '/api/v3/multipack-corrections', { marketplace_id: 'US', asins: ['B00000000U1'] });
  rt.scriptRun('syncNow');
  expect(
    tab(wb, 'My stuff')
      .slice(3, 6)
      .map((r) => r.slice(1, 6)),
  ).toEqual([
    ['check', 3, 'B00000000U2', wb.cell('My stuff', 'E4').value, 'US'],
    ['', 5, 'B00000000U3', '', 'US'],
    ['', '', '', '', ''],
  ]);
  // the user's formula moved with its row; the one outside the table is untouched
  expect(wb.cell('My stuff', 'E4').formula).toBe('=UPPER("bob")');
  expect(wb.cell('My stuff', 'G4').formula).toBe('=C4*2');
  expect(wb.cell('My stuff', 'B10').value).toBe('Totals:');
  expect(rangeArea(wb, 'SCAN_MULTIPACK')).toEqual({ r1: 3, c1: 2, r2: 5, c2: 6 });
  await rt.stop();
});

test('automatic sync rides on the one hourly trigger (shared with the import), only while the user has it on', async () => {
  const { rt, wb } = setUp();
  const own = () => rt.triggers.records.filter((t: any) => t.handler === 'importFinishedScans' && !t.deleted);
  const status = rt.scriptRun('setAutoSync', [true]) as any;
  expect(status.autoSync).toBe(true);
  expect(own()).toHaveLength(1);
  // setting it again makes no second trigger (an add-on may have one time trigger per user and document)
  rt.scriptRun('setAutoSync', [true]);
  expect(own()).toHaveLength(1);
  put(wb, 'Scan ASIN blocklist', [['US', 'B00000000H1']]);
  svc.clock.advance(3600_000);
  const fired = rt.runDueTriggers();
  expect(fired.map((f: any) => [f.handler, f.ok])).toEqual([['importFinishedScans', true]]);
  expect((await listAll(svc, KEY_A, '/api/v3/asin-blocklist')).map((a) => a.asin)).toEqual(['B00000000H1']);
  // with no scan waiting the trigger stays while automatic sync is on, and goes once it is off
  expect(own()).toHaveLength(1);
  rt.scriptRun('setAutoSync', [false]);
  svc.clock.advance(3600_000);
  rt.runDueTriggers();
  expect(own()).toHaveLength(0);
  await rt.stop();
});

test('a list the account may not write (403 for a marketplace) reports its problem; the other lists still sync', async () => {
  const { rt, wb } = setUp(US_ONLY);
  put(wb, 'Scan brand blocklist', [['DE', 'Bosch']]);
  put(wb, 'Scan ASIN blocklist', [['US', 'B00000000P1']]);
  const r = rt.scriptRun('syncNow') as any;
  expect(r.done).toBe(true);
  expect(byList(r, 'brands').state).toBe('problem');
  expect(byList(r, 'brands').message).toMatch(/^Your account has no access to this \(marketplace DE\)/);
  expect(byList(r, 'asins')).toMatchObject({ state: 'synced', toService: { added: 1 } });
  expect((await listAll(svc, US_ONLY, '/api/v3/asin-blocklist')).map((a) => a.asin)).toEqual(['B00000000P1']);
  await rt.stop();
});

test('a deleted named range is "not set up", never an emptied list; the menu item syncs and says so in a toast', async () => {
  const { rt, wb } = setUp();
  put(wb, 'Scan ASIN blocklist', [['US', 'B00000000D1']]);
  rt.open();
  rt.run('menuSyncLists');
  const toast = rt.uiEvents.filter((e: any) => e.kind === 'toast').pop() as any;
  expect(toast.title).toBe('Lists synced.');
  expect(toast.message).toContain('ASIN blocklist: first sync (merge); sent: 1 added, 0 changed, 0 deleted');
  wb.namedRanges.delete('SCAN_ASIN_BLOCKLIST');
  svc.clock.advance(61_000);
  const r = byList(rt.scriptRun('syncNow'), 'asins');
  expect(r.state).toBe('not-set-up');
  expect(r.message).toBe('No named range SCAN_ASIN_BLOCKLIST: use "Set up lists", or name your own table SCAN_ASIN_BLOCKLIST.');
  expect((await listAll(svc, KEY_A, '/api/v3/asin-blocklist')).map((a) => a.asin)).toEqual(['B00000000D1']);
  await rt.stop();
});
