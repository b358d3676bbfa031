/**
 * What `npm run build` must produce for `clasp push`, and what Apps Script demands of it.
 * These tests read the BUILT dist/ (npm test builds first).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as vm from 'node:vm';
import ts from 'typescript';
import { APPS_SCRIPT_GLOBALS } from '../../emulator/gas/globals';

const root = join(__dirname, '..', '..');
const dist = resolve(root, process.env.ADDON_OUT_DIR || 'dist');
const code = () => readFileSync(join(dist, 'Code.js'), 'utf8');
/** The names of the classes src/ declares. */
function sourceClasses(dir = join(root, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sourceClasses(join(dir, e.name))
      : e.name.endsWith('.ts')
        ? [...readFileSync(join(dir, e.name), 'utf8').matchAll(/^\s*(?:export )?(?:abstract )?class (\w+)/gm)].map((m) => m[1])
        : [],
  );
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { collectEntryPoints, NAMESPACE } = require('../../tools/build/entrypoints.cjs');
const entries: Array<{ name: string; params: string[]; jsdoc: string; customFunction: boolean }> = collectEntryPoints(
  join(root, 'src', 'main.ts'),
);

/**
 * Apps Script's global services: the only names besides ECMAScript's that exist at run time. Those
 * the local runtime provides, and two it does not implement (the bundle must not touch them either).
 */
const APPS_SCRIPT_SERVICES = [...APPS_SCRIPT_GLOBALS, 'XmlService', 'Browser'];

/** A context with every Apps Script service present but booby-trapped: touching one at load time throws. */
function trappedContext(touched: string[]): vm.Context {
  const g: Record<string, unknown> = {};
  for (const name of APPS_SCRIPT_SERVICES) {
    g[name] = new Proxy(
      {},
      {
        get(_t, prop) {
          touched.push(`${name}.${String(prop)}`);
          throw new Error(`${name} used at load time`);
        },
      },
    );
  }
  return vm.createContext(g);
}

describe('dist/ is exactly what clasp pushes', () => {
  test('dist holds appsscript.json, Code.js and Sidebar.html and nothing else', () => {
    expect(readdirSync(dist).sort()).toEqual(['Code.js', 'Sidebar.html', 'appsscript.json']);
  });

  test('.clasp.json pushes from dist', () => {
    expect(JSON.parse(readFileSync(join(root, '.clasp.json'), 'utf8')).rootDir).toBe('dist');
  });
});

describe('Code.js', () => {
  test('is one plain script: no ES module syntax, no require', () => {
    const src = code();
    expect(() => new vm.Script(src)).not.toThrow(); // import/export would be a SyntaxError in a script
    expect(src).not.toMatch(/\brequire\(/);
  });

  test('evaluates in a bare context holding only Apps Script globals, doing no work at load time', () => {
    const touched: string[] = [];
    const ctx = trappedContext(touched);
    vm.runInContext(code(), ctx);
    expect(touched).toEqual([]);
    expect(typeof ctx[NAMESPACE]).toBe('object');
  });

  test('every exported entry point has a top-level function declaration, and nothing else is exposed', () => {
    const ctx = trappedContext([]);
    vm.runInContext(code(), ctx);
    const declared = Object.keys(ctx)
      .filter((k) => typeof ctx[k] === 'function')
      .sort();
    expect(entries.length).toBeGreaterThan(0);
    expect(declared).toEqual(entries.map((e) => e.name).sort());
    // The namespace exports exactly the same names, so no entry point is missing a declaration.
    expect(Object.keys(ctx[NAMESPACE]).sort()).toEqual(declared);
    for (const e of entries) expect(code()).toMatch(new RegExp(`^function ${e.name}\\(${e.params.join(', ')}\\) \\{`, 'm'));
  });

  test('custom functions carry their JSDoc with @customfunction and a @param for each parameter', () => {
    const src = code();
    for (const e of entries.filter((x) => x.customFunction)) {
      const at = src.indexOf(`\nfunction ${e.name}(`);
      const doc = src.slice(src.lastIndexOf('/**', at), at);
      expect(doc).toContain('@customfunction');
      for (const p of e.params) expect(doc).toMatch(new RegExp(`@param\\s+(\\{[^}]*\\}\\s+)?\\[?${p}\\b`));
    }
  });

  test('a stack trace in the execution log names the step: function and class names survive the shortening of local names', () => {
    const rt = code();
    const kept = (re: RegExp) => re.test(rt);
    const names = ['prepareScan', 'readRow', 'runImport', 'syncList', 'planAction'];
    expect(names.filter((n) => !kept(new RegExp(`function ${n}\\(`)))).toEqual([]);
    // esbuild writes classes as `var Name=class`: the name a stack frame shows ("at ImportJob.copyRows").
    // Every class of src/, also where esbuild joins two declarations (`var V={…},K=class{`).
    expect(['ImportJob', 'CompareJob', 'ApiProblemError'].every((n) => sourceClasses().includes(n))).toBe(true);
    expect(sourceClasses().filter((n) => !kept(new RegExp(`\\b${n}=class\\b`)))).toEqual([]);
    // ...while local names are short (the file is parsed on every call): locals the source declares are gone.
    const locals = /\blet dataEnd\b|\bconst expectation\b/g;
    expect(readFileSync(join(root, 'src', 'domain', 'price-list', 'prepare.ts'), 'utf8').match(locals)).toHaveLength(2);
    expect(rt.match(locals)).toBeNull();
  });

  test('names no global that Apps Script lacks (Node, browser or web-platform globals)', () => {
    // The type checker knows ES2020 and the Apps Script services and nothing else; every other
    // free name in the bundle is reported as "Cannot find name".
    const file = join(dist, 'Code.js');
    const program = ts.createProgram([file], {
      allowJs: true,
      checkJs: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2020,
      lib: ['lib.es2020.d.ts'],
      types: ['google-apps-script'],
      typeRoots: [join(root, 'node_modules', '@types')],
      skipLibCheck: true,
    });
    const missing = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file?.fileName.endsWith('Code.js') && [2304, 2552, 2580, 2581, 2582, 2591].includes(d.code))
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
    expect(missing).toEqual([]);
  });

  test('the free-global check catches what Apps Script lacks (fixture)', () => {
    const program = ts.createProgram(
      ['fixture.js'],
      {
        allowJs: true,
        checkJs: true,
        noEmit: true,
        lib: ['lib.es2020.d.ts'],
        types: ['google-apps-script'],
        typeRoots: [join(root, 'node_modules', '@types')],
      },
      {
        ...ts.createCompilerHost({}),
        getSourceFile: (name, v) =>
          name === 'fixture.js'
            ? ts.createSourceFile(
                name,
                'setTimeout(function(){}, 1); new URL("x"); new TextEncoder(); process.env; SpreadsheetApp.flush();',
                v,
              )
            : ts.createCompilerHost({}).getSourceFile(name, v),
        fileExists: (n) => n === 'fixture.js' || ts.sys.fileExists(n),
      },
    );
    const names = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file?.fileName === 'fixture.js')
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
    for (const n of ['setTimeout', 'URL', 'TextEncoder', 'process']) expect(names.join('\n')).toContain(`'${n}'`);
    expect(names.join('\n')).not.toContain("'SpreadsheetApp'");
  });
});

