/**
 * The Scan Service client: builds UrlFetchApp requests, sends them in parallel waves with
 * fetchAll, classifies every answer (muteHttpExceptions is always on) and retries 429/5xx/time-outs
 * within the caller's time budget: the one retry loop, paced for the bulk areas (`paced`). Every
 * area's operations take an ApiContext. Apps Script services are injected (ClientDeps), so this runs
 * the same under jest, in the local runtime and on Google.
 */
import type { Clock, FetchRequest, HttpMethod, HttpResponseLike, Sleep, UrlFetchLike } from './services';
import type { BulkPacer } from './bulk-pacer';
import { classifyException, classifyResponse, PACED_OUT_OF_TIME, redact, unreadable, type Problem } from './problems';
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

/** What every operation of every area takes first: the service, the Apps Script services, and the clock time by which every attempt must be over. */
export interface ApiContext {
  settings: ServiceSettings;
  deps: ClientDeps;
  deadline: number;
  /** The bulk areas' pacer (bulk-pacer.ts); only calls sent with `paced` use it. */
  pacer?: BulkPacer;
  /** Paced requests sent and answered with 429 (figures; the target is 0). */
  stats?: { requests: number; rateLimited: number };
}

/** A multipart/form-data body: UrlFetchApp builds it from a payload object holding a Blob (the upload's `file` and `attributes`). */
export type FormBody = { [field: string]: unknown };

interface CallBase {
  method: HttpMethod;
  /** Path below the base address, e.g. /api/v3/convert. */
  path: string;
  query?: { [name: string]: string | number | undefined };
  /** What the call is about, for 403/404 messages ("marketplace US"). */
  subject?: string;
  /** A 2xx answer is a file, handed over as it came (`response`) instead of read as JSON. */
  file?: boolean;
}

/** A call and its body, of one of two kinds: `body`, sent as a JSON string (application/json), or `form`, sent as multipart/form-data. */
export type ApiCall = CallBase & ({ body?: unknown; form?: undefined } | { form: FormBody; body?: undefined });

export type CallResult =
  | { ok: true; status: number; body: unknown; attempts: number; response?: HttpResponseLike }
  | { ok: false; problem: Problem; attempts: number };

