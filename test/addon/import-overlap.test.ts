/**
 * Issue 20, part 3: the hourly import trigger firing while the sidebar's "Import" of the same scan is
 * between two service calls (emulator/gas/interleave.ts), as Google can run them at once. The
 * document lock keeps them apart: the trigger does not write while the sidebar import holds it, the
 * scan gets exactly one tab with every product once, and the next trigger run has nothing left.
 */
import type { SpawnedService } from '../../emulator/service/spawn';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { interleave } from '../../emulator/gas/interleave';
import { connect, runtime } from './scanflow-helpers';
import { api, serviceRows, startImportService, startSheetScan, waitFinished } from './import-helpers';

jest.setTimeout(90_000);

let service: SpawnedService;
beforeAll(async () => {
  service = await startImportService({ SCAN_SERVICE_SPEED: '600' });
});
afterAll(async () => {
  await service?.stop();
});

test('the trigger fires while the sidebar imports the same scan under the document lock: one tab, each product once, nothing left for the next run', async () => {
  const wb = new Workbook({ name: 'Supplier' });
  const rt = runtime(wb);
  connect(rt, service.url, service.apiKey);
  try {
    // 300 lines at 600 a minute, started as a seller does: still running while the hourly trigger is installed
    const id = startSheetScan(rt, wb, 'Sheet1', 300, 'Overlap run');
    rt.scriptRun('listScans', [1]);
    await api(service, 'GET', `/api/v3/scans/${id}/cancel`);
    await waitFinished(service, id);
    const products = await serviceRows(service, id);
    expect(rt.triggers.records.filter((t) => t.handler === 'importFinishedScans')).toHaveLength(1);
    rt.advance(3600_000);

    const trigger = interleave(rt, {
      afterCalls: 1,
      into: (e) => e.kind === 'sidebar-call',
      when: () => rt.locks.isHeld('document'),
      run: () => rt.runDueTriggers(),
    });
    const imported = rt.scriptRun('importScan', [id, null]) as any;
    expect(trigger.fired()).toBe(true);
    // the trigger ran in the middle and made no tab of its own
    expect(trigger.outcome()!.result).toMatchObject([{ handler: 'importFinishedScans' }]);
    // it waited its 20 s for the lock on the virtual clock, in vain, and wrote nothing
    expect(rt.logs).toContain(
      `automatic import of scan ${id}: Another import is writing to this spreadsheet right now. Try again in a minute.`,
    );
    const run = rt.executions.find((e) => e.functionName === 'importFinishedScans')!;
    expect(run.counters.sheetWriteCalls).toBe(0);
    expect(run.durationMs).toBeGreaterThanOrEqual(20_000);
    expect(imported).toMatchObject({ done: true, sheetName: 'Overlap run', rowsWritten: products.length });
    expect(wb.sheetNames().filter((n) => !wb.requireSheet(n).hidden)).toEqual(['Sheet1', 'Overlap run', 'Overlap run – Overview']);
    expect(
      wb
        .values('Overlap run')
        .slice(1)
        .map((r) => r[0]),
    ).toEqual(products.map((p) => p.asin));
    // the next hourly run finds the scan imported: no second tab, no second toast
    rt.advance(3600_000);
    rt.runDueTriggers();
    expect(wb.sheetNames().filter((n) => !wb.requireSheet(n).hidden)).toEqual(['Sheet1', 'Overlap run', 'Overlap run – Overview']);
    expect(rt.uiEvents.filter((e) => e.kind === 'toast' && /Overlap run/.test(JSON.stringify(e)))).toHaveLength(0);
  } finally {
    await rt.stop();
  }
});
