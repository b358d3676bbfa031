/**
 * The Scan Service client: builds UrlFetchApp requests, sends them in parallel waves with
 * fetchAll, classifies every answer (muteHttpExceptions is always on) and retries 429/5xx/time-outs
 * within the caller's time budget. Apps Script services are injected (ClientDeps), so this runs
 * the same under jest, in the local runtime and on Google.
 */
import type { Clock, FetchRequest, HttpMethod, Sleep, UrlFetchLike } from './services';
import { ApiProblemError, classifyException, classifyResponse, redact, unreadable, type Problem } from './problems';
import { DEFAULT_RETRY_POLICY, decideRetry, type RetryPolicy } from './retry';
import { parseJson } from './read';

export interface ServiceSettings {
  /** e.g. https://app.example.com (no trailing slash needed). */
  baseUrl: string;
  apiKey: string;
}

export interface ClientDeps {
  fetcher: UrlFetchLike;
  sleep: Sleep;
  now: Clock;
  /** Uniform [0, 1) for jitter; Math.random when absent. */
  random?: () => number;
  /** One line per attempt (method, path, status, wait); never the key or bodies. */
  log?: (line: string) => void;
}

/** What an area's calls take: the service, the Apps Script services, and the clock time by which every attempt must be over. */
export interface ApiContext {
  settings: ServiceSettings;
  deps: ClientDeps;
  deadline: number;
}

export interface ApiCall {
  method: HttpMethod;
  /** Path below the base address, e.g. /api/v3/convert. */
  path: string;
  query?: { [name: string]: string | number | undefined };
  /** Sent as a JSON string with contentType application/json. */
  body?: unknown;
  /** What the call is about, for 403/404 messages ("marketplace US"). */
  subject?: string;
}

export type CallResult = { ok: true; status: number; body: unknown; attempts: number } | { ok: false; problem: Problem; attempts: number };

export interface SendOptions {
  /** Clock time by which every attempt (and wait) must be over. */
  deadline: number;
  /** Requests per fetchAll; the rest go in later waves. */
  maxParallel?: number;
  policy?: RetryPolicy;
}

/** Requests per fetchAll unless told otherwise: parallel enough to keep 100 convert calls to 4 waves, few enough not to set off the service's rate limit at once. */
export const DEFAULT_MAX_PARALLEL = 25;

/** Utilities.sleep's largest argument. */
export const MAX_SLEEP_MS = 300_000;

/** The full URL of a call. */
export function callUrl(baseUrl: string, call: ApiCall): string {
  const base = String(baseUrl).trim().replace(/\/+$/, '');
  const q = Object.entries(call.query ?? {})
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => encodeURIComponent(k) + '=' + encodeURIComponent(String(v)))
    .join('&');
  return base + call.path + (q ? '?' + q : '');
}

/** The UrlFetchApp request for a call. */
export function buildRequest(settings: ServiceSettings, call: ApiCall): FetchRequest {
  const req: FetchRequest = {
    url: callUrl(settings.baseUrl, call),
    method: call.method,
    headers: { Authorization: 'Bearer ' + settings.apiKey, Accept: 'application/json' },
    muteHttpExceptions: true,
    followRedirects: false,
  };
  if (call.body !== undefined) {
    req.contentType = 'application/json';
    req.payload = JSON.stringify(call.body);
  }
  return req;
}

interface Slot {
  index: number;
  attempts: number;
  notBefore: number;
  last?: Problem;
}

function outOfTime(last: Problem | undefined): Problem {
  if (last) return last;
  return {
    kind: 'out-of-time',
    message: 'There was not enough time left to ask the Scan Service. Recalculate, or use Convert selected column for large ranges.',
  };
}

/**
 * Sends all calls, at most maxParallel per fetchAll, retrying what is retryable while the deadline
 * allows. A 429 holds back every pending call until its Retry-After has passed. Results are in the
 * order of `calls`. Never throws for what the service or the network does.
 */
