/**
 * Headless runner: runs the BUILT add-on (dist/Code.js) in the local Apps Script runtime on a
 * workbook, with the local Scan Service, prints what the add-on showed the user and saves the
 * workbook.
 *
 *   npm run local -- <entry> [json args...] --workbook in.xlsx|in.csv [--out out.xlsx] [--user EMAIL]
 *   npm run local -- scan <in.xlsx|in.csv> [--sheet NAME] [--marketplace US] [--name NAME] [--out out.xlsx]
 *   npm run local -- sync <workbook.xlsx> [--out out.xlsx] [--preview] [--confirm-deletions]
 *   npm run local -- po <workbook.xlsx> --tab NAME --rows 2-40 [--months 2] [--cash N] [--days N] [--out out.xlsx]
 *   npm run local -- compare <workbook.xlsx> --scan A --with B [--out out.xlsx]
 *   npm run local -- start            (what `npm start` runs: `scan` on the shipped sample)
 *
 * `scan` runs the flow a user clicks through in the sidebar, with the suggested mapping:
 * getScanSetup -> previewScan -> startScan -> getScanProgress until the scan is finished ->
 * importScan until its tab is complete; then saves the workbook and prints ONE summary line.
 * A CSV becomes one tab named by --sheet (else the file's name), within the 31 characters an
 * .xlsx sheet name holds (cut with "…" like the add-on's own tab names), so the saved file holds it.
 *
 * `po` writes a purchase order tab from those rows of a result tab (or a Negotiate tab's rows with
 * an agreed cost) with makePurchaseOrder: no Scan Service is started, none is asked.
 *
 * `sync` runs "Sync now" (or only the preview) on every list the workbook has (named ranges
 * SCAN_TAGS, ...), continuing a run cut off by the time limit, prints one line per list and saves
 * the workbook with its named ranges. The runtime's clock follows real time there (its waits are
 * real), because the service counts its 30 requests a minute in real time.
 *
 * The service: SCAN_SERVICE_URL (+ SCAN_SERVICE_API_KEY) points at a running one; otherwise a
 * local service is started on a free port for the run. When the add-on declares `saveSettings`,
 * the runner first saves the address and key through it, as a user would in Settings.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { createRuntime, declaredFunctions, DEFAULT_SCRIPT_PATH, type Runtime, type UiEvent } from '../emulator/gas';
import { VirtualClock } from '../emulator/gas/execution';
import { Workbook } from '../emulator/gas/spreadsheet';
import { spawnService, type SpawnedService } from '../emulator/service/spawn';
import { type StandIn, type Stoppable, stopOnce } from '../emulator/stand-in';
import { tabName } from '../src/domain/sheet/tab-name';

const ROOT = join(__dirname, '..');
export const SAMPLE_PRICE_LIST = join(ROOT, 'samples', 'supplier-price-list.xlsx');

export interface RunnerArgs {
  command: string;
  args: unknown[];
  workbook?: string;
  out?: string;
  sheet?: string;
  user?: string;
  flags: Record<string, string>;
}

/** Parses argv after the script name. Positional JSON arguments are parsed as JSON, else kept as text. */
export function parseArgs(argv: string[]): RunnerArgs {
  const flags: Record<string, string> = {};
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const [k, inline] = a.slice(2).split('=', 2);
      flags[k] = inline ?? (argv[i + 1] !== undefined && !argv[i + 1].startsWith('--') ? argv[++i] : 'true');
    } else positional.push(a);
  }
  const [command = 'help', ...rest] = positional;
  const args = rest.map((r) => {
    try {
      return JSON.parse(r);
    } catch {
      return r;
    }
  });
  return { command, args, workbook: flags.workbook, out: flags.out, sheet: flags.sheet, user: flags.user, flags };
}

/** Loads an XLSX or CSV file as the spreadsheet the add-on is bound to. */
export async function loadWorkbook(file: string, sheetName?: string): Promise<Workbook> {
  if (!existsSync(file)) throw new Error(`No such workbook: ${file}`);
  const ext = extname(file).toLowerCase();
  if (ext === '.xlsx') return Workbook.fromXlsx(file, { name: basename(file, ext) });
  // The tab a CSV becomes is named as the add-on names its tabs (within the 31 characters of an
  // .xlsx sheet name, cut visibly), so the workbook the runner saves can hold it.
  if (ext === '.csv')
    return Workbook.fromCsv(readFileSync(file, 'utf8'), tabName(sheetName ?? basename(file, ext), []), { name: basename(file, ext) });
  throw new Error(`Unsupported workbook type ${ext}: use .xlsx or .csv`);
}

