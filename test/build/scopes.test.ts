/**
 * The manifest asks for exactly the scopes the add-on's features use (issue 19): the scopes the
 * BUILT bundle needs are derived from its service calls with the runtime's table of Google's
 * per-method scopes (emulator/gas/scopes.ts, from each method's "Authorization" section), and
 * compared with dist/appsscript.json, whose list comes from tools/build/scopes.cjs. The README's
 * scope table is that same list.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { METHOD_SCOPES, scopeRule, type ScopeRule } from '../../emulator/gas/scopes';

const root = join(__dirname, '..', '..');
const dist = join(root, process.env.ADDON_OUT_DIR || 'dist');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ADDON_SCOPES } = require('../../tools/build/scopes.cjs') as {
  ADDON_SCOPES: Array<{ scope: string; feature: string; consent: string }>;
};

/**
 * `Service.method` calls of a script: a method of the table counts when the script names its
 * service (a global, or `Ui` — reached through getUi()) and calls a member of that name anywhere
 * (the bundle hands services around, e.g. `fetcher: UrlFetchApp` then `fetcher.fetchAll(`). An
 * over-approximation on purpose: a call the table knows is never missed.
 */
export function calledMethods(source: string, table: Readonly<Record<string, ScopeRule>> = METHOD_SCOPES): string[] {
  const out: string[] = [];
  for (const key of Object.keys(table)) {
    const service = key.slice(0, key.indexOf('.'));
    const method = key.slice(service.length + 1).replace(/\./g, '\\.'); // 'Files.create' of the advanced Drive service
    const named = service === 'Ui' ? /\.getUi\(/.test(source) : new RegExp(`\\b${service}\\b`).test(source);
    if (named && new RegExp(`\\.${method}\\(`).test(source)) out.push(key);
  }
  // Advanced services (global `Drive`): `Drive.Files.create(`.
  for (const m of source.matchAll(/\b(Drive)\.(\w+\.\w+)\(/g)) if (scopeRule(`${m[1]}.${m[2]}`)) out.push(`${m[1]}.${m[2]}`);
  return [...new Set(out)].sort();
}

/**
 * The least set of scopes meeting every rule: rules with one choice first; a rule already met by a
 * chosen scope adds nothing; otherwise its first (narrowest) scope is chosen.
 */
export function neededScopes(methods: readonly string[]): Map<string, string[]> {
  const rules = methods.map((m) => ({ m, rule: scopeRule(m)! })).sort((a, b) => a.rule.anyOf.length - b.rule.anyOf.length);
  const chosen = new Map<string, string[]>();
  for (const { m, rule } of rules) {
    const met = rule.anyOf.find((s) => chosen.has(s));
    if (met) chosen.get(met)!.push(m);
    else chosen.set(rule.anyOf[0], [m]);
  }
  return chosen;
}

const AUTH_DRIVE_FILE = 'https://www.googleapis.com/auth/drive.file';
const short = (s: string) => s.replace('https://www.googleapis.com/auth/', '');

describe('scopes (Google reference pages, "Authorization" of each method)', () => {
  const source = () => readFileSync(join(dist, 'Code.js'), 'utf8');
  const manifest = () => JSON.parse(readFileSync(join(dist, 'appsscript.json'), 'utf8')) as { oauthScopes: string[] };

  test('the manifest declares exactly the scopes the service calls in the built bundle need: none missing, none needless', () => {
    const needed = neededScopes(calledMethods(source()));
    const declared = manifest().oauthScopes;
    const missing = [...needed.keys()].filter((s) => !declared.includes(s)).map((s) => `${short(s)} (for ${needed.get(s)!.join(', ')})`);
    const needless = declared.filter((s) => !needed.has(s)).map(short);
    expect({ missing, needless }).toEqual({ missing: [], needless: [] });
  });

  test('the derivation sees what the add-on calls: email for the owner check, fetch, triggers, the sidebar, the open spreadsheet', () => {
    const methods = calledMethods(source());
    expect(methods).toEqual(
      expect.arrayContaining([
        'Session.getActiveUser',
        'UrlFetchApp.fetchAll',
        'ScriptApp.newTrigger',
        'Ui.showSidebar',
        'SpreadsheetApp.getActiveSpreadsheet',
      ]),
    );
    // Scans are told apart by the temporary user key, which needs no scope (Session reference).
    expect(source()).toContain('getTemporaryActiveUserKey(');
    expect(scopeRule('Session.getTemporaryActiveUserKey')).toBeNull();
    // The trigger does without opening files by id (that would need the full spreadsheets scope).
    expect(methods).not.toContain('SpreadsheetApp.openById');
  });

  test('the check fails when a scope is removed or a needless one is added (the comparison above on altered manifests)', () => {
    const needed = neededScopes(calledMethods(source()));
    const compare = (declared: string[]) => ({
      missing: [...needed.keys()].filter((s) => !declared.includes(s)),
      needless: declared.filter((s) => !needed.has(s)),
    });
    const declared = manifest().oauthScopes;
    const base = compare(declared);
    const email = 'https://www.googleapis.com/auth/userinfo.email';
    expect(compare(declared.filter((s) => s !== email)).missing).toEqual([...base.missing, email]);
    const broad = 'https://www.googleapis.com/auth/spreadsheets';
    expect(compare([...declared, broad]).needless).toEqual([...base.needless, broad]);
  });

  test('Save to Drive through the advanced Drive service (Drive API files.create) needs drive.file; DriveApp.createFile needs drive', () => {
    expect([...neededScopes(calledMethods('Drive.Files.create({name: n}, blob)')).keys()]).toEqual([AUTH_DRIVE_FILE]);
    expect([...neededScopes(calledMethods('DriveApp.createFile(blob)')).keys()]).toEqual(['https://www.googleapis.com/auth/drive']);
  });

  test("tools/build/scopes.cjs is the manifest's list, and README's deploy table shows each scope with its feature and consent text", () => {
    expect(manifest().oauthScopes).toEqual(ADDON_SCOPES.map((s) => s.scope));
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    for (const s of ADDON_SCOPES) expect(readme).toContain(`| \`${short(s.scope)}\` | ${s.feature} | ${s.consent} |`);
    // The source manifest holds none: one place.
    expect(JSON.parse(readFileSync(join(root, 'appsscript.json'), 'utf8')).oauthScopes).toBeUndefined();
  });
});
