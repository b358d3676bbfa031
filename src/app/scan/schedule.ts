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
import type { ScheduleView } from './protocol';

/** Said on every schedule: the seller pays for each run. */
export const SCHEDULE_COST = 'Each run is a paid scan at the Scan Service, like one you start.';

function view(s: ScheduleRecord, sheetName: string, t: number): ScheduleView {
  const rule = parseRule(s.r);
  const next = rule ? formatInSpreadsheetZone(new Date(nextSlot(rule, t, zoneOffset)), 'EEE MMM d, HH:mm') : '';
  return {
    id: s.h,
    sheetName,
    rule: s.r,
    label: rule ? ruleLabel(rule) : s.r,
    paused: !!s.p,
    line: s.p ? 'Paused. ' + (s.p === 'you' ? 'Save to run it again.' : s.p) : 'Next run: ' + next + '. ' + SCHEDULE_COST,
    status: s.st || '',
    summary: s.sum || '',
    email: s.m === 1,
  };
}

/** Sidebar: this user's schedules in this document. */
export function getSchedules(): ScheduleView[] {
  return asSidebarCall(() => {
    const id = activeSpreadsheet().getId();
    const names: Record<string, string> = {};
    for (const e of readSuppliers(userProperties(), id)) names[e.h] = e.n;
    const t = now();
    return readSchedules(userProperties(), id).map((s) => view(s, names[s.h] || '', t));
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
