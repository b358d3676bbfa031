/**
 * THE table of OAuth scopes the local runtime enforces: for each service method the add-on calls,
 * the scopes Google's reference page lists under "Authorization" ("Scripts that use this method
 * require authorization with one or more of the following scopes"). A script whose manifest declares
 * `oauthScopes` gets exactly those scopes (Google then does no automatic detection,
 * guides/services/authorization "Setting explicit scopes"), so a method none of whose scopes is
 * declared fails with Google's message:
 *
 *   You do not have permission to call SpreadsheetApp.openById. Required permissions: https://www.googleapis.com/auth/spreadsheets
 *
 * (several alternatives are written `(a || b)`, as Google prints them). A script without
 * `oauthScopes` gets every scope it uses (automatic detection): nothing is checked.
 *
 * test/build/scopes.test.ts derives the scopes the built add-on needs from this table and compares
 * them with the manifest; keep it the one list.
 */
import type { RuntimeState } from './execution';
import { gasError } from './realm';

const AUTH = 'https://www.googleapis.com/auth/';
export const SCOPE = Object.freeze({
  spreadsheets: AUTH + 'spreadsheets',
  spreadsheetsCurrentOnly: AUTH + 'spreadsheets.currentonly',
  userinfoEmail: AUTH + 'userinfo.email',
  drive: AUTH + 'drive',
  driveReadonly: AUTH + 'drive.readonly',
  driveFile: AUTH + 'drive.file',
  externalRequest: AUTH + 'script.external_request',
  scriptApp: AUTH + 'script.scriptapp',
  containerUi: AUTH + 'script.container.ui',
  sendMail: AUTH + 'script.send_mail',
});

/** One method's rule: any one of `anyOf` suffices; `page` is the Google reference page it comes from. */
export interface ScopeRule {
  anyOf: readonly string[];
  page: string;
}

const REF = 'https://developers.google.com/apps-script/reference/';
const currentDoc: ScopeRule = { anyOf: [SCOPE.spreadsheetsCurrentOnly, SCOPE.spreadsheets], page: REF + 'spreadsheet/spreadsheet-app' };
const byId: ScopeRule = { anyOf: [SCOPE.spreadsheets], page: REF + 'spreadsheet/spreadsheet-app#openById(String)' };
const email: ScopeRule = { anyOf: [SCOPE.userinfoEmail], page: REF + 'base/session#getActiveUser()' };
const fetch: ScopeRule = { anyOf: [SCOPE.externalRequest], page: REF + 'url-fetch/url-fetch-app' };
const triggers: ScopeRule = { anyOf: [SCOPE.scriptApp], page: REF + 'script/script-app' };
const ui: ScopeRule = { anyOf: [SCOPE.containerUi], page: REF + 'base/ui' };
const driveWrite: ScopeRule = { anyOf: [SCOPE.drive], page: REF + 'drive/drive-app#createFile(BlobSource)' };
// MailApp's page lists script.send_mail under every method's Authorization.
const mail: ScopeRule = { anyOf: [SCOPE.sendMail], page: REF + 'mail/mail-app' };
const driveRead: ScopeRule = { anyOf: [SCOPE.driveReadonly, SCOPE.drive], page: REF + 'drive/drive-app#getFileById(String)' };

/**
 * `Service.method` → its rule. Methods not listed need no scope (PropertiesService, CacheService,
 * LockService, Utilities, HtmlService, Session.getTemporaryActiveUserKey / getScriptTimeZone /
 * getActiveUserLocale: their pages list no Authorization section). Every Sheet/Range method is
 * reached through one of the SpreadsheetApp entry points below, which carry the check.
 */
