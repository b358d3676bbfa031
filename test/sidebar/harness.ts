/**
 * Browser harness for the sidebar page: the BUILT dist/Sidebar.html (its template scriptlet
 * evaluated to the initial view) in headless Chromium, 300 px wide like a Sheets sidebar. The page's
 * google.script.run is the local runtime's own (emulator/gas/client: Google's rules applied in the
 * page), answered from Node by canned data per protocol.ts or by the real local runtime.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { installScriptRun, type ScriptRunCall } from '../../emulator/gas/client';
import { declaredFunctions, type Runtime } from '../../emulator/gas';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { findChromium } = require('../../tools/chromium.cjs') as { findChromium(): Promise<{ path: string; source: string }> };

export const ROOT = join(__dirname, '..', '..');
export const DIST = resolve(ROOT, process.env.ADDON_OUT_DIR || 'dist');
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // The pages of a file share one renderer process instead of starting one each: measured, Chromium's
  // CPU for test/sidebar + test/playground 35 -> 30 s, with the same axe results and screenshots (equal
  // up to +-2 in a few anti-aliased edge pixels, as two runs of either are).
  '--renderer-process-limit=1',
];
/** A made-up address the page is served from (intercepted: nothing goes to the network). */
const PAGE_URL = 'http://sidebar.test/';

/** The built page with the template's only scriptlet evaluated, as HtmlService would (HTML-escaped). */
export function sidebarHtml(view: string): string {
  const html = readFileSync(join(DIST, 'Sidebar.html'), 'utf8');
  const escaped = view.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return html.replace('<?= initialView ?>', () => escaped);
}

/** What a server function does in a test: answer (plain data) or throw (the failure handler gets its message). */
export type ServerHandler = (fn: string, args: unknown[]) => unknown;

export type Call = ScriptRunCall;

/** The built add-on's public functions: what google.script.run offers the page. */
export function addonFunctions(): string[] {
  return declaredFunctions(readFileSync(join(DIST, 'Code.js'), 'utf8'));
}

export interface Sidebar {
  page: Page;
  calls: Call[];
  /** Calls of one function. */
  callsOf(fn: string): unknown[][];
  /** alert/confirm/prompt dialogs the page opened. */
  dialogs: string[];
  /** Uncaught page errors. */
  errors: string[];
  close(): Promise<void>;
}

let context: BrowserContext | undefined;
let profile: string | undefined;

/** One browser per test file (fresh user-data dir); pages are cheap. */
export async function browser(): Promise<BrowserContext> {
  if (context) return context;
  profile = mkdtempSync(join(tmpdir(), 'sidebar-chromium-'));
  // jest's global setup found it (and said which); findChromium again outside jest.
  const executablePath = process.env.CHROMIUM_PATH || (await findChromium()).path;
  context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: ARGS,
    viewport: { width: 300, height: 900 },
    timeout: 20_000,
  });
  return context;
}

export async function closeBrowser(): Promise<void> {
  await context?.close();
  context = undefined;
  if (profile) rmSync(profile, { recursive: true, force: true });
}

/** After a file's tests on a real runtime: its sidebar page, the browser, the runtime, then the service (each if it was started). */
export async function closeAll(sb: Sidebar | undefined, rt: Runtime | undefined, svc?: { stop(): Promise<void> }): Promise<void> {
  await sb?.close();
  await closeBrowser();
  await rt?.stop();
  await svc?.stop();
}

export interface OpenOptions {
  view?: string;
  /** Install Playwright's fake clock (polling timers run on page.clock). */
  clock?: boolean;
  /** The page as served (e.g. what the runtime's HtmlService evaluated); default the built file with `view`. */
  html?: string;
  /** The functions on google.script.run; default the built add-on's (addonFunctions()). */
  functions?: readonly string[];
}

/** Opens the sidebar page with `handler` answering google.script.run. */
export async function openSidebar(handler: ServerHandler, opts: OpenOptions = {}): Promise<Sidebar> {
  const ctx = await browser();
  const page = await ctx.newPage();
  const calls: Call[] = [];
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await installScriptRun(page, handler, { functions: opts.functions ?? addonFunctions(), onCall: (c) => calls.push(c) });
  if (opts.clock) await page.clock.install();
  const html = opts.html ?? sidebarHtml(opts.view ?? 'scan');
  await page.route(PAGE_URL, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
  await page.goto(PAGE_URL);
  return {
    page,
    calls,
    callsOf: (fn) => calls.filter((c) => c.fn === fn).map((c) => c.args),
    dialogs,
    errors,
    close: () => page.close(),
  };
}

/** Canned answers by function name; a function value computes the answer (and may throw). */
export function canned(answers: Record<string, unknown | ((...args: any[]) => unknown)>): ServerHandler {
  return (fn, args) => {
    if (!(fn in answers)) throw new Error(`Script function not found: ${fn}`);
    const a = answers[fn];
    return typeof a === 'function' ? (a as (...x: unknown[]) => unknown)(...args) : a;
  };
}

/** Saves a screenshot for a person to look at (the layout at 300 px). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `/tmp/sidebar-${name}.png`, fullPage: true });
}

/** Waits until `read()` equals `expected` (deep), then passes; after `timeoutMs` fails showing the last value. */
export async function until<T>(read: () => Promise<T> | T, expected: T, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      last = await read();
      if (JSON.stringify(last) === JSON.stringify(expected)) return;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) {
      expect(last).toEqual(expected);
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
