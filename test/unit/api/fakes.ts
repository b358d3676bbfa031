/**
 * Fakes of the Apps Script services the client and formulas use, faithful where it matters:
 * fetchAll answers in order and throws for the whole wave on a transport failure; the cache
 * expires entries by the fake clock, refuses keys over 250 chars and values over 100 KB, and
 * drops the oldest items beyond 1,000 (CacheService's documented limits).
 */
import type { CacheLike, FetchRequest, HttpResponseLike, UrlFetchLike } from '../../../src/api/services';

export class FakeClock {
  sleeps: number[] = [];
  constructor(public t = 1_700_000_000_000) {}
  now = (): number => this.t;
  sleep = (ms: number): void => {
    if (ms > 300000) throw new Error('Utilities.sleep: at most 300000 ms');
    this.sleeps.push(ms);
    this.t += ms;
  };
}

export interface FakeAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (req: FetchRequest, payload: any) => FakeAnswer | Error;

export class FakeFetcher implements UrlFetchLike {
  waves: FetchRequest[][] = [];
  constructor(
    private handler: Handler,
    private clock?: FakeClock,
    /** Modelled time of one fetchAll (requests run in parallel). */
    private waveMs = 400,
  ) {}
  get requests(): FetchRequest[] {
    return this.waves.flat();
  }
  fetchAll(requests: FetchRequest[]): HttpResponseLike[] {
    this.waves.push(requests);
    if (this.clock) this.clock.t += this.waveMs;
    const answers = requests.map((r) => this.handler(r, r.payload ? JSON.parse(r.payload) : undefined));
    const thrown = answers.find((a) => a instanceof Error);
    if (thrown) throw thrown;
    return (answers as FakeAnswer[]).map((a) => {
      const text = a.body === undefined ? '' : typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
      return { getResponseCode: () => a.status, getContentText: () => text, getHeaders: () => a.headers ?? {} };
    });
  }
}

export class FakeCache implements CacheLike {
  private items = new Map<string, { value: string; expires: number }>();
  getAllCalls = 0;
  putAllCalls = 0;
  constructor(private clock: FakeClock) {}
  getAll(keys: string[]): { [key: string]: string } {
    this.getAllCalls++;
    const out: { [key: string]: string } = {};
    for (const k of keys) {
      const it = this.items.get(k);
      if (it && it.expires > this.clock.t) out[k] = it.value;
    }
    return out;
  }
  putAll(values: { [key: string]: string }, expirationInSeconds = 600): void {
    this.putAllCalls++;
    if (expirationInSeconds > 21600) throw new Error('Cache expiration at most 21600 s');
    for (const [k, v] of Object.entries(values)) {
      if (k.length > 250) throw new Error('Cache key too long');
      if (Buffer.byteLength(v, 'utf8') > 100 * 1024) throw new Error('Argument too large: value');
      this.items.delete(k);
      this.items.set(k, { value: v, expires: this.clock.t + expirationInSeconds * 1000 });
      while (this.items.size > 1000) this.items.delete(this.items.keys().next().value!);
    }
  }
  get size(): number {
    return this.items.size;
  }
  keys(): string[] {
    return Array.from(this.items.keys());
  }
  values(): string[] {
    return Array.from(this.items.values()).map((v) => v.value);
  }
}

/** A convert / asin-convert stand-in over fixed tables, with the documented ceilings. */
export function conversionService(
  opts: {
    convert?: Record<string, string[]>;
    asinConvert?: Record<string, Record<string, string[]>>;
    /** Answer these instead, by call number (1-based), e.g. 429 storms. */
    override?: (callNo: number, req: FetchRequest) => FakeAnswer | Error | undefined;
  } = {},
): Handler & { calls: number } {
  const h = ((req: FetchRequest, payload: any) => {
    h.calls++;
    const o = opts.override?.(h.calls, req);
    if (o) return o;
    if (req.method !== 'post') return { status: 405, body: { message: 'Method not allowed' } };
    if (req.url.endsWith('/api/v3/convert')) {
      if (!Array.isArray(payload?.ids) || payload.ids.length < 1 || payload.ids.length > 20)
        return { status: 422, body: { message: 'ids: 1 to 20 items' } };
      const body: Record<string, string[]> = {};
      for (const id of payload.ids) if (opts.convert?.[id]) body[id] = opts.convert[id];
      return { status: 200, body };
    }
    if (req.url.endsWith('/api/v3/asin-convert')) {
      if (!Array.isArray(payload?.asins) || payload.asins.length < 1 || payload.asins.length > 1000)
        return { status: 422, body: { message: 'asins: 1 to 1000 items' } };
      const body: Record<string, Record<string, string[]>> = {};
      for (const a of payload.asins) if (opts.asinConvert?.[a]) body[a] = opts.asinConvert[a];
      return { status: 200, body };
    }
    return { status: 404, body: { message: 'Not found' } };
  }) as Handler & { calls: number };
  h.calls = 0;
  return h;
}

/** A valid UPC-A from an 11-digit body. */
export function upc(body11: string): string {
  let sum = 0;
  for (let i = body11.length - 1, w = 3; i >= 0; i--, w = w === 3 ? 1 : 3) sum += Number(body11[i]) * w;
  return body11 + String((10 - (sum % 10)) % 10);
}
