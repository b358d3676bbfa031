/**
 * Running-scan record: ONE document property (RUNNING_KEY in src/store/keys.ts), JSON `{"<scan id>":
 * {"u": <user tag>, "t": <start ms>}}`: ids only (plus whose they are), far below the 9 KB per value
 * (at most RUNNING_MAX_RECORDS entries, ~40 bytes each). The user tag is the first 12 hex digits of
 * SHA-256 of the starter's Session.getTemporaryActiveUserKey() (services.ts activeUserKey): scans
 * belong to accounts, so another editor (another key) cannot read them and only sees their own. Not
 * the email: Google withholds it from many users (and without the userinfo.email scope from all),
 * and one blank email would tag every editor's scans alike (issue 19 item 2). The key rotates every
 * 30 days: a record started just before the change is no longer this user's afterwards; it stays
 * listed in Scans (history), and is forgotten after FORGET_FINISHED_AFTER_MS like any other.
 * Read-modify-write runs under the document lock. A record stays after the scan finished (so
 * reopening finds it for import) until the import forgets it (forgetRunningScan), the scan is gone
 * (404), or a finished scan's record is older than FORGET_FINISHED_AFTER_MS (progress.ts).
 */
import { numberOf as num } from '../../api/read';
import { RUNNING_KEY, RUNNING_MAX_RECORDS } from '../../store/keys';
import { withDocumentLock } from '../../store/locks';
import { decodeScanMap } from '../../store/records';
import { activeUserKey, documentProperties, now, sha256Tag } from '../../apps-script';

export interface RunningRecord {
  u: string;
  t: number;
}

export type RunningRecords = { [scanId: string]: RunningRecord };

export function decodeRecords(text: string | null): RunningRecords {
  return decodeScanMap(text, (r) => (typeof r.u === 'string' ? { u: r.u, t: num(r.t) } : undefined));
}

/** Adds a record, dropping the oldest beyond RUNNING_MAX_RECORDS. */
export function addRecord(records: RunningRecords, scanId: number, user: string, at: number): RunningRecords {
  const out: RunningRecords = { ...records, [String(scanId)]: { u: user, t: at } };
  const ids = Object.keys(out).sort((a, b) => out[a].t - out[b].t);
  while (ids.length > RUNNING_MAX_RECORDS) delete out[ids.shift()!];
  return out;
}

/** Short tag of a user (from their temporary key; never the key or an email itself). */
export function userTag(userKey: string): string {
  return sha256Tag(userKey || 'unknown');
}

export function withRecords<T>(change: (records: RunningRecords) => { records?: RunningRecords; result: T }): T {
  const props = documentProperties();
  return withDocumentLock(
    () => {
      const before = decodeRecords(props.getProperty(RUNNING_KEY));
      const { records, result } = change(before);
      if (records) {
        if (Object.keys(records).length) props.setProperty(RUNNING_KEY, JSON.stringify(records));
        else props.deleteProperty(RUNNING_KEY);
      }
      return result;
    },
    10000,
    null,
  );
}

/** Records a scan the current user just started in this document. */
export function recordRunningScan(scanId: number): void {
  const tag = userTag(activeUserKey());
  withRecords((r) => ({ records: addRecord(r, scanId, tag, now()), result: undefined }));
}

/** Forgets a scan (imported, deleted, or gone). For the import and history code too. */
export function forgetRunningScan(scanId: number): void {
  withRecords((r) => {
    if (!r[String(scanId)]) return { result: undefined };
    const out = { ...r };
    delete out[String(scanId)];
    return { records: out, result: undefined };
  });
}

/** Ids of the scans the current user started in this document and not yet forgotten, oldest first. */
export function recordedScanIds(): number[] {
  const tag = userTag(activeUserKey());
  const r = decodeRecords(documentProperties().getProperty(RUNNING_KEY));
  return Object.keys(r)
    .filter((k) => r[k].u === tag)
    .sort((a, b) => r[a].t - r[b].t)
    .map(Number);
}
