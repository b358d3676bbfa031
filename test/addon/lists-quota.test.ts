/**
 * The automatic lists sync within Google's daily quotas (issue 15): each list on its own interval
 * (an unchanged list is not re-read every hour; an edit of its table brings it back; a large list
 * at most every 4 hours), a daily URL Fetch quota reached mid-sync (nothing lost, nothing sent
 * twice, resumed the next day) and what the Lists view says meanwhile. BUILT add-on in the local
 * runtime (consumer quotas, virtual clock), the local service on the same clock, a recording proxy.
 */
import { Workbook } from '../../emulator/gas/spreadsheet';
import type { Runtime } from '../../emulator/gas';
import { connect, utcClockText } from './scanflow-helpers';
import { api, listAll, listsRuntime, useClockedServiceBehindProxy } from './lists-helpers';
import { QUOTA_STOP_KEY } from '../../src/store/keys';
import { plantTriggerDay } from '../../src/store/fixtures';

jest.setTimeout(120_000);

const OWNER = 'owner@example.com';
const HOUR = 3600_000;
const KEYS = Array.from({ length: 6 }, (_, i) => `quota-lists-key-${i}-cccccccccccc`);
let next = 0;
const env = useClockedServiceBehindProxy(KEYS);

const BRANDS = 'Scan brand blocklist';
const utc = utcClockText;

/** A document with the six tables, the automatic sync turned on (which makes the hourly trigger). */
function setUp(): { rt: Runtime; wb: Workbook; key: string } {
  const key = KEYS[next++];
  const wb = new Workbook({ name: 'Quota lists' });
  const rt = listsRuntime(wb, env.svc.clock);
  connect(rt, env.proxy.url, key);
  rt.scriptRun('setUpLists');
  rt.scriptRun('setAutoSync', [true]);
  expect(rt.triggers.records.filter((t) => t.handler === 'importFinishedScans')).toHaveLength(1);
  return { rt, wb, key };
}

/** One hour on, the hourly trigger fires; the requests it made, by API area. */
async function hourly(rt: Runtime): Promise<string[]> {
  const before = (await env.proxy.seen()).length;
  rt.advance(HOUR);
  const fired = rt.runDueTriggers();
  expect(fired).toMatchObject([{ handler: 'importFinishedScans', ok: true }]);
  return (await env.proxy.seen()).slice(before).map((s) => s.method + ' ' + s.path.split('?')[0]);
}
const reads = (calls: string[], area: string) => calls.filter((c) => c === 'GET /api/v3/' + area).length;
const status = (rt: Runtime) => rt.scriptRun('getListsStatus') as { notice: string | null; unfinished: boolean };

test('an unchanged list is re-read after 1, 2, 4, 8 hours, not every hour; an edit of its table brings it back at the next run, and so does Sync now', async () => {
  const { rt, wb, key } = setUp();
  try {
    wb.type(BRANDS, 'A2', 'US');
    wb.type(BRANDS, 'B2', 'Acme');
    // Hours 1..12 with nothing changed after the first sync (which sends Acme).
    const brandReadsAt: number[] = [];
    const asinReadsAt: number[] = [];
    for (let h = 1; h <= 12; h++) {
      const calls = await hourly(rt);
      if (reads(calls, 'brand-blocklist')) brandReadsAt.push(h);
      if (reads(calls, 'asin-blocklist')) asinReadsAt.push(h);
    }
    // Brands changed at hour 1 (sent), then quiet: 2 (1 h on), 4, 8; the empty ASIN list: 1, 2, 4, 8.
    expect(brandReadsAt).toEqual([1, 2, 4, 8]);
    expect(asinReadsAt).toEqual([1, 2, 4, 8]);
    expect((await listAll(env.svc, key, '/api/v3/brand-blocklist')).map((b) => b.name)).toEqual(['Acme']);

    // The user adds a brand at hour 12: the next run reads the table (no URL Fetch for that), sees
    // the edit and syncs that list only; it is then hourly again.
    wb.type(BRANDS, 'A3', 'US');
    wb.type(BRANDS, 'B3', 'Bosch');
    const h13 = await hourly(rt);
    expect(reads(h13, 'brand-blocklist')).toBe(1);
    expect(h13.filter((c) => c.startsWith('POST /api/v3/brand-blocklist'))).toHaveLength(1);
    expect(h13.filter((c) => !c.includes('brand-blocklist'))).toEqual([]);
    expect((await listAll(env.svc, key, '/api/v3/brand-blocklist')).map((b) => b.name).sort()).toEqual(['Acme', 'Bosch']);
    expect(reads(await hourly(rt), 'brand-blocklist')).toBe(1);

    // A change made on the service alone reaches the sheet within the list's interval; Sync now
    // brings every list back to hourly: the next automatic run reads the ASIN list again (due at 16 otherwise).
    await api(env.svc.url, key, 'POST', '/api/v3/asin-blocklist', { marketplace_id: 'US', asins: ['B00000000Q1'] });
    const h15 = await hourly(rt);
    expect(reads(h15, 'asin-blocklist')).toBe(0);
    expect(wb.cell('Scan ASIN blocklist', 'B2').value).toBe('');
    env.svc.clock.advance(61_000);
    expect(rt.scriptRun('syncNow')).toMatchObject({ done: true });
    expect(wb.cell('Scan ASIN blocklist', 'B2').value).toBe('B00000000Q1');
    expect(reads(await hourly(rt), 'asin-blocklist')).toBe(1);
    expect(rt.executions.filter((e) => e.kind === 'installable-trigger').every((e) => e.ok)).toBe(true);
  } finally {
    await rt.stop();
  }
});

