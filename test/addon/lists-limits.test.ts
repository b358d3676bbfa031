/**
 * The lists sync within the limits: paced under 30 requests a minute (no 429 provoked, also across
 * executions), a 429 storm honoured, the 6-minute limit (a run that stops itself, and one killed
 * by the runtime) continued without sending anything twice, and one sync per document at a time.
 */
import { Workbook } from '../../emulator/gas/spreadsheet';
import type { Runtime } from '../../emulator/gas';
import { connect, thrown } from './scanflow-helpers';
import { api, listAll, listsRuntime, useClockedServiceBehindProxy } from './lists-helpers';
// The lists sync's tuning knob is a support setting no seller or trigger sets: planted through src/store.
import { plantListsTuning } from '../../src/store/fixtures';

const KEYS = Array.from({ length: 8 }, (_, i) => `limits-key-${i}-bbbbbbbbbbbbbbbb`);
let next = 0;
const env = useClockedServiceBehindProxy(KEYS);

function setUp(url = env.proxy.url): { rt: Runtime; wb: Workbook; key: string } {
  const key = KEYS[next++];
  const wb = new Workbook({ name: 'Limits' });
  const rt = listsRuntime(wb, env.svc.clock);
  connect(rt, url, key);
  rt.scriptRun('setUpLists');
  return { rt, wb, key };
}
const byList = (r: any, id: string) => r.lists.find((l: any) => l.list === id);

async function seedBrands(key: string, n: number, prefix: string): Promise<void> {
  for (let i = 0; i < n; i += 10_000) {
    const brands = Array.from({ length: Math.min(10_000, n - i) }, (_, j) => `${prefix} ${i + j}`);
    await api(env.svc.url, key, 'POST', '/api/v3/brand-blocklist', { marketplace_id: 'US', brands });
  }
  env.svc.clock.advance(61_000);
}

test('45,000 brands read at the floor (45 pages) and paced: no 429, also when a preview just used the window', async () => {
  const { rt, wb, key } = setUp();
  await seedBrands(key, 45_000, 'Seeded');
  await env.proxy.reset();
  const preview = rt.scriptRun('previewSync') as any;
  expect(preview.rateLimited).toBe(0);
  expect(byList(preview, 'brands')).toMatchObject({ toSheet: { added: 45_000 } });
  const sync = rt.scriptRun('syncNow') as any;
  expect(sync).toMatchObject({ done: true, rateLimited: 0 });
  const seen = await env.proxy.seen();
  const brandCalls = seen.filter((s) => s.path.startsWith('/api/v3/brand-blocklist'));
  expect(brandCalls.length).toBe(90);
  expect(seen.filter((s) => s.status === 429)).toEqual([]);
  // (wb.values of 45,000 rows is slow: the row count and samples instead)
  const sheet = wb.requireSheet('Scan brand blocklist');
  expect(sheet.lastRow()).toBe(45_001);
  const names = new Set([2, 22_501, 45_001].map((r) => wb.cell('Scan brand blocklist', `B${r}`).value));
  expect(names.size).toBe(3);
  for (const n of names) expect(String(n)).toMatch(/^Seeded \d+$/);
  await rt.stop();
}, 120_000);

test('a 429 storm: Retry-After is honoured and the sync completes', async () => {
  const { rt, wb, key } = setUp();
  wb.type('Scan multipack', 'A2', 'US');
  wb.type('Scan multipack', 'B2', 'B00000000S1');
  wb.type('Scan multipack', 'C2', 3);
  await env.proxy.faults([{ path: '^/api/v3/multipack-corrections$', status: 429, times: 6, headers: { 'Retry-After': '5' } }]);
  const r = rt.scriptRun('syncNow') as any;
  expect(r).toMatchObject({ done: true, rateLimited: 6 });
  expect(byList(r, 'multipack')).toMatchObject({ state: 'synced', toService: { added: 1 } });
  expect((await listAll(env.svc, key, '/api/v3/multipack-corrections')).map((c) => c.asin)).toEqual(['B00000000S1']);
  // six waits of at least 5 s, one after the other
  expect(rt.executions[rt.executions.length - 1].durationMs).toBeGreaterThanOrEqual(30_000);
  await rt.stop();
});

test('a run that reaches its time budget stops with a checkpoint; the next run continues', async () => {
  const { rt, wb } = setUp();
  wb.type('Scan ASIN blocklist', 'B2', 'B00000000T1');
  // The support knob (no seller sets it) shortens the run's budget so that it stops after one list.
  rt.properties.script.set(...plantListsTuning({ budgetMs: 1 }));
  const first = rt.scriptRun('syncNow') as any;
  expect(first.done).toBe(false);
  expect(first.lists.map((l: any) => l.list)).toEqual(['tags']);
  expect(first.message).toMatch(
    /Notes, Brand blocklist, ASIN blocklist, Listing matches, Multipack corrections are left\. Sync again to continue/,
  );
  expect((rt.scriptRun('getListsStatus') as any).unfinished).toBe(true);
  let r = first;
  for (let i = 0; i < 10 && !r.done; i++) r = rt.scriptRun('syncNow');
  expect(r.done).toBe(true);
  expect(r.lists.map((l: any) => l.list)).toEqual(['tags', 'notes', 'brands', 'asins', 'matches', 'multipack']);
  expect(byList(r, 'asins')).toMatchObject({ toService: { added: 1 } });
  expect((rt.scriptRun('getListsStatus') as any).unfinished).toBe(false);
  await rt.stop();
});

