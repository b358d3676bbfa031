/**
 * "Compare with an earlier scan" (issue 23) on two 10,000-line scans: the BUILT add-on's
 * compareScans in the local Apps Script runtime (modelled Apps Script time, emulator/gas/README.md)
 * against the local Scan Service in a child process. The later list has 5 % of its costs cut, 5 %
 * raised, 200 lines dropped and 200 new ones. Two ways:
 * - from both result tabs (imported first, untouched): no request;
 * - from the service (no result tab here): results pages of 100 in fetchAll waves, resumed across
 *   executions when one is not enough.
 * Figures: requests, write calls, cells written, executions, modelled seconds (total and longest).
 * Run alone: `npm run build && npx tsx bench/compare.ts`.
 */
import { createRuntime, type Runtime } from '../emulator/gas';
import { Workbook } from '../emulator/gas/spreadsheet';
import { spawnService } from '../emulator/service/spawn';
import { usIdentifiers } from './price-list';
import { runAlone } from './run-alone';

/** 10,000 by default; BENCH_COMPARE_LINES=100000 checks the resumed compare of two 100,000-line scans. */
const LINES = Number(process.env.BENCH_COMPARE_LINES) || 10_000;

function list(later: boolean): string {
  const ids = usIdentifiers();
  const out = ['UPC,Cost,SKU'];
  for (let i = 0; i < LINES + (later ? 200 : 0); i++) {
    if (later && i >= 1000 && i < 1200) continue;
    let cost = ((i * 7919) % 4000) / 100 + 1;
    if (later && i % 20 === 0) cost = Math.max(0.5, cost / 2);
    if (later && i % 20 === 1) cost = cost * 1.5;
    out.push(`${ids[i % ids.length]},${cost.toFixed(2)},SKU-${i}`);
  }
  return out.join('\r\n') + '\r\n';
}

function measure(rt: Runtime, first: number, out: Record<string, number | string>, label: string): void {
  const ex = rt.executions.slice(first);
  const sum = (k: keyof (typeof ex)[number]['counters']) => ex.reduce((a, e) => a + e.counters[k], 0);
  out[`${label}: executions (sidebar calls)`] = ex.length;
  out[`${label}: API requests`] = sum('urlFetchRequests');
  out[`${label}: fetchAll calls`] = sum('urlFetchCalls');
  out[`${label}: spreadsheet write calls`] = sum('sheetWriteCalls');
  out[`${label}: spreadsheet read calls`] = sum('sheetReadCalls');
  out[`${label}: cells written`] = sum('cellsWritten');
  out[`${label}: modelled Apps Script s (total)`] = ex.reduce((a, e) => a + e.durationMs, 0) / 1000;
  out[`${label}: modelled s, longest execution (limit 360)`] = Math.max(...ex.map((e) => e.durationMs)) / 1000;
}

export async function benchCompare(): Promise<Record<string, number | string>> {
  const out: Record<string, number | string> = {};
  const service = await spawnService({ SCAN_SERVICE_SPEED: '100000000' });
  try {
    const auth = { authorization: 'Bearer ' + service.apiKey };
    const upload = async (csv: string, name: string) => {
      const form = new FormData();
      form.append('file', new Blob([csv], { type: 'text/csv' }), 'bench.csv');
      form.append(
        'attributes',
        JSON.stringify({ mapping: { id: 0, cost: 1, supplier_sku: 2 }, options: { marketplace_id: 'US', name, header: true } }),
      );
      const { id } = (await (await fetch(service.url + '/api/v3/scans', { method: 'POST', headers: auth, body: form })).json()) as {
        id: number;
      };
      for (;;) {
        const s = (await (await fetch(service.url + '/api/v3/scans/' + id, { headers: auth })).json()) as any;
        if (['success', 'error', 'cancelled'].includes(s.status)) return { id, products: s.products as number };
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const a = await upload(list(false), 'Bench 2026-11-02');
    const b = await upload(list(true), 'Bench 2026-11-09');
    out['scans: products before / after'] = `${a.products} / ${b.products}`;

    const session = () => {
      const wb = new Workbook({ name: 'Bench' });
      const rt = createRuntime({ workbook: wb });
      rt.scriptRun('saveSettings', [{ apiKey: service.apiKey, serviceUrl: service.url }]);
      return { wb, rt };
    };
    const run = (rt: Runtime) => {
      let r: any;
      do r = rt.scriptRun('compareScans', [b.id, a.id]);
      while (!r.done);
      return r;
    };

    let tabRows = 0;
    // 1. Both result tabs imported and untouched.
    {
      const { rt } = session();
      try {
        for (const id of [a.id, b.id]) {
          let r: any;
          do r = rt.scriptRun('importScan', [id, null]);
          while (!r.done);
        }
        const first = rt.executions.length;
        const t0 = Date.now();
        const r = run(rt);
        out['from tabs: wall ms on this machine'] = Date.now() - t0;
        measure(rt, first, out, 'from tabs');
        // The premise: the second list changed costs, so there are changes to find.
        if (!(r.totalRows > 0)) throw new Error(`from tabs: compare found no changes (${JSON.stringify(r.summary)})`);
        tabRows = r.totalRows;
        out['from tabs: Changes rows'] = r.totalRows;
        out['summary'] = r.summary;
      } finally {
        await rt.stop();
      }
    }
    // 2. No result tab here: everything from the service.
    {
      const { rt } = session();
      try {
        const first = rt.executions.length;
        const t0 = Date.now();
        const r = run(rt);
        out['from the service: wall ms on this machine'] = Date.now() - t0;
        measure(rt, first, out, 'from the service');
        // The premise: the same comparison, read from the service instead of the tabs.
        if (r.totalRows !== tabRows) throw new Error(`from the service: ${r.totalRows} Changes rows, from tabs ${tabRows}`);
        out['from the service: requests the add-on counted'] = r.requests;
        out['from the service: request floor (2 scan records + pages of 100)'] =
          2 + Math.ceil(a.products / 100) + Math.ceil(b.products / 100);
      } finally {
        await rt.stop();
      }
    }
  } finally {
    await service.stop();
  }
  return out;
}

if (require.main === module) runAlone(benchCompare);
