/**
 * Which services an execution may use, by its auth mode (guides/sheets/functions, the add-on
 * authorisation lifecycle). Services call `requireService` before doing anything.
 *
 * - CUSTOM_FUNCTION: only Cache, HTML (building output; showing it needs a Ui, which custom functions
 *   lack), Lock, Properties, Spreadsheet (read-only; checked in spreadsheet/), URL Fetch, Utilities, XML
 *   (plus Logger/console, which need no authorisation).
 * - NONE (add-on onOpen before "use in this document"): no service that needs authorisation —
 *   Properties, URL Fetch, Drive, ScriptApp triggers are refused (Google's AuthMode sample says so
 *   for Properties); Cache, Lock, Utilities, HtmlService (building output) work. (chosen for the last two)
 * - LIMITED (simple triggers once enabled): Properties and URL Fetch work (Google's AuthMode sample
 *   does both in LIMITED); Drive and trigger management are refused. (chosen)
 * - MailApp needs authorisation: refused in every mode but FULL (custom functions: the guide's list of
 *   services they may use has no Mail; installable time-driven triggers run in FULL).
 * - FULL: everything.
 */
import type { RuntimeState, AuthMode } from './execution';
import { gasError } from './realm';
import { requireScope } from './scopes';

export type ServiceName =
  | 'CacheService'
  | 'LockService'
  | 'PropertiesService'
  | 'UrlFetchApp'
  | 'Utilities'
  | 'HtmlService'
  | 'ScriptApp'
  | 'Session'
  | 'DriveApp'
  | 'MailApp'
  | 'ContentService';

const ALLOWED: Record<AuthMode, ReadonlySet<ServiceName> | 'all'> = {
  FULL: 'all',
  // The guide's table of supported services has HTML ("Can generate HTML, but can't display it").
  CUSTOM_FUNCTION: new Set<ServiceName>([
    'CacheService',
    'LockService',
    'PropertiesService',
    'UrlFetchApp',
    'Utilities',
    'HtmlService',
    'Session',
  ]),
  NONE: new Set<ServiceName>(['CacheService', 'LockService', 'Utilities', 'HtmlService', 'Session', 'ContentService']),
  LIMITED: new Set<ServiceName>([
    'CacheService',
    'LockService',
    'PropertiesService',
    'UrlFetchApp',
    'Utilities',
    'HtmlService',
    'Session',
    'ContentService',
  ]),
};

/** Google's wording for a service the execution's auth mode does not allow. */
export function permissionMessage(service: string): string {
  return `You do not have permission to call ${service} service.`;
}

/**
 * Throws Google's permission error when the running execution may not use `service` (its auth
 * mode), or when `method` (e.g. 'fetch' of UrlFetchApp) needs a scope the manifest does not declare
 * (scopes.ts).
 */
export function requireService(state: RuntimeState, service: ServiceName, method?: string): void {
  const e = state.exec();
  state.checkLimit();
  const allowed = ALLOWED[e.authMode];
  if (allowed !== 'all' && !allowed.has(service)) throw gasError(state, permissionMessage(service));
  if (method) requireScope(state, `${service}.${method}`);
}

export function isCustomFunction(state: RuntimeState): boolean {
  return state.current?.authMode === 'CUSTOM_FUNCTION';
}