test('killed at 6 minutes in the middle of its writes: the next run sends only what is missing, nothing twice', async () => {
  const { rt, wb, key } = setUp();
  const rows = Array.from({ length: 25_000 }, (_, i) => ['US', `Sheet brand ${i}`]);
  const sh = 'Scan brand blocklist';
  // as a user would have added rows to the tab before pasting
  (wb.requireSheet(sh) as { maxRows: number }).maxRows = 26_000;
  rows.forEach((r, i) => {
    wb.type(sh, `A${i + 2}`, r[0]);
    wb.type(sh, `B${i + 2}`, r[1]);
  });
  // the knob lets the run go on past the limit, as a run that misjudged its time would
  rt.properties.script.set(...plantListsTuning({ budgetMs: 3600_000, deadlineMs: 3600_000 }));
  // the three write requests go in one parallel wave and are refused for 200 s; of the retries,
  // one is refused again: the runtime ends the execution at 6 minutes while the sync waits for it
  await env.proxy.faults([{ method: 'POST', path: '^/api/v3/brand-blocklist$', status: 429, times: 4, headers: { 'Retry-After': '200' } }]);
  expect(thrown(() => rt.scriptRun('syncNow'))).toMatch(/Exceeded maximum execution time/);
  const onService = (await listAll(env.svc, key, '/api/v3/brand-blocklist')).length;
  // two of the three requests (10,000, 10,000 and 5,000 rows) went through; which two depends on arrival order
  expect([15_000, 20_000]).toContain(onService);
  rt.properties.script.set(...plantListsTuning({}));
  env.svc.clock.advance(61_000);
  const r = rt.scriptRun('syncNow') as any;
  expect(r.done).toBe(true);
  expect(byList(r, 'brands')).toMatchObject({ state: 'synced', toService: { added: 25_000 - onService } });
  const sent = (await env.proxy.seen()).filter((s) => s.method === 'POST' && s.path === '/api/v3/brand-blocklist' && s.status === 200);
  const names = sent.flatMap((s) => JSON.parse(s.body).brands as string[]);
  expect(names.length).toBe(25_000);
  expect(new Set(names).size).toBe(25_000);
  expect((await listAll(env.svc, key, '/api/v3/brand-blocklist')).length).toBe(25_000);
  await rt.stop();
}, 120_000);

test('notes created before a kill are not created again: the next run recognises them and writes their ids', async () => {
  const { rt, wb, key } = setUp();
  ['first', 'second', 'third'].forEach((text, i) => {
    wb.type('Scan notes', `A${i + 2}`, 'US');
    wb.type('Scan notes', `B${i + 2}`, `B00000000N${i}`);
    wb.type('Scan notes', `C${i + 2}`, `${text} note`);
  });
  rt.properties.script.set(...plantListsTuning({ budgetMs: 3600_000, deadlineMs: 3600_000 }));
  // one of the three creates (sent in one wave) is told to come back in 400 s: the runtime ends the run meanwhile
  await env.proxy.faults([{ method: 'POST', path: '^/api/v3/public/notes$', status: 429, times: 1, headers: { 'Retry-After': '400' } }]);
  expect(thrown(() => rt.scriptRun('syncNow'))).toMatch(/Exceeded maximum execution time/);
  const before = (await api(env.svc.url, key, 'GET', '/api/v3/public/notes')) as any[];
  expect(before.length).toBe(2);
  rt.properties.script.set(...plantListsTuning({}));
  const r = rt.scriptRun('syncNow') as any;
  expect(r.lists.find((l: any) => l.list === 'notes')).toMatchObject({ state: 'synced', toService: { added: 1 } });
  const notes = (await api(env.svc.url, key, 'GET', '/api/v3/public/notes')) as any[];
  expect(notes.map((n) => n.note).sort()).toEqual(['first note', 'second note', 'third note']);
  const ids = [2, 3, 4].map((row) => String(wb.cell('Scan notes', `D${row}`).value));
  expect(ids.sort()).toEqual(notes.map((n) => String(n.id)).sort());
  await rt.stop();
});

test('a second sync of the same document says so', async () => {
  const { rt } = setUp();
  rt.locks.hold('document', { forMs: 600_000 });
  expect(thrown(() => rt.scriptRun('syncNow'))).toBe(
    'Another sync (or import) is running in this spreadsheet right now. Try again when it has finished.',
  );
  await rt.stop();
});
