/**
 * Crossing the vm boundary: values built in Node fail the script's `instanceof` checks, so services hand
 * the script values rebuilt with its own constructors, and throw errors of its own realm named
 * 'Exception' (what Apps Script's service errors are called: `String(e)` reads "Exception: ...").
 */
import type { RuntimeState, Realm } from './execution';

/** An Apps Script service error with the given message. */
export function gasError(state: RuntimeState, message: string): Error {
  const e = new state.realm.Error(message);
  e.name = 'Exception';
  return e;
}

/**
 * Google's message for arguments that fit no signature of a method, e.g.
 * `The parameters (String) don't match the method signature for LockService.Lock.waitLock.`
 * Types are named as Apps Script names them (number, String, Boolean, Date, Object, Object[]).
 */
export function signatureError(state: RuntimeState, method: string, args: readonly unknown[]): Error {
  const name = (v: unknown) =>
    v === null || v === undefined
      ? 'null'
      : Array.isArray(v)
        ? 'Object[]'
        : typeof v === 'string'
          ? 'String'
          : typeof v === 'number'
            ? 'number'
            : typeof v === 'boolean'
              ? 'Boolean'
              : isDate(v)
                ? 'Date'
                : 'Object';
  return gasError(state, `The parameters (${args.map(name).join(',')}) don't match the method signature for ${method}.`);
}

export function isDate(v: unknown): v is Date {
  return Object.prototype.toString.call(v) === '[object Date]';
}

/** True for `{}`-literal objects of any realm (prototype is some realm's Object.prototype, or null). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || isDate(v)) return false;
  const proto = Object.getPrototypeOf(v);
  if (proto === null) return true;
  return Object.getPrototypeOf(proto) === null && typeof proto.constructor === 'function' && proto.constructor.name === 'Object';
}

/**
 * Deep copy of plain data (arrays, plain objects, Dates, primitives) into the given realm.
 * Anything else (service objects, functions) is passed through as is.
 */
export function toRealm<T>(realm: Realm, v: T): T {
  if (Array.isArray(v)) {
    const out = new realm.Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = toRealm(realm, v[i]);
    return out as unknown as T;
  }
  if (isDate(v)) return new realm.Date(v.getTime()) as unknown as T;
  if (isPlainObject(v)) {
    const out = new realm.Object() as Record<string, unknown>;
    for (const k of Object.keys(v)) out[k] = toRealm(realm, v[k]);
    return out as T;
  }
  return v;
}
