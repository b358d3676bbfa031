/**
 * The sidebar-closed path: the hourly add-on trigger imports this user's finished scans recorded in
 * the document, toasts, forgets them, and removes itself when nothing is left (BUILT add-on, local
 * runtime with its virtual clock, local service in a child process).
 */
import type { SpawnedService } from '../../emulator/service/spawn';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { RUNNING_KEY } from '../../src/store/keys';
import { connect, runtime } from './scanflow-helpers';
import { api, serviceRows, startImportService, startSheetScan, summaryOf, waitFinished } from './import-helpers';

jest.setTimeout(60_000);

const OWNER = 'owner@example.com';

describe('automatic import trigger', () => {
  let service: SpawnedService;
  beforeAll(async () => {
    // 600 lines a minute: a 300-line scan keeps running until the test cancels it.
    service = await startImportService({ SCAN_SERVICE_SPEED: '600' });
  });
  afterAll(async () => {
    await service?.stop();
  });

  test('installed once per user and document, imports a scan when it has finished, toasts, then removes itself', async () => {
    const wb = new Workbook({ name: 'Supplier' });
    const rt = runtime(wb);
    connect(rt, service.url, service.apiKey);
    try {
      // A seller's scan of the price list on Sheet1: startScan records it as this user's running scan here.
      const id = startSheetScan(rt, wb, 'Sheet1', 300, 'Night run');
      rt.scriptRun('listScans', [1]);
      rt.scriptRun('listScans', [1]);
      const mine = () => rt.triggers.records.filter((t) => t.handler === 'importFinishedScans');
      expect(mine()).toHaveLength(1);
      expect(mine()[0]).toMatchObject({ user: OWNER, everyMs: 3600_000 });

      // An hour later the scan still runs: nothing imported, nothing shown, the trigger stays.
      rt.advance(3600_000);
      expect(rt.runDueTriggers()).toMatchObject([{ handler: 'importFinishedScans', ok: true }]);
      expect(rt.uiEvents.filter((e) => e.kind === 'toast')).toEqual([]);
      expect(wb.sheetNames()).toEqual(['Sheet1']);
      expect(mine()).toHaveLength(1);

      // The scan ends (cancelled: its rows so far are its results); the next run imports it.
      await api(service, 'GET', `/api/v3/scans/${id}/cancel`);
      const finished = await waitFinished(service, id);
      const products = await serviceRows(service, id);
      expect(products.length).toBe(finished.products);
      rt.advance(3600_000);
      expect(rt.runDueTriggers()).toMatchObject([{ handler: 'importFinishedScans', ok: true }]);
      expect(wb.sheetNames()).toEqual(['Sheet1', 'Night run', 'Night run – Overview']);
      expect(
        wb
          .values('Night run')
          .slice(1)
          .map((r) => r[0]),
      ).toEqual(products.map((p) => p.asin));
      const toasts = rt.uiEvents.filter((e) => e.kind === 'toast');
      expect(toasts).toEqual([
        {
          kind: 'toast',
          title: 'Scan "Night run" is done',
          // The import's message, then (when it imported products) what a seller decides on.
          message:
            `Imported ${products.length} product${products.length === 1 ? '' : 's'} into "Night run".` +
            (products.length ? ' ' + summaryOf(products) + '.' : ''),
          timeoutSeconds: 10,
        },
      ]);
      expect(rt.properties.document!.get(RUNNING_KEY)).toBeNull();
      expect(mine()).toEqual([]);
      // Nothing left to do: no more runs.
      rt.advance(3600_000);
      expect(rt.runDueTriggers()).toEqual([]);
    } finally {
      await rt.stop();
    }
  });

  test('a scan the service no longer knows is forgotten and the trigger removes itself', async () => {
    const wb = new Workbook({ name: 'Supplier' });
    const rt = runtime(wb);
    connect(rt, service.url, service.apiKey);
    try {
      const id = startSheetScan(rt, wb, 'Sheet1', 300, 'Doomed');
      rt.scriptRun('listScans', [1]);
      expect(rt.triggers.records.filter((t) => t.handler === 'importFinishedScans')).toHaveLength(1);
      await api(service, 'DELETE', '/api/v3/scans/' + id);
      rt.advance(3600_000);
      expect(rt.runDueTriggers()).toMatchObject([{ ok: true }]);
      expect(rt.properties.document!.get(RUNNING_KEY)).toBeNull();
      expect(rt.triggers.records.filter((t) => t.handler === 'importFinishedScans')).toEqual([]);
      expect(wb.sheetNames()).toEqual(['Sheet1']);
      expect(rt.uiEvents.filter((e) => e.kind === 'toast')).toEqual([]);
    } finally {
      await rt.stop();
    }
  });
});