test('a list of more pages than one rate window (31,000 entries) is re-read at most every 4 hours, edits included', async () => {
  const { rt, wb, key } = setUp();
  try {
    for (let i = 0; i < 31_000; i += 10_000) {
      const brands = Array.from({ length: Math.min(10_000, 31_000 - i) }, (_, j) => `Big ${i + j}`);
      await api(env.svc.url, key, 'POST', '/api/v3/brand-blocklist', { marketplace_id: 'US', brands });
    }
    env.svc.clock.advance(61_000);
    const readAt: number[] = [];
    for (let h = 1; h <= 9; h++) {
      // an edit every hour after the first sync wrote the 31,000 rows into the sheet
      if (h >= 2) wb.type(BRANDS, 'B2', `Edited ${h}`);
      const calls = await hourly(rt);
      if (reads(calls, 'brand-blocklist')) readAt.push(h);
    }
    expect(readAt).toEqual([1, 5, 9]);
    // the last edit (hour 9) is on the service; the earlier ones were replaced by it in the sheet before any was sent
    const names = new Set((await listAll(env.svc, key, '/api/v3/brand-blocklist')).map((b) => b.name));
    expect(names.has('Edited 9')).toBe(true);
    expect(names.has('Edited 5')).toBe(false);
    expect(names.size).toBe(31_000);
  } finally {
    await rt.stop();
  }
});

