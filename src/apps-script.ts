/**
 * The one binder: the only module of src/ that names an Apps Script service (SpreadsheetApp,
 * PropertiesService, CacheService, LockService, UrlFetchApp, ScriptApp, Session, HtmlService,
 * Utilities, Drive …; test/build/layout.test.ts holds it). Everything else — features, the menu,
 * the custom functions, the store — takes what it needs from here, so the rest stays testable
 * logic. It imports types only, so any layer may use it. Nothing runs at load time: every export
 * is a function called inside an execution.
 *
 * Who may use what: settings live in the USER properties (per Google account; the API key never
 * goes anywhere else); per-spreadsheet bookkeeping (running scans: ids only) in the DOCUMENT
 * properties, shared by the document's editors.
 */
import type { ClientDeps } from './api/client';

/** The per-user property store (settings, the API key). */
export function userProperties(): GoogleAppsScript.Properties.Properties {
  return PropertiesService.getUserProperties();
}

/** The per-document property store (running scans and other small bookkeeping; never the key). */
export function documentProperties(): GoogleAppsScript.Properties.Properties {
  return PropertiesService.getDocumentProperties();
}

/**
 * The client's Apps Script services. Logging is one line per attempt (method, path, status): the
 * client never puts the key or bodies in it.
 */
export function clientDeps(): ClientDeps {
  return {
    fetcher: UrlFetchApp,
    sleep,
    now,
    log: (line: string) => console.log('scan-service: ' + line),
  };
}

/** Milliseconds since the epoch. */
export function now(): number {
  return Date.now();
}

/** The spreadsheet the add-on runs in. */
export function activeSpreadsheet(): GoogleAppsScript.Spreadsheet.Spreadsheet {
  return SpreadsheetApp.getActiveSpreadsheet();
}

/** Applies the script's pending spreadsheet changes now (SpreadsheetApp.flush). */
export function flushSpreadsheet(): void {
  SpreadsheetApp.flush();
}

/**
 * Whether this execution has its document: Google does not promise an active spreadsheet (nor
 * document properties, nor the document lock: LockService reference, getDocumentLock "null if
 * ... not in a document") to an add-on's time-driven trigger, so the hourly trigger asks first.
 */
export function hasActiveDocument(): boolean {
  return activeSpreadsheet() !== null && documentProperties() !== null && LockService.getDocumentLock() !== null;
}

/**
 * Who is running, without their email: Session.getTemporaryActiveUserKey() is unique per user and
 * script, needs no scope, and is there wherever the email may be withheld (cross-domain consumer
 * accounts). It rotates every 30 days (Session reference), so it tags nothing: it only names the
 * tag of the old way (src/store/identity.ts), so records tagged so are still recognised.
 */
export function activeUserKey(): string {
  return Session.getTemporaryActiveUserKey();
}

/**
 * The executing user's email ('' when Google does not tell: cross-domain consumer accounts, or a
 * manifest without userinfo.email). Used only to recognise the spreadsheet's owner (formulas).
 */
export function activeUserEmail(): string {
  try {
    return Session.getActiveUser().getEmail() || '';
  } catch (_e) {
    return '';
  }
}

/**
 * Saves bytes as a new file in the user's Drive and answers its id and link. Through the Drive API
 * (advanced Drive service, v3, enabled in appsscript.json), because the API creates files with the
 * `drive.file` scope (files this add-on made), while DriveApp.createFile needs the full, restricted
 * `drive` scope. The link is the API's `webViewLink`, asked for in `fields` (v3 answers only id and
 * name otherwise).
 */
export function saveToDrive(blob: GoogleAppsScript.Base.Blob, name: string, mimeType: string): { id: string; url: string } {
  requireGranted(scopeFor('drive'));
  const file = Drive!.Files!.create({ name, mimeType }, blob, { fields: 'id,webViewLink' });
  return { id: String(file.id || ''), url: String(file.webViewLink || '') };
}

/** Saves text as a new Drive file (see saveToDrive); its link. */
export function saveTextToDrive(name: string, mimeType: string, text: string): string {
  return saveToDrive(textBlob(text, mimeType, name), name, mimeType).url;
}

