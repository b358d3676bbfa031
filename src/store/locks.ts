/**
 * The add-on's one lock: the document lock, held by everything that rewrites this document's
 * bookkeeping or result tabs (the sidebar's import, the hourly trigger, the running-scan record), so
 * two executions never write the same tabs or properties at once.
 */

/** Import writes: waits up to 20 s, then says plainly that another import is writing. */
export const IMPORT_LOCK = { waitMs: 20000, busyMessage: 'Another import is writing to this spreadsheet right now. Try again in a minute.' };
/** The running-scan record: a short read-modify-write; waits up to 10 s, then Google's own "Lock timeout". */
export const RECORD_LOCK = { waitMs: 10000 };

/** Runs `body` holding the document lock; throws `busyMessage` (or Google's error without one) when another execution keeps it. */
export function withDocumentLock<T>(body: () => T, how: { waitMs: number; busyMessage?: string } = IMPORT_LOCK): T {
  const lock = LockService.getDocumentLock();
  if (how.busyMessage === undefined) lock.waitLock(how.waitMs);
  else if (!lock.tryLock(how.waitMs)) throw new Error(how.busyMessage);
  try {
    return body();
  } finally {
    lock.releaseLock();
  }
}
