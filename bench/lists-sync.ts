/**
 * Lists sync of a 50,000-row brand blocklist: the BUILT add-on's syncNow in the local runtime against
 * the local Scan Service (in a worker thread on the runtime's clock, so its real 30-requests-a-minute
 * limit applies in modelled time). Three syncs: the first (sheet only: a merge), again with nothing
 * changed, then with 100 rows changed on each side. Figures per sync: bulk requests against the
 * floor (list pages at 1,000 + writes at 10,000 rows), 429s received (target 0), spreadsheet write
 * calls, modelled Apps Script seconds, executions (syncNow calls until done). Then the automatic
 * sync on the hourly trigger with nothing changed: its share of Google's daily consumer quotas.
 * Run alone: `npm run build && npx tsx bench/lists-sync.ts`.
 */
import { createRuntime, type Runtime } from '../emulator/gas';
import { SharedClock } from '../emulator/gas/shared-clock';
import { startServiceInWorker } from '../emulator/service/worker';
import { Workbook } from '../emulator/gas/spreadsheet';
import { runAlone } from './run-alone';

const ROWS = 50_000;
const CHANGED = 100;
const KEY = 'bench-lists-key-0000000000';

async function send(url: string, method: string, path: string, body: unknown): Promise<void> {
  const res = await fetch(url + path, {
    method,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
}

interface SyncFigures {
  requests: number;
  rateLimited: number;
  writeCalls: number;
  seconds: number;
  executions: number;
}

function syncUntilDone(rt: Runtime): SyncFigures {
  const before = rt.executions.length;
  let r: any;
  for (let i = 0; i < 20; i++) {
    r = rt.scriptRun('syncNow', [false]);
    if (r.done) break;
  }
  if (!r.done) throw new Error('sync did not finish in 20 runs');
  const brands = r.lists.find((l: any) => l.list === 'brands');
  if (brands.state === 'blocked' || brands.state === 'problem') throw new Error('brands: ' + brands.message);
  const runs = rt.executions.slice(before);
  return {
    requests: runs.reduce((n, e) => n + e.counters.urlFetchRequests, 0),
    rateLimited: r.rateLimited,
    writeCalls: runs.reduce((n, e) => n + e.counters.sheetWriteCalls, 0),
    seconds: runs.reduce((n, e) => n + e.durationMs, 0) / 1000,
    executions: runs.length,
  };
}

export async function benchListsSync(): Promise<Record<string, number | string>> {
  const clock = new SharedClock(Date.UTC(2026, 10, 20, 12, 0, 0));
  const service = await startServiceInWorker({ clock: clock.buffer, apiKeys: [KEY] });
  const url = service.url;
  const wb = new Workbook({ name: 'Bench lists' });
  const rt = createRuntime({ workbook: wb, clock, urlFetchTimeoutMs: 60_000 });
  const out: Record<string, number | string> = {};
  try {
    rt.scriptRun('saveSettings', [{ apiKey: KEY, serviceUrl: url }]);
    rt.scriptRun('setUpLists');
    const sheet = 'Scan brand blocklist';
    (wb.requireSheet(sheet) as { maxRows: number }).maxRows = ROWS + 10;
    for (let i = 0; i < ROWS; i++) {
      wb.type(sheet, `A${i + 2}`, 'US');
      wb.type(sheet, `B${i + 2}`, `Brand ${i}`);
    }
    // Lists other than brands cost one list request each per sync (3 paced, tags and notes 1 each).
    const OTHERS = 5;
    const pages = Math.ceil(ROWS / 1000);
    const report = (name: string, f: SyncFigures, floor: number) => {
      out[`${name}: requests (floor)`] = `${f.requests} (${floor})`;
      out[`${name}: 429s received`] = f.rateLimited;
      out[`${name}: spreadsheet write calls`] = f.writeCalls;
      out[`${name}: modelled Apps Script s`] = Number(f.seconds.toFixed(1));
      out[`${name}: executions`] = f.executions;
    };
    const t1 = Date.now();
    // 1. first sync: the service has nothing; 1 page read, 5 writes of 10,000
    report('first sync', syncUntilDone(rt), OTHERS + 1 + Math.ceil(ROWS / 10_000));
    out['first sync: wall s'] = Number(((Date.now() - t1) / 1000).toFixed(1));
    clock.advance(61_000);
    // 2. nothing changed: every page read, nothing written
    const t2 = Date.now();
    report('unchanged', syncUntilDone(rt), OTHERS + pages);
    out['unchanged: wall s'] = Number(((Date.now() - t2) / 1000).toFixed(1));
    clock.advance(61_000);
    // 3. 100 rows changed on each side
    for (let i = 0; i < CHANGED; i++) wb.type(sheet, `B${i + 2}`, `Renamed ${i}`);
    await send(url, 'DELETE', '/api/v3/brand-blocklist', {
      marketplace_id: 'US',
      brands: Array.from({ length: CHANGED }, (_, i) => `Brand ${ROWS - 1 - i}`),
    });
    await send(url, 'POST', '/api/v3/brand-blocklist', {
      marketplace_id: 'US',
      brands: Array.from({ length: CHANGED }, (_, i) => `Service ${i}`),
    });
    clock.advance(61_000);
    const t3 = Date.now();
    // pages read, one DELETE and one POST
    report('100 changed each side', syncUntilDone(rt), OTHERS + pages + 2);
    out['100 changed each side: wall s'] = Number(((Date.now() - t3) / 1000).toFixed(1));
    // 4. the automatic sync on the hourly trigger, nothing changed: what it costs of Google's daily
    //    consumer quotas (trigger runtime 90 min, URL Fetch 20,000, properties 50,000), over 3 runs
    rt.scriptRun('setAutoSync', [true]);
    const u0 = rt.quotaUsage();
    const RUNS = 3;
    for (let h = 0; h < RUNS; h++) {
      rt.advance(3600_000);
      const fired = rt.runDueTriggers();
      if (!fired.length || !fired.every((f) => f.ok)) throw new Error('trigger run failed: ' + JSON.stringify(fired));
    }
    const u1 = rt.quotaUsage();
    const per = (k: 'triggerRuntimeMs' | 'urlFetchCalls' | 'propertiesReadWrite') => (u1[k].used - u0[k].used) / RUNS;
    // An average over the first runs: the schedule (src/app/lists/schedule.ts) skips an unchanged list on some of them.
    out[`hourly automatic sync, unchanged: trigger runtime s per run (mean of the first ${RUNS})`] = Number(
      (per('triggerRuntimeMs') / 1000).toFixed(1),
    );
    out[`hourly automatic sync, unchanged: URL Fetch calls / property r+w per run (mean of the first ${RUNS})`] =
      `${per('urlFetchCalls').toFixed(1)} / ${per('propertiesReadWrite').toFixed(1)}`;
    out['hourly automatic sync, at that mean for 23 runs a day: trigger runtime min of 90 (busy-day.ts models the whole day)'] = Number(
      ((per('triggerRuntimeMs') * 23) / 60_000).toFixed(1),
    );
    // (counted cell by cell: wb.values of 50,000 rows is slow)
    const last = wb.requireSheet(sheet).lastRow();
    let rows = 0;
    for (let r = 2; r <= last; r++) if (wb.cell(sheet, `B${r}`).value !== '') rows++;
    out['rows in the sheet after (expected 50,000)'] = rows;
  } finally {
    await rt.stop();
    await service.stop();
  }
  return out;
}

if (require.main === module) runAlone(benchListsSync);