/** One line per thing the user saw. */
export function describeUiEvent(e: UiEvent): string | null {
  switch (e.kind) {
    case 'toast':
      return `toast: ${e.title ? e.title + ': ' : ''}${e.message}`;
    case 'alert':
      return `alert: ${e.title ? e.title + ': ' : ''}${e.prompt} [${e.answer}]`;
    case 'prompt':
      return `prompt: ${e.title ? e.title + ': ' : ''}${e.prompt} [${e.answer}${e.text ? ' "' + e.text + '"' : ''}]`;
    case 'sidebar':
      return `sidebar opened: ${e.title} (${e.html.length} bytes)`;
    case 'dialog':
      return `${e.modal ? 'modal ' : ''}dialog opened: ${e.title}`;
    case 'menu':
      return `menu "${e.name}": ${e.items.map((i) => (i ? i.caption : '—')).join(' | ')}`;
    case 'log':
      return null;
  }
}

export interface Session extends Stoppable {
  runtime: Runtime;
  service: SpawnedService | (StandIn & { apiKey: string });
}

/** Starts (or connects to) the service and creates a runtime on the workbook, settings saved. */
/**
 * A runtime clock that never runs ahead of real time: modelled costs and Utilities.sleep really
 * wait (the time of HTTP requests has already passed). For runs against a service on real time.
 */
export class RealTimeClock extends VirtualClock {
  private readonly gate = new Int32Array(new SharedArrayBuffer(4));
  constructor() {
    super(Date.now());
  }
  advance(ms: number): void {
    super.advance(ms);
    const ahead = this.now() - Date.now();
    if (ahead > 0) Atomics.wait(this.gate, 0, 0, ahead);
  }
}

export async function openSession(
  workbook: Workbook,
  opts: { user?: string; driveDir?: string; clock?: VirtualClock } = {},
): Promise<Session> {
  const external = process.env.SCAN_SERVICE_URL;
  const service = external
    ? { url: external.replace(/\/$/, ''), apiKey: process.env.SCAN_SERVICE_API_KEY ?? '', stop: async () => {} }
    : await spawnService({ SCAN_SERVICE_SPEED: process.env.SCAN_SERVICE_SPEED ?? '60000' });
  // The runner stands for a user who already uses the add-on in this document (its custom
  // functions are active there), as after choosing any of its menu items.
  const runtime = createRuntime({ workbook, driveDir: opts.driveDir, usedInDocument: true, clock: opts.clock });
  if (opts.user) runtime.activeUser = opts.user;
  const declared = declaredFunctions(readFileSync(DEFAULT_SCRIPT_PATH, 'utf8'));
  if (declared.includes('saveSettings'))
    runtime.scriptRun('saveSettings', [{ apiKey: service.apiKey, serviceUrl: service.url }], { user: opts.user });
  // A workbook file carries no results of the add-on's formulas: Sheets would compute them when
  // the document is shown, so the runner does too (before the entry runs).
  runtime.recalculate();
  return {
    runtime,
    service,
    stop: stopOnce(async () => {
      await runtime.stop();
      await service.stop();
    }),
  };
}

function defaultOut(input: string): string {
  return join(ROOT, 'out', basename(input, extname(input)) + '.result.xlsx');
}

async function runEntry(a: RunnerArgs): Promise<number> {
  if (!a.workbook) throw new Error('--workbook in.xlsx|in.csv is required');
  const wb = await loadWorkbook(resolve(a.workbook), a.sheet);
  const session = await openSession(wb, { user: a.user });
  let code = 0;
  try {
    const seen = session.runtime.uiEvents.length;
    try {
      const result = session.runtime.run(a.command, a.args, { user: a.user });
      if (result !== undefined) console.log('result:', JSON.stringify(result));
    } catch (e) {
      console.log(`error: ${(e as Error).message}`);
      code = 1;
    }
    for (const ev of session.runtime.uiEvents.slice(seen)) {
      const line = describeUiEvent(ev);
      if (line) console.log(line);
    }
  } finally {
    await session.stop();
  }
  const out = resolve(a.out ?? defaultOut(a.workbook));
  mkdirSync(dirname(out), { recursive: true });
  await wb.saveXlsx(out);
  console.log(`saved ${out}`);
  return code;
}

