/**
 * The page side of google.script.run for a sidebar/dialog page the local runtime's HtmlService
 * produced, opened in a real browser (Playwright). `page.js` is the in-page implementation with
 * Google's rules (argument types, handlers, user object, asynchrony); this module injects it and
 * answers its calls in Node, through `Runtime.scriptRun` or any other server with the same shape.
 * No Playwright import: any page object with `exposeFunction` and `addInitScript` will do.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { transportResult } from '../scriptrun';
import type { Runtime } from '../index';

/** Name of the page global through which page.js hands a call to Node. */
export const PAGE_BINDING = '__gasScriptRun';

/** What answers a call: returns the server function's result, or throws (its message reaches the failure handler). */
export type ScriptRunServer = (fn: string, args: unknown[]) => unknown;

/** One call as it crossed, for tests to inspect. */
export interface ScriptRunCall {
  fn: string;
  /** The arguments as the server received them (after the page's rules). */
  args: unknown[];
  /** The result as the page received it, when the call succeeded. */
  result?: unknown;
  /** The server's message, when it failed. */
  error?: string;
}

/** The reply page.js expects: the result as JSON text (absent for undefined), or an error message. */
export type ScriptRunReply = { value?: string } | { error: string };

let pageSource: string | undefined;

/** The script to run in the page before its own scripts: defines `google.script.run` with exactly `functions`. */
export function pageScript(functions: readonly string[], binding: string = PAGE_BINDING): string {
  pageSource ??= readFileSync(join(__dirname, 'page.js'), 'utf8');
  const names = functions.filter((f) => !f.endsWith('_'));
  return `${pageSource.trim()}(${JSON.stringify(binding)}, ${JSON.stringify(names)});`;
}

/**
 * The Node end of the binding: decodes what page.js sent, asks `server`, and encodes the answer. A
 * result that google.script.run cannot carry (a Date, a function, ...) fails the call, as on Google
 * (also for canned servers, so a test's canned answer cannot be kinder than the real server).
 */
export function answerer(
  server: ScriptRunServer,
  onCall?: (call: ScriptRunCall) => void,
): (fn: string, payload: string) => Promise<ScriptRunReply> {
  return async (fn, payload) => {
    const decoded = JSON.parse(payload) as { args: unknown[]; undef: number[] };
    const args = decoded.args.slice();
    for (const i of decoded.undef) args[i] = undefined;
    const call: ScriptRunCall = { fn, args };
    onCall?.(call);
    try {
      const value = transportResult(await server(fn, args));
      call.result = value;
      return value === undefined ? {} : { value: JSON.stringify(value) };
    } catch (e) {
      call.error = e && typeof (e as Error).message === 'string' ? (e as Error).message : String(e);
      return { error: call.error };
    }
  };
}

/** The two page methods used (Playwright's Page has both). */
export interface ScriptRunPage {
  exposeFunction(name: string, fn: (fn: string, payload: string) => Promise<ScriptRunReply>): Promise<unknown>;
  addInitScript(script: string): Promise<unknown>;
}

export interface InstallOptions {
  /** The server's public functions (what exists on google.script.run). */
  functions: readonly string[];
  /** Called with each call's record as it starts; the record is completed when it settles. */
  onCall?: (call: ScriptRunCall) => void;
}

/** Gives every document the page loads from now on a `google.script.run` answered by `server`. Call before navigating. */
export async function installScriptRun(page: ScriptRunPage, server: ScriptRunServer, opts: InstallOptions): Promise<void> {
  await page.exposeFunction(PAGE_BINDING, answerer(server, opts.onCall));
  await page.addInitScript(pageScript(opts.functions));
}

/** google.script.run answered by the local runtime: its public functions, each call one `scriptRun` execution. */
export function runtimeServer(rt: Runtime, opts: { user?: string } = {}): { server: ScriptRunServer; functions: string[] } {
  return { server: (fn, args) => rt.scriptRun(fn, args, opts), functions: rt.scriptRunFunctions() };
}
