/**
 * PropertiesService: script, document and per-user stores that outlive executions.
 * Limits (quotas page): 9 KB per value, 500 KB per store. Inside a custom function getUserProperties()
 * is the spreadsheet OWNER's store, and editors cannot write it there.
 */
import type { RuntimeState } from './execution';
import { gasError, toRealm } from './realm';
import { requireService } from './permissions';
import { QUOTA_MESSAGES, type QuotaMeter } from './quotas';

export const PROPERTY_VALUE_MAX_BYTES = 9 * 1024;
export const PROPERTY_STORE_MAX_BYTES = 500 * 1024;

/** Storage of one properties store; tests seed and inspect it directly. */
export class PropertyStore {
  readonly map = new Map<string, string>();
  /** Bytes used: UTF-8 of keys plus values. (chosen: Google does not say what counts) */
  bytes(): number {
    let n = 0;
    for (const [k, v] of this.map) n += Buffer.byteLength(k) + Buffer.byteLength(v);
    return n;
  }
  toObject(): Record<string, string> {
    return Object.fromEntries(this.map);
  }
  set(key: string, value: string): void {
    this.map.set(key, value);
  }
  get(key: string): string | null {
    return this.map.get(key) ?? null;
  }
}

export interface PropertyStores {
  script: PropertyStore;
  /** null when the script is not bound to a document. */
  document: PropertyStore | null;
  user(email: string): PropertyStore;
  /** Every user's store that exists, by email (document-state.ts saves them). */
  users(): ReadonlyMap<string, PropertyStore>;
}

export function createPropertyStores(bound: boolean): PropertyStores {
  const users = new Map<string, PropertyStore>();
  return {
    script: new PropertyStore(),
    document: bound ? new PropertyStore() : null,
    user(email: string) {
      let s = users.get(email);
      if (!s) users.set(email, (s = new PropertyStore()));
      return s;
    },
    users: () => users,
  };
}

// The store quota message is Apps Script's (public log: github.com/lucasvtiradentes/gcal-sync/issues/115);
// the per-value one is chosen after the CacheService wording ("Argument too large: ...").
const VALUE_TOO_LARGE = 'Argument too large: value';
const STORE_FULL = 'You have exceeded the property storage quota. Please remove some properties and try again.';

class LocalProperties {
  constructor(
    private readonly state: RuntimeState,
    private readonly store: PropertyStore,
    /** Why writes are refused here (custom function editing the owner's user properties), or null. */
    private readonly readOnlyReason: string | null,
    private readonly quota: QuotaMeter | null,
  ) {}

  /** Every read and write counts once against the user's daily "Properties read/write" quota. */
  private countQuota(message: string): void {
    if (this.quota && !this.quota.tryUse(this.state.exec().user, 'propertiesReadWrite', 1)) throw gasError(this.state, message);
  }

  private read(): void {
    requireService(this.state, 'PropertiesService');
    this.countQuota(QUOTA_MESSAGES.propertyReads);
    this.state.count('serviceCalls');
    this.state.charge(this.state.cost.propertiesReadMs);
  }
  private write(): void {
    requireService(this.state, 'PropertiesService');
    if (this.readOnlyReason) throw gasError(this.state, this.readOnlyReason);
    this.countQuota(QUOTA_MESSAGES.propertyWrites);
    this.state.count('serviceCalls');
    this.state.charge(this.state.cost.propertiesWriteMs);
  }
  /** Applies `changes` only if the whole result is within the limits: nothing half-written. */
  private commit(next: Map<string, string>): void {
    for (const v of next.values()) if (Buffer.byteLength(v) > PROPERTY_VALUE_MAX_BYTES) throw gasError(this.state, VALUE_TOO_LARGE);
    let n = 0;
    for (const [k, v] of next) n += Buffer.byteLength(k) + Buffer.byteLength(v);
    if (n > PROPERTY_STORE_MAX_BYTES) throw gasError(this.state, STORE_FULL);
    this.store.map.clear();
    for (const [k, v] of next) this.store.map.set(k, v);
  }

  getProperty(key: string): string | null {
    this.read();
    return this.store.get(String(key));
  }
  getProperties(): Record<string, string> {
    this.read();
    return toRealm(this.state.realm, this.store.toObject());
  }
  getKeys(): string[] {
    this.read();
    return toRealm(this.state.realm, [...this.store.map.keys()]);
  }
  setProperty(key: string, value: string): this {
    this.write();
    if (key === undefined || key === null) throw gasError(this.state, 'Invalid argument: key');
    const next = new Map(this.store.map);
    next.set(String(key), String(value));
    this.commit(next);
    return this;
  }
  setProperties(properties: Record<string, unknown>, deleteAllOthers?: boolean): this {
    this.write();
    const next = deleteAllOthers ? new Map<string, string>() : new Map(this.store.map);
    for (const k of Object.keys(properties ?? {})) next.set(k, String(properties[k]));
    this.commit(next);
    return this;
  }
  deleteProperty(key: string): this {
    this.write();
    this.store.map.delete(String(key));
    return this;
  }
  deleteAllProperties(): this {
    this.write();
    this.store.map.clear();
    return this;
  }
}

export function createPropertiesService(state: RuntimeState, stores: PropertyStores, owner: () => string, quota: QuotaMeter | null = null) {
  return {
    getScriptProperties() {
      requireService(state, 'PropertiesService');
      return new LocalProperties(state, stores.script, null, quota);
    },
    getDocumentProperties() {
      requireService(state, 'PropertiesService');
      // Also null in a time-driven trigger that has no active document (index.ts triggerDocument).
      return stores.document && state.hasDocument() ? new LocalProperties(state, stores.document, null, quota) : null;
    },
    getUserProperties() {
      requireService(state, 'PropertiesService');
      const e = state.exec();
      if (e.authMode === 'CUSTOM_FUNCTION') {
        // The owner's store; an editor may read but not write it. (message chosen) A file in a shared
        // drive has no owner: '' is a store of no one's, which nobody may write (chosen).
        const ownerEmail = owner();
        return new LocalProperties(
          state,
          stores.user(ownerEmail),
          e.user === ownerEmail ? null : 'You do not have permission to set user properties in a custom function.',
          quota,
        );
      }
      return new LocalProperties(state, stores.user(e.user), null, quota);
    },
  };
}
