/**
 * The playground: the built add-on (dist/Code.js) in the local Apps Script runtime, the local Scan
 * Service in a child process, and a page on 127.0.0.1 that shows the runtime's workbook as a
 * spreadsheet, the add-on's menu and its real sidebar (dist/Sidebar.html) with google.script.run
 * bridged to the runtime over HTTP (the same page rules as the browser tests: emulator/gas/client).
 *
 * Threads: the runtime runs in THIS thread and blocks it during an execution (a UrlFetch, or an
 * alert waiting for the person at the page); the HTTP server runs in a worker thread
 * (http-thread.cjs), so the page can still fetch the waiting dialog and answer it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import { createRuntime, declaredFunctions, DEFAULT_SCRIPT_PATH, type Runtime, type UiEvent } from '../../emulator/gas';
import { answerer, pageScript, runtimeServer } from '../../emulator/gas/client';
import { VirtualClock } from '../../emulator/gas/execution';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { columnLetters } from '../../emulator/gas/spreadsheet/a1';
import type { SheetModel } from '../../emulator/gas/spreadsheet/model';
import { spawnService, type SpawnedService } from '../../emulator/service/spawn';
import { type StandIn, stopOnce } from '../../emulator/stand-in';
import { loadWorkbook, SAMPLE_PRICE_LIST } from '../local';
import { askWith, type Question } from './dialogs';
import type { SheetView } from './view';
import { cellPicture, localPictureSrc } from './cell-pictures';
import { colourScaleBackgrounds } from './colour-scales';

const HERE = __dirname;
const ROOT = join(HERE, '..', '..');
/** The add-on's name: Sheets lists an add-on's menu under it in Extensions. */
export const ADDON_NAME = 'Product Sourcing Scan';
/** A dialog nobody answers is closed after this long, so the runtime's thread is never held for good (chosen). */
const ANSWER_WAIT_MS = 10 * 60_000;

/**
 * The runtime's clock in the playground: it follows real time (the service's scans and rate limits
 * run in real time) and runs ahead of it by the modelled cost of executions (never waiting for
 * them) and by the hours skipped with "Run the hourly trigger now".
 */
export class PlaygroundClock extends VirtualClock {
  private ahead: number;
  private skipped = 0;
  constructor() {
    super(Date.now());
    this.ahead = Date.now();
  }
  now(): number {
    return Math.max(this.ahead, Date.now() + this.skipped);
  }
  advance(ms: number): void {
    if (ms > 0) this.ahead = this.now() + ms;
  }
  rewindTo(t: number): void {
    if (t < this.ahead) this.ahead = Math.max(t, Date.now() + this.skipped);
  }
  /** Jumps to `at` (virtual ms) at once; real time then continues from there. */
  skipTo(at: number): void {
    const now = this.now();
    if (at > now) {
      this.skipped += at - now;
      this.ahead = Math.max(this.ahead, at);
    }
  }
}

export interface PlaygroundOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** The workbook opened first (.xlsx or .csv); default the shipped sample price list. */
  workbook?: string;
  /** SCAN_SERVICE_* settings of the spawned service. */
  serviceEnv?: Record<string, string>;
  /**
   * Told when a dialog of the add-on starts and stops waiting for the person at the page. This
   * thread is blocked meanwhile, so no signal handler can run: the CLI lets Ctrl-C end the process
   * at once then (see main.ts).
   */
  onWaiting?: (waiting: boolean) => void;
}

export interface Playground extends StandIn {
  serviceUrl: string;
  /** The runtime of the document now open (tests inspect it). */
  runtime(): Runtime;
}

interface Reply {
  status: number;
  type: string;
  body: string | Buffer;
  headers?: Record<string, string>;
}

const json = (value: unknown, status = 200): Reply => ({ status, type: 'application/json; charset=utf-8', body: JSON.stringify(value) });