describe('appsscript.json', () => {
  const manifest = () => JSON.parse(readFileSync(join(dist, 'appsscript.json'), 'utf8'));
  test('is V8 with explicit least-privilege scopes', () => {
    const m = manifest();
    expect(m.runtimeVersion).toBe('V8');
    const scopes = m.oauthScopes.map((s: string) => s.replace('https://www.googleapis.com/auth/', ''));
    expect(scopes).toEqual(expect.arrayContaining(['spreadsheets.currentonly', 'script.external_request', 'script.container.ui']));
    // Broad scopes would make users grant access to all their files.
    for (const s of scopes)
      expect([
        'spreadsheets',
        'drive',
        'script.external_request',
        'spreadsheets.currentonly',
        'script.container.ui',
        'script.scriptapp',
        'drive.file',
        // Recognising the spreadsheet's owner for formulas (issue 19 item 1; test/build/scopes.test.ts).
        'userinfo.email',
        // The opt-in email after a scheduled re-scan, to the user's own address (issue 23).
        'script.send_mail',
      ]).toContain(s);
    expect(scopes).not.toContain('spreadsheets');
    expect(scopes).not.toContain('drive');
  });
  test('urlFetchWhitelist comes from the configured service address', () => {
    const config = JSON.parse(readFileSync(join(root, 'addon.config.json'), 'utf8'));
    expect(manifest().urlFetchWhitelist).toEqual(config.allowedServiceUrls);
    expect(config.allowedServiceUrls.some((u: string) => config.serviceUrl.startsWith(u.replace(/\/$/, '')))).toBe(true);
    for (const u of manifest().urlFetchWhitelist) expect(u).toMatch(/^https:\/\/[^/]+\/.*$/);
  });
});

describe('Sidebar.html', () => {
  const html = () => readFileSync(join(dist, 'Sidebar.html'), 'utf8');
  test('is one file with its CSS and script inlined', () => {
    expect(html()).toMatch(/<style>[\s\S]+<\/style>/);
    expect(html()).toMatch(/<script>[\s\S]+<\/script>/);
    expect(html()).not.toMatch(/<script[^>]+src=|<link[^>]+stylesheet/);
    expect(html()).not.toContain('<!-- inline:');
  });
  test('its only template scriptlet is the escaped initial view', () => {
    expect(html().match(/<\?[=!]?[^?]*\?>/g)).toEqual(['<?= initialView ?>']);
  });
  test('stays small (it is served on every open)', () => {
    expect(Buffer.byteLength(html())).toBeLessThan(120 * 1024);
  });
});
