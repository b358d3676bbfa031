/**
 * The hourly import trigger within Google's daily quotas (src/app/trigger/quota.ts): a URL Fetch quota
 * reached mid-import stops it cleanly (checkpoint kept, nothing lost, no failure counted against the
 * scan) and it resumes the next day; the trigger's own runtime budget stops it before Google would
 * cut it off; the sidebar says what stopped and when it resumes. BUILT add-on, local runtime with
 * consumer quotas on its virtual clock, local service in a child process.
 */
import type { Workbook } from '../../emulator/gas/spreadsheet';
import type { Runtime, RuntimeOptions } from '../../emulator/gas';
import { thrown, utcClockText } from './scanflow-helpers';
import {
  expectEveryRowOnce,
  importSession,
  serviceRows,
  startImportService,
  startSheetScan,
  waitFinished,
  type FinishedScan,
} from './import-helpers';
import { AUTO_IMPORT_KEY, IMPORT_TUNING_KEY, importKey, QUOTA_STOP_KEY, RUNNING_KEY, TRIGGER_DAY_KEY } from '../../src/store/keys';
import { api } from './lists-helpers';

jest.setTimeout(60_000);

const OWNER = 'owner@example.com';
const HOUR = 3600_000;
const MIN = 60_000;
const utc = utcClockText;

