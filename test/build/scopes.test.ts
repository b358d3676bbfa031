/**
 * The manifest asks for exactly the scopes the add-on's features use (issue 19): the scopes the
 * BUILT bundle needs are derived from its service calls with the runtime's table of Google's
 * per-method scopes (emulator/gas/scopes.ts, from each method's "Authorization" section), and
 * compared with dist/appsscript.json, whose list comes from tools/build/scopes.cjs. The README's
 * scope table is that same list.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scopeRule } from '../../emulator/gas/scopes';
// The derivation is shared with the OAuth verification notes (npm run listing).
import { calledMethods, neededScopes } from '../../tools/build/scope-calls';

const root = join(__dirname, '..', '..');
const dist = join(root, process.env.ADDON_OUT_DIR || 'dist');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ADDON_SCOPES } = require('../../tools/build/scopes.cjs') as {
  ADDON_SCOPES: Array<{ scope: string; feature: string; consent: string }>;
};

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
