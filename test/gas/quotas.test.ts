/**
 * Google's daily per-user quotas in the local runtime (emulator/gas/quotas.ts): what is counted, the
 * consumer and Workspace figures, Google's messages past a quota, the 24-hour window, and triggers
 * that no longer start once the day's trigger runtime is spent.
 */
import { evalIn, fixtureRuntime, thrown, startServer, type TestServer } from './helpers';
import type { Runtime } from '../../emulator/gas';

const OWNER = 'owner@example.com';
const EDITOR = 'editor@example.com';
const MIN = 60_000;
const HOUR = 3600_000;

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const fetchOnce = (rt: Runtime, user = OWNER) =>
  evalIn(rt, 'return UrlFetchApp.fetch(args + "/echo").getResponseCode()', server.base, { user });
const fetchAllOf = (rt: Runtime, n: number) =>
  evalIn(rt, 'var r = []; for (var i = 0; i < args.n; i++) r.push(args.url); return UrlFetchApp.fetchAll(r).length', {
    n,
    url: server.base + '/echo',
  });

describe('figures', () => {
  test('consumer by default: 20,000 URL Fetch calls, 50,000 property reads/writes, 90 min of trigger runtime a day', async () => {
    const rt = fixtureRuntime();
    const u = rt.quotaUsage();
    expect(u.tier).toBe('consumer');
    expect([u.urlFetchCalls.limit, u.propertiesReadWrite.limit, u.triggerRuntimeMs.limit]).toEqual([20_000, 50_000, 90 * MIN]);
    // Not on Google's current quotas page: counted, not refused.
    expect(u.urlFetchBytesReceived.limit).toBeNull();
    await rt.stop();
  });

  test('Workspace: 100,000 URL Fetch calls, 500,000 property reads/writes, 6 h of trigger runtime', async () => {
    const rt = fixtureRuntime({ quotas: 'workspace' });
    const u = rt.quotaUsage();
    expect([u.tier, u.urlFetchCalls.limit, u.propertiesReadWrite.limit, u.triggerRuntimeMs.limit]).toEqual([
      'workspace',
      100_000,
      500_000,
      6 * HOUR,
    ]);
    await rt.stop();
  });
});

describe('URL Fetch calls', () => {
  test('each request counts (a fetchAll of n counts n); data received is counted; per user', async () => {
    const rt = fixtureRuntime();
    fetchOnce(rt);
    fetchAllOf(rt, 4);
    fetchOnce(rt, EDITOR);
    const u = rt.quotaUsage();
    expect(u.urlFetchCalls.used).toBe(5);
    expect(u.urlFetchBytesReceived.used).toBeGreaterThan(5 * 100);
    expect(rt.quotaUsage(EDITOR).urlFetchCalls.used).toBe(1);
    await rt.stop();
  });

  test("past 20,000 a day the call fails with Google's message and nothing is sent; other users are not affected", async () => {
    const rt = fixtureRuntime();
    rt.quotas.spend(OWNER, 'urlFetchCalls', 19_998);
    expect(fetchOnce(rt)).toBe(200);
    expect(fetchOnce(rt)).toBe(200);
    expect(evalIn(rt, 'try { UrlFetchApp.fetch(args + "/echo"); return "sent"; } catch (e) { return String(e); }', server.base)).toBe(
      'Exception: Service invoked too many times for one day: urlfetch.',
    );
    expect(rt.quotaUsage().urlFetchCalls.used).toBe(20_000);
    expect(fetchOnce(rt, EDITOR)).toBe(200);
    await rt.stop();
  });

  test('a fetchAll that would pass the quota is refused whole (chosen): nothing counted', async () => {
    const rt = fixtureRuntime();
    rt.quotas.spend(OWNER, 'urlFetchCalls', 19_998);
    expect(thrown(() => fetchAllOf(rt, 3))).toBe('Service invoked too many times for one day: urlfetch.');
    expect(rt.quotaUsage().urlFetchCalls.used).toBe(19_998);
    expect(fetchAllOf(rt, 2)).toBe(2);
    await rt.stop();
  });

  test('a Workspace account still fetches where a consumer account is refused', async () => {
    const rt = fixtureRuntime({ quotas: 'workspace' });
    rt.quotas.spend(OWNER, 'urlFetchCalls', 20_000);
    expect(fetchOnce(rt)).toBe(200);
    rt.quotas.spend(OWNER, 'urlFetchCalls', 100_000 - 20_001);
    expect(thrown(() => fetchOnce(rt))).toBe('Service invoked too many times for one day: urlfetch.');
    await rt.stop();
  });

  test('data received is refused only when a limit is set (chosen message)', async () => {
    const rt = fixtureRuntime({ quotas: { limits: { urlFetchBytesReceived: 100 } } });
    expect(fetchOnce(rt)).toBe(200);
    expect(thrown(() => fetchOnce(rt))).toBe('Service invoked too many times for one day: urlfetch data received.');
    await rt.stop();
  });
});

