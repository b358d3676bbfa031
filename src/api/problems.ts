/**
 * What can go wrong with a call to the Scan Service, as typed problems with plain-language messages.
 * Statuses follow the vendor's client (service-silent-parts.md, Errors): 401, 403, 404, 422, 429, 5xx.
 * UrlFetchApp throws (instead of answering) when the address cannot be reached or a request times out.
 *
 * No message built here may contain the API key: every text that came from outside (service bodies,
 * exception messages) goes through redact() with the key before it is kept.
 */
import type { ValidationRow } from './types';
import { readErrorBody, headerValue } from './read';

export type ProblemKind =
  | 'auth' // 401: key refused
  | 'forbidden' // 403: no access (e.g. to a marketplace)
  | 'not-found' // 404
  | 'validation' // 422
  | 'rate-limited' // 429
  | 'server' // 5xx
  | 'unreachable' // UrlFetch exception: DNS, address unavailable, refused
  | 'timeout' // UrlFetch exception: time-out
  | 'redirect' // 3xx: we do not follow redirects with the key
  | 'bad-response' // 2xx we cannot read, or another status
  | 'no-key' // no usable key (never sent)
  | 'out-of-time'; // the caller's time budget ran out before (another) attempt could be made

export interface Problem {
  kind: ProblemKind;
  /** HTTP status, when there was an answer. */
  status?: number;
  /** Plain-language message for the user (never contains the key). */
  message: string;
  /** The service's own message, redacted, when it gave one. */
  serviceMessage?: string;
  /** 422 rows, redacted. */
  rows?: ValidationRow[];
  /** 429: how long the service asked us to wait, when it said. */
  retryAfterMs?: number;
  /** 401 and no key: the UI should open Settings. */
  openSettings?: boolean;
  /** 'unreachable' because Google's urlFetchWhitelist refused the address: nothing was sent, never retried. */
  blocked?: boolean;
  /** 'unreachable' because the address's host name was not found (DNS): the address is wrong, not the service down. */
  noSuchHost?: boolean;
}

/** A paced run's answer to the calls it had no time left for (client.ts): the caller checkpoints. */
export const PACED_OUT_OF_TIME: Problem = {
  kind: 'out-of-time',
  message: 'The time for this run is used up; the sync continues on the next run.',
};

/** Problems worth another attempt after a wait (an address Google's allow-list blocks never is). */
export function isRetryable(p: Problem): boolean {
  return p.kind === 'rate-limited' || p.kind === 'server' || p.kind === 'timeout' || (p.kind === 'unreachable' && !p.blocked);
}

