import * as path from 'node:path';
import { APPS_SCRIPT_GLOBALS, extraGlobals, loadBare } from '../../emulator/gas';
import { FIXTURES, fixtureRuntime } from './helpers';

const bare = (name: string) => path.join(FIXTURES, 'bare', name);

function errorOf(fn: () => unknown): { name: string; message: string } {
  try {
    fn();
  } catch (e) {
    const err = e as Error;
    return { name: err.name, message: err.message };
  }
  throw new Error('expected an error');
}

describe('bare Apps Script context', () => {
  test('APPS_SCRIPT_GLOBALS lists the services the runtime provides', () => {
    expect([...APPS_SCRIPT_GLOBALS].sort()).toEqual(
      [
        'CacheService',
        'ContentService',
        'DriveApp',
        'HtmlService',
        'LockService',
        'Logger',
        'MailApp',
        'MimeType',
        'PropertiesService',
        'ScriptApp',
        'Session',
        'SpreadsheetApp',
        'UrlFetchApp',
        'Utilities',
        'console',
      ].sort(),
    );
  });

  test('a script using only ECMAScript and Apps Script globals loads', () => {
    const ctx = loadBare(bare('clean.js'));
    expect(ctx.main()).toEqual({ started: true, json: '{"a":[1,2]}', re: true, map: 1 });
  });

  test.each(['process', 'setTimeout', 'URL', 'TextEncoder', 'Buffer', 'fetch', 'require'])(
    'a script touching %s fails with a ReferenceError',
    (g) => {
      expect(errorOf(() => loadBare(bare(`uses-${g}.js`)))).toEqual({ name: 'ReferenceError', message: `${g} is not defined` });
    },
  );

  test('a Node global touched later, inside a function, fails when that function runs', () => {
    const ctx = loadBare(bare('clean.js'));
    expect(errorOf(() => ctx.later())).toEqual({ name: 'ReferenceError', message: 'setTimeout is not defined' });
  });

  test("the runtime's own context holds no globals beyond ECMAScript's, Apps Script's and the script's", async () => {
    const rt = fixtureRuntime();
    rt.run('hello', ['x']);
    const extra = extraGlobals(rt.context());
    // Only the fixture's own top-level functions.
    expect(extra.every((n) => typeof rt.context()[n] === 'function')).toBe(true);
    expect(extra).toContain('hello');
    for (const g of ['process', 'setTimeout', 'Buffer', 'require', 'URL', 'TextEncoder', 'fetch']) expect(g in rt.context()).toBe(false);
    await rt.stop();
  });
});