/** Formats a time in the spreadsheet's time zone (Java SimpleDateFormat pattern). */
export function formatInSpreadsheetZone(when: Date, pattern: string): string {
  return Utilities.formatDate(when, activeSpreadsheet().getSpreadsheetTimeZone(), pattern);
}

/** Script properties: support and test knobs (tunings), never user data. */
export function scriptProperties(): GoogleAppsScript.Properties.Properties {
  return PropertiesService.getScriptProperties();
}

/** The per-user cache (pacing, quota records, Undo, the column conversion's answers). */
export function userCache(): GoogleAppsScript.Cache.Cache {
  return CacheService.getUserCache();
}

/** The document cache: shared by the people of this document (the formulas' answers). */
export function documentCache(): GoogleAppsScript.Cache.Cache | null {
  return CacheService.getDocumentCache();
}

/** The user lock: this user's executions of the add-on, one at a time (making their id, src/app/scan/running.ts). */
export function userLock(): GoogleAppsScript.Lock.Lock {
  return LockService.getUserLock();
}

/** A new random id (Utilities.getUuid()). */
export function newUuid(): string {
  return Utilities.getUuid();
}

/** The document lock (taken only through src/store/locks.ts). */
export function documentLock(): GoogleAppsScript.Lock.Lock {
  return LockService.getDocumentLock();
}

/** UrlFetchApp, for code that takes a fetcher. */
export function urlFetcher(): GoogleAppsScript.URL_Fetch.UrlFetchApp {
  return UrlFetchApp;
}

/** Waits without using the CPU (Utilities.sleep). */
export function sleep(ms: number): void {
  Utilities.sleep(ms);
}

/** 12 hex digits of the SHA-256 of text (UTF-8): a short tag that names something without holding it. */
export function sha256Tag(text: string): string {
  const bytes = Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, text, Utilities.Charset.UTF_8);
  let hex = '';
  for (let i = 0; i < 6; i++) hex += ((bytes[i] + 256) % 256).toString(16).padStart(2, '0');
  return hex;
}

/** Base64 of the MD5 of text (UTF-8): a fingerprint of content, not a secret. */
export function md5Base64(text: string): string {
  return Utilities.base64Encode(Utilities.computeDigest(Utilities.DigestAlgorithm.MD5, text, Utilities.Charset.UTF_8));
}

/** A named blob of text (a file to upload or save). */
export function textBlob(text: string, contentType: string, name: string): GoogleAppsScript.Base.Blob {
  return Utilities.newBlob(text, contentType, name);
}

/** The spreadsheet's UI (menus, alerts, the sidebar); only where a user is present. */
export function spreadsheetUi(): GoogleAppsScript.Base.Ui {
  return SpreadsheetApp.getUi();
}

/** A builder of a rich-text cell value (links in cells without formulas). */
export function newRichText(): GoogleAppsScript.Spreadsheet.RichTextValueBuilder {
  return SpreadsheetApp.newRichTextValue();
}

/** A builder of a conditional format rule. */
export function newConditionalFormat(): GoogleAppsScript.Spreadsheet.ConditionalFormatRuleBuilder {
  return SpreadsheetApp.newConditionalFormatRule();
}

/** An HtmlService template from a file of the project (the sidebar). */
export function htmlTemplate(file: string): GoogleAppsScript.HTML.HtmlTemplate {
  return HtmlService.createTemplateFromFile(file);
}

/**
 * This user's installable triggers of this script (getProjectTriggers: "all installable triggers
 * associated with the current project and current user"). Not getUserTriggers(spreadsheet): its page
 * does not say that it lists a time-driven trigger, whose source is the clock, not the document.
 */
export function projectTriggers(): GoogleAppsScript.Script.Trigger[] {
  return ScriptApp.getProjectTriggers();
}

/** Installs a time-driven trigger running `handler` every hour (after the trigger scope's consent). */
export function installHourlyTrigger(handler: string): void {
  requireGranted(scopeFor('trigger'));
  ScriptApp.newTrigger(handler).timeBased().everyHours(1).create();
}

