/**
 * What a script sees as globals in Apps Script, and a bare context holding only those, for proving
 * that a script touches nothing Apps Script lacks (process, setTimeout, URL, TextEncoder, Buffer,
 * fetch, require, ...). ECMAScript built-ins come with every vm context.
 */
import * as fs from 'node:fs';
import * as vm from 'node:vm';

/** The Apps Script globals this runtime provides (built-in services and enums of the V8 runtime). */
export const APPS_SCRIPT_GLOBALS = [
  'SpreadsheetApp',
  'UrlFetchApp',
  'PropertiesService',
  'CacheService',
  'LockService',
  'Utilities',
  'HtmlService',
  'ScriptApp',
  'Session',
  'DriveApp',
  'MailApp',
  'Logger',
  'console',
  'MimeType',
  'ContentService',
] as const;

/** Advanced services the runtime can provide, present only when the manifest enables them. */
export const ADVANCED_SERVICE_GLOBALS = ['Drive'] as const;

export type AppsScriptGlobal = (typeof APPS_SCRIPT_GLOBALS)[number];

/**
 * Names a vm context may hold that are not Apps Script's: none. (V8 puts `console` into every new
 * context; Apps Script has one too, so that is replaced, not removed.)
 */
function stub(name: string): unknown {
  return new Proxy(
    {},
    {
      get(_t, prop) {
        if (prop === Symbol.toPrimitive || prop === 'toString') return () => `[${name} (bare context stub)]`;
        return stub(`${name}.${String(prop)}`);
      },
    },
  );
}

/**
 * Loads a script into a fresh context holding only Apps Script's globals (as inert stubs unless
 * given) and runs its top level. Throws what the script throws, e.g. a ReferenceError for `process`.
 * Returns the context, so a test can also call the script's functions in it.
 */
export function loadBare(file: string, globals: Partial<Record<AppsScriptGlobal, unknown>> = {}): vm.Context {
  const sandbox: Record<string, unknown> = {};
  for (const name of APPS_SCRIPT_GLOBALS) sandbox[name] = name in globals ? globals[name] : stub(name);
  const ctx = vm.createContext(sandbox);
  vm.runInContext(fs.readFileSync(file, 'utf8'), ctx, { filename: file });
  return ctx;
}

/** Global names of a context beyond ECMAScript's and Apps Script's (what a script or host added). */
export function extraGlobals(ctx: vm.Context): string[] {
  const builtins = new Set(vm.runInContext('Object.getOwnPropertyNames(globalThis)', vm.createContext({})) as string[]);
  const own = vm.runInContext('Object.getOwnPropertyNames(globalThis)', ctx) as string[];
  const known: readonly string[] = [...APPS_SCRIPT_GLOBALS, ...ADVANCED_SERVICE_GLOBALS];
  return own.filter((n) => !builtins.has(n) && !known.includes(n));
}
