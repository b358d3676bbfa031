/**
 * Binds the real Apps Script services for the add-on's server code (sidebar calls, menu actions,
 * triggers). Everything else in src/app takes what it needs from here, so the rest stays testable
 * logic. Nothing runs at load time: every export is a function called inside an execution.
 *
 * Who may use what: settings live in the USER properties (per Google account; the API key never
 * goes anywhere else); per-spreadsheet bookkeeping (running scans: ids only) in the DOCUMENT
 * properties, shared by the document's editors.
 */
import type { ClientDeps, ServiceSettings } from '../api/client';
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

/** Milliseconds since the epoch. */
export function now(): number {
  return Date.now();
}

/** The spreadsheet the add-on runs in. */
export function activeSpreadsheet(): GoogleAppsScript.Spreadsheet.Spreadsheet {
  return SpreadsheetApp.getActiveSpreadsheet();
}

/** Saves a file to the user's Drive; its link. */
export function saveDriveFile(name: string, mimeType: string, text: string): string {
  return DriveApp.createFile(Utilities.newBlob(text, mimeType, name)).getUrl();
}

/** The executing user's email ('' when Google does not tell). */
export function activeUserEmail(): string {
  try {
    return Session.getActiveUser().getEmail() || '';
  } catch (_e) {
    return '';
  }
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