export const METHOD_SCOPES: Readonly<Record<string, ScopeRule>> = Object.freeze({
  'Session.getActiveUser': email,
  'Session.getEffectiveUser': { ...email, page: REF + 'base/session#getEffectiveUser()' },
  'SpreadsheetApp.getActive': currentDoc,
  'SpreadsheetApp.getActiveSpreadsheet': currentDoc,
  'SpreadsheetApp.getActiveSheet': currentDoc,
  'SpreadsheetApp.getActiveRange': currentDoc,
  'SpreadsheetApp.getCurrentCell': currentDoc,
  'SpreadsheetApp.getSelection': currentDoc,
  'SpreadsheetApp.setActiveSheet': currentDoc,
  'SpreadsheetApp.setActiveRange': currentDoc,
  'SpreadsheetApp.openById': byId,
  'SpreadsheetApp.openByUrl': { ...byId, page: REF + 'spreadsheet/spreadsheet-app#openByUrl(String)' },
  // Google's pages list script.container.ui for getUi() and Ui's show* methods.
  'SpreadsheetApp.getUi': ui,
  'Ui.showSidebar': ui,
  'Ui.showModalDialog': ui,
  'Ui.showModelessDialog': ui,
  'UrlFetchApp.fetch': fetch,
  'UrlFetchApp.fetchAll': fetch,
  'ScriptApp.newTrigger': triggers,
  'ScriptApp.getProjectTriggers': triggers,
  'ScriptApp.getUserTriggers': triggers,
  'ScriptApp.deleteTrigger': triggers,
  'MailApp.sendEmail': { ...mail, page: REF + 'mail/mail-app#sendEmail(Object)' },
  'MailApp.getRemainingDailyQuota': { ...mail, page: REF + 'mail/mail-app#getRemainingDailyQuota()' },
  'DriveApp.createFile': driveWrite,
  'DriveApp.createFolder': driveWrite,
  'DriveApp.getFileById': driveRead,
  'DriveApp.getFiles': driveRead,
  'DriveApp.getFilesByName': driveRead,
  'DriveApp.getRootFolder': driveRead,
  // The advanced Drive service (Drive API v3, global `Drive`, advanced-drive.ts): the API honours
  // drive.file (files the app created or the user opened with it). Narrowest scope first.
  'Drive.Files.create': {
    anyOf: [SCOPE.driveFile, AUTH + 'drive.appdata', SCOPE.drive],
    page: 'https://developers.google.com/drive/api/reference/rest/v3/files/create',
  },
  'Drive.Files.get': {
    anyOf: [
      SCOPE.driveFile,
      AUTH + 'drive.appdata',
      AUTH + 'drive.meet.readonly',
      AUTH + 'drive.metadata.readonly',
      AUTH + 'drive.metadata',
      AUTH + 'drive.photos.readonly',
      SCOPE.driveReadonly,
      SCOPE.drive,
    ],
    page: 'https://developers.google.com/drive/api/reference/rest/v3/files/get',
  },
});

/** The rule of `Service.method`, or null when it needs no scope. */
export function scopeRule(method: string): ScopeRule | null {
  return METHOD_SCOPES[method] ?? null;
}

/** Google's message for a method whose scopes the manifest does not declare. */
export function missingScopeMessage(method: string, rule: ScopeRule): string {
  const need = rule.anyOf.length === 1 ? rule.anyOf[0] : `(${rule.anyOf.join(' || ')})`;
  return `You do not have permission to call ${method}. Required permissions: ${need}`;
}

/**
 * The scopes `user` may use now: the manifest's (`state.scopes`) that the user granted
 * (`state.grants`; a user not listed granted them all). Null when the manifest declares none
 * (nothing is checked).
 */
export function grantedScopes(state: RuntimeState, user: string): ReadonlySet<string> | null {
  const manifest = state.scopes;
  if (!manifest) return null;
  const grant = state.grants.get(user);
  if (!grant) return manifest;
  return new Set([...manifest].filter((s) => grant.has(s)));
}

/**
 * Throws Google's message when the scopes the running execution's user granted of the manifest's
 * (`grantedScopes`; null = not declared, nothing checked) do not cover `method`. A scope the user
 * left unticked at the consent screen fails the same way as one the manifest lacks (chosen: Google's
 * granular-consent announcement says the execution fails and its log links to the consent screen; it
 * quotes no other message).
 */
export function requireScope(state: RuntimeState, method: string): void {
  const granted = state.current ? grantedScopes(state, state.current.user) : state.scopes;
  if (!granted) return;
  const rule = scopeRule(method);
  if (!rule || rule.anyOf.some((s) => granted.has(s))) return;
  throw gasError(state, missingScopeMessage(method, rule));
}
