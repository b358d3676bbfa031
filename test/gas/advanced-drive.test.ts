/**
 * The advanced Drive service (global `Drive`, Drive API v3) of the local runtime: present only when
 * the manifest enables it, each method needing one of its scopes, only in authorised executions,
 * and v3's answer cut to the `fields` asked for.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { scopeRule, type Runtime } from '../../emulator/gas';
import { SERVICES_SCRIPT, evalIn, fixtureRuntime, thrown } from './helpers';

const AUTH = 'https://www.googleapis.com/auth/';
const ENABLE_DRIVE_V3 = { enabledAdvancedServices: [{ userSymbol: 'Drive', serviceId: 'drive', version: 'v3' }] };

/** A runtime over the fixture script with the given manifest next to it. */
function withManifest(manifest: object): Runtime {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-adv-drive-'));
  fs.copyFileSync(SERVICES_SCRIPT, path.join(dir, 'services.js'));
  fs.writeFileSync(path.join(dir, 'appsscript.json'), JSON.stringify({ timeZone: 'Etc/UTC', runtimeVersion: 'V8', ...manifest }));
  return fixtureRuntime({ scriptPath: path.join(dir, 'services.js') });
}

const UPLOAD = "return Drive.Files.create({name: 'out.csv', mimeType: 'text/csv'}, Utilities.newBlob('a,b\\n1,2', 'text/csv'), args);";

describe('advanced Drive service (v3)', () => {
  test('not enabled in the manifest: the global does not exist (developers.google.com/apps-script/advanced/drive: "must be enabled")', async () => {
    const rt = withManifest({ oauthScopes: [AUTH + 'drive.file'] });
    try {
      expect(thrown(() => evalIn(rt, UPLOAD, { fields: 'id' }))).toBe('Drive is not defined');
      expect(evalIn(rt, "return typeof Drive === 'undefined'")).toBe(true);
    } finally {
      await rt.stop();
    }
  });

  test('enabled (manifest dependencies.enabledAdvancedServices): Files.create stores the blob; v3 answers kind, id, name, mimeType unless fields asks for more (Drive API v3 files.create reference)', async () => {
    const rt = withManifest({ oauthScopes: [AUTH + 'drive.file'], dependencies: ENABLE_DRIVE_V3 });
    try {
      const plain = evalIn(rt, UPLOAD, null);
      expect(Object.keys(plain).sort()).toEqual(['id', 'kind', 'mimeType', 'name']);
      expect(plain).toMatchObject({ kind: 'drive#file', name: 'out.csv', mimeType: 'text/csv' });
      const linked = evalIn(rt, UPLOAD, { fields: 'id,webViewLink' });
      expect(Object.keys(linked).sort()).toEqual(['id', 'webViewLink']);
      expect(linked.webViewLink).toBe(`https://drive.google.com/file/d/${linked.id}/view?usp=drivesdk`);
      const rec = rt.drive.files.get(linked.id)!;
      expect(rec.data.toString('utf8')).toBe('a,b\n1,2');
      expect(rec.owner).toBe(rt.owner);
      expect(evalIn(rt, "return Drive.Files.get(args, {fields: 'name,size'})", linked.id)).toEqual({ name: 'out.csv', size: '7' });
    } finally {
      await rt.stop();
    }
  });

  test('a manifest without drive, drive.appdata or drive.file: files.create is refused with the Drive API\'s "insufficient authentication scopes" (Drive API v3 files.create: Authorization scopes)', async () => {
    const rt = withManifest({ oauthScopes: [AUTH + 'drive.readonly', AUTH + 'script.external_request'], dependencies: ENABLE_DRIVE_V3 });
    try {
      expect(thrown(() => evalIn(rt, UPLOAD, { fields: 'id' }))).toBe(
        'API call to drive.files.create failed with error: Request had insufficient authentication scopes.',
      );
      expect(rt.drive.files.size).toBe(0);
    } finally {
      await rt.stop();
    }
  });

  test('only in an authorised execution: refused in a custom function, like every Drive service (guides/sheets/functions: services a custom function may use)', async () => {
    const rt = withManifest({ oauthScopes: [AUTH + 'drive.file'], dependencies: ENABLE_DRIVE_V3 });
    try {
      expect(thrown(() => evalIn(rt, UPLOAD, { fields: 'id' }, { kind: 'custom-function' }))).toBe(
        'You do not have permission to call Drive service.',
      );
    } finally {
      await rt.stop();
    }
  });

  test("the one scope table holds Drive.Files.create with the scopes of Google's files.create reference, drive.file first", () => {
    const create = scopeRule('Drive.Files.create')!;
    expect(create.anyOf[0]).toBe(AUTH + 'drive.file');
    expect(create.anyOf).toEqual(expect.arrayContaining([AUTH + 'drive', AUTH + 'drive.file']));
    expect(create.anyOf).not.toContain(AUTH + 'drive.readonly');
  });
});
