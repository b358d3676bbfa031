/**
 * The one way a stored record is read and written: a key, a decode that accepts or refuses what is
 * stored, an encode and a size cap (Apps Script: 9 KB per property value, 500 KB per store;
 * apps-script-platform.md). Decoding is lenient: a record absent, not JSON, or refused by its decode
 * reads as null, never a throw, so a damaged or foreign record costs at most itself. Writing one over
 * its cap is refused with a message saying so, before the store is asked.
 *
 * Also the shape of the per-scan document properties (RUNNING_KEY, AUTO_IMPORT_KEY): one JSON object
 * keyed by scan id, each entry kept when it reads.
 */
import { PROPERTY_VALUE_MAX_BYTES } from './keys';
import { utf8Length } from '../domain/sheet/safe';
import { isObject, parseJson } from '../api/read';

/** A property store as the binder gives it (user, document or script properties) or a fake of one. */
export interface RecordStore {
  getProperty(key: string): string | null;
  setProperty(key: string, value: string): unknown;
  deleteProperty(key: string): unknown;
}

export interface RecordOptions<T> {
  /** The record from its parsed JSON, or null (or undefined) when it is not one this code wrote. */
  decode: (value: unknown) => T | null | undefined;
  /** The JSON text of a record (default JSON.stringify). */
  encode?: (record: T) => string;
  /** Largest value in UTF-8 bytes (default a property's 9 KB). */
  cap?: number;
}

/** One kind of stored record; `A` are what its key is made of (a scan id, a spreadsheet id, or nothing). */
export interface StoredRecord<T, A extends unknown[]> {
  key: (...a: A) => string;
  /** The record of a stored text: null when absent, not JSON, or refused by the decode. */
  parse(text: string | null | undefined): T | null;
  /** The record's text, or an Error naming the key when it is over the cap. */
  encode(record: T, ...a: A): string;
  get(store: Pick<RecordStore, 'getProperty'>, ...a: A): T | null;
  put(store: Pick<RecordStore, 'setProperty'>, record: T, ...a: A): void;
  remove(store: Pick<RecordStore, 'deleteProperty'>, ...a: A): void;
}

/** A kind of stored record under `key` (a fixed key, or a function of the record's ids). */
export function record<T, A extends unknown[] = []>(key: string | ((...a: A) => string), o: RecordOptions<T>): StoredRecord<T, A> {
  const keyOf = typeof key === 'string' ? () => key : key;
  const cap = o.cap || PROPERTY_VALUE_MAX_BYTES;
  const r: StoredRecord<T, A> = {
    key: keyOf,
    parse: (text) => {
      const v = parseJson(text);
      return v === undefined ? null : (o.decode(v) ?? null);
    },
    encode: (value, ...a) => {
      const text = o.encode ? o.encode(value) : JSON.stringify(value);
      const bytes = utf8Length(text);
      if (bytes > cap)
        throw new Error(`Not saved: the record ${keyOf(...a)} takes ${bytes} bytes, over the ${cap} a stored value may hold.`);
      return text;
    },
    get: (store, ...a) => r.parse(store.getProperty(keyOf(...a))),
    put: (store, value, ...a) => {
      store.setProperty(keyOf(...a), r.encode(value, ...a));
    },
    remove: (store, ...a) => {
      store.deleteProperty(keyOf(...a));
    },
  };
  return r;
}

/** `{"<scan id>": entry}` of parsed JSON (anything else: empty), with each entry kept when `entry(value)` accepts it. */
export function scanMapOf<T>(v: unknown, entry: (value: Record<string, unknown>) => T | undefined): { [scanId: string]: T } {
  const out: { [scanId: string]: T } = {};
  for (const k of isObject(v) ? Object.keys(v) : []) {
    const r = (v as Record<string, unknown>)[k];
    const e = /^\d+$/.test(k) && r && typeof r === 'object' ? entry(r as Record<string, unknown>) : undefined;
    if (e !== undefined) out[k] = e;
  }
  return out;
}
