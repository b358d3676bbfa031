/**
 * The add-on's locks. The document lock, held by everything that rewrites this document's
 * bookkeeping or result tabs (the sidebar's import, the hourly trigger, the running-scan record), so
 * two executions never write the same tabs or properties at once.
 */
import { documentLock, userLock } from '../apps-script';

/**
 * Runs `body` holding the document lock, waiting up to `waitMs`. By default (imports) a busy lock
 * ends in a plain message; with `busyMessage` null, in Google's own "Lock timeout" error (the
 * running-scan record's short read-modify-write, whose callers decide what to tell).
 */
export function withDocumentLock<T>(
  body: () => T,
  waitMs = 20000,
  busyMessage: string | null = 'Another import is writing to this spreadsheet right now. Try again in a minute.',
): T {
  const lock = documentLock();
  if (busyMessage === null) lock.waitLock(waitMs);
  else if (!lock.tryLock(waitMs)) throw new LockBusyError(busyMessage);
  try {
    return body();
  } finally {
    lock.releaseLock();
  }
}

/** Runs `body` holding this user's lock (their executions of the add-on, any document), waiting up to `waitMs` (Google's "Lock timeout" past it). */
export function withUserLock<T>(body: () => T, waitMs: number): T {
  const lock = userLock();
  lock.waitLock(waitMs);
  try {
    return body();
  } finally {
    lock.releaseLock();
  }
}

/** withDocumentLock's plain message when the lock stayed busy. */
export class LockBusyError extends Error {}

/** Whether `e` says a lock stayed busy: Google's waitLock time-out (LockService reference), or LockBusyError. */
export function isLockBusy(e: unknown): boolean {
  return e instanceof LockBusyError || /^(Exception: )?Lock timeout/.test(String(e && (e as Error).message));
}
