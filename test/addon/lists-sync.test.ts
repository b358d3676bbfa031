/**
 * The lists sync, on the BUILT add-on in the local runtime against the local Scan Service (on the
 * runtime's clock): each list both ways, deletions, conflicts, refused rows, two accounts, a user's
 * own table.
 */
import { Workbook } from '../../emulator/gas/spreadsheet';
import type { Runtime } from '../../emulator/gas';
import { connect } from './scanflow-helpers';
import { api, listAll, listsRuntime, rangeArea, startClockedService, tab, userTable, type ClockedService } from './lists-helpers';

const KEY_A = 'lists-key-aaaaaaaaaaaaaaaa';
const KEY_B = 'lists-key-bbbbbbbbbbbbbbbb';
let svc: ClockedService;

beforeAll(async () => {
  svc = await startClockedService([KEY_A, KEY_B]);
}, 60_000);
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

test('set up creates a tab per list with its header and named range', () => {
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
  rt.close();
});

function put(wb: Workbook, sheet: string, rows: unknown[][], fromRow = 2): void {
  rows.forEach((row, i) => row.forEach((v, j) => wb.type(sheet, wb.a1(fromRow + i, j + 1), v)));
}
const byList = (r: any, id: string) => r.lists.find((l: any) => l.list === id);

test('brand blocklist both ways: first sync merges, later additions and deletions go across', async () => {
  const { rt, wb } = setUp();
  put(wb, 'Scan brand blocklist', [['US', 'Acme'], ['DE', 'Bosch'], ['', 'NoMarket']]);
  await api(svc.url, KEY_A, 'POST', '/api/v3/brand-blocklist', { marketplace_id: 'US', brands: ['Zeta', 'Acme'] });
  const r1 = rt.scriptRun('syncNow') as any;
  expect(r1.done).toBe(true);
  const b1 = byList(r1, 'brands');
  expect(b1).toMatchObject({ state: 'synced', firstSync: true, toService: { added: 2 }, toSheet: { added: 1 } });
  const onService = (await listAll(svc, KEY_A, '/api/v3/brand-blocklist')).map((b) => `${b.marketplace_id}:${b.name}`).sort();
  expect(onService).toEqual(['1:Acme', '1:NoMarket', '1:Zeta', '5:Bosch']);
  expect(tab(wb, 'Scan brand blocklist').slice(1)).toEqual([['US', 'Acme'], ['DE', 'Bosch'], ['', 'NoMarket'], ['US', 'Zeta']]);
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
  expect(tab(wb, 'Scan brand blocklist').slice(1)).toEqual([['US', 'Omega'], ['DE', 'Bosch'], ['', 'NoMarket'], ['US', 'Kappa']]);
  // a third sync has nothing to do
  svc.clock.advance(61_000);
  expect(byList(rt.scriptRun('syncNow'), 'brands')).toMatchObject({ state: 'unchanged', toService: { added: 0, changed: 0, deleted: 0 }, toSheet: { added: 0, changed: 0, deleted: 0 } });
  rt.close();
});

test('ASIN blocklist, listing matches and multipack corrections both ways, with changed values', async () => {
  const { rt, wb } = setUp();
  put(wb, 'Scan ASIN blocklist', [['US', 'B000000001']]);
  put(wb, 'Scan listing matches', [['US', "'012345678905", 'B000000002', true]]);
  put(wb, 'Scan multipack', [['US', 'B000000003', 4]]);
  await api(svc.url, KEY_A, 'POST', '/api/v3/asin-blocklist', { marketplace_id: 'UK', asins: ['B0000000UK'] });
  await api(svc.url, KEY_A, 'POST', '/api/v3/listing-matches', { marketplace_id: 'US', matches: [{ identifier: '0099', asin: 'B000000009', is_match: false }] });
  await api(svc.url, KEY_A, 'POST', '/api/v3/multipack-corrections', { marketplace_id: 'US', corrections: [{ asin: 'B000000008', quantity: 2 }] });
  const r1 = rt.scriptRun('syncNow') as any;
  for (const id of ['asins', 'matches', 'multipack']) expect(byList(r1, id)).toMatchObject({ state: 'synced', toService: { added: 1 }, toSheet: { added: 1 } });
  expect(tab(wb, 'Scan ASIN blocklist').slice(1)).toEqual([['US', 'B000000001'], ['UK', 'B0000000UK']]);
  expect(tab(wb, 'Scan listing matches').slice(1)).toEqual([['US', '012345678905', 'B000000002', true], ['US', '0099', 'B000000009', false]]);
  expect(tab(wb, 'Scan multipack').slice(1)).toEqual([['US', 'B000000003', 4], ['US', 'B000000008', 2]]);
  const matches = await listAll(svc, KEY_A, '/api/v3/listing-matches');
  expect(matches.map((m) => [m.identifier, m.asin, m.is_match]).sort()).toEqual([['0099', 'B000000009', false], ['012345678905', 'B000000002', true]]);

  // values change: the sheet sets 4 -> 6 units, the service flips the 0099 match
  svc.clock.advance(61_000);
  wb.type('Scan multipack', 'C2', 6);
  await api(svc.url, KEY_A, 'POST', '/api/v3/listing-matches', { marketplace_id: 'US', matches: [{ identifier: '0099', asin: 'B000000009', is_match: true }] });
  const r2 = rt.scriptRun('syncNow') as any;
  expect(byList(r2, 'multipack')).toMatchObject({ toService: { changed: 1 } });
  expect(byList(r2, 'matches')).toMatchObject({ toSheet: { changed: 1 } });
  const corr = await listAll(svc, KEY_A, '/api/v3/multipack-corrections');
  expect(corr.map((c) => [c.asin, c.quantity]).sort()).toEqual([['B000000003', 6], ['B000000008', 2]]);
  expect(tab(wb, 'Scan listing matches')[2]).toEqual(['US', '0099', 'B000000009', true]);
  rt.close();
});

test('tags and notes both ways: tag changes as assignments, notes get their ids', async () => {
  const { rt, wb } = setUp();
  put(wb, 'Scan tags', [['US', 'B00000000T', 'keep, check']]);
  put(wb, 'Scan notes', [['US', 'B00000000N', 'call supplier']]);
  await api(svc.url, KEY_A, 'PUT', '/api/v3/public/tags', { marketplace_id: 'US', tags: { B00000000S: ['service'] } });
  const note = await api(svc.url, KEY_A, 'POST', '/api/v3/public/notes', { marketplace_id: 'US', asin: 'B00000000M', note: 'from the web app' });
  const r1 = rt.scriptRun('syncNow') as any;
  expect(byList(r1, 'tags')).toMatchObject({ toService: { added: 1 }, toSheet: { added: 1 } });
  expect(byList(r1, 'notes')).toMatchObject({ toService: { added: 1 }, toSheet: { added: 1 } });
  expect(await api(svc.url, KEY_A, 'GET', '/api/v3/public/tags?marketplace_id=US')).toEqual({ B00000000S: ['service'], B00000000T: ['check', 'keep'] });
  expect(tab(wb, 'Scan tags').slice(1)).toEqual([['US', 'B00000000T', 'keep, check'], ['US', 'B00000000S', 'service']]);
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
  rt.close();
});
