/**
 * CacheService: script, user and document caches that outlive executions, expiring on the VIRTUAL clock.
 * Limits (CacheService reference): key <= 250 chars, value <= 100 KB, default expiry 600 s, maximum
 * 21600 s, at most 1,000 items per cache (past that, the 900 farthest from expiration stay). Values are strings.
 */
import type { RuntimeState } from './execution';
import { gasError, toRealm } from './realm';
import { requireService } from './permissions';

export const CACHE_KEY_MAX_CHARS = 250;
export const CACHE_VALUE_MAX_BYTES = 100 * 1024;
export const CACHE_DEFAULT_EXPIRY_S = 600;
export const CACHE_MAX_EXPIRY_S = 21600;
export const CACHE_MAX_ITEMS = 1000;
export const CACHE_KEPT_ON_EVICTION = 900;

interface Entry {
  value: string;
  expiresAt: number;
  seq: number;
}

/** Storage of one cache; tests inspect it directly. */
export class CacheStore {
  readonly entries = new Map<string, Entry>();
  private seq = 0;
  constructor(private readonly now: () => number) {}

  private sweep(): void {
    const t = this.now();
    for (const [k, e] of this.entries) if (e.expiresAt <= t) this.entries.delete(k);
  }
  get(key: string): string | null {
    const e = this.entries.get(key);
    if (!e) return null;
    if (e.expiresAt <= this.now()) {
      this.entries.delete(key);
      return null;
    }
    return e.value;
  }
  put(key: string, value: string, seconds: number): void {
    this.sweep();
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + seconds * 1000, seq: this.seq++ });
  }
  /**
   * Google's Cache reference (put): "The cap for cached items is 1,000. If more than 1,000 items are
   * written, the cache stores the 900 items farthest from expiration." Ties: the later write stays.
   */
  evict(): void {
    if (this.entries.size <= CACHE_MAX_ITEMS) return;
    const keep = [...this.entries]
      .sort(([, a], [, b]) => b.expiresAt - a.expiresAt || b.seq - a.seq)
      .slice(0, CACHE_KEPT_ON_EVICTION)
      .sort(([, a], [, b]) => a.seq - b.seq);
    this.entries.clear();
    for (const [k, e] of keep) this.entries.set(k, e);
  }
  remove(key: string): void {
    this.entries.delete(key);
  }
  /** Live keys, for tests. */
  keys(): string[] {
    this.sweep();
    return [...this.entries.keys()];
  }
}

export interface CacheStores {
  script: CacheStore;
  document: CacheStore | null;
  user(email: string): CacheStore;
}

export function createCacheStores(now: () => number, bound: boolean): CacheStores {
  const users = new Map<string, CacheStore>();
  return {
    script: new CacheStore(now),
    document: bound ? new CacheStore(now) : null,
    user(email) {
      let s = users.get(email);
      if (!s) users.set(email, (s = new CacheStore(now)));
      return s;
    },
  };
}

class LocalCache {
  constructor(
    private readonly state: RuntimeState,
    private readonly store: CacheStore,
  ) {}

  private call(write: boolean): void {
    requireService(this.state, 'CacheService');
    this.state.count('serviceCalls');
    this.state.charge(write ? this.state.cost.cacheWriteMs : this.state.cost.cacheReadMs);
  }
  // "Argument too large: key" is Apps Script's (public log: github.com/Eloise1988/COINGECKO/issues/13);
  // the value and expiry variants follow it. (value/expiry wording chosen)
  private checkKey(key: unknown): string {
    const k = String(key);
    if (key === null || key === undefined) throw gasError(this.state, 'Invalid argument: key');
    if (k.length > CACHE_KEY_MAX_CHARS) throw gasError(this.state, 'Argument too large: key');
    return k;
  }
  private checkValue(value: unknown): string {
    const v = String(value);
    if (Buffer.byteLength(v) > CACHE_VALUE_MAX_BYTES) throw gasError(this.state, 'Argument too large: value');
    return v;
  }
  private checkExpiry(seconds: unknown): number {
    if (seconds === undefined) return CACHE_DEFAULT_EXPIRY_S;
    const s = Number(seconds);
    // (chosen: Google documents 1..21600 s; out of range is refused rather than silently clamped)
    if (!(s >= 1)) throw gasError(this.state, 'Invalid argument: expirationInSeconds');
    if (s > CACHE_MAX_EXPIRY_S) throw gasError(this.state, 'Argument too large: expirationInSeconds');
    return s;
  }

  get(key: string): string | null {
    this.call(false);
    return this.store.get(this.checkKey(key));
  }
  getAll(keys: string[]): Record<string, string> {
    this.call(false);
    const out: Record<string, string> = {};
    for (const key of keys) {
      const v = this.store.get(this.checkKey(key));
      if (v !== null) out[String(key)] = v;
    }
    return toRealm(this.state.realm, out);
  }
  /** Google answers null (gas-fakes test/teststores.js, cache section: `t.is(cache.put(k, v), null)`). */
  put(key: string, value: string, expirationInSeconds?: number): null {
    this.call(true);
    const k = this.checkKey(key);
    const v = this.checkValue(value);
    this.store.put(k, v, this.checkExpiry(expirationInSeconds));
    this.store.evict();
    return null;
  }
  putAll(values: Record<string, unknown>, expirationInSeconds?: number): void {
    this.call(true);
    const seconds = this.checkExpiry(expirationInSeconds);
    // Validate everything first: nothing half-written.
    const checked = Object.keys(values ?? {}).map((k) => [this.checkKey(k), this.checkValue(values[k])] as const);
    for (const [k, v] of checked) this.store.put(k, v, seconds);
    this.store.evict();
  }
  /** Google answers null (gas-fakes test/teststores.js: `t.is(cache.remove(k), null)`). */
  remove(key: string): null {
    this.call(true);
    this.store.remove(this.checkKey(key));
    return null;
  }
  removeAll(keys: string[]): void {
    this.call(true);
    for (const k of keys) this.store.remove(this.checkKey(k));
  }
}

export function createCacheService(state: RuntimeState, stores: CacheStores) {
  return {
    getScriptCache() {
      requireService(state, 'CacheService');
      return new LocalCache(state, stores.script);
    },
    getUserCache() {
      requireService(state, 'CacheService');
      return new LocalCache(state, stores.user(state.exec().user));
    },
    /** null when the script is not bound to a document. */
    getDocumentCache() {
      requireService(state, 'CacheService');
      // Also null in a time-driven trigger that has no active document (index.ts triggerDocument).
      return stores.document && state.hasDocument() ? new LocalCache(state, stores.document) : null;
    },
  };
}
