/**
 * importScan when the service misbehaves, through a fault-injecting proxy in a child process:
 * 401 (key refused: says so and opens Settings), 429 (waits Retry-After on the runtime's clock, then
 * retries), 5xx and time-outs (retried with backoff, then a clear message). Nothing is ever half
 * written: a failed import shows no tab, and a retryable failure keeps its staged rows for the next call.
 */
import type { SpawnedService } from '../../emulator/service/spawn';
import type { Workbook } from '../../emulator/gas/spreadsheet';
import type { Runtime, RuntimeOptions } from '../../emulator/gas';
import { OPEN_SETTINGS_MARKER } from '../../src/app/failure';
import { startFaultProxy, thrown, type FaultProxy } from './scanflow-helpers';
import { importSession, serviceRows, startImportService, supplierRows, uploadScan, waitFinished } from './import-helpers';
import { IMPORT_TUNING_KEY, importKey, importKeyIds } from '../../src/store/keys';

jest.setTimeout(60_000);

const RESULTS = '^/api/v3/scans/\\d+$';

describe('importScan with faults', () => {
  let service: SpawnedService;
  let proxy: FaultProxy;
  let scanId: number;
  let asins: string[];
  beforeAll(async () => {
    service = await startImportService();
    proxy = await startFaultProxy(service.url);
    scanId = await uploadScan(service, supplierRows(250, 3), 'Faulty');
    await waitFinished(service, scanId);
    asins = (await serviceRows(service, scanId)).map((p) => p.asin);
  });
  afterAll(async () => {
    await proxy?.stop();
    await service?.stop();
  });
  beforeEach(async () => {
    await proxy.reset();
  });

  function session(opts: RuntimeOptions = {}, key = service.apiKey): { rt: Runtime; wb: Workbook } {
    return importSession({ url: proxy.url, apiKey: key }, opts);
  }

  const lastExecution = (rt: Runtime) => rt.executions[rt.executions.length - 1];
  const noImportLeft = (rt: Runtime, wb: Workbook) => {
    expect(wb.sheetNames()).toEqual(['Sheet1']);
    expect(importKeyIds(Object.keys(rt.properties.document!.toObject()))).toEqual([]);
  };

  test('401: says the key is wrong and asks the sidebar to open Settings; nothing written', async () => {
    const { rt, wb } = session({}, 'not-a-real-key');
    try {
      expect(thrown(() => rt.scriptRun('importScan', [scanId, null]))).toBe(
        OPEN_SETTINGS_MARKER +
          'The API key was refused by the Scan Service. Open Extensions > Settings and paste the key from Integrations > API Access.',
      );
      noImportLeft(rt, wb);
    } finally {
      await rt.stop();
    }
  });

  test('401 in the middle of an import drops the staged rows: no half tab stays behind', async () => {
    const { rt, wb } = session();
    try {
      rt.properties.script.set(IMPORT_TUNING_KEY, JSON.stringify({ budgetMs: 1, pagesPerWave: 1 }));
      expect((rt.scriptRun('importScan', [scanId, null]) as any).done).toBe(false);
      await proxy.faults([{ method: 'POST', path: RESULTS, status: 401, times: 5 }]);
      expect(thrown(() => rt.scriptRun('importScan', [scanId, null]))).toMatch(/^\[open-settings\] The API key was refused/);
      noImportLeft(rt, wb);
    } finally {
      await rt.stop();
    }
  });

  test('429: waits as long as Retry-After says (on the runtime clock), retries, and imports every row once', async () => {
    const { rt, wb } = session();
    try {
      await proxy.faults([{ method: 'POST', path: RESULTS, status: 429, times: 1, headers: { 'retry-after': '7' } }]);
      const r = rt.scriptRun('importScan', [scanId, null]) as any;
      expect(r).toMatchObject({ done: true, rowsWritten: 250 });
      expect(
        wb
          .values('Faulty')
          .slice(1)
          .map((x) => x[0]),
      ).toEqual(asins);
      const seen = await proxy.seen();
      expect(seen.filter((s) => s.injected).map((s) => s.status)).toEqual([429]);
      expect(lastExecution(rt).durationMs).toBeGreaterThanOrEqual(7000);
      expect(lastExecution(rt).durationMs).toBeLessThan(7000 * 1.1 + 10000);
    } finally {
      await rt.stop();
    }
  });

  test('5xx twice and a time-out: retried with backoff, the import completes', async () => {
    const { rt, wb } = session({ urlFetchTimeoutMs: 1000 });
    try {
      await proxy.faults([
        { method: 'POST', path: RESULTS, status: 503, times: 2 },
        { method: 'GET', path: RESULTS, status: 200, times: 1, delayMs: 1500, body: '{}' },
      ]);
      const r = rt.scriptRun('importScan', [scanId, null]) as any;
      expect(r).toMatchObject({ done: true, rowsWritten: 250 });
      expect(
        wb
          .values('Faulty')
          .slice(1)
          .map((x) => x[0]),
      ).toEqual(asins);
      expect((await proxy.seen()).filter((s) => s.injected).length).toBe(3);
    } finally {
      await rt.stop();
    }
  });

  test('5xx that does not stop: a clear message, the earlier tab untouched, staged rows kept and the next call finishes', async () => {
    const { rt, wb } = session();
    try {
      expect((rt.scriptRun('importScan', [scanId, null]) as any).done).toBe(true);
      // A re-import sorted by profit, one page per call.
      rt.properties.script.set(IMPORT_TUNING_KEY, JSON.stringify({ budgetMs: 1, pagesPerWave: 1 }));
      const request = { sort: '-profit' };
      expect(rt.scriptRun('importScan', [scanId, request]) as any).toMatchObject({ done: false, rowsWritten: 100 });
      await proxy.faults([{ method: 'POST', path: RESULTS, status: 502, times: 100 }]);
      expect(thrown(() => rt.scriptRun('importScan', [scanId, request]))).toBe(
        'The Scan Service had a problem (error 502). Try again later.',
      );
      const tries = (await proxy.seen()).filter((s) => s.injected).length;
      expect(tries).toBe(6);
      // The earlier tab is untouched; the new import waits out of sight.
      expect(wb.sheets.filter((s) => !s.hidden).map((s) => s.name)).toEqual(['Sheet1', 'Faulty', 'Faulty – Overview', 'Faulty – errors']);
      expect(
        wb
          .values('Faulty')
          .slice(1)
          .map((x) => x[0]),
      ).toEqual(asins);
      expect(JSON.parse(rt.properties.document!.get(importKey(scanId))!).productsDone).toBe(100);
      await proxy.reset();
      let r: any;
      do r = rt.scriptRun('importScan', [scanId, request]);
      while (!r.done);
      const sorted = (await serviceRows(service, scanId, { sort: '-profit' })).map((p) => p.asin);
      expect(
        wb
          .values('Faulty')
          .slice(1)
          .map((x) => x[0]),
      ).toEqual(sorted);
      expect(wb.sheetNames()).toEqual(['Sheet1', 'Faulty', 'Faulty – Overview', 'Faulty – errors']);
    } finally {
      await rt.stop();
    }
  });
});
