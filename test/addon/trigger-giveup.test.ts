/**
 * The hourly import trigger gives up on what will not pass by itself, so it cannot burn the
 * consumer account's 90 min/day of trigger runtime: a refused key removes it, a lasting failure
 * (422) stops a scan's automatic import at once, a recurring one (5xx) backs off and stops after
 * MAX_FAILURES; runs with nothing due make no call. BUILT add-on, local runtime (virtual clock),
 * local service in a child process behind the fault-injecting proxy.
 */
import type { SpawnedService } from '../../emulator/service/spawn';
import { Workbook } from '../../emulator/gas/spreadsheet';
import type { Runtime } from '../../emulator/gas';
import { AUTO_IMPORT_KEY, RUNNING_KEY } from '../../src/store/keys';
import { connect, runtime, startFaultProxy, type FaultProxy } from './scanflow-helpers';
import { api, startImportService, startSheetScan, waitFinished } from './import-helpers';

jest.setTimeout(60_000);

const HOUR = 3600_000;
const RESULTS = { method: 'POST', path: '^/api/v3/scans/\\d+$' };

describe('automatic import trigger gives up', () => {
  let service: SpawnedService;
  let proxy: FaultProxy;
  beforeAll(async () => {
    // 600 lines a minute: a 300-line scan keeps running until the test cancels it.
    service = await startImportService({ SCAN_SERVICE_SPEED: '600' });
    proxy = await startFaultProxy(service.url);
  });
  afterAll(async () => {
    await proxy?.stop();
    await service?.stop();
  });
  beforeEach(async () => {
    await proxy.reset();
  });

  const mine = (rt: Runtime) => rt.triggers.records.filter((t) => t.handler === 'importFinishedScans');
  const states = (rt: Runtime) => JSON.parse(rt.properties.document!.get(AUTO_IMPORT_KEY) || '{}');

  /** A scan started here while the sidebar was open (trigger installed), finished since. */
  async function finishedScan(rt: Runtime, wb: Workbook, name: string): Promise<number> {
    const id = startSheetScan(rt, wb, 'Sheet1', 300, name);
    rt.scriptRun('listScans', [1]);
    expect(mine(rt)).toHaveLength(1);
    await api(service, 'GET', `/api/v3/scans/${id}/cancel`);
    await waitFinished(service, id);
    return id;
  }

  test('a 422 on the results stops that scan at once; the record stays for the sidebar, which imports it when the service accepts again', async () => {
    const wb = new Workbook({ name: 'Supplier' });
    const rt = runtime(wb);
    connect(rt, proxy.url, service.apiKey);
    try {
      const id = await finishedScan(rt, wb, 'Refused');
      await proxy.faults([{ ...RESULTS, status: 422, times: 1000, body: JSON.stringify({ message: 'The filter is not valid' }) }]);
      rt.advance(HOUR);
      expect(rt.runDueTriggers()).toMatchObject([{ handler: 'importFinishedScans', ok: true }]);
      expect(wb.sheetNames()).toEqual(['Sheet1']);
      const s = states(rt)[String(id)];
      expect(s.s).toMatch(/^automatic import stopped: .*The filter is not valid.* — import it from Scans$/);
      expect(JSON.parse(rt.properties.document!.get(RUNNING_KEY)!)).toHaveProperty(String(id));
      // The sidebar's lists say why, so the user knows to import it by hand.
      const listed = rt.scriptRun('getRunningScans') as Array<{ scanId: number; autoImportStopped?: string | null }>;
      expect(listed.find((p) => p.scanId === id)?.autoImportStopped).toBe(s.s);
      // Nothing left it may import: the trigger is gone, no more runs, no more calls.
      expect(mine(rt)).toEqual([]);
      const calls = (await proxy.seen()).length;
      rt.advance(HOUR);
      expect(rt.runDueTriggers()).toEqual([]);
      expect((await proxy.seen()).length).toBe(calls);

      // The user imports it from Scans once the service accepts: the note goes with the record.
      await proxy.faults([]);
      const done = rt.scriptRun('importScan', [id, null]) as { done: boolean };
      expect(done.done).toBe(true);
      expect(wb.sheetNames()).toEqual(['Sheet1', 'Refused', 'Refused – Overview']);
      expect(rt.properties.document!.get(RUNNING_KEY)).toBeNull();
    } finally {
      await rt.stop();
    }
  });

  test('a 5xx that never passes backs off 1, 2, 4, 8 hours, stops after 5 failures; runs in between make no call', async () => {
    const wb = new Workbook({ name: 'Supplier' });
    const rt = runtime(wb);
    connect(rt, proxy.url, service.apiKey);
    try {
      const id = await finishedScan(rt, wb, 'Flaky');
      await proxy.faults([{ ...RESULTS, status: 503, times: 1_000_000 }]);
      const first = rt.executions.length;
      const tried: number[] = [];
      for (let h = 1; h <= 24; h++) {
        rt.advance(HOUR);
        const before = rt.executions.length;
        const fired = rt.runDueTriggers();
        if (!fired.length) continue;
        expect(fired).toMatchObject([{ handler: 'importFinishedScans', ok: true }]);
        const ex = rt.executions.slice(before).filter((e) => e.functionName === 'importFinishedScans');
        if (ex.some((e) => e.counters.urlFetchCalls > 0)) tried.push(h);
      }
      expect(tried).toEqual([1, 2, 4, 8, 16]);
      const runs = rt.executions.slice(first).filter((e) => e.functionName === 'importFinishedScans');
      // Hourly from hour 1 to 16, then the trigger is gone.
      expect(runs).toHaveLength(16);
      const idle = runs.filter((e) => e.counters.urlFetchCalls === 0);
      expect(idle).toHaveLength(11);
      for (const e of idle) expect(e.durationMs).toBeLessThan(1000);
      expect(mine(rt)).toEqual([]);
      expect(states(rt)[String(id)]).toMatchObject({
        n: 5,
        s: expect.stringMatching(/^automatic import stopped: The Scan Service had a problem \(error 503\)/),
      });
      expect(wb.sheetNames()).toEqual(['Sheet1']);
      const total = runs.reduce((a, e) => a + e.durationMs, 0);
      // Reported by the test run: the whole day's trigger time for this scan.
      console.log(`trigger runtime over 24 h with a permanent 503: ${(total / 60_000).toFixed(1)} min in ${runs.length} runs`);
    } finally {
      await rt.stop();
    }
  });

  test('a refused key (401) removes the trigger without touching the scans; a working key brings it back', async () => {
    const wb = new Workbook({ name: 'Supplier' });
    const rt = runtime(wb);
    connect(rt, proxy.url, service.apiKey);
    try {
      const id = await finishedScan(rt, wb, 'Locked');
      await proxy.faults([
        { method: 'GET', path: '^/api/v3/scans/\\d+$', status: 401, times: 1000, body: JSON.stringify({ message: 'Invalid API key' }) },
      ]);
      rt.advance(HOUR);
      expect(rt.runDueTriggers()).toMatchObject([{ handler: 'importFinishedScans', ok: true }]);
      expect(mine(rt)).toEqual([]);
      expect(rt.properties.document!.get(AUTO_IMPORT_KEY)).toBeNull();
      expect(JSON.parse(rt.properties.document!.get(RUNNING_KEY)!)).toHaveProperty(String(id));
      const calls = (await proxy.seen()).length;
      rt.advance(3 * HOUR);
      expect(rt.runDueTriggers()).toEqual([]);
      expect((await proxy.seen()).length).toBe(calls);

      // The key works again; a new scan started here reinstalls the trigger, which imports both when done.
      await proxy.faults([]);
      const next = startSheetScan(rt, wb, 'Sheet1', 300, 'Later');
      rt.scriptRun('listScans', [1]);
      expect(mine(rt)).toHaveLength(1);
      await api(service, 'GET', `/api/v3/scans/${next}/cancel`);
      await waitFinished(service, next);
      rt.advance(HOUR);
      expect(rt.runDueTriggers()).toMatchObject([{ ok: true }]);
      expect(wb.sheetNames().sort()).toEqual(['Later', 'Later – Overview', 'Locked', 'Locked – Overview', 'Sheet1']);
      expect(mine(rt)).toEqual([]);
    } finally {
      await rt.stop();
    }
  });
});
