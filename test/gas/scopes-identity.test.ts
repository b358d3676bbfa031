import { type Runtime } from '../../emulator/gas';
import { missingScopeMessage, METHOD_SCOPES } from '../../emulator/gas/scopes';
import { fixtureWithScopes, thrown } from './helpers';

const AUTH = 'https://www.googleapis.com/auth/';
const OWNER = 'owner@example.com';

const run = (rt: Runtime, src: string, opts: Parameters<Runtime['run']>[2] = {}) => rt.run('evaluate', [src, null], opts);

const ALL = ['spreadsheets.currentonly', 'script.external_request', 'script.container.ui', 'script.scriptapp', 'userinfo.email'];

describe('scopes: each method needs what its Google reference page lists under "Authorization"', () => {
  test('Session reference, getActiveUser/getEffectiveUser: without userinfo.email they throw Google\'s "Required permissions" message', async () => {
    const rt = fixtureWithScopes(ALL.filter((s) => s !== 'userinfo.email'));
    try {
      expect(thrown(() => run(rt, 'return Session.getActiveUser().getEmail()'))).toBe(
        `You do not have permission to call Session.getActiveUser. Required permissions: ${AUTH}userinfo.email`,
      );
      expect(thrown(() => run(rt, 'return Session.getEffectiveUser().getEmail()'))).toContain('Session.getEffectiveUser');
      // getTemporaryActiveUserKey lists no scope: it works, and is not the email.
      const key = run(rt, 'return Session.getTemporaryActiveUserKey()');
      expect(typeof key).toBe('string');
      expect(key).not.toContain('owner');
    } finally {
      await rt.stop();
    }
  });

  test('SpreadsheetApp reference, openById/openByUrl: need the full spreadsheets scope, spreadsheets.currentonly is not enough', async () => {
    const rt = fixtureWithScopes(ALL);
    try {
      expect(thrown(() => run(rt, "return SpreadsheetApp.openById('doc-1').getId()"))).toBe(
        `You do not have permission to call SpreadsheetApp.openById. Required permissions: ${AUTH}spreadsheets`,
      );
      expect(run(rt, 'return SpreadsheetApp.getActiveSpreadsheet().getId()')).toBe('doc-1');
    } finally {
      await rt.stop();
    }
    const full = fixtureWithScopes([...ALL, 'spreadsheets']);
    try {
      expect(run(full, "return SpreadsheetApp.openById('doc-1').getId()")).toBe('doc-1');
    } finally {
      await full.stop();
    }
  });

  test('SpreadsheetApp reference, getActiveSpreadsheet: either spreadsheets.currentonly or spreadsheets, printed as Google prints alternatives', async () => {
    const rt = fixtureWithScopes(['script.container.ui']);
    try {
      expect(thrown(() => run(rt, 'return SpreadsheetApp.getActiveSpreadsheet().getId()'))).toBe(
        `You do not have permission to call SpreadsheetApp.getActiveSpreadsheet. Required permissions: (${AUTH}spreadsheets.currentonly || ${AUTH}spreadsheets)`,
      );
    } finally {
      await rt.stop();
    }
  });

  test('UrlFetchApp, ScriptApp, Ui and DriveApp reference pages: script.external_request, script.scriptapp, script.container.ui, drive (drive.file is not enough for DriveApp)', async () => {
    const rt = fixtureWithScopes(['spreadsheets.currentonly', 'drive.file']);
    try {
      expect(thrown(() => run(rt, "return UrlFetchApp.fetch('https://example.com/')"))).toBe(
        missingScopeMessage('UrlFetchApp.fetch', METHOD_SCOPES['UrlFetchApp.fetch']),
      );
      expect(thrown(() => run(rt, "return ScriptApp.newTrigger('hello')"))).toContain('Required permissions: ' + AUTH + 'script.scriptapp');
      expect(thrown(() => run(rt, 'return SpreadsheetApp.getUi()'))).toContain('Required permissions: ' + AUTH + 'script.container.ui');
      expect(thrown(() => run(rt, "return DriveApp.createFile('a.csv', 'x').getId()"))).toBe(
        `You do not have permission to call DriveApp.createFile. Required permissions: ${AUTH}drive`,
      );
      expect(thrown(() => run(rt, "return DriveApp.getFileById('x')"))).toBe(
        `You do not have permission to call DriveApp.getFileById. Required permissions: (${AUTH}drive.readonly || ${AUTH}drive)`,
      );
      // Services whose pages list no scope work with none declared.
      expect(run(rt, "PropertiesService.getUserProperties().setProperty('a', '1'); return CacheService.getUserCache() !== null")).toBe(
        true,
      );
    } finally {
      await rt.stop();
    }
  });

  test('authorization guide, "Setting explicit scopes": a manifest without oauthScopes gets what the script uses (nothing refused)', async () => {
    const rt = fixtureWithScopes(undefined);
    try {
      expect(run(rt, 'return Session.getActiveUser().getEmail()')).toBe(OWNER);
    } finally {
      await rt.stop();
    }
  });
});

