/**
 * The 21st document: Google allows a user 20 triggers per script, and the add-on makes one per
 * document (automatic import and automatic sync share it). In the 21st document Google refuses it;
 * the add-on says so where the user looks (New scan, Scans, Lists), never shows automatic sync as on,
 * and keeps working by hand (BUILT add-on, local runtime, local service in a child process).
 */
import type { SpawnedService } from '../../emulator/service/spawn';
import { Workbook } from '../../emulator/gas/spreadsheet';
import type { Runtime } from '../../emulator/gas';
import { connect, runtime, scanRequest } from './scanflow-helpers';
import { startImportService, upc, waitFinished } from './import-helpers';

jest.setTimeout(120_000);

const OWNER = 'owner@example.com';

function priceList(): Workbook {
  const wb = new Workbook({ name: 'Supplier', empty: true });
  wb.addSheet('Prices');
  [
    ['UPC', 'Cost'],
    ["'" + upc(20000), 4.5],
    ["'" + upc(20001), 5],
  ].forEach((row, r) => row.forEach((v, c) => wb.type('Prices', wb.a1(r + 1, c + 1), v)));
  return wb;
}

/** The user's hourly triggers in 20 other documents (the add-on's own, made there). */
function twentyOtherDocuments(rt: Runtime): void {
  for (let i = 1; i <= 20; i++)
    rt.triggers.records.push({
      uid: 'other-' + i,
      handler: 'importFinishedScans',
      user: OWNER,
      eventType: 'CLOCK',
      source: 'CLOCK',
      sourceId: 'other-document-' + i,
      nextAt: null,
      everyMs: 3600_000,
    });
}

const hereTriggers = (rt: Runtime, wb: Workbook) => rt.triggers.records.filter((t) => t.sourceId === wb.id);

describe("the 21st document's trigger (Apps Script quotas: 20 triggers per user per script)", () => {
  let service: SpawnedService;
  beforeAll(async () => {
    // 60 lines a minute: a 2-row scan runs for about two seconds, long enough to be listed as running.
    service = await startImportService({ SCAN_SERVICE_SPEED: '60' });
  });
  afterAll(async () => {
    await service?.stop();
  });

  test('automatic sync is never shown as on without its trigger; the Lists status says why and what to do; it turns on once a trigger is free', async () => {
    const wb = priceList();
    const rt = runtime(wb);
    try {
      connect(rt, service.url, service.apiKeys[0]);
      twentyOtherDocuments(rt);
      const status = rt.scriptRun('setAutoSync', [true]) as any;
      expect(status.autoSync).toBe(false);
      expect(status.notice).toMatch(
        /^Automatic import and automatic sync cannot run in this document: Google allows each person 20 automatic triggers/,
      );
      expect(status.notice).toContain('turn off "Sync automatically" under Lists');
      expect(status.notice).toContain('use Sync now');
      expect(hereTriggers(rt, wb)).toEqual([]);
      // Every later look says the same, never "on".
      expect(rt.scriptRun('getListsStatus')).toMatchObject({ autoSync: false, notice: status.notice });
      // By hand it still works.
      rt.scriptRun('setUpLists');
      const report = rt.scriptRun('syncNow', [false]) as any;
      expect(report.done).toBe(true);
      // The user turns it off in another document (its trigger goes): here it is on at the next look.
      rt.triggers.records.splice(
        rt.triggers.records.findIndex((t) => t.uid === 'other-1'),
        1,
      );
      expect(rt.scriptRun('getListsStatus')).toMatchObject({ autoSync: true, notice: null });
      expect(hereTriggers(rt, wb)).toHaveLength(1);
    } finally {
      await rt.stop();
    }
  });

  test('a scan started in the 21st document: New scan and Scans say it will not be imported automatically; importing by hand works', async () => {
    const wb = priceList();
    const rt = runtime(wb);
    try {
      connect(rt, service.url, service.apiKeys[0]);
      twentyOtherDocuments(rt);
      const setup = rt.scriptRun('getScanSetup') as any;
      const started = rt.scriptRun('startScan', [
        { ...scanRequest(setup, { marketplace: 'US', name: 'Late one' }), headerRow: setup.headerRow },
      ]) as any;
      expect(started.progress.scanId).toBeGreaterThan(0);
      expect(started.notice).toMatch(/^Automatic import and automatic sync cannot run in this document/);
      expect(hereTriggers(rt, wb)).toEqual([]);
      // Scans (page 1 lists this document's running scans) says so too while one waits.
      const page = rt.scriptRun('listScans', [1]) as any;
      expect(page.scans[0]).toMatchObject({ scanId: started.progress.scanId });
      expect(['queued', 'running']).toContain(page.scans[0].status);
      expect(page.notice).toBe(started.notice);
      expect(hereTriggers(rt, wb)).toEqual([]);
      await waitFinished({ url: service.url, apiKey: service.apiKeys[0] }, started.progress.scanId);
      let done: any = null;
      for (let i = 0; i < 100 && !done?.done; i++) {
        try {
          done = rt.scriptRun('importScan', [started.progress.scanId, null]);
        } catch (e) {
          if (!/still (queued|running)/.test(String((e as Error).message))) throw e;
        }
      }
      expect(done.done).toBe(true);
      expect(wb.sheetNames()).toContain('Late one');
    } finally {
      await rt.stop();
    }
  });

  test('the hourly trigger already made here is found (getProjectTriggers lists time-driven triggers; getUserTriggers(spreadsheet) may not): a second scan and the Scans view reuse it, no refusal, no notice', async () => {
    const wb = priceList();
    const rt = runtime(wb);
    try {
      connect(rt, service.url, service.apiKeys[0]);
      const setup = rt.scriptRun('getScanSetup') as any;
      const start = (name: string) =>
        rt.scriptRun('startScan', [{ ...scanRequest(setup, { marketplace: 'US', name }), headerRow: setup.headerRow }]) as any;
      expect(start('One').notice).toBeNull();
      expect(hereTriggers(rt, wb)).toHaveLength(1);
      expect(start('Two').notice).toBeNull();
      expect((rt.scriptRun('listScans', [1]) as any).notice).toBeNull();
      expect(hereTriggers(rt, wb)).toHaveLength(1);
    } finally {
      await rt.stop();
    }
  });
});
