/// <reference types="google-apps-script" />
/**
 * UrlFetchApp: REAL HTTP, synchronous to the script. Requests run in a worker thread
 * (urlfetch-worker.js) while this thread blocks on Atomics.wait, so a server in the same process
 * must live in another thread or process. Payload rules, options, errors and limits follow Google's
 * reference (reference/url-fetch/url-fetch-app); where Google is silent the choice is marked.
 */
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type { RuntimeState } from './execution';
import { ExecutionTimeLimitError } from './execution';
import { gasError, isPlainObject, toRealm } from './realm';
import { requireService } from './permissions';
import { LocalBlob, isBlob } from './blob';
import { decodeBytes, encodeString, fromBytes, isByteArray, toSignedBytes } from './bytes';
import { QUOTA_MESSAGES, type QuotaMeter } from './quotas';

export const URL_MAX_CHARS = 2082;
export const PAYLOAD_MAX_BYTES = 50 * 1024 * 1024;
export const RESPONSE_MAX_BYTES = 50 * 1024 * 1024;
export const HEADERS_MAX = 100;
export const DEFAULT_FETCH_TIMEOUT_MS = 60000;
/** How much of the body an HTTP error message shows. (chosen) */
export const TRUNCATED_RESPONSE_CHARS = 100;
const METHODS = ['get', 'delete', 'patch', 'post', 'put'];
const DEFAULT_CONTENT_TYPE = 'application/x-www-form-urlencoded';
/** What Google's fetcher sends (its id part varies per script; this one is made up). */
const USER_AGENT = 'Mozilla/5.0 (compatible; Google-Apps-Script; beanserver; +https://script.google.com; id: UAEmdDd-local)';

interface WireRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Uint8Array | null;
  followRedirects: boolean;
  rejectUnauthorized: boolean;
  maxResponseBytes: number;
}
interface WireResult {
  status?: number;
  rawHeaders?: string[];
  body?: Uint8Array;
  error?: { kind: string; message: string };
  elapsedMs: number;
  finalUrl: string;
}

/** Extra wait beyond the requests' own time bound, for the worker's start-up. */
export const WORKER_ANSWER_MARGIN_MS = 15000;

export interface HttpWorkerOptions {
  /** The worker's script (tests give one that answers on a chosen schedule); default urlfetch-worker.js. */
  script?: string;
  /** How much longer than the requests' time bound the caller waits for the answer. */
  answerMarginMs?: number;
}

/**
 * The thread doing the HTTP; started on first use, ended by stop(). Each run posts its requests
 * with an id and takes only the answer with that id: an answer that comes after its run gave up is
 * dropped. signal[0] counts the answers posted (the worker adds 1 after each, then notifies), so a
 * wake-up that belongs to an earlier answer (the worker paused between posting and notifying, as
 * happens on a loaded machine) only makes the caller look at the port again.
 */
export class HttpWorker {
  private worker: Worker | null = null;
  private port: MessagePort | null = null;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private seq = 0;
  private readonly script: string;
  private readonly marginMs: number;

  constructor(opts: HttpWorkerOptions = {}) {
    this.script = opts.script ?? path.join(__dirname, 'urlfetch-worker.js');
    this.marginMs = opts.answerMarginMs ?? WORKER_ANSWER_MARGIN_MS;
  }

  private start(): void {
    const { port1, port2 } = new MessageChannel();
    this.worker = new Worker(this.script, {
      workerData: { signal: this.signal, port: port2 },
      transferList: [port2],
    });
    this.worker.unref();
    this.port = port1;
    this.port.unref();
  }

