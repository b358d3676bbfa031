/**
 * The hourly trigger without its document. Google's documentation does not promise an add-on's
 * time-driven trigger an active spreadsheet (getActiveSpreadsheet() null, document properties and
 * the document lock null); opening the file by id instead would need the full `spreadsheets` scope
 * ("See, edit, create and delete all your Google Sheets spreadsheets"), which this add-on does not
 * ask for (README, Scopes). So a run without the document loses nothing and does nothing to any
 * document: it leaves the scans' records as they are, writes one USER property saying when it
 * happened (the trigger does not know which document it was for), and logs a line. The next
 * sidebar open imports the finished scans as usual (the Scans cards import themselves) and says
 * why they were not imported before (runningScans, ../scan/progress.ts). A run that has its
 * document clears the record.
 */
import { TRIGGER_NO_DOCUMENT_KEY } from '../../store/keys';
import { numberOf } from '../../api/read';
import { userProperties } from '../../apps-script';

export interface NoDocumentRecord {
  /** When the last run without a document happened (ms). */
  at: number;
  /** How many runs in a row had no document. */
  n: number;
}

export function readNoDocument(): NoDocumentRecord | null {
  const raw = userProperties().getProperty(TRIGGER_NO_DOCUMENT_KEY);
  if (!raw) return null;
  try {
    const v = JSON.parse(raw);
    const at = numberOf(v && v.at);
    return at > 0 ? { at, n: numberOf(v.n) || 1 } : null;
  } catch (_e) {
    return null;
  }
}

/** Records a run without a document (and logs it, so the execution log says what happened). */
export function recordNoDocument(at: number): void {
  const prev = readNoDocument();
  const rec: NoDocumentRecord = { at, n: (prev ? prev.n : 0) + 1 };
  userProperties().setProperty(TRIGGER_NO_DOCUMENT_KEY, JSON.stringify(rec));
  console.log(
    'hourly import: Google ran the trigger without its spreadsheet; nothing was imported or synced. The next time the sidebar is opened in the spreadsheet, it imports what is finished.',
  );
}

/** A run with its document: the earlier record no longer applies. */
export function clearNoDocument(): void {
  if (userProperties().getProperty(TRIGGER_NO_DOCUMENT_KEY) !== null) userProperties().deleteProperty(TRIGGER_NO_DOCUMENT_KEY);
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
