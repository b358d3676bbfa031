/**
 * Granular consent in the local runtime: a user may grant only some of the manifest's scopes
 * (workspaceupdates.googleblog.com 2025/08 "Granular OAuth consent in Google Apps Editor Add-ons"),
 * ScriptApp.requireScopes / requireAllScopes / getAuthorizationInfo as
 * developers.google.com/apps-script/reference/script/script-app and
 * developers.google.com/apps-script/reference/script/authorization-info describe them, and a user
 * authorised under an older manifest (a scope added later is not granted).
 */
import { evalIn, fixtureWithScopes, thrown } from './helpers';

const AUTH = 'https://www.googleapis.com/auth/';
const MANIFEST = ['spreadsheets.currentonly', 'script.scriptapp', 'script.send_mail', 'drive.file'];
const OWNER = 'owner@example.com';

describe('granular consent (local runtime)', () => {
  test('a call needing a scope the user left unticked fails with the permission message; the granted ones work', async () => {
    const rt = fixtureWithScopes(MANIFEST, { grants: { [OWNER]: [AUTH + 'spreadsheets.currentonly'] } });
    try {
      expect(thrown(() => evalIn(rt, "ScriptApp.newTrigger('tick').timeBased().everyHours(1).create()"))).toBe(
        'You do not have permission to call ScriptApp.newTrigger. Required permissions: ' + AUTH + 'script.scriptapp',
      );
      expect(evalIn(rt, 'return SpreadsheetApp.getActiveSpreadsheet().getId()')).toBe('doc-1');
      // Another user who granted everything is not affected.
      expect(
        evalIn(rt, "return ScriptApp.newTrigger('tick').timeBased().everyHours(1).create().getHandlerFunction()", null, {
          user: 'editor@example.com',
        }),
      ).toBe('tick');
      // Following the link and allowing everything: the call works.
      rt.grant(OWNER, 'all');
      expect(evalIn(rt, "return ScriptApp.newTrigger('tick').timeBased().everyHours(1).create().getHandlerFunction()")).toBe('tick');
    } finally {
      await rt.stop();
    }
  });

  test('getAuthorizationInfo(FULL[, scopes]): REQUIRED with a link while a scope is missing, the authorised ones listed; NOT_REQUIRED and a null link otherwise', async () => {
    const rt = fixtureWithScopes(MANIFEST, { grants: { [OWNER]: [AUTH + 'spreadsheets.currentonly', AUTH + 'drive.file'] } });
    try {
      const info = (scopes: string[] | null, authMode = 'ScriptApp.AuthMode.FULL') =>
        evalIn(
          rt,
          `var i = args ? ScriptApp.getAuthorizationInfo(${authMode}, args) : ScriptApp.getAuthorizationInfo(${authMode}); return [String(i.getAuthorizationStatus()), i.getAuthorizationUrl(), i.getAuthorizedScopes()];`,
          scopes,
        );
      const [status, url, authorized] = info(null);
      expect(status).toBe('REQUIRED');
      expect(url).toMatch(/^https:\/\/script\.google\.com\//);
      expect(authorized).toEqual([AUTH + 'spreadsheets.currentonly', AUTH + 'drive.file']);
      expect(info([AUTH + 'drive.file'])).toEqual(['NOT_REQUIRED', null, [AUTH + 'drive.file']]);
      expect(info([AUTH + 'drive.file', AUTH + 'script.send_mail'])).toEqual(['REQUIRED', url, [AUTH + 'drive.file']]);
      // "no other authorization mode requires that users grant authorization"
      expect(info([AUTH + 'script.send_mail'], 'ScriptApp.AuthMode.LIMITED')[0]).toBe('NOT_REQUIRED');
      rt.grant(OWNER, 'all');
      expect(info(null)[0]).toBe('NOT_REQUIRED');
    } finally {
      await rt.stop();
    }
  });

  test('requireScopes(FULL, scopes) ends the execution when one is not granted (message chosen), returns when all are; requireAllScopes likewise', async () => {
    const rt = fixtureWithScopes(MANIFEST, { grants: { [OWNER]: [AUTH + 'spreadsheets.currentonly', AUTH + 'drive.file'] } });
    try {
      expect(evalIn(rt, "ScriptApp.requireScopes(ScriptApp.AuthMode.FULL, args); return 'went on'", [AUTH + 'drive.file'])).toBe('went on');
      expect(thrown(() => evalIn(rt, 'ScriptApp.requireScopes(ScriptApp.AuthMode.FULL, args)', [AUTH + 'script.send_mail']))).toBe(
        'Authorization is required to perform that action.',
      );
      // A scope the manifest does not ask for can never be granted.
      expect(thrown(() => evalIn(rt, 'ScriptApp.requireScopes(ScriptApp.AuthMode.FULL, args)', [AUTH + 'drive']))).toBe(
        'Authorization is required to perform that action.',
      );
      expect(thrown(() => evalIn(rt, 'ScriptApp.requireAllScopes(ScriptApp.AuthMode.FULL)'))).toBe(
        'Authorization is required to perform that action.',
      );
      rt.grant(OWNER, 'all');
      expect(evalIn(rt, "ScriptApp.requireAllScopes(ScriptApp.AuthMode.FULL); return 'went on'")).toBe('went on');
    } finally {
      await rt.stop();
    }
  });

  test('a user authorised before the manifest gained a scope needs to authorise again: the new scope fails, getAuthorizationInfo says REQUIRED (editor-triggers, "authorization challenges after updates")', async () => {
    const before = MANIFEST.filter((s) => s !== 'script.send_mail').map((s) => AUTH + s);
    const rt = fixtureWithScopes(MANIFEST, { grants: { [OWNER]: before } });
    try {
      expect(evalIn(rt, 'return String(ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.FULL).getAuthorizationStatus())')).toBe(
        'REQUIRED',
      );
      expect(thrown(() => evalIn(rt, "MailApp.sendEmail('owner@example.com', 's', 'b')"))).toMatch(
        /^You do not have permission to call MailApp\.sendEmail\. Required permissions: .*script\.send_mail/,
      );
    } finally {
      await rt.stop();
    }
  });
});
