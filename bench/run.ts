/**
 * npm run bench: runs every benchmark and prints its measured figures. Figures are measured on this
 * machine in one run (compare ratios within a run: the machines are shared and noisy); "modelled"
 * figures are Apps Script time from the local runtime's documented cost model.
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runMain } from './run-alone';

type Bench = () => Promise<Record<string, number | string>>;

/** Benchmarks by file and export name; a missing one is reported, not hidden. */
const BENCHES: Array<[string, string, string]> = [
  ['service: bulk upsert and list paging', 'service-bulk', 'benchServiceBulk'],
  ['service: scan engine throughput', 'service-engine', 'benchEngine'],
  ['service: scans over HTTP', 'service-scans', 'benchScans'],
  ['service: hostile uploads (time to refuse, peak RSS)', 'service-hostile', 'benchServiceHostile'],
  ['add-on: read, send and import a scan', 'addon-scan', 'benchAddonScan'],
  ['add-on: a 100,000-line price list, imported with and without the room check', 'big-list', 'benchBigList'],
  ['add-on: identifier formulas', 'formulas', 'benchFormulas'],
  ['add-on: lists sync of a 50,000-row brand blocklist', 'lists-sync', 'benchListsSync'],
  ['add-on: compare two 10,000-line scans (Changes tab)', 'compare', 'benchCompare'],
  ['add-on: four weekly re-scans of a 10,000-line list on a schedule', 'schedule', 'benchSchedule'],
  ["add-on: a busy seller's day against the daily quotas", 'busy-day', 'benchBusyDay'],
  ['add-on: the sidebar, from the menu click to a usable view in Chromium', 'sidebar-open', 'benchSidebarOpen'],
  ['example webhook receiver: delivery handling', 'webhook-receiver', 'benchWebhookReceiver'],
  ['local Apps Script: built-in formulas on a 10,000-row price list', 'builtin-formulas', 'benchBuiltinFormulas'],
];

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  let failed = 0;
  // What Apps Script parses on every call (each formula cell, each sidebar call) and serves per open.
  console.log('\n## built files');
  for (const f of ['Code.js', 'Sidebar.html']) {
    const p = resolve(__dirname, '..', process.env.ADDON_OUT_DIR || 'dist', f);
    if (existsSync(p)) console.log(`  dist/${f}: ${(statSync(p).size / 1024).toFixed(1)} KB`);
  }
  for (const [title, file, fn] of BENCHES) {
    if (only.length && !only.some((o) => file.includes(o))) continue;
    const path = join(__dirname, file + '.ts');
    console.log(`\n## ${title} (bench/${file}.ts)`);
    if (!existsSync(path)) {
      console.log('  (not written yet)');
      continue;
    }
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const mod = require(path) as Record<string, Bench>;
      const t0 = Date.now();
      const figures = await mod[fn]();
      for (const [k, v] of Object.entries(figures)) console.log(`  ${k}: ${typeof v === 'number' ? round(v) : v}`);
      console.log(`  (bench wall time: ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    } catch (e) {
      failed++;
      console.log(`  FAILED: ${(e as Error).stack ?? e}`);
    }
  }
  process.exit(failed ? 1 : 0);
}

function round(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(v < 10 ? 3 : 1);
}

runMain(main);
