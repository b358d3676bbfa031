/**
 * Imports that do not fit in one execution: stopped at a checkpoint by the work budget, killed by
 * the runtime at the 6-minute limit (its cost model made slow), and resumed with rows left behind
 * by a killed execution. In every case the final tab has each row exactly once.
 */
import type { Workbook } from '../../emulator/gas/spreadsheet';
import type { Runtime, RuntimeOptions } from '../../emulator/gas';
import { importSession, serviceRows, expectEveryRowOnce, useFinishedScan } from './import-helpers';
import { IMPORT_TUNING_KEY, importKey } from '../../src/store/keys';

jest.setTimeout(60_000);

describe('importScan across executions', () => {
  const scan = useFinishedScan('Big list');

  function session(opts: RuntimeOptions = {}): { rt: Runtime; wb: Workbook } {
    return importSession(scan.service, opts);
  }

  function expectComplete(wb: Workbook): void {
    expectEveryRowOnce(wb, scan);
    expect(wb.sheetNames()).toEqual(['Sheet1', 'Big list', 'Big list – Overview', 'Big list – errors']);
  }

  test('stops at a checkpoint when the budget is spent and continues call by call, nothing visible until complete', async () => {
    const { rt, wb } = session();
    try {
      // The support knob: a tiny budget and one page per wave, so every call copies one page.
      rt.properties.script.set(IMPORT_TUNING_KEY, JSON.stringify({ budgetMs: 1, pagesPerWave: 1 }));
      const steps: any[] = [];
      for (let i = 0; i < 10; i++) {
        const r = rt.scriptRun('importScan', [scan.scanId, i === 0 ? {} : null]) as any;
        steps.push(r);
        if (r.done) break;
        // While unfinished: no visible result tab, one small checkpoint.
        expect(wb.sheets.filter((s) => !s.hidden).map((s) => s.name)).toEqual(['Sheet1']);
        const cp = rt.properties.document!.get(importKey(scan.scanId))!;
        expect(cp.length).toBeLessThan(1500);
      }
      expect(steps.map((s) => [s.done, s.rowsWritten])).toEqual([
        [false, 100],
        [false, 200],
        [false, 250],
        [true, 250],
      ]);
      expect(steps[0].message).toBe('Imported 100 of 257 rows so far; continuing…');
      expectComplete(wb);
      expect(rt.properties.document!.get(importKey(scan.scanId))).toBeNull();
    } finally {
      await rt.stop();
    }
  });

  test('slow modelled time: the budget stops before the limit and the next call continues (no knob)', async () => {
    // Each fetchAll costs 150 s of modelled time; the script's clock is the modelled one.
    const { rt, wb } = session({ cost: { urlFetchCallMs: 150_000 } });
    try {
      rt.properties.script.set(IMPORT_TUNING_KEY, JSON.stringify({ pagesPerWave: 1 }));
      const first = rt.scriptRun('importScan', [scan.scanId, null]) as any;
      expect(first).toMatchObject({ done: false, rowsWritten: 200 });
      expect(rt.executions[rt.executions.length - 1].durationMs).toBeLessThan(360_000);
      const second = rt.scriptRun('importScan', [scan.scanId, null]) as any;
      expect(second).toMatchObject({ done: true, rowsWritten: 250 });
      expect(rt.executions.every((e) => e.ok)).toBe(true);
      expectComplete(wb);
    } finally {
      await rt.stop();
    }
  });

  test('killed by the runtime at the 6-minute limit (service calls slower than any margin), then resumed: no row lost or doubled', async () => {
    // Each fetchAll costs 200 s of modelled time: more than the 2 minutes the budget keeps back, so a
    // wave started at 200 s cannot end before 6 minutes and the runtime kills the execution, as
    // Google would. Each killed execution still keeps what it recorded; the next one goes on from there.
    const { rt, wb } = session({ cost: { urlFetchCallMs: 200_000 } });
    try {
      rt.properties.script.set(IMPORT_TUNING_KEY, JSON.stringify({ pagesPerWave: 1 }));
      const outcomes: string[] = [];
      const recorded: number[] = [];
      for (let i = 0; i < 8; i++) {
        let r: any;
        try {
          r = rt.scriptRun('importScan', [scan.scanId, null]);
        } catch (e) {
          outcomes.push(String((e as Error).message));
          recorded.push(JSON.parse(rt.properties.document!.get(importKey(scan.scanId))!).productsDone);
          expect(wb.sheets.filter((s) => !s.hidden).map((s) => s.name)).toEqual(['Sheet1']);
          continue;
        }
        outcomes.push(r.done ? 'done' : 'checkpoint');
        if (r.done) break;
      }
      expect(outcomes).toEqual([
        'Exceeded maximum execution time',
        'Exceeded maximum execution time',
        'Exceeded maximum execution time',
        'done',
      ]);
      expect(recorded).toEqual([100, 200, 250]);
      expect(rt.executions.filter((e) => !e.ok)).toHaveLength(3);
      expectComplete(wb);
    } finally {
      await rt.stop();
    }
  });

  test('rows a killed execution wrote after its last checkpoint are cleared before the import continues', async () => {
    const { rt, wb } = session();
    try {
      rt.properties.script.set(IMPORT_TUNING_KEY, JSON.stringify({ budgetMs: 1, pagesPerWave: 1 }));
      expect((rt.scriptRun('importScan', [scan.scanId, null]) as any).rowsWritten).toBe(100);
      // What an execution killed between its write and its checkpoint leaves: rows 101-150 staged, not recorded.
      const staging = wb.sheets.find((s) => s.hidden && s.name.startsWith('~import'))!;
      for (let r = 102; r <= 151; r++) wb.type(staging.name, 'A' + r, 'LEFTOVER' + r);
      for (;;) if ((rt.scriptRun('importScan', [scan.scanId, null]) as any).done) break;
      expectComplete(wb);
      expect(
        wb
          .values('Big list')
          .flat()
          .some((v) => String(v).startsWith('LEFTOVER')),
      ).toBe(false);
    } finally {
      await rt.stop();
    }
  });

  test('a new request drops the unfinished import and starts over with the new filter', async () => {
    const { rt, wb } = session();
    try {
      rt.properties.script.set(IMPORT_TUNING_KEY, JSON.stringify({ budgetMs: 1, pagesPerWave: 1 }));
      expect((rt.scriptRun('importScan', [scan.scanId, null]) as any).done).toBe(false);
      const request = { filters: [{ field: 'buybox_price', operator: '<', value: 20 }] };
      let r: any;
      do r = rt.scriptRun('importScan', [scan.scanId, request]);
      while (!r.done);
      const want = (await serviceRows(scan.service, scan.scanId, { filter: [{ name: 'buybox_price', operator: '<', value: 2000 }] })).map(
        (p) => p.asin,
      );
      expect(want.length).toBeGreaterThan(0);
      // A filtered import has its own tab; the dropped unfinished full import left no tab behind.
      expect(
        wb
          .values('Big list (filtered)')
          .slice(1)
          .map((x) => x[0]),
      ).toEqual(want);
      expect(wb.sheetByName('Big list')).toBeFalsy();
      expect(wb.sheets.filter((s) => s.name.startsWith('~import'))).toEqual([]);
    } finally {
      await rt.stop();
    }
  });
});
