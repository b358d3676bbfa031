/**
 * Running-scan record: ONE document property (RUNNING_KEY in src/store/keys.ts), JSON `{"<scan id>":
 * {"u": <user tag>, "t": <start ms>}}`: ids only (plus whose they are), far below the 9 KB per value
 * (at most RUNNING_MAX_RECORDS entries, ~40 bytes each). The user tag is the starter's record tag
 * (src/store/identity.ts: from one random id per user kept in their user properties, the same in the
 * sidebar and in their trigger): scans belong to accounts, so another editor cannot read them and
 * only sees their own. Not the email (Google withholds it from many users, and one blank email would
 * tag every editor's scans alike, issue 19 item 2), nor the temporary user key (it rotates every 30
 * days). Records tagged those old ways are read as this user's and rewritten (recordedScanIds).
 * Read-modify-write runs under the document lock. A record stays after the scan finished (so
 * reopening finds it for import) until the import forgets it (forgetRunningScan), the scan is gone
 * (404), or a finished scan's record is older than FORGET_FINISHED_AFTER_MS (progress.ts).
 */
import { numberOf as num } from '../../api/read';
import { RUNNING_KEY, RUNNING_MAX_RECORDS } from '../../store/keys';
import { withDocumentLock, withUserLock } from '../../store/locks';
import { record, scanMapOf } from '../../store/records';
import { isOwnTag, readIdentity, recordTag, withOldTags, writeIdentity, type UserIdentity } from '../../store/identity';
import { activeUserEmail, activeUserKey, documentProperties, newUuid, now, sha256Tag, userProperties } from '../../apps-script';

export interface RunningRecord {
  u: string;
  t: number;
}

export type RunningRecords = { [scanId: string]: RunningRecord };

const RUNNING = record<RunningRecords>(RUNNING_KEY, {
  decode: (v) => scanMapOf(v, (r) => (typeof r.u === 'string' ? { u: r.u, t: num(r.t) } : undefined)),
});

export function decodeRecords(text: string | null): RunningRecords {
  return RUNNING.parse(text) || {};
}

/** The running-scan records of this document (one property read). */
export function readRecords(props: GoogleAppsScript.Properties.Properties): RunningRecords {
  return RUNNING.get(props) || {};
}

/** Adds a record, dropping the oldest beyond RUNNING_MAX_RECORDS. */
export function addRecord(records: RunningRecords, scanId: number, user: string, at: number): RunningRecords {
  const out: RunningRecords = { ...records, [String(scanId)]: { u: user, t: at } };
  const ids = Object.keys(out).sort((a, b) => out[a].t - out[b].t);
  while (ids.length > RUNNING_MAX_RECORDS) delete out[ids.shift()!];
  return out;
}

/** The tags this user has the old ways now: of the temporary key and of the email (none when blank). */
function oldWayTags(): string[] {
  let key = '';
  try {
    key = activeUserKey() || '';
  } catch (_e) {
    // not given here: no old tag from it
  }
  const email = activeUserEmail();
  return [key ? sha256Tag(key) : '', email ? sha256Tag(email) : ''].filter((t) => t);
}

/**
 * This user's identity: made once (under the user lock, so the sidebar and the trigger starting
 * together make one); the old ways' current tags are added to it while they are current.
 */
export function myIdentity(): UserIdentity {
  const user = userProperties();
  const tags = oldWayTags();
  const known = readIdentity(user);
  if (known) {
    const more = withOldTags(known, tags);
    if (more) writeIdentity(user, more);
    return more || known;
  }
  return withUserLock(() => {
    const again = readIdentity(user);
    const made = again ? withOldTags(again, tags) || again : { id: newUuid(), old: tags };
    if (made !== again) writeIdentity(user, made);
    return made;
  }, 10000);
}

/** The tag of the current user's records. */
export function myTag(): string {
  return recordTag(myIdentity().id);
}

export function withRecords<T>(change: (records: RunningRecords) => { records?: RunningRecords; result: T }): T {
  const props = documentProperties();
  return withDocumentLock(
    () => {
      const before = readRecords(props);
      const { records, result } = change(before);
      if (records) {
        if (Object.keys(records).length) RUNNING.put(props, records);
        else RUNNING.remove(props);
      }
      return result;
    },
    10000,
    null,
  );
}

/** Records a scan the current user just started in this document. */
export function recordRunningScan(scanId: number): void {
  const tag = myTag();
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

/**
 * Ids of the scans the current user started in this document and not yet forgotten, oldest first.
 * Their records tagged an old way are rewritten with this user's tag (a busy lock leaves that to the
 * next read; they are read as theirs either way).
 */
export function recordedScanIds(): number[] {
  const me = myIdentity();
  const tag = recordTag(me.id);
  const r = readRecords(documentProperties());
  const mine = Object.keys(r).filter((k) => isOwnTag(me, r[k].u));
  if (mine.some((k) => r[k].u !== tag)) {
    try {
      withRecords((now) => {
        const out = { ...now };
        for (const k of Object.keys(out)) if (out[k].u !== tag && isOwnTag(me, out[k].u)) out[k] = { ...out[k], u: tag };
        return { records: out, result: undefined };
      });
    } catch (_e) {
      // the lock was busy: rewritten by a later read
    }
  }
  return mine.sort((a, b) => r[a].t - r[b].t).map(Number);
}