/** Replaces every occurrence of the key (and of "Bearer <key>") with a mask. */
export function redact(text: string, apiKey: string | undefined): string {
  let out = String(text);
  if (apiKey && apiKey.length > 0) out = out.split(apiKey).join('•••');
  // A bearer token of any value must not be echoed either (e.g. a service quoting our header back).
  return out.replace(/Bearer\s+[^\s"',;]+/gi, 'Bearer •••');
}

const MAX_SERVICE_TEXT = 300;

function shorten(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > MAX_SERVICE_TEXT ? t.slice(0, MAX_SERVICE_TEXT - 1) + '…' : t;
}

/** Parses Retry-After: delta seconds or an HTTP date (RFC 9110). Undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  if (!isNaN(at)) return Math.max(0, at - nowMs);
  return undefined;
}

/**
 * A wait the service asked for, in the words a seller reads: "25 seconds", "4 minutes",
 * "10 hours", "3 days"; beyond 30 days "more than 30 days". Rounded up in its unit below an hour
 * (never shorter than asked), to a tenth above.
 */
export function waitText(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (s < 120) return unit(s, 'second');
  if (s < 3600) return unit(Math.ceil(s / 60), 'minute');
  if (s < 48 * 3600) return unit(Math.round(s / 360) / 10, 'hour');
  if (s <= 30 * 86400) return unit(Math.round(s / 8640) / 10, 'day');
  return 'more than 30 days';
}

/** The clock time (UTC, "14:05 UTC") at which a wait of `ms` from `nowMs` is over. */
function untilText(nowMs: number, ms: number): string {
  const d = new Date(nowMs + ms);
  const two = (n: number) => (n < 10 ? '0' : '') + n;
  return `${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`;
}

/** What a 429 tells the user: the wait the service asked for (its Retry-After), or that it named none. */
export function busyMessage(retryAfterMs: number | undefined, nowMs: number): string {
  if (retryAfterMs === undefined || !isFinite(retryAfterMs))
    return 'The Scan Service is busy (too many requests) and did not say for how long. Try again in a few minutes.';
  const wait = waitText(retryAfterMs);
  // A wait of an hour or more (within a day or two) also gets the time it ends.
  const until = retryAfterMs >= 3600_000 && retryAfterMs < 48 * 3600_000 ? ` (until about ${untilText(nowMs, retryAfterMs)})` : '';
  return `The Scan Service is busy (too many requests) and asked to wait ${wait}${until} before the next request. Try again after that.`;
}

export interface ClassifyContext {
  apiKey?: string;
  nowMs: number;
  /** What was asked, for 403/404 messages, e.g. "marketplace US" or "scan 12". */
  subject?: string;
}

/**
 * Classifies an HTTP answer. Returns undefined for 2xx (the caller reads the body);
 * otherwise the problem with its message.
 */
export function classifyResponse(status: number, headers: object, bodyText: string, ctx: ClassifyContext): Problem | undefined {
  if (status >= 200 && status < 300) return undefined;
  const body = readErrorBody(bodyText);
  const serviceMessage = body.message ? shorten(redact(body.message, ctx.apiKey)) : undefined;
  const said = serviceMessage ? ` The service said: "${serviceMessage}"` : '';
  const subject = ctx.subject ? ` (${ctx.subject})` : '';
  if (status === 401) {
    return {
      kind: 'auth',
      status,
      serviceMessage,
      openSettings: true,
      message: 'The API key was refused by the Scan Service. Open Extensions > Settings and paste the key from Integrations > API Access.',
    };
  }
  if (status === 403) {
    return {
      kind: 'forbidden',
      status,
      serviceMessage,
      message: `Your account has no access to this${subject}. Check the marketplaces and permissions of your Scan Service account.${said}`,
    };
  }
  if (status === 404) {
    return { kind: 'not-found', status, serviceMessage, message: `The Scan Service does not know this${subject}.${said}` };
  }
  if (status === 422) {
    const rows = (body.errors ?? []).map((r) => ({
      index: r.index,
      field: redact(r.field, ctx.apiKey),
      message: shorten(redact(r.message, ctx.apiKey)),
    }));
    // `index` is a row of the request's list (bulk areas); an upload's attribute problems have no
    // such row (the service answers index 0), so they are named by field alone.
    const rowOf = (r: { index: number; field: string }) => (r.index >= 0 && !/^attributes\./.test(r.field) ? `row ${r.index + 1}` : '');
    const first = rows.slice(0, 3).map((r) => [rowOf(r), r.field].filter(Boolean).join(' ') + `: ${r.message}`);
    const more = rows.length > 3 ? ` (and ${rows.length - 3} more)` : '';
    return {
      kind: 'validation',
      status,
      serviceMessage,
      rows,
      message:
        `The Scan Service refused the request: ${serviceMessage ?? 'invalid data'}` + (first.length ? ` — ${first.join('; ')}${more}` : ''),
    };
  }
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(headerValue(headers, 'retry-after'), ctx.nowMs);
    return { kind: 'rate-limited', status, serviceMessage, retryAfterMs, message: busyMessage(retryAfterMs, ctx.nowMs) };
  }
  if (status >= 500) {
    return { kind: 'server', status, serviceMessage, message: `The Scan Service had a problem (error ${status}). Try again later.` };
  }
  if (status >= 300 && status < 400) {
    const where = headerValue(headers, 'location');
    const host = where ? redact(hostOf(where), ctx.apiKey) : undefined;
    return {
      kind: 'redirect',
      status,
      message: `The service address redirects${host ? ` to ${host}` : ''}. Enter the final address (usually https://) in Extensions > Settings.`,
    };
  }
  return { kind: 'bad-response', status, serviceMessage, message: `The Scan Service answered with an unexpected status ${status}.${said}` };
}

function hostOf(url: string): string {
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)/i.exec(url);
  return m ? m[1] : url.slice(0, 80);
}

/**
 * Classifies what UrlFetchApp threw (e.g. "Exception: Address unavailable: https://…", "Timeout: https://…",
 * "DNS error: https://…"). Only a short, redacted detail is kept.
 */
export function classifyException(error: unknown, apiKey?: string): Problem {
  const raw = error instanceof Error ? error.message : String(error);
  const detail = shorten(redact(raw, apiKey));
  // Google's urlFetchWhitelist (the manifest's allow-list) refused the address before anything was sent.
  const blocked = /^(?:Exception: )?Request to (\S+?) failed because the URL has not been whitelisted/i.exec(raw);
  if (blocked) {
    const address = shorten(redact(originOf(blocked[1]), apiKey));
    return {
      kind: 'unreachable',
      blocked: true,
      message: `The add-on is not allowed to call ${address}: Google lets it reach only the Scan Service addresses it was published with. Open Settings and set the service address to your Scan Service's address.`,
      serviceMessage: `not allowed by the add-on: ${address} is not one of the addresses it may reach`,
    };
  }
  if (/time(d)?\s*-?\s*out/i.test(raw)) {
    return { kind: 'timeout', message: 'The Scan Service did not answer in time. Try again later.', serviceMessage: detail };
  }
  // Only a host name that does not exist is the address's fault; nothing answering there is an
  // outage (or a connection problem), which the address in Settings cannot fix.
  if (/^(?:Exception: )?DNS error/i.test(raw)) {
    return {
      kind: 'unreachable',
      noSuchHost: true,
      message: `The Scan Service could not be reached: its address was not found (${detail}). Check the service address in Extensions > Settings.`,
      serviceMessage: detail,
    };
  }
  return {
    kind: 'unreachable',
    message: `The Scan Service could not be reached: nothing answered (${detail}). The service may be down for a moment; try again in a few minutes.`,
    serviceMessage: detail,
  };
}

/** scheme://host[:port] of a URL (no URL class in Apps Script). */
function originOf(url: string): string {
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)/i.exec(url);
  return m ? m[1] : url;
}

/** An answer of 2xx whose body could not be read. */
export function unreadable(status: number, what: string): Problem {
  return { kind: 'bad-response', status, message: `The Scan Service sent an answer the add-on cannot read (${what}).` };
}
