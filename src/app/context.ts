/**
 * What every feature's server code shares beyond the bindings (src/apps-script.ts): the current
 * user's settings and service address, and how a sidebar call reports a problem.
 */
import type { ApiContext, ServiceSettings } from '../api/client';
import { problemError, problemOf } from '../api/exceptions';
import type { Problem } from '../api/problems';
import { authorizationNeeded, clientDeps, formatInSpreadsheetZone, userProperties } from '../apps-script';
import { consentFailureOf } from '../domain/consent/consent';
import { offsetFromZ } from '../domain/price-list/schedule';
import { OPEN_SETTINGS_MARKER } from './failure';
import { noKeyProblem, readStoredSettings, STORED_SETTINGS, type StoredSettings } from '../store/settings';
import { dailyQuotaOf, quotaErrorMessage } from './quota-errors';

/** The current user's saved settings (defaults filled in; apiKey '' when none). */
export function loadSettings(): StoredSettings {
  return readStoredSettings(userProperties(), ADDON_DEFAULT_SERVICE_URL);
}

/** Writes the current user's settings (one property). */
export function storeSettings(s: StoredSettings): void {
  STORED_SETTINGS.put(userProperties(), s);
}

/**
 * The address and key of the current user, or the API exception (kind 'no-key', openSettings)
 * whose message says to open Settings.
 */
export function serviceSettings(s: StoredSettings = loadSettings()): ServiceSettings {
  if (!s.apiKey) throw problemError(noKeyProblem());
  return { baseUrl: s.serviceUrl, apiKey: s.apiKey };
}

/**
 * The Error a sidebar call throws for a problem: its plain message, with OPEN_SETTINGS_MARKER in
 * front when the key is missing or refused (the sidebar then opens Settings). Other errors pass
 * through unchanged.
 */
export function sidebarError(e: unknown): Error {
  // A permission the seller did not give (granular consent): which one, and Google's link.
  const consent = consentFailureOf(e instanceof Error ? e.message : String(e), (scope) => authorizationNeeded([scope]));
  if (consent) return consent;
  const quota = dailyQuotaOf(e);
  if (quota) return new Error(quotaErrorMessage(quota));
  const problem: Problem | undefined = problemOf(e);
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

/** The plain message of what went wrong (an API problem's own words). */
export function messageOf(e: unknown): string {
  const problem = problemOf(e);
  return problem ? problem.message : e instanceof Error ? e.message : String(e);
}

/** The spreadsheet's time zone offset, in minutes, at a moment (it moves when clocks change). */
export function zoneOffset(ms: number): number {
  return offsetFromZ(formatInSpreadsheetZone(new Date(ms), 'Z'));
}

/** What every API operation takes: the current user's service (or `settings`), the client's services and the deadline. */
export function apiContext(deadline: number, settings: ServiceSettings = serviceSettings()): ApiContext {
  return { settings, deps: clientDeps(), deadline };
}
