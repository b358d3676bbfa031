/**
 * Re-scan on a schedule (issue 23): four weekly re-scans of a 10,000-line list through the schedule
 * path — the BUILT add-on in the local Apps Script runtime on its virtual clock, the hourly trigger
 * run hour by hour for four weeks, against the local Scan Service in a child process. The list is
 * scanned once from New scan (as the sidebar sends it), then scheduled "every Monday at 06:00" with
 * the summary email on; before each Monday the supplier moves 5 % of the costs. Each week's slot run
 * sends the remembered range, the next runs import it and write its Changes tab against the
 * previous week, and the owner is emailed the summary.
 *
 * Figures (over the 4 weeks; per slot day the busiest 24 hours): trigger executions, API requests,
 * fetchAll calls, spreadsheet write calls, cells written, modelled Apps Script seconds, and the
 * share of Google's daily per-user quotas (consumer account: URL Fetch calls 20,000, property
 * reads/writes 50,000, trigger runtime 90 min, email recipients 100), counted where the runtime
 * counts them (emulator/gas/quotas.ts).
 * Run alone: `npm run build && npx tsx bench/schedule.ts`.
 */
import { createRuntime, DAILY_QUOTAS, type QuotaName, type Runtime } from '../emulator/gas';
import { Workbook } from '../emulator/gas/spreadsheet';
import { spawnService } from '../emulator/service/spawn';
import { usIdentifiers } from './price-list';
import { runAlone } from './run-alone';
import { schedulesKey } from '../src/store/schedules';

const LINES = Number(process.env.BENCH_SCHEDULE_LINES) || 10_000;
const WEEKS = 4;
const OWNER = 'owner@example.com';
const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** Friday Nov 20, 2026, 23:30 UTC: the first slot is Monday Nov 23, 06:00 (UTC spreadsheet). */
const START = Date.UTC(2026, 10, 20, 23, 30);
const MONDAY = Date.UTC(2026, 10, 23, 6);

function cost(i: number, week: number): number {
  const base = ((i * 7919) % 4000) / 100 + 1;
  // Each week the supplier cuts 5 % of the costs and raises another 5 % (different rows each week).
  const k = (i + week * 7) % 20;
  return Number((k === 0 ? Math.max(0.5, base / 2) : k === 1 ? base * 1.5 : base).toFixed(2));
}

/** The supplier's price list: LINES rows of UPC, cost (week 0) and SKU. */
function priceList(): { wb: Workbook; sheet: ReturnType<Workbook['addSheet']> } {
  const wb = new Workbook({ name: 'Bench', owner: OWNER, empty: true });
  const sheet = wb.addSheet('List', undefined, LINES + 1, 5);
  const ids = usIdentifiers();
  wb.writeInput(sheet, 1, 1, 'UPC');
  wb.writeInput(sheet, 1, 2, 'Cost');
  wb.writeInput(sheet, 1, 3, 'SKU');
  for (let i = 0; i < LINES; i++) {
    wb.writeInput(sheet, i + 2, 1, "'" + ids[i % ids.length]);
    wb.writeInput(sheet, i + 2, 2, cost(i, 0));
    wb.writeInput(sheet, i + 2, 3, 'SKU-' + i);
  }
  return { wb, sheet };
}

/** Daily-quota uses of the owner by virtual day (from START), as the runtime counts them (its meter wrapped). */
function quotaUsesByDay(rt: Runtime): Map<number, Record<QuotaName, number>> {
  const byDay = new Map<number, Record<QuotaName, number>>();
  const note = (name: QuotaName, n: number, at: number) => {
    const d = Math.floor((at - START) / DAY);
    const b =
      byDay.get(d) ??
      ({ urlFetchCalls: 0, urlFetchBytesReceived: 0, propertiesReadWrite: 0, triggerRuntimeMs: 0, emailRecipients: 0 } as Record<
        QuotaName,
        number
      >);
    b[name] += n;
    byDay.set(d, b);
  };
  const meter = rt.quotas as unknown as {
    tryUse(u: string, n: QuotaName, k: number, at?: number): boolean;
    add(u: string, n: QuotaName, k: number, at?: number, o?: number): void;
  };
  const tryUse = meter.tryUse.bind(meter);
  const add = meter.add.bind(meter);
  meter.tryUse = (u, n, k, at = rt.state.clock.now()) => {
    const ok = tryUse(u, n, k, at);
    if (ok && u === OWNER) note(n, k, at);
    return ok;
  };
  meter.add = (u, n, k, at = rt.state.clock.now(), o = at) => {
    add(u, n, k, at, o);
    if (u === OWNER) note(n, k, at);
  };
  return byDay;
}

