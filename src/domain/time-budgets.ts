/**
 * Every time budget of the add-on, in one table: Google's limits (Apps Script quotas page:
 * apps-script-platform.md) and what each kind of work takes of them, with the margins kept back.
 * Pure numbers (ms); the code that spends a budget reads it from here.
 */

// ---- Google's limits ----------------------------------------------------------------------------

/** One execution: a sidebar call, a menu action, a trigger (6 minutes). */
export const EXECUTION_LIMIT_MS = 6 * 60 * 1000;
/** A custom function's execution (30 s). */
export const CUSTOM_FUNCTION_LIMIT_MS = 30000;
/** Consumer trigger runtime a day; Workspace (6 h) cannot be told apart, so the smaller one. */
export const TRIGGER_DAY_BUDGET_MS = 90 * 60_000;

// ---- Custom functions (of the 30 s) -------------------------------------------------------------

/**
 * Google starts the execution and loads the whole script before the formula's first line can read
 * the clock: that time is unseen, so it is allowed for (the bundle parses in well under a second;
 * the rest is Google's start-up).
 */
export const FORMULA_STARTUP_MS = 3000;
/** After the last answer: cache writes and returning the cells. */
export const FORMULA_FINISH_MS = 2000;
/** What is left of the 30 s from the formula's first line. */
export const FORMULA_BUDGET_MS = CUSTOM_FUNCTION_LIMIT_MS - FORMULA_STARTUP_MS - FORMULA_FINISH_MS;
/**
 * A wave of requests (one fetchAll, at most 25 calls) or a retry starts only with this much of the
 * budget left. fetchAll has no time-out of its own (Google's is about 60 s, twice the formula's
 * life), so the work is bounded instead: no wave starts later than 20 s into the execution, and a
 * wave gets 8 s, several times a slow answer of the service.
 */
export const FORMULA_WAVE_RESERVE_MS = 8000;

// ---- Work of one 6-minute execution -------------------------------------------------------------

/** The import: no new chunk starts after this, 2 minutes before the limit (finishing a tab takes some). */
export const IMPORT_BUDGET_MS = 4 * 60 * 1000;
/** An import or compare: its API attempts (retries included) end this long before the limit, leaving time to write what they fetched. */
export const STAGED_TAB_CALL_RESERVE_MS = 45_000;
/** A startScan's upload, retries and waits included. */
export const UPLOAD_BUDGET_MS = 4.5 * 60_000;
/** "Convert selected column": kept back at the end for writing the last chunk and the checkpoint. */
export const END_RESERVE_MS = 30000;
/** "Convert selected column": time a retry of a 429/5xx may need (Retry-After of up to a minute); less left = failures may be the clock's. */
export const RETRY_ROOM_MS = 60_000;
/** Below this much left of the day's trigger budget an hourly run does not start: one import wave always runs, and must fit. */
export const TRIGGER_RESERVE_MS = 60_000;

// ---- Sidebar calls (the seller is waiting) -------------------------------------------------------

/** One progress or cancel call, retries included. */
export const POLL_BUDGET_MS = 60_000;
/** One history call, retries included. */
export const HISTORY_CALL_BUDGET_MS = 120_000;
/** One webhook call, retries included. */
export const WEBHOOK_CALL_BUDGET_MS = 30_000;
/** Settings' "Test connection" (one cheap call, two attempts at most). */
export const PROBE_BUDGET_MS = 20_000;
/**
 * One importScan call (issue 36): an import longer than this is split at its waves into calls of
 * about equal length, so the seller sees its progress at least this often (the trigger's imports keep
 * IMPORT_BUDGET_MS: nobody waits on them).
 */
export const IMPORT_CALL_BUDGET_MS = 30_000;
/** Finishing scheduled scans when the sidebar opens (the trigger cannot, without its document). */
export const SIDEBAR_FINISH_MS = 60_000;
