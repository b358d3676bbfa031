/**
 * Headless runner: runs the BUILT add-on (dist/Code.js) in the local Apps Script runtime on a
 * workbook, with the local Scan Service, prints what the add-on showed the user and saves the
 * workbook.
 *
 *   npm run local -- <entry> [json args...] --workbook in.xlsx|in.csv [--out out.xlsx] [--user EMAIL]
 *   npm run local -- start            (what `npm start` runs)
 *
 * The service: SCAN_SERVICE_URL (+ SCAN_SERVICE_API_KEY) points at a running one; otherwise a
 * local service is started on a free port for the run. When the add-on declares `saveSettings`,
 * the runner first saves the address and key through it, as a user would in Settings.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { createRuntime, declaredFunctions, DEFAULT_SCRIPT_PATH, type Runtime, type UiEvent } from '../emulator/gas';
import { Workbook } from '../emulator/gas/spreadsheet';
import { spawnService, type SpawnedService } from '../emulator/service/spawn';

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
  if (ext === '.csv') return Workbook.fromCsv(readFileSync(file, 'utf8'), sheetName ?? basename(file, ext), { name: basename(file, ext) });
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

export interface Session {
  runtime: Runtime;
  service: SpawnedService | { url: string; apiKey: string; stop(): Promise<void> };
  close(): Promise<void>;
}

/** Starts (or connects to) the service and creates a runtime on the workbook, settings saved. */
export async function openSession(workbook: Workbook, opts: { user?: string; driveDir?: string } = {}): Promise<Session> {
  const external = process.env.SCAN_SERVICE_URL;
  const service = external
    ? { url: external.replace(/\/$/, ''), apiKey: process.env.SCAN_SERVICE_API_KEY ?? '', stop: async () => {} }
    : await spawnService({ SCAN_SERVICE_SPEED: process.env.SCAN_SERVICE_SPEED ?? '60000' });
  const runtime = createRuntime({ workbook, driveDir: opts.driveDir });
  if (opts.user) runtime.activeUser = opts.user;
  const declared = declaredFunctions(readFileSync(DEFAULT_SCRIPT_PATH, 'utf8'));
  if (declared.includes('saveSettings')) runtime.scriptRun('saveSettings', [{ apiKey: service.apiKey, serviceUrl: service.url }], { user: opts.user });
  return {
    runtime,
    service,
    close: async () => {
      runtime.close();
      await service.stop();
    },
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
    await session.close();
  }
  const out = resolve(a.out ?? defaultOut(a.workbook));
  mkdirSync(dirname(out), { recursive: true });
  await wb.saveXlsx(out);
  console.log(`saved ${out}`);
  return code;
}

const USAGE = `usage:
  npm run local -- <entry> [json args...] --workbook in.xlsx|in.csv [--out out.xlsx] [--sheet NAME] [--user EMAIL]
  npm run local -- start`;

export async function main(argv: string[]): Promise<number> {
  const a = parseArgs(argv);
  if (a.command === 'help' || a.flags.help) {
    console.log(USAGE);
    return 0;
  }
  if (a.command === 'start') {
    // Until the scan flow exists, `start` opens the shipped sample and shows the add-on's menu and sidebar.
    return runStart(a);
  }
  return runEntry(a);
}

async function runStart(a: RunnerArgs): Promise<number> {
  const wb = await loadWorkbook(SAMPLE_PRICE_LIST);
  const session = await openSession(wb);
  try {
    session.runtime.open({ authMode: 'LIMITED' });
    session.runtime.run('menuScanSheet');
    for (const ev of session.runtime.uiEvents) {
      const line = describeUiEvent(ev);
      if (line) console.log(line);
    }
  } finally {
    await session.close();
  }
  const out = resolve(a.out ?? defaultOut(SAMPLE_PRICE_LIST));
  mkdirSync(dirname(out), { recursive: true });
  await wb.saveXlsx(out);
  console.log(`saved ${out}`);
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