describe('hourly import within the daily quotas', () => {
  // The scan of each session: started there (a new document each test), finished before the test goes on.
  const scan = { name: 'Quota day' } as FinishedScan & { name: string };
  beforeAll(async () => {
    scan.service = await startImportService();
  });
  afterAll(async () => {
    await scan.service?.stop();
  });

  const checkpoint = (rt: Runtime) => rt.properties.document!.get(importKey(scan.scanId));
  const stop = (rt: Runtime) => JSON.parse(rt.properties.user(OWNER).get(QUOTA_STOP_KEY) || 'null');
  const visibleTabs = (wb: Workbook) => wb.sheets.filter((s) => !s.hidden).map((s) => s.name);

  /** A finished scan started here as a seller does (startScan records it and installs the hourly trigger); one page per wave. */
  async function session(opts: RuntimeOptions = {}): Promise<{ rt: Runtime; wb: Workbook }> {
    const { rt, wb } = importSession(scan.service, opts);
    scan.scanId = startSheetScan(rt, wb, 'Sheet1', 250, scan.name, { unknown: 7 });
    await waitFinished(scan.service, scan.scanId);
    scan.asins = (await serviceRows(scan.service, scan.scanId)).map((p) => p.asin);
    scan.errorLines = (await serviceRows(scan.service, scan.scanId, { tableType: 'errors', sort: 'line' })).map((e) => e.line);
    expect(scan.errorLines).toHaveLength(7);
    rt.properties.script.set(IMPORT_TUNING_KEY, JSON.stringify({ pagesPerWave: 1 }));
    rt.scriptRun('listScans', [1]);
    expect(rt.triggers.records.filter((t) => t.handler === 'importFinishedScans')).toHaveLength(1);
    return { rt, wb };
  }

  function expectComplete(wb: Workbook): void {
    expectEveryRowOnce(wb, scan);
    expect(visibleTabs(wb)).toEqual(['Sheet1', 'Quota day', 'Quota day – Overview', 'Quota day – errors']);
  }

  test('URL Fetch quota reached mid-import: stops cleanly, the sidebar says so, nothing lost, resumes the next day', async () => {
    const { rt, wb } = await session();
    try {
      // The user's other scripts spent the day's URL Fetch calls but five: the status call, the first
      // wave (scan + first pages), one more page; the next page is refused.
      rt.quotas.spend(OWNER, 'urlFetchCalls', 20_000 - 5 - rt.quotaUsage().urlFetchCalls.used);
      rt.advance(HOUR);
      const at = rt.state.clock.now();
      expect(rt.runDueTriggers()).toMatchObject([{ handler: 'importFinishedScans', ok: true }]);
      expect(rt.quotaUsage().urlFetchCalls.used).toBe(20_000);
      // Staged so far, kept; nothing visible; not a failure of the scan; the record stays.
      expect(checkpoint(rt)).not.toBeNull();
      expect(visibleTabs(wb)).toEqual(['Sheet1']);
      expect(rt.properties.document!.get(AUTO_IMPORT_KEY)).toBeNull();
      expect(JSON.parse(rt.properties.document!.get(RUNNING_KEY)!)).toHaveProperty(String(scan.scanId));
      const s = stop(rt);
      expect(s.q).toBe('urlfetch');
      expect(s.at - at).toBeLessThan(MIN);
      expect(s.until).toBe(s.at + 24 * HOUR);
      expect(rt.logs.join('\n')).toContain('automatic import stopped by a daily quota of Google (urlfetch)');

      // The sidebar, while Google still refuses: a plain message instead of "unreachable".
      expect(thrown(() => rt.scriptRun('getRunningScans'))).toBe(
        "Google's daily quota of URL Fetch calls for your account is used up (it is shared by all your scripts and add-ons), so this cannot be done now. Nothing was lost; try again after Google resets it, within 24 hours.",
      );

      // Hourly runs before the resume time try nothing.
      rt.advance(HOUR);
      expect(rt.runDueTriggers()).toMatchObject([{ ok: true }]);
      expect(rt.executions.at(-1)!.counters.urlFetchRequests).toBe(0);

      // Google's window (opened earlier today) has ended: the sidebar works and says what happened.
      rt.advance(rt.quotaUsage().urlFetchCalls.resetsAt! - rt.state.clock.now());
      const listed = rt.scriptRun('getRunningScans') as Array<{ scanId: number; autoImportStopped?: string | null }>;
      expect(listed.find((p) => p.scanId === scan.scanId)?.autoImportStopped).toBe(
        `Automatic import stopped by Google's daily quota (URL Fetch calls) at ${utc(s.at, false)}; it resumes after ${utc(s.until, true)}. Nothing was lost: the import continues where it stopped, or import it from Scans.`,
      );

      // Past the resume time the next hourly run finishes the import from the checkpoint: every row once.
      rt.advance(s.until - rt.state.clock.now() + HOUR);
      expect(rt.runDueTriggers()).toMatchObject([{ ok: true }]);
      expectComplete(wb);
      expect(checkpoint(rt)).toBeNull();
      expect(stop(rt)).toBeNull();
      expect(rt.uiEvents.filter((e) => e.kind === 'toast').map((e) => (e as { title: string }).title)).toEqual([
        'Scan "Quota day" is done',
      ]);
    } finally {
      await rt.stop();
    }
  });

  test('imports go first: with 25 minutes of the day left the scan is imported and the automatic lists sync waits for the next window', async () => {
    const { rt, wb } = await session();
    try {
      rt.scriptRun('setUpLists');
      rt.scriptRun('setAutoSync', [true]);
      wb.type('Scan brand blocklist', 'B2', 'Imports first');
      rt.quotas.spend(OWNER, 'triggerRuntimeMs', 65 * MIN);
      const dayStart = rt.state.clock.now();
      rt.properties.user(OWNER).set(TRIGGER_DAY_KEY, JSON.stringify({ s: dayStart, ms: 65 * MIN }));
      for (let h = 0; h < 3 && !wb.sheetNames().includes('Quota day'); h++) {
        rt.advance(HOUR);
        expect(rt.runDueTriggers()).toMatchObject([{ ok: true }]);
      }
      expectEveryRowOnce(wb, scan);
      // the lists waited: nothing on the service, the sheet's brand not sent
      const brands = () => api(scan.service.url, scan.service.apiKey, 'GET', '/api/v3/brand-blocklist?per_page=1000');
      expect((await brands()).data).toEqual([]);
      // the next window: the trigger (kept while the automatic sync is on) syncs the list
      rt.advance(dayStart + 24 * HOUR - rt.state.clock.now() + HOUR);
      expect(rt.runDueTriggers()).toMatchObject([{ ok: true }]);
      expect((await brands()).data.map((b: { name: string }) => b.name)).toEqual(['Imports first']);
    } finally {
      await rt.stop();
    }
  });

  test("the trigger's runtime budget: stops at a checkpoint before Google's 90 minutes are spent, resumes in the next window", async () => {
    // Slow fetches (15 s each) so that the import needs several runs' worth of the day's last minutes.
    const { rt, wb } = await session({ cost: { urlFetchCallMs: 15_000 } });
    try {
      // Earlier runs today (of this trigger) spent 88 minutes of trigger runtime: Google counted them,
      // and the add-on measured them.
      rt.quotas.spend(OWNER, 'triggerRuntimeMs', 88 * MIN);
      rt.properties.user(OWNER).set(TRIGGER_DAY_KEY, JSON.stringify({ s: rt.state.clock.now(), ms: 88 * MIN }));
      const fired: Array<{ ok: boolean; error?: string }> = [];
      for (let h = 0; h < 4 && !stop(rt); h++) {
        rt.advance(HOUR);
        fired.push(...rt.runDueTriggers());
      }
      // Never cut off by Google: every run ended by itself, within the 90 minutes.
      expect(fired.length).toBeGreaterThan(0);
      expect(fired.every((f) => f.ok)).toBe(true);
      expect(rt.quotaUsage().triggerRuntimeMs.used).toBeLessThan(90 * MIN);
      const s = stop(rt);
      expect(s).toMatchObject({ q: 'runtime' });
      expect(s.until).toBe(JSON.parse(rt.properties.user(OWNER).get(TRIGGER_DAY_KEY)!).s + 24 * HOUR);
      expect(checkpoint(rt)).not.toBeNull();
      expect(visibleTabs(wb)).toEqual(['Sheet1']);

      // What the sidebar shows on the scan.
      const listed = rt.scriptRun('getRunningScans') as Array<{ scanId: number; autoImportStopped?: string | null }>;
      expect(listed.find((p) => p.scanId === scan.scanId)?.autoImportStopped).toBe(
        `Automatic import stopped by Google's daily quota (trigger runtime) at ${utc(s.at, false)}; it resumes after ${utc(s.until, true)}. Nothing was lost: the import continues where it stopped, or import it from Scans.`,
      );

      // The next runs before the window ends do nothing (and cost no URL Fetch call).
      const n = rt.executions.length;
      rt.advance(HOUR);
      rt.runDueTriggers();
      expect(rt.executions.slice(n).every((e) => e.counters.urlFetchRequests === 0)).toBe(true);

      // A new window: the import finishes.
      rt.advance(s.until - rt.state.clock.now() + HOUR);
      for (let h = 0; h < 3 && !wb.sheetNames().includes('Quota day'); h++) {
        expect(rt.runDueTriggers()).toMatchObject([{ ok: true }]);
        rt.advance(HOUR);
      }
      expectComplete(wb);
      expect(stop(rt)).toBeNull();
    } finally {
      await rt.stop();
    }
  });
});
