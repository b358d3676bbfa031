/**
 * Re-scan schedules, the sidebar's side: set (one choice + Save, from a scan's card or Settings'
 * Remembered suppliers), pause and remove, and the list with each one's next run, cost and last
 * summary. The trigger runs them (src/app/results/schedule-run.ts). Per user and document.
 */
import { nextSlot, parseRule, ruleChoices, ruleLabel, ruleText } from '../../domain/price-list/schedule';
import { readSchedules, writeSchedules, type ScheduleRecord } from '../../store/schedules';
import { readSuppliers } from '../../store/suppliers';
import { withDocumentLock } from '../../store/locks';
import { activeSpreadsheet, formatInSpreadsheetZone, now, userProperties } from '../../apps-script';
import { asSidebarCall, zoneOffset } from '../context';
import { ensureImportTrigger, triggerNotice } from '../trigger/install';
import { readNoDocument, type NoDocumentRecord } from '../trigger/no-document';
import type { ScheduleView } from './protocol';

/** Said on every schedule: the seller pays for each run. */
export const SCHEDULE_COST = 'Each run is a paid scan at the Scan Service, like one you start.';

/** The email opt-in, and what it says when the trigger cannot run the schedules here (then a run, and its email, waits for the sidebar). */
export const EMAIL_LABEL = 'Email me a summary after each run';
const EMAIL_LABEL_SIDEBAR_ONLY = EMAIL_LABEL + ' (here runs happen only when you open the sidebar, so the email comes then)';

/**
 * Why scheduled runs here happen only from the sidebar: the last hourly run had no document (null
 * when it had one, or none is recorded). Never "Next run" as if the trigger will do it.
 */
function sidebarOnly(noDoc: NoDocumentRecord | null): string | null {
  if (!noDoc) return null;
  return (
    'sent only when you open the sidebar then or later (it offers each run that is due): the hourly run at ' +
    formatInSpreadsheetZone(new Date(noDoc.at), 'MMM d, HH:mm') +
    ' could not open this spreadsheet (Google did not give it to the add-on).'
  );
}

function view(s: ScheduleRecord, sheetName: string, t: number, noDoc: NoDocumentRecord | null): ScheduleView {
  const rule = parseRule(s.r);
  const next = rule ? formatInSpreadsheetZone(new Date(nextSlot(rule, t, zoneOffset)), 'EEE MMM d, HH:mm') : '';
  const only = sidebarOnly(noDoc);
  return {
    id: s.h,
    sheetName,
    rule: s.r,
    label: rule ? ruleLabel(rule) : s.r,
    paused: !!s.p,
    line: s.p
      ? 'Paused. ' + (s.p === 'you' ? 'Save to run it again.' : s.p)
      : (only ? 'Due ' + next + ', ' + only : 'Next run: ' + next + '.') + ' ' + SCHEDULE_COST,
    // A status written by a run that had the document names its "Next run"; here it would not happen by itself.
    status: only ? (s.st || '').replace(/ ?(Next run: [^.]*|The next run is due [^.]*)\./g, '') : s.st || '',
    summary: s.sum || '',
    email: s.m === 1,
    emailLabel: only ? EMAIL_LABEL_SIDEBAR_ONLY : EMAIL_LABEL,
  };
}

/** Sidebar: this user's schedules in this document. */
export function getSchedules(): ScheduleView[] {
  return asSidebarCall(() => {
    const id = activeSpreadsheet().getId();
    const names: Record<string, string> = {};
    for (const e of readSuppliers(userProperties(), id)) names[e.h] = e.n;
    const t = now();
    const list = readSchedules(userProperties(), id);
    const noDoc = list.length ? readNoDocument() : null;
    return list.map((s) => view(s, names[s.h] || '', t, noDoc));
  });
}

/** One line per schedule of this user in this document, for the Scans view ("List: every Monday at 06:00. Next run: … Last: …"). Never throws. */
export function scheduleLines(): string[] {
  try {
    return getSchedules().map((v) => v.sheetName + ': ' + scheduleText(v));
  } catch (_e) {
    return [];
  }
}

/** What a schedule says: rule, next run (or why paused), cost, what the last slot came to, the last summary. */
export function scheduleText(v: ScheduleView): string {
  return ['Scanned again ' + v.label + '. ' + v.line, v.status, v.summary ? 'Last changes: ' + v.summary : ''].filter((x) => x).join(' ');
}

/** Sidebar: the select's choices (at 06:00 of the spreadsheet's time zone, before the working day). */
export function scheduleChoices(): { value: string; label: string }[] {
  return ruleChoices(6);
}

function edit(body: (list: ScheduleRecord[], id: string) => ScheduleRecord[]): void {
  withDocumentLock(
    () => {
      const id = activeSpreadsheet().getId();
      writeSchedules(userProperties(), id, body(readSchedules(userProperties(), id), id));
    },
    20000,
    'Another run is changing this spreadsheet right now. Try again in a minute.',
  );
}

/**
 * Sidebar: schedules a remembered supplier (`id`) by a rule from scheduleChoices (or another valid
 * one), or changes its rule and runs it again when paused. `scanId`: the scan the first scheduled
 * run is compared with (the card's scan); without it the first run only starts the series.
 * `email`: whether to email this user (only them) the summary after each run; absent: unchanged
 * (off for a new schedule).
 */
export function saveSchedule(
  id: string,
  rule: string,
  scanId?: number,
  email?: boolean,
): { schedules: ScheduleView[]; notice: string | null } {
  return asSidebarCall(() => {
    if (rule === '') return { schedules: removeSchedule(id), notice: null }; // "Not scheduled"
    const r = parseRule(rule);
    if (!r) throw new Error('Choose when to scan this list again.');
    const ssId = activeSpreadsheet().getId();
    if (!readSuppliers(userProperties(), ssId).some((e) => e.h === id))
      throw new Error('This supplier is not remembered any more: scan its list with New scan first.');
    edit((list) => {
      const old = list.find((s) => s.h === id);
      const s: ScheduleRecord = old
        ? { ...old, r: ruleText(r), c: now() }
        : { h: id, r: ruleText(r), c: now(), prev: typeof scanId === 'number' && scanId > 0 ? Math.floor(scanId) : undefined };
      delete s.p;
      if (email === true) s.m = 1;
      else if (email === false) delete s.m;
      if (old && typeof scanId === 'number' && scanId > 0 && s.sid === undefined) s.prev = Math.floor(scanId);
      return [s].concat(list.filter((x) => x.h !== id));
    });
    const notice = triggerNotice(ensureImportTrigger());
    return { schedules: getSchedules(), notice };
  });
}

/** Sidebar: pauses a schedule (one click; Save runs it again). */
export function pauseSchedule(id: string): ScheduleView[] {
  return asSidebarCall(() => {
    edit((list) => list.map((s) => (s.h === id ? { ...s, p: 'you' } : s)));
    return getSchedules();
  });
}

/** Sidebar: removes a schedule (the supplier stays remembered; results and Changes tabs stay). */
export function removeSchedule(id: string): ScheduleView[] {
  return asSidebarCall(() => {
    edit((list) => list.filter((s) => s.h !== id));
    return getSchedules();
  });
}
