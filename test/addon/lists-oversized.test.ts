/**
 * Issue 26 item 2: one oversized entry from the service (a note or brand of 60,000 characters, more
 * than a Sheets cell holds) fails that entry only, reported by list (and by row when the sheet has
 * one); the other entries and lists sync, and the sheet's own additions reach the service. The
 * BUILT add-on in the local runtime, the local service on the runtime's clock, lying-proxy.cjs
 * rewriting the service's list answers.
 */
import { Workbook } from '../../emulator/gas/spreadsheet';
import { connect, startChildProxy } from './scanflow-helpers';
import { api, listAll, listsRuntime, startClockedService, tab, type ClockedService } from './lists-helpers';

jest.setTimeout(60_000);

const KEY = 'lists-oversized-key-aaaaaaaaaa';
let svc: ClockedService;
let proxy: { url: string; stop: () => void };

beforeAll(async () => {
  svc = await startClockedService([KEY]);
  proxy = await startChildProxy('lying-proxy.cjs', svc.url);
}, 60_000);
afterAll(async () => {
  await proxy?.stop();
  await svc?.stop();
});

const byList = (r: any, id: string) => r.lists.find((l: any) => l.list === id);

test('a 60,000-character note and brand from the service fail those entries only; every other list syncs', async () => {
  const wb = new Workbook({ name: 'Lists' });
  const rt = listsRuntime(wb, svc.clock);
  try {
    connect(rt, proxy.url, KEY);
    rt.scriptRun('setUpLists');
    const note = await api(svc.url, KEY, 'POST', '/api/v3/public/notes', { marketplace_id: 'US', asin: 'B00000000M', note: 'short' });
    await api(svc.url, KEY, 'POST', '/api/v3/brand-blocklist', { marketplace_id: 'US', brands: ['Acme'] });
    // A first sync brings the note into the sheet (row 2), with its id.
    expect(byList(rt.scriptRun('syncNow'), 'notes')).toMatchObject({ state: 'synced' });
    expect(tab(wb, 'Scan notes').slice(1)).toEqual([['US', 'B00000000M', 'short', String(note.id)]]);
    svc.clock.advance(61_000);

    // The sheet adds entries of its own; the service now answers a 60,000-character note and brand.
    wb.type('Scan brand blocklist', 'A3', 'US');
    wb.type('Scan brand blocklist', 'B3', 'Mine');
    wb.type('Scan ASIN blocklist', 'A2', 'US');
    wb.type('Scan ASIN blocklist', 'B2', 'B00000000X');
    await fetch(proxy.url + '/__lies', {
      method: 'POST',
      body: JSON.stringify([
        { method: 'GET', path: '^/api/v3/public/notes$', rows: { set: { note: '<repeat:60000:n>' } } },
        { method: 'GET', path: '^/api/v3/brand-blocklist$', rows: { first: 1, set: { name: '<repeat:60000:B>' } } },
      ]),
    });
    const r = rt.scriptRun('syncNow') as any;
    expect(r.done).toBe(true);
    // notes: the entry is named by its row, kept as it was in the sheet
    const notes = byList(r, 'notes');
    expect(notes.refused).toEqual([
      {
        row: 2,
        reason:
          "the service's Note for this row has 60,000 characters, more than a cell holds (50,000): not synced; shorten it in the service",
      },
    ]);
    expect(tab(wb, 'Scan notes').slice(1)).toEqual([['US', 'B00000000M', 'short', String(note.id)]]);
    // brands: the sheet's addition reached the service; the long one is named in the list's message
    const brands = byList(r, 'brands');
    expect(brands.state).toBe('synced');
    expect(brands.message).toMatch(/1 entry of the service not written, longer than a cell holds \(50,000 characters\): US · BBBB/);
    expect((await listAll(svc, KEY, '/api/v3/brand-blocklist')).map((b) => b.name).sort()).toEqual(['Acme', 'Mine']);
    for (const row of tab(wb, 'Scan brand blocklist')) for (const cell of row) expect(String(cell).length).toBeLessThan(1000);
    // the next list syncs as if nothing happened
    expect(byList(r, 'asins')).toMatchObject({ state: 'synced', toService: { added: 1 } });
    expect((await listAll(svc, KEY, '/api/v3/asin-blocklist')).map((a) => a.asin)).toEqual(['B00000000X']);
  } finally {
    await rt.stop();
  }
});