  /** Sends the requests in parallel and blocks until all are answered; results in order. */
  run(requests: WireRequest[], timeoutMs: number): WireResult[] {
    if (!this.worker) this.start();
    const id = ++this.seq;
    this.port!.postMessage({ id, requests, timeoutMs });
    // The worker bounds every request by timeoutMs; the margin covers its start-up.
    const giveUpAt = Date.now() + timeoutMs + this.marginMs;
    let timedOut = false;
    for (;;) {
      // Read before looking at the port: an answer posted after the look has raised the count, so
      // the wait below returns at once or is woken; it cannot sleep through that answer.
      const posted = Atomics.load(this.signal, 0);
      const msg = receiveMessageOnPort(this.port!);
      if (msg) {
        const m = msg.message as { id: number; results?: WireResult[]; failure?: string };
        if (m.id !== id) continue; // the answer to a run that gave up waiting
        if (m.failure || !m.results) throw new Error(`UrlFetchApp worker failed: ${m.failure}`);
        return m.results;
      }
      // After a timed-out wait the port was looked at once more (an answer may have come just then).
      if (timedOut || Date.now() >= giveUpAt) throw new Error('UrlFetchApp worker did not answer');
      timedOut = Atomics.wait(this.signal, 0, posted, giveUpAt - Date.now()) === 'timed-out';
    }
  }

  /** Ends the thread; resolves once it has ended. */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.port?.close();
    this.worker = null;
    this.port = null;
    await worker?.terminate();
  }
}

export interface UrlFetchOptions {
  /** Per-request timeout (Google: about 60 s, not configurable); tests shorten it. */
  timeoutMs?: number;
  /** URL prefixes from appsscript.json's urlFetchWhitelist; when given, every URL must start with one. */
  whitelist?: string[] | null;
  /** Daily quotas (quotas.ts): each request counts one URL Fetch call; bytes received are counted too. */
  quota?: QuotaMeter | null;
}

type Params = GoogleAppsScript.URL_Fetch.URLFetchRequestOptions & { url?: string };

function headerKey(headers: Record<string, string>, name: string): string | undefined {
  return Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
}

/** Java URLEncoder style: spaces as '+'. (chosen) */
function formEncode(s: string): string {
  return encodeURIComponent(s).replace(/%20/g, '+');
}