const USAGE = `usage:
  npm run local -- <entry> [json args...] --workbook in.xlsx|in.csv [--out out.xlsx] [--sheet NAME] [--user EMAIL]
  npm run local -- scan <in.xlsx|in.csv> [--sheet NAME] [--marketplace US] [--name NAME] [--out out.xlsx]
  npm run local -- sync <workbook.xlsx> [--out out.xlsx] [--preview] [--confirm-deletions]
  npm run local -- po <workbook.xlsx> --tab NAME --rows 2-40 [--months 2] [--cash N] [--days N] [--out out.xlsx]
  npm run local -- compare <workbook.xlsx> --scan A --with B [--out out.xlsx]
  npm run local -- start`;

export interface ScanRunOptions {
  input: string;
  sheet?: string;
  marketplace?: string;
  name?: string;
  out?: string;
  /** Milliseconds between progress polls (real time: the service runs in real time). */
  pollMs?: number;
  /** Give up waiting for the scan after this long. */
  timeoutMs?: number;
}

export interface ScanRunSummary {
  scanId: number;
  status: string;
  sent: number;
  skipped: number;
  repaired: number;
  products: number;
  errors: number;
  sheetName: string | null;
  errorsSheetName: string | null;
  out: string;
  /** Modelled Apps Script time of every execution of the run, and of the longest one. */
  modelledSeconds: number;
  longestCallSeconds: number;
  executions: number;
  /** Set when the add-on has no importScan yet (the results stay in the service). */
  note?: string;
  line: string;
}

const sleepMs = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The sidebar's flow, headless. Throws with the add-on's own message when a step fails; the
 * workbook is saved only when the flow got through (nothing half-saved).
 */
export async function runScan(o: ScanRunOptions): Promise<ScanRunSummary> {
  const input = resolve(o.input);
  const wb = await loadWorkbook(input, o.sheet);
  // A CSV's --sheet names its one tab (perhaps cut to fit an .xlsx file); an .xlsx's picks a tab.
  if (o.sheet && extname(input).toLowerCase() !== '.csv') {
    const sh = wb.sheetByName(o.sheet);
    if (!sh) throw new Error(`No sheet "${o.sheet}" in ${input} (sheets: ${wb.sheetNames().join(', ')})`);
    wb.activeSheet = sh;
    wb.activeRange = null;
  }
  const session = await openSession(wb);
  const rt = session.runtime;
  const firstExecution = rt.executions.length;
  try {
    const declared = declaredFunctions(readFileSync(DEFAULT_SCRIPT_PATH, 'utf8'));
    for (const fn of ['getScanSetup', 'previewScan', 'startScan', 'getScanProgress']) {
      if (!declared.includes(fn)) throw new Error(`The built add-on has no ${fn}: run npm run build`);
    }
    rt.open({ authMode: 'LIMITED' });
    rt.run('menuScanSheet');
    const setup = rt.scriptRun('getScanSetup') as any;
    const request = {
      roles: setup.columns.map((c: any) => c.role),
      options: { marketplace: o.marketplace ?? setup.defaultMarketplace, name: o.name ?? setup.defaultName },
      sheetName: setup.sheetName,
      rangeA1: setup.rangeA1,
      selection: setup.selection,
      headerRow: setup.headerRow,
    };
    const preview = rt.scriptRun('previewScan', [request]) as any;
    if (!preview.ok) throw new Error('The scan cannot start: ' + preview.problems.map((p: any) => p.message).join(' '));
    const started = rt.scriptRun('startScan', [request]) as any;
    const scanId: number = started.progress.scanId;
    let progress = started.progress;
    const until = Date.now() + (o.timeoutMs ?? 10 * 60_000);
    while (!['success', 'error', 'cancelled'].includes(progress.status)) {
      if (Date.now() > until)
        throw new Error(`Scan ${scanId} is still ${progress.status} (${progress.done} of ${progress.lines} lines); stopped waiting`);
      await sleepMs(o.pollMs ?? 500);
      progress = rt.scriptRun('getScanProgress', [scanId]) as any;
    }
    let imported: any = null;
    let note: string | undefined;
    if (declared.includes('importScan')) {
      for (let i = 0; i < 1000; i++) {
        imported = rt.scriptRun('importScan', [scanId, null]);
        if (imported.done) break;
      }
      if (!imported.done) throw new Error(`Importing scan ${scanId} did not complete: ${imported.message}`);
    } else note = 'the add-on has no importScan yet: the results stay in the service';
    const out = resolve(o.out ?? defaultOut(input));
    mkdirSync(dirname(out), { recursive: true });
    await wb.saveXlsx(out);
    const runs = rt.executions.slice(firstExecution);
    const modelledSeconds = runs.reduce((s, e) => s + e.durationMs, 0) / 1000;
    const longestCallSeconds = runs.reduce((m, e) => Math.max(m, e.durationMs), 0) / 1000;
    const c = started.preview.counts;
    const tab = imported ? `tab "${imported.sheetName}"` + (imported.errorsSheetName ? ` + "${imported.errorsSheetName}"` : '') : 'no tab';
    const n = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;
    const line =
      `scan ${scanId} ${progress.status}: sent ${n(c.send, 'row')} (skipped ${c.skipped}, repaired ${c.repairedRows}), ` +
      `${n(progress.products, 'product')}, ${n(progress.errors, 'error')} -> ${tab} in ${out}; ` +
      `modelled Apps Script ${modelledSeconds.toFixed(1)} s over ${n(runs.length, 'execution')} (longest ${longestCallSeconds.toFixed(1)} s of 360)` +
      (note ? `; ${note}` : '');
    return {
      scanId,
      status: progress.status,
      sent: c.send,
      skipped: c.skipped,
      repaired: c.repairedRows,
      products: progress.products,
      errors: progress.errors,
      sheetName: imported ? imported.sheetName : null,
      errorsSheetName: imported ? imported.errorsSheetName : null,
      out,
      modelledSeconds,
      longestCallSeconds,
      executions: runs.length,
      note,
      line,
    };
  } finally {
    await session.stop();
  }
}