describe('the quota day: 24 hours from the first counted use', () => {
  test('refused until 24 h after the first call of the window, then a new window opens at the next call', async () => {
    const rt = fixtureRuntime({ quotas: { limits: { urlFetchCalls: 3 } } });
    const t0 = rt.state.clock.now();
    fetchOnce(rt);
    const opened = rt.quotaUsage().urlFetchCalls.resetsAt! - 24 * HOUR;
    expect(opened).toBeGreaterThanOrEqual(t0);
    expect(opened).toBeLessThan(t0 + 2000);
    rt.advance(20 * HOUR);
    fetchOnce(rt);
    fetchOnce(rt);
    expect(thrown(() => fetchOnce(rt))).toBe('Service invoked too many times for one day: urlfetch.');
    // Midnight (any zone) has passed by now; the window has not.
    rt.advance(opened + 24 * HOUR - rt.state.clock.now() - 1000);
    expect(thrown(() => fetchOnce(rt))).toBe('Service invoked too many times for one day: urlfetch.');
    rt.advance(2000);
    expect(fetchOnce(rt)).toBe(200);
    const u = rt.quotaUsage().urlFetchCalls;
    expect(u.used).toBe(1);
    expect(u.resetsAt).toBeGreaterThan(opened + 48 * HOUR - 5000);
    await rt.stop();
  });

  test('each quota has its own window', async () => {
    const rt = fixtureRuntime();
    evalIn(rt, "PropertiesService.getScriptProperties().getProperty('x')");
    rt.advance(10 * HOUR);
    fetchOnce(rt);
    const u = rt.quotaUsage();
    expect(u.urlFetchCalls.resetsAt! - u.propertiesReadWrite.resetsAt!).toBeGreaterThanOrEqual(10 * HOUR);
    rt.advance(15 * HOUR);
    const later = rt.quotaUsage();
    expect(later.propertiesReadWrite).toMatchObject({ used: 0, resetsAt: null });
    expect(later.urlFetchCalls.used).toBe(1);
    await rt.stop();
  });
});

describe('property reads and writes', () => {
  test('every read and write counts once, per user, any store', async () => {
    const rt = fixtureRuntime();
    evalIn(
      rt,
      "var p = PropertiesService.getScriptProperties(); p.setProperty('a', '1'); p.getProperty('a'); p.getProperties(); p.getKeys(); PropertiesService.getDocumentProperties().deleteProperty('a'); PropertiesService.getUserProperties().setProperties({ b: '2' });",
    );
    expect(rt.quotaUsage().propertiesReadWrite.used).toBe(6);
    expect(rt.quotaUsage(EDITOR).propertiesReadWrite.used).toBe(0);
    await rt.stop();
  });

  test("past 50,000 a day reads and writes fail with Google's messages and nothing is written", async () => {
    const rt = fixtureRuntime();
    rt.quotas.spend(OWNER, 'propertiesReadWrite', 49_999);
    expect(evalIn(rt, "return PropertiesService.getScriptProperties().getProperty('a')")).toBeNull();
    expect(thrown(() => evalIn(rt, "PropertiesService.getScriptProperties().getProperty('a')"))).toBe(
      'Service invoked too many times for one day: properties.',
    );
    expect(thrown(() => evalIn(rt, "PropertiesService.getScriptProperties().setProperty('a', '1')"))).toBe(
      'Service invoked too many times for one day: graphite property writes.',
    );
    expect(rt.properties.script.toObject()).toEqual({});
    // Another user (another execution's user) still reads and writes.
    evalIn(rt, "PropertiesService.getScriptProperties().setProperty('a', '1')", null, { user: EDITOR });
    expect(rt.properties.script.get('a')).toBe('1');
    await rt.stop();
  });
});