test('the URL Fetch quota reached mid-sync: stops with its checkpoint, the Lists view says so, nothing lost or sent twice, resumes the next day', async () => {
  const { rt, wb, key } = setUp();
  try {
    // Two marketplaces: two write requests, one after the other (DE, then US: in key order).
    const rows = [
      ['US', 'Alpha'],
      ['US', 'Beta'],
      ['DE', 'Gamma'],
      ['DE', 'Delta'],
    ];
    rows.forEach((r, i) => {
      wb.type(BRANDS, `A${i + 2}`, r[0]);
      wb.type(BRANDS, `B${i + 2}`, r[1]);
    });
    wb.type('Scan multipack', 'B2', 'B00000000M1');
    wb.type('Scan multipack', 'C2', 2);
    // The user's other scripts left four calls today: tags, notes, the brands' page and the DE write.
    rt.quotas.spend(OWNER, 'urlFetchCalls', 20_000 - 4 - rt.quotaUsage().urlFetchCalls.used);
    const calls = await hourly(rt);
    expect(calls).toEqual([
      'GET /api/v3/public/tags',
      'GET /api/v3/public/notes',
      'GET /api/v3/brand-blocklist',
      'POST /api/v3/brand-blocklist',
    ]);
    expect(rt.quotaUsage().urlFetchCalls.used).toBe(20_000);
    const stop = JSON.parse(rt.properties.user(OWNER).get(QUOTA_STOP_KEY)!);
    expect(stop).toMatchObject({ q: 'urlfetch' });
    expect(stop.until).toBe(stop.at + 24 * HOUR);
    // Sent so far is on the service; the rest waits, the sheet as the user left it.
    expect((await listAll(env.svc, key, '/api/v3/brand-blocklist')).map((b) => b.name).sort()).toEqual(['Delta', 'Gamma']);
    expect(wb.values(BRANDS).slice(1, 5)).toEqual(rows);
    const s = status(rt);
    expect(s.unfinished).toBe(true);
    expect(s.notice).toBe(
      `Automatic sync stopped by Google's daily quota (URL Fetch calls) at ${utc(stop.at, false)}; it resumes after ${utc(stop.until, true)}. Nothing was lost: it continues where it stopped.`,
    );

    // Hourly runs before the resume time make no call.
    for (let h = 0; h < 3; h++) expect(await hourly(rt)).toEqual([]);

    // Past the resume time (a day on, every list is due again): the run re-plans, which finds the
    // DE brands already on the service, sends only what is missing, and the notice is gone.
    rt.advance(stop.until - rt.state.clock.now());
    const resumed = await hourly(rt);
    expect(resumed.filter((c) => c === 'POST /api/v3/brand-blocklist')).toHaveLength(1);
    expect(resumed.filter((c) => c === 'POST /api/v3/multipack-corrections')).toHaveLength(1);
    const writes = (await env.proxy.seen()).filter((c) => c.method === 'POST' && c.path === '/api/v3/brand-blocklist' && c.status === 200);
    expect(writes.map((w) => JSON.parse(w.body))).toEqual([
      { marketplace_id: 'DE', brands: ['Delta', 'Gamma'] },
      { marketplace_id: 'US', brands: ['Alpha', 'Beta'] },
    ]);
    expect((await listAll(env.svc, key, '/api/v3/brand-blocklist')).map((b) => b.name).sort()).toEqual(['Alpha', 'Beta', 'Delta', 'Gamma']);
    expect((await listAll(env.svc, key, '/api/v3/multipack-corrections')).map((c) => [c.asin, c.quantity])).toEqual([['B00000000M1', 2]]);
    expect(wb.values(BRANDS).slice(1, 5)).toEqual(rows);
    expect(status(rt)).toMatchObject({ unfinished: false, notice: null });
    expect(rt.executions.filter((e) => e.kind === 'installable-trigger').every((e) => e.ok)).toBe(true);
  } finally {
    await rt.stop();
  }
});

test("with the day's trigger time low the sync waits (the rest is kept for imports), says so, and goes on in the next window", async () => {
  const { rt, wb, key } = setUp();
  try {
    wb.type(BRANDS, 'B2', 'Waiting');
    // Earlier runs today spent 65 of the 90 minutes: 25 are left, less than the 30 kept for imports.
    const dayStart = rt.state.clock.now();
    rt.quotas.spend(OWNER, 'triggerRuntimeMs', 65 * 60_000);
    // The add-on's own count of them, planted (src/store/fixtures.ts): 65 minutes of hourly runs is
    // more than a test can spend through the trigger.
    rt.properties.user(OWNER).set(...plantTriggerDay({ s: dayStart, ms: 65 * 60_000 }));
    expect(await hourly(rt)).toEqual([]);
    expect(await listAll(env.svc, key, '/api/v3/brand-blocklist')).toEqual([]);
    expect(rt.logs.join('\n')).toContain("automatic lists sync waits: the rest of the day's trigger time is kept for imports");
    const until = dayStart + 24 * HOUR;
    expect(status(rt).notice).toBe(
      `Automatic sync waits: the rest of today's trigger time (Google allows 90 minutes a day) is kept for imports. It resumes after ${utc(until, true)}.`,
    );
    // A new window: the list goes across.
    rt.advance(until - rt.state.clock.now());
    const calls = await hourly(rt);
    expect(calls).toContain('POST /api/v3/brand-blocklist');
    expect((await listAll(env.svc, key, '/api/v3/brand-blocklist')).map((b) => b.name)).toEqual(['Waiting']);
    expect(status(rt).notice).toBeNull();
  } finally {
    await rt.stop();
  }
});
