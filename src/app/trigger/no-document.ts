/**
 * The hourly trigger without its document. Google's documentation does not promise an add-on's
 * time-driven trigger an active spreadsheet (getActiveSpreadsheet() null, document properties and
 * the document lock null); opening the file by id instead would need the full `spreadsheets` scope
 * ("See, edit, create and delete all your Google Sheets spreadsheets"), which this add-on does not
 * ask for (README, Scopes). So a run without the document loses nothing and does nothing to any
 * document: it leaves the scans' records as they are, writes one USER property saying when it
 * happened, and logs a line. The next sidebar open imports the finished scans as usual (the Scans
 * cards import themselves), says why they were not imported before (runningScans,
 * ../scan/progress.ts), and offers each schedule slot that is due (../results/schedule-run.ts).
 *
 * Kept PER SPREADSHEET (triggerRunKey): a run without its document does not know its spreadsheet,
 * but its event names its trigger (`e.triggerUid`, Apps Script's time-driven event object), and a
 * run of the same trigger WITH the document recorded which spreadsheet that trigger is for. A trigger
 * never seen with its document is recorded apart (TRIGGER_NO_DOCUMENT_KEY) and read by every
 * spreadsheet whose own trigger has not had its document lately (RECENT_MS): the add-on cannot tell
 * which one it was, so it says so where it may be.
 */
import { TRIGGER_NO_DOCUMENT_KEY, triggerRunKey, triggerRunKeyIds } from '../../store/keys';
import { record } from '../../store/records';
import { numberOf } from '../../api/read';
import { activeSpreadsheet, now, userProperties } from '../../apps-script';

export interface NoDocumentRecord {
  /** When the last run without a document happened (ms). */
  at: number;
  /** How many runs in a row had no document. */
  n: number;
}

/** One spreadsheet's trigger: its uid, its last run with the document, and the runs without it since. */
interface TriggerRun {
  u: string;
  at: number;
  nd?: NoDocumentRecord;
}

/**
 * A trigger run with the document this recently (it runs hourly; Google may let it drift) means this
 * spreadsheet's trigger has it. Older, the trigger may have been made again (a new uid) since.
 */
const RECENT_MS = 3 * 3600_000;

function noDocOf(v: unknown): NoDocumentRecord | null {
  const r = v as { at?: unknown; n?: unknown } | null;
  const at = numberOf(r && r.at);
  return at > 0 ? { at, n: numberOf(r!.n) || 1 } : null;
}

const RUN = record<TriggerRun, [string]>(triggerRunKey, {
  decode: (raw) => {
    const v = raw as Record<string, unknown> | null;
    if (!v || typeof v !== 'object' || typeof v.u !== 'string') return null;
    const nd = noDocOf(v.nd);
    const at = numberOf(v.at);
    return nd ? { u: v.u, at, nd } : { u: v.u, at };
  },
});

const UNKNOWN = record<NoDocumentRecord & { u: string }>(TRIGGER_NO_DOCUMENT_KEY, {
  decode: (raw) => {
    const v = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : null;
    const nd = noDocOf(v);
    return nd ? { ...nd, u: typeof v!.u === 'string' ? v!.u : '' } : null;
  },
});

function readRun(spreadsheetId: string): TriggerRun | null {
  return RUN.get(userProperties(), spreadsheetId);
}

function readUnknown(): (NoDocumentRecord & { u: string }) | null {
  return UNKNOWN.get(userProperties());
}

/**
 * Whether the last hourly run for THIS spreadsheet had no document (sidebar side): its own record;
 * unless its trigger had the document within RECENT_MS, a run of a trigger whose spreadsheet is not
 * known (its trigger never seen with it, or made again since) may be this one's, and is said.
 */
export function readNoDocument(): NoDocumentRecord | null {
  const run = readRun(activeSpreadsheet().getId());
  if (run && run.nd) return run.nd;
  if (run && now() - run.at < RECENT_MS) return null;
  const unknown = readUnknown();
  return unknown ? { at: unknown.at, n: unknown.n } : null;
}

/** Records a run without a document (and logs it, so the execution log says what happened). */
export function recordNoDocument(at: number, triggerUid: string): void {
  const user = userProperties();
  const ssId = triggerUid ? triggerRunKeyIds(user.getKeys()).find((id) => (readRun(id) || { u: '' }).u === triggerUid) : undefined;
  if (ssId) {
    const run = readRun(ssId)!;
    RUN.put(user, { u: run.u, at: run.at, nd: { at, n: (run.nd ? run.nd.n : 0) + 1 } }, ssId);
  } else {
    const prev = readUnknown();
    UNKNOWN.put(user, { at, n: (prev ? prev.n : 0) + 1, u: triggerUid });
  }
  console.log(
    'hourly import: Google ran the trigger without its spreadsheet; nothing was imported or synced. The next time the sidebar is opened in the spreadsheet, it imports what is finished.',
  );
}

/**
 * A run with its document at `at`: this spreadsheet's trigger is `triggerUid`, and its last run had
 * the document (one user property write an hour, of the 50,000 a day).
 */
export function recordWithDocument(triggerUid: string, at: number): void {
  if (!triggerUid) return; // run by hand, not by the trigger: it says nothing of the trigger's world
  const user = userProperties();
  const ssId = activeSpreadsheet().getId();
  RUN.put(user, { u: triggerUid, at }, ssId);
  const unknown = readUnknown();
  // Those runs were this spreadsheet's trigger's (a record without a uid is from the version before).
  if (unknown && (!unknown.u || unknown.u === triggerUid)) UNKNOWN.remove(user);
}

/** What a finished scan waiting for import says while the trigger runs without its document. */
export function noDocumentNotice(rec: NoDocumentRecord | null, format: (ms: number, pattern: string) => string): string | null {
  if (!rec) return null;
  return (
    'Not imported automatically: the hourly import ran at ' +
    format(rec.at, 'MMM d, HH:mm') +
    ' without access to this spreadsheet (Google did not open it for the trigger), so it is imported now that the sidebar is open.'
  );
}