describe('trigger runtime', () => {
  const install = (rt: Runtime, handler: string) => evalIn(rt, `ScriptApp.newTrigger('${handler}').timeBased().everyHours(1).create()`);

  test('trigger executions add their modelled time; other executions do not', async () => {
    const rt = fixtureRuntime();
    install(rt, 'longTick');
    evalIn(rt, 'Utilities.sleep(120000)');
    rt.scriptRun('hello', ['x']);
    rt.advance(HOUR);
    expect(rt.runDueTriggers()).toMatchObject([{ handler: 'longTick', ok: true }]);
    const run = rt.executions.at(-1)!;
    expect(run.durationMs).toBeGreaterThan(5 * MIN);
    expect(rt.quotaUsage().triggerRuntimeMs.used).toBe(run.durationMs);
    await rt.stop();
  });

  test("a trigger execution that spends the rest of the 90 minutes stops at its next service call with Google's message", async () => {
    const rt = fixtureRuntime();
    install(rt, 'longTick');
    rt.quotas.spend(OWNER, 'triggerRuntimeMs', 88 * MIN);
    rt.advance(HOUR);
    expect(rt.runDueTriggers()).toMatchObject([
      { handler: 'longTick', ok: false, error: 'Service using too much computer time for one day.' },
    ]);
    // One minute was checkpointed; the second sleep passed the day's end.
    expect(rt.properties.script.get('minutes')).toBe('1');
    expect(rt.executions.at(-1)).toMatchObject({
      functionName: 'longTick',
      ok: false,
      error: 'Service using too much computer time for one day.',
    });
    expect(rt.quotaUsage().triggerRuntimeMs.used).toBeGreaterThanOrEqual(90 * MIN);
    await rt.stop();
  });

  test('a script that catches it still ends with it (as with the 6-minute limit)', async () => {
    const rt = fixtureRuntime();
    install(rt, 'catchingLongTick');
    rt.quotas.spend(OWNER, 'triggerRuntimeMs', 89 * MIN);
    rt.advance(HOUR);
    expect(rt.runDueTriggers()).toMatchObject([{ ok: false, error: 'Service using too much computer time for one day.' }]);
    await rt.stop();
  });

  test('once spent, time-driven triggers no longer start (no execution) until the window ends; then they run again', async () => {
    const rt = fixtureRuntime();
    install(rt, 'longTick');
    // 18 hourly runs of 5 minutes spend the 90 minutes.
    let ran = 0;
    for (let h = 0; h < 20; h++) {
      rt.advance(HOUR);
      for (const f of rt.runDueTriggers()) if (f.ok) ran++;
    }
    expect(ran).toBe(17);
    const usage = rt.quotaUsage().triggerRuntimeMs;
    expect(usage.used).toBeGreaterThanOrEqual(90 * MIN);
    const executions = rt.executions.length;
    const minutes = rt.properties.script.get('minutes');
    rt.advance(HOUR);
    expect(rt.runDueTriggers()).toEqual([
      expect.objectContaining({ handler: 'longTick', ok: false, error: 'Service using too much computer time for one day.' }),
    ]);
    expect(rt.executions.length).toBe(executions);
    expect(rt.properties.script.get('minutes')).toBe(minutes);
    // The window opened with the first trigger run; 24 hours on, triggers start again.
    rt.advance(usage.resetsAt! - rt.state.clock.now());
    expect(rt.runDueTriggers()).toMatchObject([{ handler: 'longTick', ok: true }]);
    expect(rt.quotaUsage().triggerRuntimeMs.used).toBeLessThan(6 * MIN);
    await rt.stop();
  });

  test('Workspace: 6 hours of trigger runtime', async () => {
    const rt = fixtureRuntime({ quotas: 'workspace' });
    install(rt, 'longTick');
    rt.quotas.spend(OWNER, 'triggerRuntimeMs', 5 * HOUR);
    rt.advance(HOUR);
    expect(rt.runDueTriggers()).toMatchObject([{ ok: true }]);
    await rt.stop();
  });
});

test('quotas: false counts and refuses nothing', async () => {
  const rt = fixtureRuntime({ quotas: false });
  rt.quotas.spend(OWNER, 'urlFetchCalls', 1_000_000);
  expect(fetchOnce(rt)).toBe(200);
  expect(rt.quotaUsage().tier).toBeNull();
  await rt.stop();
});