export async function benchSchedule(): Promise<Record<string, number | string>> {
  const out: Record<string, number | string> = {};
  const service = await spawnService({ SCAN_SERVICE_SPEED: '100000000' });
  const auth = { authorization: 'Bearer ' + service.apiKey };
  const finished = async (id: number) => {
    for (;;) {
      const s = (await (await fetch(service.url + '/api/v3/scans/' + id, { headers: auth })).json()) as any;
      if (['success', 'error', 'cancelled'].includes(s.status)) return s;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const { wb, sheet } = priceList();
  const rt: Runtime = createRuntime({ workbook: wb, owner: OWNER, startTime: START, urlFetchTimeoutMs: 60_000 });
  const byDay = quotaUsesByDay(rt);
  try {
    rt.scriptRun('saveSettings', [{ apiKey: service.apiKey, serviceUrl: service.url }]);
    const setup: any = rt.scriptRun('getScanSetup', [{ sheetName: 'List' }]);
    const started: any = rt.scriptRun('startScan', [
      {
        roles: setup.columns.map((c: any) => c.role),
        options: { marketplace: 'US', name: 'Bench', targetRoi: '30' },
        sheetName: setup.sheetName,
        rangeA1: setup.rangeA1,
        selection: setup.selection,
        headerRow: setup.headerRow,
        headers: setup.columns.map((c: any) => c.header),
      },
    ]);
    const first = started.progress.scanId as number;
    const scan = await finished(first);
    out['list: lines / products of the first scan'] = `${LINES} / ${scan.products}`;
    const supplier = (rt.scriptRun('getRememberedSuppliers') as any[])[0];
    rt.scriptRun('saveSchedule', [supplier.id, 'w1@6', first, true]);
    const record = () => JSON.parse(rt.properties.user(OWNER).get(schedulesKey(wb.id)) || '[]')[0];

    const from = rt.executions.length;
    const end = MONDAY + (WEEKS - 1) * 7 * DAY + DAY;
    let week = 0;
    while (rt.state.clock.now() + HOUR <= end) {
      // The supplier's new list arrives before each Monday's slot.
      const nextMonday = MONDAY + week * 7 * DAY;
      if (week < WEEKS && rt.state.clock.now() + HOUR >= nextMonday - 12 * HOUR) {
        week++;
        for (let i = 0; i < LINES; i++) wb.writeInput(sheet, i + 2, 2, cost(i, week));
      }
      rt.advance(HOUR);
      for (const f of rt.runDueTriggers()) if (!f.ok) throw new Error('trigger failed: ' + JSON.stringify(f));
      const r = record();
      if (r && r.sid !== undefined) await finished(r.sid);
    }
    const ex = rt.executions.slice(from).filter((e) => e.kind === 'installable-trigger');
    const sum = (k: keyof (typeof ex)[number]['counters']) => ex.reduce((a, e) => a + e.counters[k], 0);
    const changes = wb.sheetNames().filter((n) => / – Changes/.test(n));
    if (changes.length !== WEEKS) throw new Error(`expected ${WEEKS} Changes tabs, found ${changes.join(', ')}`);
    if (rt.outbox.length !== WEEKS) throw new Error(`expected ${WEEKS} emails, sent ${rt.outbox.length}`);
    out['4 weeks: hourly trigger executions'] = ex.length;
    out['4 weeks: scheduled scans sent'] = WEEKS;
    out['4 weeks: Changes tabs written'] = changes.length;
    out['4 weeks: emails sent (to the owner only)'] = rt.outbox.length;
    out['last summary'] = rt.outbox[rt.outbox.length - 1].subject;
    out['4 weeks: API requests'] = sum('urlFetchRequests');
    out['4 weeks: fetchAll calls'] = sum('urlFetchCalls');
    out['4 weeks: spreadsheet write calls'] = sum('sheetWriteCalls');
    out['4 weeks: spreadsheet read calls'] = sum('sheetReadCalls');
    out['4 weeks: cells written'] = sum('cellsWritten');
    out['4 weeks: modelled Apps Script s (total)'] = ex.reduce((a, e) => a + e.durationMs, 0) / 1000;
    out['modelled s, longest execution (limit 360)'] = Math.max(...ex.map((e) => e.durationMs)) / 1000;
    const idle = ex.filter((e) => e.counters.urlFetchRequests === 0 && e.counters.sheetWriteCalls === 0);
    out['an hourly run with nothing due: modelled s'] = idle.length ? Math.max(...idle.map((e) => e.durationMs)) / 1000 : 'none';
    const per = (e: (typeof ex)[number]) => Math.floor((e.startedAt - START) / DAY);
    // The slot days (Mondays): what each week's re-scan costs in one day of the daily quotas.
    const limits = DAILY_QUOTAS.consumer;
    const share = (name: QuotaName, d: number) => {
      const used = byDay.get(d)?.[name] ?? 0;
      return `${name === 'triggerRuntimeMs' ? (used / 60_000).toFixed(1) + ' min' : used} (${((100 * used) / (limits[name] as number)).toFixed(2)} %)`;
    };
    const mondays = Array.from({ length: WEEKS }, (_, w) => Math.floor((MONDAY + w * 7 * DAY - START) / DAY));
    for (const [w, d] of mondays.entries()) {
      const runs = ex.filter((e) => per(e) === d);
      out[`week ${w + 1} (Monday): trigger runs / API requests / write calls / modelled s`] =
        `${runs.length} / ${runs.reduce((a, e) => a + e.counters.urlFetchRequests, 0)} / ${runs.reduce((a, e) => a + e.counters.sheetWriteCalls, 0)} / ${(runs.reduce((a, e) => a + e.durationMs, 0) / 1000).toFixed(1)}`;
    }
    const busiest = mondays.reduce((b, d) => ((byDay.get(d)?.urlFetchCalls ?? 0) > (byDay.get(b)?.urlFetchCalls ?? 0) ? d : b), mondays[0]);
    out['busiest Monday: URL Fetch calls of 20,000/day'] = share('urlFetchCalls', busiest);
    out['busiest Monday: property reads/writes of 50,000/day'] = share('propertiesReadWrite', busiest);
    out['busiest Monday: trigger runtime of 90 min/day'] = share('triggerRuntimeMs', busiest);
    out['busiest Monday: email recipients of 100/day'] = share('emailRecipients', busiest);
    const quiet = mondays[0] + 2; // a Wednesday: nothing due, 24 hourly runs
    out['a day with nothing due: property reads/writes of 50,000/day'] = share('propertiesReadWrite', quiet);
    out['a day with nothing due: trigger runtime of 90 min/day'] = share('triggerRuntimeMs', quiet);
  } finally {
    await rt.stop();
    await service.stop();
  }
  return out;
}

if (require.main === module) runAlone(benchSchedule);
