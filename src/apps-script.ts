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

/** Google's limit for one execution: a sidebar call, a menu action, a trigger (Apps Script quotas). */
export const EXECUTION_LIMIT_MS = 6 * 60 * 1000;

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

/** This user's triggers of this script in the spreadsheet. */
export function userTriggers(ss: GoogleAppsScript.Spreadsheet.Spreadsheet): GoogleAppsScript.Script.Trigger[] {
  return ScriptApp.getUserTriggers(ss);
}

/** Installs a time-driven trigger running `handler` every hour. */
export function installHourlyTrigger(handler: string): void {
  ScriptApp.newTrigger(handler).timeBased().everyHours(1).create();
}

/** Removes one of this user's triggers. */
export function deleteTrigger(t: GoogleAppsScript.Script.Trigger): void {
  ScriptApp.deleteTrigger(t);
}

/** Why an email to the user was not sent ('quota': Google's daily email recipients are used up). */
export type MailRefusal = 'quota' | 'no-address' | 'failed';

/**
 * Sends a PLAIN-TEXT email (no htmlBody: nothing in it is rendered) to the user running this
 * execution and to no one else: the address is Session.getEffectiveUser()'s (a trigger's owner, whose
 * user properties the run reads), never one a caller passes. Checks the day's email recipients first
 * (MailApp.getRemainingDailyQuota); never throws. Null when sent, else why not.
 */
export function mailToSelf(subject: string, body: string): MailRefusal | null {
  try {
    const to = Session.getEffectiveUser().getEmail() || '';
    if (!to) return 'no-address';
    if (MailApp.getRemainingDailyQuota() < 1) return 'quota';
    MailApp.sendEmail({ to, subject, body });
    return null;
  } catch (e) {
    return /too many times for one day: email/.test(e instanceof Error ? e.message : String(e)) ? 'quota' : 'failed';
  }
}