function editText(wb: Workbook, sh: SheetModel, r: number, c: number): string {
  const cell = sh.cell(r, c);
  const formula = wb.readFormula(cell);
  if (formula) return formula;
  const v = cell?.v;
  // Numbers edit as the number itself unless a date/time or other format makes the display the typed form.
  if (typeof v === 'number' && /^(0\.#+|General|0|@)?$/.test(wb.readFormat(cell))) return String(v);
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  return wb.readDisplay(cell);
}

/** Text cells whose right neighbour is empty run on over it, as in Sheets (numbers and pictures never do). */
function markOverflow(sh: SheetModel, r: number, row: string[], cells: SheetView['cells']): void {
  for (let c = 1; c <= row.length; c++) {
    const key = `${r},${c}`;
    if (row[c - 1] === '' || typeof sh.cell(r, c)?.v !== 'string' || cells[key]?.picture || cells[key]?.align) continue;
    // A neighbour holding a formula (even one that shows nothing) stops it, as a typed value does.
    const next = cells[`${r},${c + 1}`];
    if (c < row.length && (row[c] !== '' || next?.picture || next?.formula)) continue;
    cells[key] = { ...cells[key], overflow: true };
  }
}

export function sheetView(wb: Workbook, sh: SheetModel, serviceUrl = ''): SheetView {
  const lr = sh.lastRow();
  const lc = sh.lastColumn();
  const display: string[][] = [];
  const cells: SheetView['cells'] = {};
  const scales = colourScaleBackgrounds(sh);
  for (let r = 1; r <= lr; r++) {
    const row: string[] = [];
    for (let c = 1; c <= lc; c++) {
      const cell = sh.cell(r, c);
      row.push(wb.readDisplay(cell));
      if (!cell) continue;
      const meta: SheetView['cells'][string] = {};
      const formula = wb.readFormula(cell);
      if (formula) meta.formula = formula;
      const input = editText(wb, sh, r, c);
      if (input !== row[row.length - 1]) meta.input = input;
      if (cell.fmt) meta.format = cell.fmt;
      if (cell.note) meta.note = cell.note;
      if (cell.err) meta.error = cell.err;
      if (cell.bold) meta.bold = true;
      if (cell.bg && cell.bg !== '#ffffff') meta.bg = cell.bg;
      // A conditional format paints over the cell's own background, as in Sheets.
      const scaled = scales.get(`${r},${c}`);
      if (scaled) meta.bg = scaled;
      if (cell.color && cell.color !== '#000000') meta.color = cell.color;
      if (cell.halign) meta.align = cell.halign;
      const picture = cellPicture(wb, sh, cell, serviceUrl);
      if (picture) meta.picture = picture;
      if (Object.keys(meta).length) cells[`${r},${c}`] = meta;
    }
    markOverflow(sh, r, row, cells);
    display.push(row);
  }
  const widths: Record<string, number> = {};
  for (const [c, w] of sh.colWidths) widths[columnLetters(c)] = w;
  const heights: Record<string, number> = {};
  for (const [r, h] of sh.rowHeights) if (r <= display.length) heights[r] = h;
  return {
    name: sh.name,
    rows: Math.min(sh.maxRows, Math.max(lr + 30, 60)),
    cols: Math.min(sh.maxCols, Math.max(lc + 2, 26)),
    display,
    cells,
    widths,
    heights,
    frozenRows: sh.frozenRows,
  };
}

/** The sidebar page as the runtime's HtmlService produced it, with google.script.run carried over HTTP to this server. */
export function bridgedSidebar(html: string, functions: readonly string[]): string {
  // The binding page.js hands each call to (emulator/gas/client: PAGE_BINDING): a POST to this
  // server, which answers it with the same `answerer` the browser tests use. The page around the
  // sidebar first sends a selection still on its way (so the call sees it), and is told after each
  // call so it shows what the call changed.
  const binding =
    'window.__gasScriptRun = function (fn, payload) {' +
    ' var before = window.parent.__playgroundBeforeCall ? window.parent.__playgroundBeforeCall() : Promise.resolve();' +
    " return before.then(function () { return fetch('/api/script-run', {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({fn: fn, payload: payload})}); })" +
    '  .then(function (r) { return r.json(); })' +
    '  .then(function (reply) { try { window.parent.__playgroundAfterCall && window.parent.__playgroundAfterCall(fn); } catch (e) {} return reply; });' +
    '};';
  // Pictures (the row actions' <img>, sidebar/dom.ts picture()): the page cannot reach the https
  // picture host, so every https picture address is asked of this server's /api/picture, which
  // sends the browser to the local service's copy with the grid's own mapping (localPictureSrc) or
  // answers 404 for any other link (its alt text shows). Nothing is loaded from elsewhere.
  const pictures =
    "(function () { var d = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, 'src');" +
    " Object.defineProperty(HTMLImageElement.prototype, 'src', { configurable: true, enumerable: d.enumerable, get: d.get," +
    "  set: function (v) { v = String(v); d.set.call(this, /^https:/i.test(v) ? '/api/picture?link=' + encodeURIComponent(v) : v); } });" +
    '})();';
  const inject = `<script>${binding}</script><script>${pictures}</script><script>${pageScript(functions)}</script>`;
  const at = html.search(/<head[^>]*>/i);
  if (at < 0) return inject + html;
  const end = html.indexOf('>', at) + 1;
  return html.slice(0, end) + inject + html.slice(end);
}

interface Document {
  rt: Runtime;
  wb: Workbook;
  sidebar: { n: number; title: string; html: string } | null;
}

/**
 * The grid's font: Arimo (npm @fontsource/arimo, OFL-1.1), metric-compatible with Arial, Sheets'
 * default (Arial 10), so a text fits a column as it does in Sheets whatever fonts the machine has.
 * Its regular and bold faces as the package declares them (all its subsets, each by its unicode
 * range), served from this page: `/fonts/arimo.css` and the woff2 files it names.
 */
function gridFont(): Record<string, { type: string; body: string | Buffer }> {
  const dir = join(ROOT, 'node_modules', '@fontsource', 'arimo');
  const out: Record<string, { type: string; body: string | Buffer }> = {};
  const css = ['400.css', '700.css']
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n')
    // The woff2 alone: every browser the playground supports reads it.
    .replace(/,\s*url\(\.\/files\/[^)]+\.woff\) format\('woff'\)/g, '')
    .replace(/url\(\.\/files\/([\w.-]+\.woff2)\)/g, (_m, file: string) => {
      out[`/fonts/${file}`] = { type: 'font/woff2', body: readFileSync(join(dir, 'files', file)) };
      return `url(/fonts/${file})`;
    });
  out['/fonts/arimo.css'] = { type: 'text/css; charset=utf-8', body: css };
  return out;
}

/** The page, its script (bundled from client.ts), its styles and the grid's font, by path. */
async function pageAssets(): Promise<Record<string, { type: string; body: string | Buffer }>> {
  const bundle = await build({
    entryPoints: [join(HERE, 'client.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    target: 'es2020',
    minify: true,
    logLevel: 'silent',
  });
  return {
    '/': { type: 'text/html; charset=utf-8', body: readFileSync(join(HERE, 'page.html'), 'utf8') },
    '/client.js': { type: 'text/javascript; charset=utf-8', body: bundle.outputFiles[0].text },
    '/page.css': { type: 'text/css; charset=utf-8', body: readFileSync(join(HERE, 'page.css'), 'utf8') },
    '/tabulator.css': {
      type: 'text/css; charset=utf-8',
      body: readFileSync(join(ROOT, 'node_modules', 'tabulator-tables', 'dist', 'css', 'tabulator_simple.min.css'), 'utf8'),
    },
    ...gridFont(),
  };
}

/**
 * Asks the person at the page (a dialog of the add-on): the HTTP thread shows `q`, and this thread
 * waits for the answer it writes into `answer` (closed after ANSWER_WAIT_MS).
 */
function dialogAsker(worker: Worker, answer: SharedArrayBuffer, onWaiting: PlaygroundOptions['onWaiting']) {
  const flag = new Int32Array(answer, 0, 2);
  return (q: Question): { button: string; text: string } => {
    Atomics.store(flag, 0, 0);
    worker.postMessage({ question: q });
    onWaiting?.(true);
    try {
      const until = Date.now() + ANSWER_WAIT_MS;
      while (Atomics.load(flag, 0) === 0) {
        if (Date.now() > until) {
          worker.postMessage({ question: null });
          return { button: 'CLOSE', text: '' };
        }
        Atomics.wait(flag, 0, 0, 500);
      }
      const n = Atomics.load(flag, 1);
      return JSON.parse(Buffer.from(new Uint8Array(answer, 8, n)).toString('utf8'));
    } finally {
      onWaiting?.(false);
    }
  };
}

/** The port the HTTP thread listens on, once it does. */
function listeningPort(worker: Worker): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const onMessage = (m: { listening?: number; error?: string }) => {
      if (m.listening !== undefined) {
        worker.off('message', onMessage);
        resolve(m.listening);
      } else if (m.error) reject(new Error(m.error));
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
  });
}

const eventsSince = (doc: Document, since: number): UiEvent[] => doc.rt.uiEvents.slice(since).filter((e) => e.kind !== 'log');

/** What the page shows: the document, the sheet, the menu, the clock and triggers, the sidebar, the events since `since`. */
function pageState(doc: Document, clock: PlaygroundClock, serviceUrl: string, since: number, sheetName?: string) {
  const { rt, wb } = doc;
  const active = wb.activeSheet ?? wb.sheets[0];
  const shown = (sheetName && wb.sheetByName(sheetName)) || active;
  const menu = [...rt.uiEvents].reverse().find((e) => e.kind === 'menu');
  const clockTriggers = rt.triggers.records.filter((t) => t.nextAt !== null);
  const nextTrigger = clockTriggers.reduce<number | null>((m, t) => (m === null || t.nextAt! < m ? t.nextAt! : m), null);
  const range = wb.activeRange;
  return {
    document: wb.name,
    sheets: wb.sheets.filter((s) => !s.hidden).map((s) => s.name),
    activeSheet: active.name,
    activeRange: range && range.sheet === active ? { r1: range.r1, c1: range.c1, r2: range.r2, c2: range.c2 } : null,
    sheet: sheetView(wb, shown, serviceUrl),
    menu: menu && menu.kind === 'menu' ? { name: menu.name, items: menu.items } : null,
    addOnActive: rt.addOnActive,
    clock: new Date(clock.now()).toISOString(),
    timeZone: wb.timeZone,
    triggers: clockTriggers.map((t) => ({ handler: t.handler, nextAt: new Date(t.nextAt!).toISOString() })),
    nextTrigger: nextTrigger === null ? null : new Date(nextTrigger).toISOString(),
    sidebar: doc.sidebar ? { n: doc.sidebar.n, title: doc.sidebar.title } : null,
    cursor: rt.uiEvents.length,
    events: eventsSince(doc, since),
  };
}

/** One request the HTTP thread hands over. */
interface PageRequest {
  method: string;
  path: string;
  url: string;
  body: Uint8Array;
}

/** A request as the answering steps read it. */
interface Asked {
  path: string;
  since: number;
  body: any;
  /** ?sheet= of GET /api/state. */
  sheet: string | undefined;
  /** ?link= of GET /api/picture. */
  link: string | undefined;
}

/** What the answering steps use of a running playground. */
interface PageContext {
  doc(): Document;
  open(wb: Workbook): Promise<void>;
  state(since: number, sheetName?: string): object;
  withEvents<T>(body: () => T): T;
  clock: PlaygroundClock;
  scratch: string;
  serviceUrl: string;
}

/** The page's own requests on the sheet: what it shows, the active sheet, the selection, a typed cell, a picture. */
function sheetRequest(page: PageContext, a: Asked): Reply | undefined {
  const { since, body } = a;
  const { wb } = page.doc();
  switch (a.path) {
    case '/api/state':
      return json(page.state(since, a.sheet));
    case '/api/picture': {
      // A picture address of the sidebar (bridgedSidebar): mapped as the grid's are.
      const src = localPictureSrc(a.link ?? '', page.serviceUrl);
      if (!src) return { status: 404, type: 'text/plain', body: 'Not a picture of the local service.' };
      return { status: 302, type: 'text/plain', body: '', headers: { location: src } };
    }
    case '/api/activate': {
      const sh = wb.sheetByName(String(body.sheet));
      if (!sh) return json({ error: `No sheet "${body.sheet}".` }, 404);
      wb.activeSheet = sh;
      wb.activeRange = null;
      return json(page.state(since));
    }
    case '/api/select': {
      const sh = wb.sheetByName(String(body.sheet));
      if (!sh) return json({ error: `No sheet "${body.sheet}".` }, 404);
      const [r1, r2] = [Number(body.r1), Number(body.r2)].sort((a, b) => a - b);
      const [c1, c2] = [Number(body.c1), Number(body.c2)].sort((a, b) => a - b);
      if (![r1, r2, c1, c2].every((n) => Number.isInteger(n) && n >= 1)) return json({ error: 'Bad selection.' }, 400);
      wb.activeSheet = sh;
      wb.activeRange = { sheet: sh, r1, c1, r2: Math.min(r2, sh.maxRows), c2: Math.min(c2, sh.maxCols) };
      return json({ ok: true });
    }
    case '/api/edit': {
      const sh = wb.sheetByName(String(body.sheet));
      if (!sh) return json({ error: `No sheet "${body.sheet}".` }, 404);
      const r = Number(body.row);
      const c = Number(body.col);
      if (!(r >= 1 && c >= 1 && r <= sh.maxRows && c <= sh.maxCols)) return json({ error: 'Outside the sheet.' }, 400);
      // Typed as a person types into Sheets: parsed like typed input, '=' starts a formula (custom
      // functions run as executions of the runtime, built-in ones in its engine).
      page.withEvents(() => wb.type(sh.name, wb.a1(r, c), String(body.input ?? '')));
      return json(page.state(since, sh.name));
    }
  }
  return undefined;
}

/** Requests that run the add-on: a menu item, a sidebar call, the hourly trigger, a recalculation, open and save. */
async function addOnRequest(page: PageContext, a: Asked): Promise<Reply | undefined> {
  const { since, body } = a;
  const { rt, wb } = page.doc();
  switch (a.path) {
    case '/api/menu': {
      const fn = String(body.fn);
      const menu = [...rt.uiEvents].reverse().find((e) => e.kind === 'menu');
      if (!menu || menu.kind !== 'menu' || !menu.items.some((i) => i?.functionName === fn))
        return json({ error: `${fn} is not an item of the add-on's menu.` }, 400);
      let error: string | null = null;
      page.withEvents(() => {
        try {
          rt.run(fn);
        } catch (e) {
          error = (e as Error).message;
        }
      });
      return json({ error, ...page.state(since) });
    }
    case '/api/script-run': {
      const reply = await page.withEvents(() => answerer(runtimeServer(rt).server)(String(body.fn), String(body.payload)));
      return json(reply);
    }
    case '/api/trigger': {
      const due = rt.triggers.records.filter((t) => t.nextAt !== null).map((t) => t.nextAt!);
      if (!due.length)
        return json({
          fired: [],
          message: 'No hourly trigger is installed yet: starting a scan (or turning on the lists’ automatic sync) installs it.',
          ...page.state(since),
        });
      page.clock.skipTo(Math.min(...due));
      const fired = page.withEvents(() => rt.runDueTriggers());
      return json({ fired, ...page.state(since) });
    }
    case '/api/recalculate':
      page.withEvents(() => rt.recalculate());
      return json(page.state(since));
    case '/api/open': {
      const name = basename(String(body.name ?? ''));
      const ext = extname(name).toLowerCase();
      const data = Buffer.from(String(body.data ?? ''), 'base64');
      const title = basename(name, extname(name));
      let next: Workbook;
      try {
        if (ext === '.xlsx') next = await Workbook.fromXlsx(data, { name: title });
        else if (ext === '.csv') next = Workbook.fromCsv(data.toString('utf8'), title, { name: title });
        else return json({ error: `${name}: open an .xlsx or .csv file.` }, 400);
      } catch (e) {
        return json({ error: `${name} could not be read: ${(e as Error).message}` }, 400);
      }
      await page.open(next);
      return json(page.state(0));
    }
    case '/api/save': {
      // The same Workbook.saveXlsx as the headless runner (tools/local.ts), into a scratch file.
      const file = join(page.scratch, 'save.xlsx');
      await wb.saveXlsx(file);
      const bytes = readFileSync(file);
      const fileName = `${wb.name.replace(/[^\w .()-]+/g, '_') || 'workbook'}.xlsx`;
      return {
        status: 200,
        type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        body: bytes,
        headers: { 'content-disposition': `attachment; filename="${fileName}"` },
      };
    }
    case '/api/sidebar': {
      const sidebar = page.doc().sidebar;
      if (!sidebar) return { status: 404, type: 'text/plain', body: 'No sidebar is open.' };
      return { status: 200, type: 'text/html; charset=utf-8', body: bridgedSidebar(sidebar.html, rt.scriptRunFunctions()) };
    }
  }
  return undefined;
}

export async function startPlayground(opts: PlaygroundOptions = {}): Promise<Playground> {
  const declared = declaredFunctions(readFileSync(DEFAULT_SCRIPT_PATH, 'utf8'));
  const sidebarFile = join(DEFAULT_SCRIPT_PATH, '..', 'Sidebar.html');
  readFileSync(sidebarFile); // fail early with a clear error when the build is missing
  const assets = await pageAssets();

  const service: SpawnedService = await spawnService({ SCAN_SERVICE_SPEED: '60000', ...opts.serviceEnv });
  const clock = new PlaygroundClock();
  const scratch = mkdtempSync(join(tmpdir(), 'playground-'));
  let doc: Document;
  let sidebarCount = 0;

  const openDocument = async (wb: Workbook): Promise<Document> => {
    await doc?.rt.stop();
    // A document the add-on is installed for but not yet used in: onOpen in NONE builds the menu,
    // and its custom functions stay unknown until one of its menu items runs (as in Sheets).
    const rt = createRuntime({ workbook: wb, clock, addOnName: ADDON_NAME, driveDir: scratch });
    // The person at the page stands for a user who saved the local service's address and key in
    // Settings (the headless runner does the same through the same server function).
    if (declared.includes('saveSettings')) rt.scriptRun('saveSettings', [{ apiKey: service.apiKey, serviceUrl: service.url }]);
    rt.open();
    // A loaded file carries no results of the add-on's formulas; Sheets computes them when shown.
    rt.recalculate();
    return { rt, wb, sidebar: null };
  };
  doc = await openDocument(await loadWorkbook(opts.workbook ?? SAMPLE_PRICE_LIST));

  // The HTTP thread, and the dialog bridge through the shared answer buffer.
  const answer = new SharedArrayBuffer(8 + 64 * 1024);
  const worker = new Worker(join(HERE, 'http-thread.cjs'), { workerData: { port: opts.port ?? 0, assets, answer } });
  const ask = dialogAsker(worker, answer, opts.onWaiting);
  const releaseAsk = askWith(ask);

  const state = (since: number, sheetName?: string) => pageState(doc, clock, service.url, since, sheetName);

  /** Runs `body` and notes a sidebar the add-on opened meanwhile. */
  const withEvents = <T>(body: () => T): T => {
    const from = doc.rt.uiEvents.length;
    try {
      return body();
    } finally {
      for (const e of doc.rt.uiEvents.slice(from))
        if (e.kind === 'sidebar') doc.sidebar = { n: ++sidebarCount, title: e.title, html: e.html };
    }
  };

  const page: PageContext = {
    doc: () => doc,
    open: async (wb) => {
      doc = await openDocument(wb);
    },
    state,
    withEvents,
    clock,
    scratch,
    serviceUrl: service.url,
  };
  const handle = async (m: PageRequest): Promise<Reply> => {
    const q = new URL(m.url, 'http://127.0.0.1');
    const since = Number(q.searchParams.get('since') ?? 0) || 0;
    const body = m.method === 'POST' && m.body.length ? JSON.parse(Buffer.from(m.body).toString('utf8')) : {};
    const asked = {
      path: m.path,
      since,
      body,
      sheet: q.searchParams.get('sheet') ?? undefined,
      link: q.searchParams.get('link') ?? undefined,
    };
    return (await sheetRequest(page, asked)) ?? (await addOnRequest(page, asked)) ?? json({ error: `No ${m.path}` }, 404);
  };

  // One request at a time, in order: the runtime runs one execution at a time.
  let queue: Promise<unknown> = Promise.resolve();
  worker.on('message', (m) => {
    if (m.id === undefined) return;
    queue = queue.then(async () => {
      let reply: Reply;
      try {
        reply = await handle(m);
      } catch (e) {
        reply = json({ error: (e as Error).message }, 500);
      }
      worker.postMessage({ id: m.id, ...reply });
    });
  });

  const port = await listeningPort(worker).catch(async (e) => {
    releaseAsk();
    await doc.rt.stop();
    await worker.terminate();
    await service.stop();
    rmSync(scratch, { recursive: true, force: true });
    throw e;
  });

  return {
    url: `http://127.0.0.1:${port}/`,
    serviceUrl: service.url,
    runtime: () => doc.rt,
    stop: stopOnce(async () => {
      releaseAsk();
      await new Promise<void>((resolve) => {
        worker.once('message', () => resolve());
        worker.postMessage({ stop: true });
        setTimeout(resolve, 2000).unref();
      });
      await worker.terminate();
      await doc.rt.stop();
      await service.stop();
      rmSync(scratch, { recursive: true, force: true });
    }),
  };
}
