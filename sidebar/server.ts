/**
 * Calls of the add-on's server functions, as promises. Keyed by protocol.ts's ServerFunctions, so a
 * renamed or reshaped server function breaks the sidebar's type check.
 */
import type { ServerFunctions } from '../src/app/protocol';
import { readFailure, type Failure } from '../src/app/failure';

/** google.script.run as the HtmlService iframe provides it (not in @types/google-apps-script). */
interface Runner {
  withSuccessHandler(f: (value: unknown) => void): Runner;
  withFailureHandler(f: (error: unknown) => void): Runner;
  [fn: string]: unknown;
}
declare const google: { script: { run: Runner } };

/** A failure as the user should read it; `openSettings` when the key is missing or refused, `needsRoom` when results will not fit. */
export class ServerError extends Error {
  declare readonly openSettings: boolean;
  declare readonly needsRoom: boolean;
  constructor(f: Failure) {
    super();
    Object.assign(this, f, { message: f.message || 'Something went wrong.' });
  }
}

export type Fn = keyof ServerFunctions;

export function call<K extends Fn>(fn: K, ...args: Parameters<ServerFunctions[K]>): Promise<ReturnType<ServerFunctions[K]>> {
  return new Promise((resolve, reject) => {
    const runner = google.script.run
      .withSuccessHandler((v) => resolve(v as ReturnType<ServerFunctions[K]>))
      .withFailureHandler((e) => {
        const f = readFailure(e && typeof (e as Error).message === 'string' ? (e as Error).message : String(e));
        reject(new ServerError(f));
      });
    (runner[fn] as (...a: unknown[]) => void)(...args);
  });
}

/**
 * The server's long jobs (import, compare, convert) answer after each part: `step` (given the call's
 * number) is called until an answer says done, at most `max` times, each answer shown. The last
 * answer; undefined when none said done.
 */
export async function untilDone<T extends { done: boolean }>(
  max: number,
  step: (i: number) => Promise<T>,
  show: (p: T) => void,
): Promise<T | undefined> {
  for (let i = 0; i < max; i++) {
    const p = await step(i);
    show(p);
    if (p.done) return p;
  }
}