export interface SendOptions {
  /** Requests per fetchAll; the rest go in later waves (unpaced). */
  maxParallel?: number;
  policy?: RetryPolicy;
  /**
   * The bulk areas' pacing, by ctx.pacer: each wave as large as the pacer allows, a 429 with
   * Retry-After waited out however often it comes while time allows (and it holds the pacer), and the
   * first call that fails for good ends the run: nothing more is sent, and every call not yet settled
   * is answered with that call's problem (out-of-time when the time ran out; `pacedBodies` reads it).
   */
  paced?: boolean;
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
  // UrlFetchApp sends a payload object holding a Blob as multipart/form-data (and sets its boundary).
  if (call.form) (req as { payload?: unknown }).payload = call.form;
  else if (call.body !== undefined) {
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

/** One sendAll run: its settings and its progress, so each step reads as a named function. */
interface SendRun {
  ctx: ApiContext;
  calls: readonly ApiCall[];
  policy: NonNullable<SendOptions['policy']>;
  pacer: ApiContext['pacer'];
  maxParallel: number;
  random: () => number;
  log: (line: string) => void;
  results: CallResult[];
  pending: Slot[];
  holdUntil: number; // set by a 429's Retry-After: nothing is sent before it (paced: the pacer holds)
}

function startRun(ctx: ApiContext, calls: readonly ApiCall[], opts: SendOptions): SendRun {
  const pacer = opts.paced ? ctx.pacer : undefined;
  if (opts.paced && !pacer) throw new Error('A paced call needs the pacer.');
  return {
    ctx,
    calls,
    policy: opts.policy ?? DEFAULT_RETRY_POLICY,
    pacer,
    maxParallel: Math.max(1, opts.maxParallel ?? DEFAULT_MAX_PARALLEL),
    random: ctx.deps.random ?? Math.random,
    log: ctx.deps.log ?? (() => undefined),
    results: new Array(calls.length),
    pending: calls.map((_c, index) => ({ index, attempts: 0, notBefore: 0 })),
    holdUntil: 0,
  };
}

/** Whatever cannot be attempted in time any more is given up now, with its last problem (unpaced only). */
function giveUpLate(run: SendRun, now: number): void {
  const stillPossible: Slot[] = [];
  for (const s of run.pending) {
    const start = Math.max(now, s.notBefore, run.holdUntil);
    if (start + run.policy.attemptReserveMs > run.ctx.deadline) {
      run.results[s.index] = { ok: false, problem: outOfTime(s.last), attempts: s.attempts };
    } else stillPossible.push(s);
  }
  run.pending = stillPossible;
}

/** Paced: ends the run; every call not yet settled (`unsettled`, and all pending) is answered with `problem` (nothing more is sent). */
function stopRun(run: SendRun, problem: Problem, unsettled: readonly Slot[] = []): false {
  for (const s of unsettled.concat(run.pending)) run.results[s.index] = { ok: false, problem, attempts: s.attempts };
  run.pending = [];
  return false;
}

/** Sleeps when no call is ready yet (paced: ends the run when none could start in time); answers whether the loop should look again. */
function waitForReady(run: SendRun, now: number): boolean {
  const { deps, deadline } = run.ctx;
  const earliest = Math.min(...run.pending.map((s) => s.notBefore));
  const readyAt = run.pacer ? earliest : Math.max(run.holdUntil, earliest);
  if (readyAt <= now) return false;
  if (run.pacer) {
    if (readyAt + run.policy.attemptReserveMs > deadline) {
      stopRun(run, PACED_OUT_OF_TIME);
      return true; // the loop looks again and finds nothing left
    }
  } else run.log(`wait ${readyAt - now} ms before retrying`);
  // Utilities.sleep takes at most 5 minutes a call (a Retry-After may ask for more).
  deps.sleep(Math.min(readyAt - now, MAX_SLEEP_MS));
  return true;
}

/** Takes the next wave out of pending: as many ready calls as the pacer allows (none when the time ran out: the run ends), else maxParallel. */
function takeWave(run: SendRun, now: number): Slot[] {
  const { deps, deadline } = run.ctx;
  let ready = run.pending.filter((s) => s.notBefore <= now);
  if (run.pacer) {
    // The pacer may sleep until the wave fits the window; an attempt must still fit before the deadline.
    const n = run.pacer.reserve(ready.length, deadline - run.policy.attemptReserveMs);
    if (n === 0 || deps.now() + run.policy.attemptReserveMs > deadline) {
      stopRun(run, PACED_OUT_OF_TIME);
      return [];
    }
    ready = ready.slice(0, n);
  } else ready = ready.slice(0, run.maxParallel);
  const wave = new Set(ready);
  run.pending = run.pending.filter((s) => !wave.has(s));
  return ready;
}

interface WaveAnswers {
  answers?: HttpResponseLike[];
  thrown?: Problem;
  after: number;
}

function fetchWave(run: SendRun, ready: readonly Slot[]): WaveAnswers {
  const { settings, deps } = run.ctx;
  const requests = ready.map((s) => buildRequest(settings, run.calls[s.index]));
  let answers: HttpResponseLike[] | undefined;
  let thrown: Problem | undefined;
  try {
    answers = deps.fetcher.fetchAll(requests);
  } catch (e) {
    // Google ends the execution at its time limit; catching that must not turn it into a retry.
    // Nor Google's daily quotas ("... for one day"): nothing gets through until Google's day ends.
    if (/Exceeded maximum execution time|for one day/.test(e instanceof Error ? e.message : String(e))) throw e;
    // fetchAll throws for the whole wave when any request could not be made (unreachable, time-out).
    thrown = classifyException(e, settings.apiKey);
  }
  const after = deps.now();
  // What the service counted (a 429 is not counted), recorded before anything can throw.
  if (run.pacer) run.pacer.record(answers ? answers.filter((a) => a.getResponseCode() !== 429).length : ready.length, after);
  return { answers, thrown, after };
}

/** Reads one answer: its result when it succeeded, else its problem. */
function readAnswer(run: SendRun, slot: Slot, a: HttpResponseLike | undefined, w: WaveAnswers): CallResult | Problem {
  const { apiKey } = run.ctx.settings;
  const call = run.calls[slot.index];
  if (!a) {
    run.log(`${call.method.toUpperCase()} ${call.path} -> ${redact(w.thrown!.kind, apiKey)} (attempt ${slot.attempts})`);
    return w.thrown!;
  }
  const status = a.getResponseCode();
  // A file's 2xx answer is not read as text (nor JSON): it is handed over as it came.
  const file = call.file && status >= 200 && status < 300;
  const text = file ? '' : a.getContentText();
  let problem = classifyResponse(status, a.getHeaders(), text, { apiKey, nowMs: w.after, subject: call.subject });
  let body: unknown;
  if (!problem) {
    body = parseJson(text);
    if (body === undefined && text.trim() !== '') problem = unreadable(status, 'not JSON');
  }
  run.log(`${call.method.toUpperCase()} ${call.path} -> ${status} (attempt ${slot.attempts})`);
  if (problem) return problem;
  return file ? { ok: true, status, body, attempts: slot.attempts, response: a } : { ok: true, status, body, attempts: slot.attempts };
}

/**
 * Settles call `i` of a wave: its result, or a retry put back in pending. Answers whether the run
 * goes on: a paced run ends at its first failure for good (the rest of its wave is not read).
 */
function settle(run: SendRun, wave: readonly Slot[], i: number, w: WaveAnswers, told: Slot[]): boolean {
  const { ctx, pacer } = run;
  const slot = wave[i];
  slot.attempts++;
  if (pacer && ctx.stats) ctx.stats.requests++;
  const read = readAnswer(run, slot, w.answers?.[i], w);
  if ('ok' in read) {
    run.results[slot.index] = read;
    return true;
  }
  const p = read;
  const rateLimited = p.kind === 'rate-limited';
  if (pacer && rateLimited && ctx.stats) ctx.stats.rateLimited++;
  // Paced: a 429 that says when to come back is waited out while time allows, however often it comes (a storm passes).
  const waitTold = !!pacer && rateLimited && p.retryAfterMs !== undefined;
  const decision = decideRetry({
    attempt: waitTold ? 1 : slot.attempts,
    problem: p,
    timeLeftMs: ctx.deadline - w.after,
    random: run.random(),
    policy: run.policy,
  });
  if (!decision.retry) {
    if (pacer) return stopRun(run, decision.reason === 'time' || p.kind === 'out-of-time' ? PACED_OUT_OF_TIME : p, wave.slice(i));
    run.results[slot.index] = { ok: false, problem: p, attempts: slot.attempts };
    return true;
  }
  slot.last = p;
  slot.notBefore = w.after + decision.waitMs;
  if (waitTold) told.push(slot);
  if (rateLimited && p.retryAfterMs !== undefined) run.holdUntil = Math.max(run.holdUntil, w.after + p.retryAfterMs);
  run.pending.push(slot);
  return true;
}

/** Paced: calls refused in one wave come back together, once the latest wait is over; the pacer holds. */
function regroupTold(run: SendRun, told: readonly Slot[]): void {
  if (!run.pacer) return;
  const together = Math.max(0, ...told.map((t) => t.notBefore));
  for (const t of told) t.notBefore = together;
  if (run.holdUntil) run.pacer.holdUntil(run.holdUntil);
  run.holdUntil = 0;
}

/**
 * Sends all calls, at most maxParallel per fetchAll (paced: as many as the pacer allows), retrying
 * what is retryable while the deadline allows. A 429 holds back every pending call until its
 * Retry-After has passed. Results are in the order of `calls`, one for every call. Never throws for
 * what the service, the network or the time budget does (paced runs included): only Apps Script's
 * own end of the execution and its daily quotas go through.
 */
export function sendAll(ctx: ApiContext, calls: readonly ApiCall[], opts: SendOptions = {}): CallResult[] {
  const run = startRun(ctx, calls, opts);
  while (run.pending.length > 0) {
    const now = ctx.deps.now();
    if (!run.pacer) {
      giveUpLate(run, now);
      if (run.pending.length === 0) break;
    }
    if (waitForReady(run, now)) continue;
    const ready = takeWave(run, now);
    if (ready.length === 0) continue;
    const w = fetchWave(run, ready);
    const told: Slot[] = [];
    if (ready.every((_s, i) => settle(run, ready, i, w, told))) regroupTold(run, told);
  }
  return run.results;
}

/** One call, same rules as sendAll. */
export function send(ctx: ApiContext, call: ApiCall, opts?: SendOptions): CallResult {
  return sendAll(ctx, [call], opts)[0];
}
