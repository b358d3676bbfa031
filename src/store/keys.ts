/**
 * Every name the add-on stores something under, with the limits of the store it lives in. Nothing
 * else in src/ spells a property key or a cache namespace (test/build/layout.test.ts checks).
 *
 * Apps Script's limits (apps-script-platform.md): a property value at most 9 KB, 500 KB per store;
 * a cache key at most 250 characters, a cache value at most 100 KB, 1,000 items per cache.
 */

/** Properties allow 9 KB per value; every record below stays far under it. */
export const PROPERTY_VALUE_MAX_BYTES = 9 * 1024;
/** Cache values allow 100 KB; 1 KB is kept for the key and the service's own overhead. */
export const CACHE_VALUE_MAX_BYTES = 100 * 1024 - 1024;

// ---- User properties (per Google account) -------------------------------------------------------

/** The user's settings, API key included: `{v, apiKey, serviceUrl, marketplace}`. The ONLY place the key is kept. */
export const SETTINGS_KEY = 'scan.settings';

/** The owner's key shared with the formulas of one spreadsheet: `{v, apiKey, baseUrl, marketplace}`. */
export function formulaShareKey(spreadsheetId: string): string {
  return 'scan.formulaShare.' + spreadsheetId;
}

/** Checkpoint of the user's "Convert selected column" in one spreadsheet (a few hundred bytes). */
export function columnJobKey(spreadsheetId: string): string {
  return 'scan.columnJob.' + spreadsheetId;
}

// Supplier memory (`scan.suppliers.<spreadsheet id>`, bounded): src/store/suppliers.ts.

/** A daily quota of Google stopped the user's hourly trigger: `{q, at, until}` (also in the user cache when property writes are refused). */
export const QUOTA_STOP_KEY = 'scan.quotaStop';
/** The user's hourly-trigger runtime in the current 24-hour window: `{s, ms}`. */
export const TRIGGER_DAY_KEY = 'scan.triggerDay';
/** The hourly trigger last ran without an active document (src/app/trigger/no-document.ts): `{at, n}`. */
export const TRIGGER_NO_DOCUMENT_KEY = 'scan.triggerNoDoc';
/** The hourly trigger found that Google needs the user to authorise again (src/app/trigger/authorization.ts): `{at, url, missing}`. */
export const TRIGGER_REAUTH_KEY = 'scan.triggerReauth';

// ---- Document properties (shared by the document's editors; never the key) ----------------------

/** Running scans of this document, ids and owner tags only: `{"<id>": {u, t}}`. */
export const RUNNING_KEY = 'scan.running';
/** Entries of RUNNING_KEY at most (~40 bytes each, so far below 9 KB). */
export const RUNNING_MAX_RECORDS = 50;

/** The hourly import trigger's memory per scan: `{"<id>": {n, a, s?}}`. */
export const AUTO_IMPORT_KEY = 'scan.autoimport';

/** The scan ids named by the keys `<prefix><scan id>` among a store's keys. */
function scanIdsUnder(prefix: string, keys: readonly string[]): number[] {
  return keys
    .filter((k) => k.indexOf(prefix) === 0)
    .map((k) => Number(k.slice(prefix.length)))
    .filter((n) => Number.isInteger(n) && n > 0);
}

const IMPORT_PREFIX = 'scan.import.';
/** The checkpoint of a scan's import under way. */
export function importKey(scanId: number): string {
  return IMPORT_PREFIX + scanId;
}
/** The scan ids of the import checkpoints among a store's keys. */
export function importKeyIds(keys: readonly string[]): number[] {
  return scanIdsUnder(IMPORT_PREFIX, keys);
}

const NOT_SENT_PREFIX = 'scan.notSent.';
/**
 * Rows of a scan's sheet skipped before the upload, for its errors tab: `{n, r: [[sheetRow, message,
 * identifier]]}` (cut to fit a property, ≤ ~8.7 KB). Deleted once a full import has written them into
 * the errors tab (a re-import reads them back from there); bounded below for scans never imported.
 */
export function notSentKey(scanId: number): string {
  return NOT_SENT_PREFIX + scanId;
}
/** The scan ids of the not-sent records among a store's keys. */
export function notSentKeyIds(keys: readonly string[]): number[] {
  return scanIdsUnder(NOT_SENT_PREFIX, keys);
}
/** Not-sent records kept with their rows (the newest scans); older ones keep only the count. */
export const NOT_SENT_FULL_RECORDS = 10;
/** Not-sent records kept at all (count-only ones ~20 bytes); older ones are dropped. */
export const NOT_SENT_MAX_RECORDS = 100;

/** A scan started here: the seller's decision options (~100 bytes) and what was sent (`sent`: mapping, custom column names cut to fit, marketplace, lines; src/app/records/decision.ts). */
export function decisionKey(scanId: number): string {
  return 'scan.decide.' + scanId;
}

const TAB_PREFIX = 'scan.tab.';
/** Where an imported scan's tabs are: `{sheetId, errorsSheetId}`. */
export function tabKey(scanId: number): string {
  return TAB_PREFIX + scanId;
}
/** The scan ids of the tab records among a store's keys. */
export function tabKeyIds(keys: readonly string[]): number[] {
  return scanIdsUnder(TAB_PREFIX, keys);
}

/**
 * Document property: the unfinished "Compare with an earlier scan" (issue 23), ONE at a time per
 * document: `{v, before, after, phase, ...}` (a few hundred bytes: scan ids, pages done, staging
 * tab ids, rows written; src/app/results/compare.ts). Deleted when the Changes tab is complete.
 */
export const COMPARE_KEY = 'scan.compare';

// ---- Script properties --------------------------------------------------------------------------

/** `{budgetMs, pagesPerWave}`: a support and test knob for the import, absent normally. */
export const IMPORT_TUNING_KEY = 'scan.importTuning';

// ---- Caches -------------------------------------------------------------------------------------

/** Namespace of the conversion cache's keys (`sc1|c|US|<address hash>|F|<chunk hash>`, ~40 of the 250 characters). */
export const CONVERT_CACHE_NAMESPACE = 'sc1';
