/**
 * The add-on's one lock: the document lock, held by everything that rewrites this document's
 * bookkeeping or result tabs (the sidebar's import, the hourly trigger, the running-scan record), so
 * two executions never write the same tabs or properties at once.
 */

/** Waits for the document lock up to `waitMs`; throws `busyMessage` when another execution keeps it. */
export function withDocumentLock<T>(body: () => T, waitMs = 20000, busyMessage = 'Another import is writing to this spreadsheet right now. Try again in a minute.'): T {
  const lock = LockService.getDocumentLock();
  if (!lock.tryLock(waitMs)) throw new Error(busyMessage);
  try {
    return body();
  } finally {
    lock.releaseLock();
  }
}