async function runScanCommand(a: RunnerArgs): Promise<number> {
  const input = a.args[0] !== undefined ? String(a.args[0]) : a.workbook;
  if (!input)
    throw new Error('usage: npm run local -- scan <in.xlsx|in.csv> [--sheet NAME] [--marketplace US] [--name NAME] [--out out.xlsx]');
  const s = await runScan({ input, sheet: a.sheet, marketplace: a.flags.marketplace, name: a.flags.name, out: a.out });
  console.log(s.line);
  return 0;
}

export async function main(argv: string[]): Promise<number> {
  const a = parseArgs(argv);
  if (a.command === 'help' || a.flags.help) {
    console.log(USAGE);
    return 0;
  }
  // Checked before anything runs: the result is a workbook of several tabs, which only XLSX holds
  // (writing XLSX bytes under another name would look like a broken file).
  if (a.out !== undefined && extname(a.out).toLowerCase() !== '.xlsx')
    throw new Error(`--out ${a.out}: the result is saved as a workbook; name an .xlsx file`);
  if (a.command === 'start') return runStart(a);
  if (a.command === 'scan') return runScanCommand(a);
  if (a.command === 'sync') return runSyncCommand(a);
  if (a.command === 'po') return runPoCommand(a);
  if (a.command === 'compare') return runCompareCommand(a);
  return runEntry(a);
}

/** `po`: the purchase order from rows of a tab; one line (what the add-on said), the workbook saved. No service. */
async function runPoCommand(a: RunnerArgs): Promise<number> {
  const input = a.args[0] !== undefined ? String(a.args[0]) : a.workbook;
  if (!input || !a.flags.tab || a.flags.tab === 'true')
    throw new Error(
      'usage: npm run local -- po <workbook.xlsx> --tab NAME --rows 2-40 [--months 2] [--cash N] [--days N] [--out out.xlsx]',
    );
  const wb = await loadWorkbook(resolve(input));
  const runtime = createRuntime({ workbook: wb, usedInDocument: true });
  let code = 0;
  try {
    const flag = (k: string) => (a.flags[k] === undefined || a.flags[k] === 'true' ? null : a.flags[k]);
    const r = runtime.scriptRun('makePurchaseOrder', [
      { sheetName: a.flags.tab, rows: flag('rows'), months: flag('months'), cash: flag('cash'), days: flag('days') },
    ]) as { message: string };
    console.log(r.message);
  } catch (e) {
    console.log(`error: ${(e as Error).message}`);
    code = 1;
  } finally {
    await runtime.stop();
  }
  if (code) return code;
  const out = resolve(a.out ?? defaultOut(input));
  mkdirSync(dirname(out), { recursive: true });
  await wb.saveXlsx(out);
  console.log(`saved ${out}`);
  return 0;
}