/** getAuthorizationInfo(FULL[, scopes]), typed as Google's page documents it (the types lack the scopes argument). */
interface AuthInfo {
  getAuthorizationStatus(): GoogleAppsScript.Script.AuthorizationStatus;
  getAuthorizationUrl(): string | null;
  getAuthorizedScopes?(): string[] | null;
}
function authInfo(scopes?: string[]): AuthInfo {
  const app = ScriptApp as unknown as { getAuthorizationInfo(mode: GoogleAppsScript.Script.AuthMode, scopes?: string[]): AuthInfo };
  return scopes ? app.getAuthorizationInfo(ScriptApp.AuthMode.FULL, scopes) : app.getAuthorizationInfo(ScriptApp.AuthMode.FULL);
}

/**
 * Whether the user still has to grant one of `scopes` (granular consent): null when all are granted,
 * else Google's authorisation link ('' when Google gave none). Never throws: when Google cannot tell,
 * null (the call itself then fails as it would have).
 */
export function authorizationNeeded(scopes?: string[]): string | null {
  try {
    const info = authInfo(scopes);
    if (info.getAuthorizationStatus() !== ScriptApp.AuthorizationStatus.REQUIRED) return null;
    return String(info.getAuthorizationUrl() || '');
  } catch (_e) {
    return null;
  }
}

/** The scopes of `scopes` (default: the manifest's) this user granted, when Google says (getAuthorizedScopes); else null. */
export function authorizedScopes(scopes?: string[]): string[] | null {
  try {
    const info = authInfo(scopes);
    const list = info.getAuthorizedScopes ? info.getAuthorizedScopes() : null;
    return Array.isArray(list) ? list.map(String) : null;
  } catch (_e) {
    return null;
  }
}

/** The scope the feature `need` asks for (tools/build/scopes.cjs, given to the bundle as ADDON_SCOPES). */
function scopeFor(need: 'trigger' | 'drive' | 'mail'): string {
  return ADDON_SCOPES.find((s) => s.need === need)?.scope ?? '';
}

/**
 * Before a feature's calls that need a scope a seller may have unticked (granular consent): when it is
 * not granted, a failure in Google's own form ("… Required permissions: <scope>"), before anything is
 * done, which the sidebar's failure turns into the permission's name and Google's link
 * (../app/context.ts, sidebarError); then ScriptApp.requireScopes(FULL, …) (reference/script/script-app),
 * which ends the execution when Google finds the scope missing after all.
 */
export function requireGranted(scope: string): void {
  if (authorizationNeeded([scope]) !== null)
    throw new Error('Authorization is required to perform that action. Required permissions: ' + scope);
  ScriptApp.requireScopes(ScriptApp.AuthMode.FULL, [scope]);
}

/** Removes one of this user's triggers. */
export function deleteTrigger(t: GoogleAppsScript.Script.Trigger): void {
  ScriptApp.deleteTrigger(t);
}

/**
 * Why an email to the user was not sent ('quota': Google's daily email recipients are used up;
 * 'consent': the user did not grant script.send_mail).
 */
export type MailRefusal = 'quota' | 'no-address' | 'failed' | 'consent';

/**
 * Sends a PLAIN-TEXT email (no htmlBody: nothing in it is rendered) to the user running this
 * execution and to no one else: the address is Session.getEffectiveUser()'s (a trigger's owner, whose
 * user properties the run reads), never one a caller passes. Checks the day's email recipients first
 * (MailApp.getRemainingDailyQuota); never throws. Null when sent, else why not.
 */
export function mailToSelf(subject: string, body: string): MailRefusal | null {
  // A seller may have unticked the mail scope (granular consent): not sent, and the run goes on.
  if (authorizationNeeded([scopeFor('mail')]) !== null) return 'consent';
  try {
    ScriptApp.requireScopes(ScriptApp.AuthMode.FULL, [scopeFor('mail')]);
    const to = Session.getEffectiveUser().getEmail() || '';
    if (!to) return 'no-address';
    if (MailApp.getRemainingDailyQuota() < 1) return 'quota';
    MailApp.sendEmail({ to, subject, body });
    return null;
  } catch (e) {
    return /too many times for one day: email/.test(e instanceof Error ? e.message : String(e)) ? 'quota' : 'failed';
  }
}
