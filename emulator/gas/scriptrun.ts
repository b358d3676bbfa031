/**
 * google.script.run's rules for values crossing between the sidebar and the server (guides/html/
 * communication): numbers, booleans, strings, null, and plain objects/arrays of those. A Date,
 * function or class instance anywhere inside makes the call fail; undefined inside an array becomes
 * null and an undefined property is dropped (JSON-like). The failure messages are chosen after what
 * the client reports for an illegal argument ("Failed due to illegal value in property: ...").
 */
import { isDate, isPlainObject } from './realm';

export class ScriptRunValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScriptError';
  }
}

/** Returns a host-realm JSON-like copy of `v`, or throws naming the offending property path. */
export function transportValue(v: unknown, pathName: string): unknown {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (v === undefined) return null;
  if (isDate(v) || typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint')
    throw new ScriptRunValueError(`Failed due to illegal value in property: ${pathName}`);
  // Array.from, not v.map: map would build the copy in the script's realm.
  if (Array.isArray(v)) return Array.from(v, (x, i) => transportValue(x, `${pathName}.${i}`));
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) {
      if (v[k] === undefined) continue;
      out[k] = transportValue(v[k], `${pathName}.${k}`);
    }
    return out;
  }
  throw new ScriptRunValueError(`Failed due to illegal value in property: ${pathName}`);
}

/** Arguments: each is checked with its index as the path ("0", "1.items.3", ...). */
export function transportArgs(args: unknown[]): unknown[] {
  return args.map((a, i) => (a === undefined ? undefined : transportValue(a, String(i))));
}

/** The server function's result: undefined stays undefined (the success handler gets undefined). */
export function transportResult(v: unknown): unknown {
  return v === undefined ? undefined : transportValue(v, 'result');
}
