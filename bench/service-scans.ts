/**
 * Scan throughput of the local Scan Service on this machine: a 10,000-line price list of products
 * from the shipped sample catalog, uploaded over HTTP with the speed limit off
 * (scanSpeedPerMinute 0), timed from upload to status success. Also the cost of reading results
 * (one page with a nested sort and filter) and of the three downloads.
 * Run alone: `npx tsx bench/service-scans.ts`; `npm run bench` runs it through bench/run.ts.
 */
import { performance } from 'node:perf_hooks';
import { startService } from '../emulator/service/server';
import { priceListCsv } from './price-list';
import { runAlone } from './run-alone';

const LINES = 10_000;
const KEY = 'bench-key';

/** LINES lines: the first identifier of each US product of the sample catalog, over again if needed. */
const priceList = () => priceListCsv(LINES);

export async function benchScans(): Promise<Record<string, number | string>> {
  const csv = priceList();
  const lines = csv.trimEnd().split('\n').length - 1;
  const svc = await startService({ port: 0, dbPath: ':memory:', apiKeys: [KEY], scanSpeedPerMinute: 0, allowLoopbackWebhooks: false });
  const auth = { authorization: `Bearer ${KEY}` };
  try {
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'bench.csv');
    form.append(
      'attributes',
      JSON.stringify({ mapping: { id: 0, cost: 1 }, options: { marketplace_id: 'US', name: 'bench', header: true } }),
    );
    const t0 = performance.now();
    const up = await fetch(`${svc.url}/api/v3/scans`, { method: 'POST', headers: auth, body: form });
    const scan = (await up.json()) as any;
    if (up.status !== 201) throw new Error(`upload: ${up.status} ${JSON.stringify(scan)}`);
    const uploaded = performance.now();
    let done: any;
    for (;;) {
      done = await (await fetch(`${svc.url}/api/v3/scans/${scan.id}`, { headers: auth })).json();
      if (done.status !== 'queued' && done.status !== 'in_progress') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const finished = performance.now();
    if (done.status !== 'success') throw new Error(`scan ended ${done.status}`);
    const minutes = (finished - uploaded) / 60000;

    const time = async (f: () => Promise<unknown>) => {
      const s = performance.now();
      await f();
      return Math.round(performance.now() - s);
    };
    const post = (path: string, body: unknown) =>
      fetch(svc.url + path, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
        (r) => r.arrayBuffer(),
      );
    const query = { sort: '-financials.roi', filter: [{ name: 'financials.profit', operator: '>', value: 0 }] };
    return {
      'scans.lines': lines,
      'scans.products': done.products,
      'scans.errors': done.errors,
      'scans.upload_ms': Math.round(uploaded - t0),
      'scans.processing_s': Math.round((finished - uploaded) / 10) / 100,
      'scans.products_per_minute': Math.round(done.products / minutes),
      'scans.lines_per_minute': Math.round(lines / minutes),
      'scans.results_page_sorted_filtered_ms': await time(() => post(`/api/v3/scans/${scan.id}`, { ...query, per_page: 100, page: 3 })),
      'scans.download_json_ms': await time(() => post(`/api/v3/scans/${scan.id}/download?type=json`, query)),
      'scans.download_csv_ms': await time(() => post(`/api/v3/scans/${scan.id}/download?type=csv`, query)),
      'scans.download_xlsx_ms': await time(() => post(`/api/v3/scans/${scan.id}/download?type=xlsx`, query)),
    };
  } finally {
    await svc.stop();
  }
}

if (require.main === module) runAlone(benchScans);