/**
 * `compare`: "Compare with an earlier scan" on two result tabs (or scan ids) of a workbook, in either
 * order; compareScans is called again until the Changes tab is complete (as the sidebar does). An
 * untouched result tab is read from the workbook; any other scan from the service (SCAN_SERVICE_URL,
 * else a local one, which knows only the scans made in it). Prints the add-on's message.
 */
async function runCompareCommand(a: RunnerArgs): Promise<number> {
  const input = a.args[0] !== undefined ? String(a.args[0]) : a.workbook;
  const flag = (k: string) => (a.flags[k] === undefined || a.flags[k] === 'true' ? null : a.flags[k]);
  const scan = flag('scan');
  const other = flag('with');
  if (!input || scan === null || other === null)
    throw new Error('usage: npm run local -- compare <workbook.xlsx> --scan A --with B [--out out.xlsx]');
  const wb = await loadWorkbook(resolve(input));
  const session = await openSession(wb, { user: a.user });
  let code = 0;
  try {
    let r: any = null;
    for (let i = 0; i < 200 && !(r && r.done); i++) r = session.runtime.scriptRun('compareScans', [scan, other], { user: a.user });
    console.log(r.message);
    if (!r.done) code = 1;
  } catch (e) {
    console.log(`error: ${(e as Error).message}`);
    code = 1;
  } finally {
    await session.stop();
  }
  if (code) return code;
  const out = resolve(a.out ?? defaultOut(input));
  mkdirSync(dirname(out), { recursive: true });
  await wb.saveXlsx(out);
  console.log(`saved ${out}`);
  return 0;
}

/** One line per list of a sync report. */
export function syncLines(report: any): string[] {
  return report.lists.map((l: any) => {
    const refused = l.refused.length
      ? ` (refused: ${l.refused
          .slice(0, 5)
          .map((r: any) => `row ${r.row}: ${r.reason}`)
          .join('; ')}${l.refusedCount > 5 ? '; …' : ''})`
      : '';
    return `${l.rangeName}${l.sheetName ? ` (${l.sheetName})` : ''}: ${l.state} — ${l.message}${refused}`;
  });
}

async function runSyncCommand(a: RunnerArgs): Promise<number> {
  const input = a.args[0] !== undefined ? String(a.args[0]) : a.workbook;
  if (!input) throw new Error('usage: npm run local -- sync <workbook.xlsx> [--out out.xlsx] [--preview] [--confirm-deletions]');
  const wb = await loadWorkbook(resolve(input));
  const session = await openSession(wb, { user: a.user, clock: new RealTimeClock() });
  let report: any;
  try {
    const rt = session.runtime;
    if (a.flags.preview === 'true') report = rt.scriptRun('previewSync', [], { user: a.user });
    else {
      const confirm = a.flags['confirm-deletions'] === 'true';
      report = rt.scriptRun('syncNow', [confirm], { user: a.user });
      // A run cut off by the time limit is continued, as the user would by syncing again.
      for (let i = 0; i < 20 && !report.done; i++) report = rt.scriptRun('syncNow', [confirm], { user: a.user });
    }
  } finally {
    await session.stop();
  }
  for (const line of syncLines(report)) console.log(line);
  console.log(
    `${report.preview ? 'preview' : 'sync'}: ${report.message} (${report.requests} requests, ${report.rateLimited} answered 429)`,
  );
  const out = resolve(a.out ?? defaultOut(input));
  mkdirSync(dirname(out), { recursive: true });
  await wb.saveXlsx(out);
  console.log(`saved ${out}`);
  return report.lists.some((l: any) => l.state === 'blocked' || l.state === 'problem') ? 1 : 0;
}

/** `npm start`: the scan flow on the shipped sample price list; says where the result is. */
async function runStart(a: RunnerArgs): Promise<number> {
  const s = await runScan({ input: SAMPLE_PRICE_LIST, out: a.out, marketplace: a.flags.marketplace });
  console.log(s.line);
  console.log(`Result: ${s.out}` + (s.sheetName ? ` (open it and see the tab "${s.sheetName}")` : ''));
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      console.error(`error: ${(e as Error).message}`);
      process.exit(2);
    },
  );
}
