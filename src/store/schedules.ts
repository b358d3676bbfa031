/**
 * Re-scan schedules' storage: the USER properties, one value per document, key
 * `scan.schedules.<spreadsheet id>` (beside supplier memory, src/store/suppliers.ts, for the same
 * reasons: per Google account, lasting longer than the 30-day temporary user key). A JSON list of
 * schedules, at most one per remembered supplier (SUPPLIERS_PER_DOCUMENT): well under 9 KB.
 */
import { SUPPLIERS_PER_DOCUMENT } from './suppliers';
import { record } from './records';

type Properties = GoogleAppsScript.Properties.Properties;

const SCHEDULES_PREFIX = 'scan.schedules.';

/** One schedule (short member names: this is what is stored). */
export interface ScheduleRecord {
  /** The supplier's header signature (SupplierEntry.h). */
  h: string;
  /** The rule (src/domain/price-list/schedule.ts ruleText). */
  r: string;
  /** When set (ms): slots before it are not run. */
  c: number;
  /** Paused: why (said to the seller); absent when running. */
  p?: string;
  /** The latest slot claimed (ms), recorded before anything is sent for it. */
  k?: number;
  /** The scan sent for the claimed slot, until its Changes tab is written. */
  sid?: number;
  /** The previous scan of this list (what the next Changes tab compares with). */
  prev?: number;
  /** What the last slot came to (sent, skipped and why, paused and why). */
  st?: string;
  /** The last Changes summary and its tab. */
  sum?: string;
  /** 1: email this user the summary after each run (opt-in, off when absent). */
  m?: 1;
}

export function schedulesKey(spreadsheetId: string): string {
  return SCHEDULES_PREFIX + spreadsheetId;
}

const SCHEDULES = record<ScheduleRecord[], [string]>(schedulesKey, {
  decode: (v) =>
    Array.isArray(v) ? v.filter((s) => s && typeof s.h === 'string' && typeof s.r === 'string' && typeof s.c === 'number') : null,
});

export function readSchedules(user: Properties, spreadsheetId: string): ScheduleRecord[] {
  try {
    return SCHEDULES.get(user, spreadsheetId) || [];
  } catch (_e) {
    return [];
  }
}

export function writeSchedules(user: Properties, spreadsheetId: string, list: ScheduleRecord[]): void {
  const kept = list.slice(0, SUPPLIERS_PER_DOCUMENT);
  if (kept.length) SCHEDULES.put(user, kept, spreadsheetId);
  else SCHEDULES.remove(user, spreadsheetId);
}

/** Whether this user has a schedule running (not paused) in this document: the hourly trigger stays for it. */
export function hasActiveSchedule(user: Properties, spreadsheetId: string): boolean {
  return readSchedules(user, spreadsheetId).some((s) => !s.p || s.sid !== undefined);
}