function hostOf(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}`;
}

export class LocalHttpResponse {
  constructor(
    private readonly state: RuntimeState,
    private readonly status: number,
    private readonly rawHeaders: string[],
    private readonly body: Buffer,
  ) {}
  getResponseCode(): number {
    return this.status;
  }
  private contentType(): string | null {
    for (let i = 0; i < this.rawHeaders.length; i += 2)
      if (this.rawHeaders[i].toLowerCase() === 'content-type') return this.rawHeaders[i + 1];
    return null;
  }
  getContentText(charset?: string): string {
    const declared = /charset=([^;\s]+)/i.exec(this.contentType() ?? '')?.[1]?.replace(/"/g, '');
    try {
      return decodeBytes(this.body, charset ?? declared ?? 'UTF-8');
    } catch {
      return decodeBytes(this.body, 'UTF-8');
    }
  }
  /** Signed bytes. */
  getContent(): number[] {
    return toSignedBytes(this.state.realm, this.body);
  }
  getBlob(): LocalBlob {
    const ct = this.contentType();
    return new LocalBlob(this.state, Buffer.from(this.body), ct ? ct.split(';')[0].trim() : null, null);
  }
  /** One value per header; with repeated headers the first one. (chosen) Names as the server sent them. */
  getHeaders(): Record<string, string> {
    const out: Record<string, string> = {};
    const seen = new Set<string>();
    for (let i = 0; i < this.rawHeaders.length; i += 2) {
      const k = this.rawHeaders[i];
      if (seen.has(k.toLowerCase())) continue;
      seen.add(k.toLowerCase());
      out[k] = this.rawHeaders[i + 1];
    }
    return toRealm(this.state.realm, out);
  }
  /** Repeated headers come as arrays (Google: "headers that have multiple values returned as arrays"). */
  getAllHeaders(): Record<string, string | string[]> {
    const byLower = new Map<string, { name: string; values: string[] }>();
    for (let i = 0; i < this.rawHeaders.length; i += 2) {
      const k = this.rawHeaders[i];
      const e = byLower.get(k.toLowerCase());
      if (e) e.values.push(this.rawHeaders[i + 1]);
      else byLower.set(k.toLowerCase(), { name: k, values: [this.rawHeaders[i + 1]] });
    }
    const out: Record<string, string | string[]> = {};
    for (const { name, values } of byLower.values()) out[name] = values.length === 1 ? values[0] : values;
    return toRealm(this.state.realm, out);
  }
  getAs(contentType: string): LocalBlob {
    return this.getBlob().getAs(contentType);
  }
}

interface Prepared {
  wire: WireRequest;
  mute: boolean;
  /** What getRequest shows. */
  shown: Record<string, unknown>;
}

/** The body a request sends, its content type and what getRequest shows of it. */
function encodePayload(
  state: RuntimeState,
  params: Params,
  method: string,
): { body: Buffer | null; contentType: string | null; shownPayload: unknown } {
  const fail = (m: string) => gasError(state, m);
  let body: Buffer | null = null;
  let contentType: string | null = params.contentType ? String(params.contentType) : null;
  let shownPayload: unknown = undefined;
  const payload = (params as { payload?: unknown }).payload;
  // A GET carries no body: a payload given without method 'post' etc. is not sent. (chosen)
  if (payload !== undefined && payload !== null && method !== 'get') {
    if (typeof payload === 'string') {
      body = encodeString(payload);
      shownPayload = payload;
    } else if (isBlob(payload)) {
      body = Buffer.from(payload._data);
      contentType = contentType ?? payload.getContentType();
      shownPayload = payload.getBytes();
    } else if (isByteArray(payload)) {
      body = fromBytes(payload);
      shownPayload = toSignedBytes(state.realm, body);
    } else if (isPlainObject(payload)) {
      const fields = payload as Record<string, unknown>;
      if (Object.values(fields).some(isBlob)) {
        // multipart/form-data with a boundary of the platform's choosing; the script's contentType is ignored. (chosen)
        const boundary = `----GoogleAppsScript${randomBytes(12).toString('hex')}`;
        const parts: Buffer[] = [];
        for (const k of Object.keys(fields)) {
          const v = fields[k];
          if (isBlob(v)) {
            parts.push(
              Buffer.from(
                `--${boundary}\r\nContent-Disposition: form-data; name="${k}"; filename="${v.getName() ?? k}"\r\nContent-Type: ${v.getContentType() ?? 'application/octet-stream'}\r\n\r\n`,
              ),
            );
            parts.push(v._data, Buffer.from('\r\n'));
          } else {
            parts.push(
              Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n`),
              encodeString(String(v)),
              Buffer.from('\r\n'),
            );
          }
        }
        parts.push(Buffer.from(`--${boundary}--\r\n`));
        body = Buffer.concat(parts);
        contentType = `multipart/form-data; boundary=${boundary}`;
        shownPayload = toSignedBytes(state.realm, body);
      } else {
        const s = Object.keys(fields)
          .map((k) => `${formEncode(k)}=${formEncode(String(fields[k]))}`)
          .join('&');
        body = encodeString(s);
        shownPayload = s;
      }
    } else {
      throw fail('Invalid argument: payload');
    }
    if (body.length > PAYLOAD_MAX_BYTES) throw fail('Limit Exceeded: URLFetch POST Size.');
    contentType = contentType ?? DEFAULT_CONTENT_TYPE;
  }
  return { body, contentType, shownPayload };
}

/** Apps Script's message for a request that got no answer. */
function fetchFailure(kind: string, url: string): string {
  switch (kind) {
    case 'timeout':
      return `Timeout: ${url}`;
    case 'dns':
      return `DNS error: ${url}`;
    case 'unavailable':
      return `Address unavailable: ${url}`;
    case 'too-large':
      return 'Limit Exceeded: URLFetch response size.';
    case 'ssl':
      return `SSL Error ${url}`;
    default:
      return `Unexpected error: ${url}`;
  }
}