describe('identity: one document, several users (Session reference: "the email address is not available" cases)', () => {
  test('each user has their own user properties, cache, temporary key and triggers; blank email where Google withholds it', async () => {
    const rt = fixtureWithScopes(ALL, { withheldEmails: ['far@gmail.example'] });
    try {
      const me = (user: string) =>
        run(
          rt,
          "PropertiesService.getUserProperties().setProperty('who', Session.getTemporaryActiveUserKey()); CacheService.getUserCache().put('c', 'x'); ScriptApp.newTrigger('hello').timeBased().everyHours(1).create(); return [Session.getActiveUser().getEmail(), Session.getTemporaryActiveUserKey()]",
          { user },
        ) as [string, string];
      const [ownerEmail, ownerKey] = me(OWNER);
      const [edEmail, edKey] = me('ed@corp.example');
      const [farEmail, farKey] = me('far@gmail.example');
      expect([ownerEmail, edEmail, farEmail]).toEqual([OWNER, 'ed@corp.example', '']);
      expect(new Set([ownerKey, edKey, farKey]).size).toBe(3);
      expect(rt.properties.user('far@gmail.example').get('who')).toBe(farKey);
      expect(rt.properties.user(OWNER).get('who')).toBe(ownerKey);
      expect(rt.caches.user('ed@corp.example').get('c')).toBe('x');
      expect(rt.triggers.records.map((t) => t.user).sort()).toEqual(['ed@corp.example', 'far@gmail.example', OWNER]);
      // Custom functions and simple triggers get no email (same page).
      expect(run(rt, 'return Session.getActiveUser().getEmail()', { kind: 'custom-function' })).toBe('');
      expect(run(rt, 'return Session.getActiveUser().getEmail()', { kind: 'simple-trigger', authMode: 'LIMITED' })).toBe('');
    } finally {
      await rt.stop();
    }
  });

  test('a viewer reads the spreadsheet but every change is refused (chosen wording)', async () => {
    const rt = fixtureWithScopes(ALL, { viewers: ['viewer@example.com'] });
    try {
      expect(run(rt, "return SpreadsheetApp.getActiveSheet().getRange('A1').getValue()", { user: 'viewer@example.com' })).toBe('');
      expect(thrown(() => run(rt, "SpreadsheetApp.getActiveSheet().getRange('A1').setValue(1)", { user: 'viewer@example.com' }))).toMatch(
        /^You do not have permission to edit this spreadsheet/,
      );
    } finally {
      await rt.stop();
    }
  });

  test("Spreadsheet reference, getOwner: null for a file in a shared drive; its custom functions read no one's user properties (chosen)", async () => {
    const rt = fixtureWithScopes(ALL, { sharedDrive: true });
    try {
      expect(run(rt, 'return SpreadsheetApp.getActiveSpreadsheet().getOwner()')).toBeNull();
      run(rt, "PropertiesService.getUserProperties().setProperty('k', 'mine')");
      expect(run(rt, "return PropertiesService.getUserProperties().getProperty('k')", { kind: 'custom-function' })).toBeNull();
      expect(thrown(() => run(rt, "PropertiesService.getUserProperties().setProperty('k', 'x')", { kind: 'custom-function' }))).toMatch(
        /permission to set user properties/,
      );
    } finally {
      await rt.stop();
    }
  });
});

describe('trigger context (apps-script-platform.md: an add-on trigger is not promised an active document)', () => {
  test("triggerDocument 'none': a time-driven trigger gets no active spreadsheet, document properties, cache or lock; openById needs spreadsheets", async () => {
    const rt = fixtureWithScopes(ALL, { triggerDocument: 'none' });
    try {
      const probe =
        'return [SpreadsheetApp.getActiveSpreadsheet() === null, PropertiesService.getDocumentProperties() === null, CacheService.getDocumentCache() === null, LockService.getDocumentLock() === null]';
      expect(run(rt, probe, { kind: 'installable-trigger' })).toEqual([true, true, true, true]);
      // A sidebar call or menu run still has its document.
      expect(run(rt, probe)).toEqual([false, false, false, false]);
      expect(thrown(() => run(rt, "return SpreadsheetApp.openById('doc-1')", { kind: 'installable-trigger' }))).toContain(
        `Required permissions: ${AUTH}spreadsheets`,
      );
    } finally {
      await rt.stop();
    }
    const active = fixtureWithScopes(ALL);
    try {
      expect(run(active, 'return SpreadsheetApp.getActiveSpreadsheet().getId()', { kind: 'installable-trigger' })).toBe('doc-1');
    } finally {
      await active.stop();
    }
  });
});