export function sendAll(settings: ServiceSettings, deps: ClientDeps, calls: readonly ApiCall[], opts: SendOptions): CallResult[] {
  const policy = opts.policy ?? DEFAULT_RETRY_POLICY;
  const maxParallel = Math.max(1, opts.maxParallel ?? DEFAULT_MAX_PARALLEL);
  const random = deps.random ?? Math.random;
  const log = deps.log ?? (() => undefined);
  const results: CallResult[] = new Array(calls.length);
  let pending: Slot[] = calls.map((_c, index) => ({ index, attempts: 0, notBefore: 0 }));
  let holdUntil = 0; // set by a 429's Retry-After: nothing is sent before it

  while (pending.length > 0) {
    const now = deps.now();
    // Whatever cannot be attempted in time any more is given up now, with its last problem.
    const stillPossible: Slot[] = [];
    for (const s of pending) {
      const start = Math.max(now, s.notBefore, holdUntil);
      if (start + policy.attemptReserveMs > opts.deadline)
        results[s.index] = { ok: false, problem: outOfTime(s.last), attempts: s.attempts };
      else stillPossible.push(s);
    }
    pending = stillPossible;
    if (pending.length === 0) break;

    const readyAt = Math.max(holdUntil, Math.min(...pending.map((s) => s.notBefore)));
    if (readyAt > now) {
      log(`wait ${readyAt - now} ms before retrying`);
      // Utilities.sleep takes at most 5 minutes a call (a Retry-After may ask for more).
      deps.sleep(Math.min(readyAt - now, MAX_SLEEP_MS));
      continue;
    }
    const ready = pending.filter((s) => s.notBefore <= now).slice(0, maxParallel);
    const wave = new Set(ready);
    pending = pending.filter((s) => !wave.has(s));

    const requests = ready.map((s) => buildRequest(settings, calls[s.index]));
    let answers: Array<{ status: number; headers: object; text: string }> | undefined;
    let thrown: Problem | undefined;
    try {
      answers = deps.fetcher
        .fetchAll(requests)
        .map((r) => ({ status: r.getResponseCode(), headers: r.getHeaders(), text: r.getContentText() }));
    } catch (e) {
      // Google ends the execution at its time limit; catching that must not turn it into a retry.
      // Nor Google's daily quotas ("... for one day"): nothing gets through until Google's day ends.
      if (/Exceeded maximum execution time|for one day/.test(e instanceof Error ? e.message : String(e))) throw e;
      // fetchAll throws for the whole wave when any request could not be made (unreachable, time-out).
      thrown = classifyException(e, settings.apiKey);
    }
    const after = deps.now();
    ready.forEach((slot, i) => {
      slot.attempts++;
      const call = calls[slot.index];
      let problem: Problem | undefined = thrown;
      let body: unknown;
      if (answers) {
        const a = answers[i];
        problem = classifyResponse(a.status, a.headers, a.text, { apiKey: settings.apiKey, nowMs: after, subject: call.subject });
        if (!problem) {
          body = parseJson(a.text);
          if (body === undefined && a.text.trim() !== '') problem = unreadable(a.status, 'not JSON');
        }
        log(`${call.method.toUpperCase()} ${call.path} -> ${a.status} (attempt ${slot.attempts})`);
      } else {
        log(`${call.method.toUpperCase()} ${call.path} -> ${redact(problem!.kind, settings.apiKey)} (attempt ${slot.attempts})`);
      }
      if (!problem) {
        results[slot.index] = { ok: true, status: answers![i].status, body, attempts: slot.attempts };
        return;
      }
      const decision = decideRetry({ attempt: slot.attempts, problem, timeLeftMs: opts.deadline - after, random: random(), policy });
      if (!decision.retry) {
        results[slot.index] = { ok: false, problem, attempts: slot.attempts };
        return;
      }
      slot.last = problem;
      slot.notBefore = after + decision.waitMs;
      if (problem.kind === 'rate-limited' && problem.retryAfterMs !== undefined)
        holdUntil = Math.max(holdUntil, after + problem.retryAfterMs);
      pending.push(slot);
    });
  }
  return results;
}

/** One call, same rules as sendAll. */
export function send(settings: ServiceSettings, deps: ClientDeps, call: ApiCall, opts: SendOptions): CallResult {
  return sendAll(settings, deps, [call], opts)[0];
}

/**
 * One call for code that prefers exceptions (menu actions, sidebar server functions): the body of a
 * 2xx answer, or an ApiProblemError whose message is the plain-language one (never the key).
 */
export function requestJson(settings: ServiceSettings, deps: ClientDeps, call: ApiCall, opts: SendOptions): unknown {
  const r = send(settings, deps, call, opts);
  if (!r.ok) throw new ApiProblemError(r.problem);
  return r.body;
}