function requestBytes(w: WireRequest): number {
  let n = w.url.length + (w.body?.length ?? 0);
  for (const [k, v] of Object.entries(w.headers)) n += k.length + v.length + 4;
  return n;
}

/** A request checked as Apps Script checks it: what goes on the wire, and what getRequest shows. */
function prepareRequest(state: RuntimeState, whitelist: string[] | null, url: unknown, params: Params = {}): Prepared {
  const fail = (m: string) => gasError(state, m);
  if (typeof url !== 'string' || url === '') throw fail('Invalid argument: url');
  if (url.length > URL_MAX_CHARS) throw fail('Limit Exceeded: URLFetch URL Length.');
  // Apps Script refuses unescaped characters (spaces, quotes, non-ASCII): scripts must encode them.
  let parsed: URL;
  try {
    if (/[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/.test(url)) throw new Error('bad char');
    parsed = new URL(url);
  } catch {
    throw fail(`Invalid argument: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw fail(`Invalid argument: ${url}`);
  // Google's message, as public reports quote it (github.com/diegomanuel/binance-to-google-sheets/issues/82,
  // grahamearley/FirestoreGoogleAppsScript/issues/135).
  if (whitelist && !whitelist.some((p) => url.startsWith(p)))
    throw fail(`Request to ${url} failed because the URL has not been whitelisted in the script manifest.`);
  if (params !== null && params !== undefined && typeof params !== 'object') throw fail('Invalid argument: params');
  const method = String(params.method ?? 'get').toLowerCase();
  if (!METHODS.includes(method)) throw fail(`Invalid argument: method`);
  const headers: Record<string, string> = { 'User-Agent': USER_AGENT };
  const given = (params.headers ?? {}) as Record<string, unknown>;
  for (const k of Object.keys(given)) {
    const existing = headerKey(headers, k);
    if (existing) delete headers[existing];
    headers[k] = String(given[k]);
  }
  if (Object.keys(headers).length > HEADERS_MAX) throw fail('Limit Exceeded: URLFetch header count.'); // (message chosen)

  const { body, contentType, shownPayload } = encodePayload(state, params, method);
  if (contentType) {
    const existing = headerKey(headers, 'content-type');
    if (existing) delete headers[existing];
    headers['Content-Type'] = contentType;
  }
  const followRedirects = params.followRedirects === undefined ? true : Boolean(params.followRedirects);
  const validate = params.validateHttpsCertificates === undefined ? true : Boolean(params.validateHttpsCertificates);
  // getRequest shows the script's own headers only, {} when it gave none: not the platform's
  // User-Agent nor the content type (gas-fakes test/testfetch.js "urlfetchapp getRequest").
  const shownHeaders: Record<string, string> = {};
  for (const k of Object.keys(given)) shownHeaders[k] = String(given[k]);
  return {
    wire: {
      url,
      method: method.toUpperCase(),
      headers,
      body,
      followRedirects,
      rejectUnauthorized: validate,
      maxResponseBytes: RESPONSE_MAX_BYTES,
    },
    mute: Boolean(params.muteHttpExceptions),
    shown: {
      url,
      method,
      headers: shownHeaders,
      contentType: contentType ?? DEFAULT_CONTENT_TYPE,
      payload: shownPayload ?? '',
      followRedirects,
      validateHttpsCertificates: validate,
      useIntranet: false,
    },
  };
}

export function createUrlFetchApp(state: RuntimeState, worker: HttpWorker, opts: UrlFetchOptions = {}) {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const whitelist = opts.whitelist ?? null;
  const fail = (m: string) => gasError(state, m);

  const prepare = (url: unknown, params: Params = {}): Prepared => prepareRequest(state, whitelist, url, params);

  /** Runs prepared requests in parallel, charges the clock, returns responses or throws like Google. */
  function send(prepared: Prepared[]): LocalHttpResponse[] {
    const e = state.exec();
    const quota = opts.quota ?? null;
    // Past the day's quota nothing is sent; a fetchAll that would pass it is refused whole (chosen).
    if (quota && quota.remaining(e.user, 'urlFetchBytesReceived') <= 0) throw fail(QUOTA_MESSAGES.urlFetchBytesReceived);
    if (quota && !quota.tryUse(e.user, 'urlFetchCalls', prepared.length)) throw fail(QUOTA_MESSAGES.urlFetchCalls);
    const remaining = e.limitMs - (state.clock.now() - e.startedAt);
    const results = worker.run(
      prepared.map((p) => p.wire),
      Math.max(1, Math.min(timeoutMs, remaining)),
    );
    const perKb = state.cost.urlFetchPerKbMs / 1024;
    let longest = 0;
    prepared.forEach((p, i) => {
      const r = results[i];
      const bytes = requestBytes(p.wire) + (r.body?.length ?? 0);
      longest = Math.max(longest, r.elapsedMs + bytes * perKb);
    });
    state.count('urlFetchCalls');
    state.count('urlFetchRequests', prepared.length);
    quota?.add(
      e.user,
      'urlFetchBytesReceived',
      results.reduce((n, r) => n + (r.body?.length ?? 0), 0),
    );
    const timedOutByLimit = remaining < timeoutMs && results.some((r) => r.error?.kind === 'timeout');
    state.charge(state.cost.urlFetchCallMs + longest + state.cost.urlFetchAllPerRequestMs * (prepared.length - 1));
    if (timedOutByLimit) throw new ExecutionTimeLimitError();
    return prepared.map((p, i) => {
      const r = results[i];
      const url = p.wire.url;
      if (r.error) {
        // Timeout, DNS error and Address unavailable are Apps Script's own messages, as seen in public
        // logs (e.g. github.com/bradjasper/ImportJSON/issues/78, ttsukagoshi/website-monitoring-by-gas/issues/134,
        // rubensayshi/gw2spidy/issues/84); the others are chosen.
        throw fail(fetchFailure(r.error.kind, url));
      }
      const res = new LocalHttpResponse(state, r.status!, r.rawHeaders!, Buffer.from(r.body!));
      if (r.status! >= 400 && !p.mute) {
        const text = res.getContentText();
        const shown = text.length > TRUNCATED_RESPONSE_CHARS ? text.slice(0, TRUNCATED_RESPONSE_CHARS) + '...' : text;
        throw fail(
          `Request failed for ${hostOf(url)} returned code ${r.status}. Truncated server response: ${shown} (use muteHttpExceptions option to examine full response)`,
        );
      }
      return res;
    });
  }

  return {
    fetch(url: string, params?: Params): LocalHttpResponse {
      requireService(state, 'UrlFetchApp', 'fetch');
      return send([prepare(url, params)])[0];
    },
    fetchAll(requests: Array<string | Params>): LocalHttpResponse[] {
      requireService(state, 'UrlFetchApp', 'fetchAll');
      if (!Array.isArray(requests)) throw fail('Invalid argument: requests');
      const prepared = requests.map((r) => (typeof r === 'string' ? prepare(r) : prepare(r?.url, r)));
      if (prepared.length === 0) return new state.realm.Array() as LocalHttpResponse[];
      return state.realm.Array.from(send(prepared)) as LocalHttpResponse[];
    },
    getRequest(url: string, params?: Params): GoogleAppsScript.URL_Fetch.URLFetchRequest {
      requireService(state, 'UrlFetchApp');
      return toRealm(state.realm, prepare(url, params).shown) as unknown as GoogleAppsScript.URL_Fetch.URLFetchRequest;
    },
  };
}
