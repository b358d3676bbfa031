/**
 * The add-on's one lock: the document lock, held by everything that rewrites this document's
 * bookkeeping or result tabs (the sidebar's import, the hourly trigger, the running-scan record), so
 * two executions never write the same tabs or properties at once.
 */
import { documentLock } from '../apps-script';

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
  else if (!lock.tryLock(waitMs)) throw new Error(busyMessage);
  try {
    return body();
  } finally {
    lock.releaseLock();
  }
}
