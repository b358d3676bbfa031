/**
 * Binds the real Apps Script services for the add-on's server code (sidebar calls, menu actions,
 * triggers). Everything else in src/app takes what it needs from here, so the rest stays testable
 * logic. Nothing runs at load time: every export is a function called inside an execution.
 *
 * Who may use what: settings live in the USER properties (per Google account; the API key never
 * goes anywhere else); per-spreadsheet bookkeeping (running scans: ids only) in the DOCUMENT
 * properties, shared by the document's editors.
 */
import type { ApiContext, ClientDeps, ServiceSettings } from '../api/client';
import { ApiProblemError, type Problem } from '../api/problems';
import { OPEN_SETTINGS_MARKER } from './failure';
import { dailyQuotaOf, quotaErrorMessage } from './trigger/quota-errors';
import { readStoredSettings, noKeyProblem, type StoredSettings, encodeStoredSettings } from './settings/stored';
import { SETTINGS_KEY } from '../store/keys';

/** The per-user property store (settings, the API key). */
export function userProperties(): GoogleAppsScript.Properties.Properties {
  return PropertiesService.getUserProperties();
}

/** The per-document property store (running scans and other small bookkeeping; never the key). */
export function documentProperties(): GoogleAppsScript.Properties.Properties {
  return PropertiesService.getDocumentProperties();
}

/** The current user's saved settings (defaults filled in; apiKey '' when none). */
export function loadSettings(): StoredSettings {
  return readStoredSettings(userProperties(), ADDON_DEFAULT_SERVICE_URL);
}

/** Writes the current user's settings (one property). */
export function storeSettings(s: StoredSettings): void {
  userProperties().setProperty(SETTINGS_KEY, encodeStoredSettings(s));
}

/**
 * The address and key of the current user, or an ApiProblemError (kind 'no-key', openSettings)
 * whose message says to open Settings.
 */
export function serviceSettings(s: StoredSettings = loadSettings()): ServiceSettings {
  if (!s.apiKey) throw new ApiProblemError(noKeyProblem());
  return { baseUrl: s.serviceUrl, apiKey: s.apiKey };
}

/**
 * The client's Apps Script services. Logging is one line per attempt (method, path, status): the
 * client never puts the key or bodies in it.
 */
export function clientDeps(): ClientDeps {
  return {
    fetcher: UrlFetchApp,
    sleep: (ms: number) => Utilities.sleep(ms),
    now: () => Date.now(),
    log: (line: string) => console.log('scan-service: ' + line),
  };
}

/** What every API operation takes: the current user's service (or `settings`), the client's services and the deadline. */
export function apiContext(deadline: number, settings: ServiceSettings = serviceSettings()): ApiContext {
  return { settings, deps: clientDeps(), deadline };
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
 * document properties) to an add-on's time-driven trigger, so the hourly trigger asks first.
 */
export function hasActiveDocument(): boolean {
  return SpreadsheetApp.getActiveSpreadsheet() !== null && PropertiesService.getDocumentProperties() !== null;
}

/**
 * Who is running, without their email: Session.getTemporaryActiveUserKey() is unique per user and
 * script, needs no scope, and is there wherever the email may be withheld (cross-domain consumer
 * accounts). It rotates every 30 days (Session reference), so it tags only short-lived records
 * (running scans), never anything kept longer.
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
  return saveToDrive(Utilities.newBlob(text, mimeType, name), name, mimeType).url;
}

/** Formats a time in the spreadsheet's time zone (Java SimpleDateFormat pattern). */
export function formatInSpreadsheetZone(when: Date, pattern: string): string {
  return Utilities.formatDate(when, activeSpreadsheet().getSpreadsheetTimeZone(), pattern);
}

/**
 * The Error a sidebar call throws for a problem: its plain message, with OPEN_SETTINGS_MARKER in
 * front when the key is missing or refused (the sidebar then opens Settings). Other errors pass
 * through unchanged.
 */
export function sidebarError(e: unknown): Error {
  const quota = dailyQuotaOf(e);
  if (quota) return new Error(quotaErrorMessage(quota));
  const problem: Problem | undefined = e instanceof ApiProblemError ? e.problem : undefined;
  if (!problem) return e instanceof Error ? e : new Error(String(e));
  return new Error((problem.openSettings ? OPEN_SETTINGS_MARKER : '') + problem.message);
}

/** Runs a sidebar server function body, turning API problems into sidebar messages. */
export function asSidebarCall<T>(body: () => T): T {
  try {
    return body();
  } catch (e) {
    throw sidebarError(e);
  }
}
