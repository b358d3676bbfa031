/**
 * Re-scans on a schedule, the trigger's side (rules: src/domain/price-list/schedule.ts; records:
 * src/store/schedules.ts; set from the sidebar: src/app/scan/schedule.ts). Each hourly run
 * (src/entry/hourly.ts), after the automatic import:
 *
 * 1. A scheduled scan that has been imported (no longer running nor waiting for import) gets its
 *    Changes tab against the previous scan of the list (runCompare, resuming across runs) and its
 *    summary on the schedule.
 * 2. A schedule whose latest slot is not yet claimed claims it under the document lock BEFORE
 *    anything is sent (a second run in the same slot finds it claimed and does nothing), then
 *    checks the sheet (deleted: paused; header changed: paused), then sends the remembered range with
 *    the remembered roles, options and column choice through startScan's own path (sendScan). A slot it cannot use
 *    (Google's day nearly spent, a daily quota, the service down, the previous scan not imported yet,
 *    or more than SLOT_WINDOW_MS late) is skipped and the status says why; the next slot runs as usual.
 */
import { problemOf } from '../../api/exceptions';
import { EXECUTION_LIMIT_MS, SIDEBAR_FINISH_MS, UPLOAD_BUDGET_MS } from '../../domain/time-budgets';
import { fetchScan, isFinishedState } from '../../api/scans';
import { headerIdentity, rolesFor, type SupplierEntry } from '../../domain/price-list/memory';
import { lastSlot, nextSlot, parseRule, type ScheduleRule } from '../../domain/price-list/schedule';
import { suggestColumns } from '../../domain/price-list/header';
import { withDocumentLock } from '../../store/locks';
import { readSchedules, writeSchedules, type ScheduleRecord } from '../../store/schedules';
import { readSuppliers } from '../../store/suppliers';
import { activeSpreadsheet, documentProperties, formatInSpreadsheetZone, now, userProperties } from '../../apps-script';
import { sendScan } from '../scan/new-scan';
import { defaultScanName } from '../scan/plan';
import { recordedScanIds } from '../scan/running';
import { dailyQuotaOf } from '../quota-errors';
import { runCompare } from './compare';
import { gasImportEnv, pendingImportIds } from './import';
import { gasJobEnv } from './staged-tab';
import { sendRunMail, type RunMail } from './schedule-mail';
import { asSidebarCall, messageOf, zoneOffset } from '../context';
import { readNoDocument } from '../trigger/no-document';
import type { StartedScan } from '../scan/protocol';
import type { DueScan, DueScanResult } from './protocol';

/** A slot is sent at most this long after its time; later it is skipped (said), not sent late. */
export const SLOT_WINDOW_MS = 6 * 3600_000;

function when(ms: number): string {
  return formatInSpreadsheetZone(new Date(ms), 'EEE MMM d, HH:mm');
}

/** Changes one schedule under the document lock, read fresh; returns what `change` returned (null: no such schedule). */
function change<T>(h: string, body: (s: ScheduleRecord) => T): T | null {
  return withDocumentLock(
    () => {
      const user = userProperties();
      const id = activeSpreadsheet().getId();
      const list = readSchedules(user, id);
      const s = list.find((x) => x.h === h);
      if (!s) return null;
      const out = body(s);
      writeSchedules(user, id, list);
      return out;
    },
    30000,
    null,
  );
}

/**
 * "Next run: …." of a rule; where the last hourly run had no document, when the next run is due and
 * that it waits for the sidebar (never "Next run" as if the trigger will do it).
 */
function nextText(rule: ScheduleRule): string {
  const at = when(nextSlot(rule, now(), zoneOffset));
  return readNoDocument() ? 'The next run is due ' + at + ': it is sent when you open the sidebar then or later.' : 'Next run: ' + at + '.';
}

/** nextText of a schedule (or '' when its rule is unreadable). */
function nextRun(s: ScheduleRecord): string {
  const rule = parseRule(s.r);
  return rule ? nextText(rule) : '';
}

/**
 * The opt-in email (s.m) after the record says what the run came to; when it cannot be sent, the
 * status says so (the summary stays in Scans). Never throws: an email never fails the run.
 */
function mailAfter(s: ScheduleRecord, m: Omit<RunMail, 'sheetName'>): void {
  if (!s.m) return;
  try {
    const entry = readSuppliers(userProperties(), activeSpreadsheet().getId()).find((e) => e.h === s.h);
    const note = sendRunMail({ ...m, sheetName: entry ? entry.n : '' });
    if (note) change(s.h, (x) => (x.st = (x.st || '') + note));
  } catch (_e) {
    // Reading the record failed (a daily quota): the run's own outcome is already stored.
  }
}

const PAUSED_NEXT = 'The schedule is paused: nothing more is sent until you Save it again in Settings > Remembered suppliers.';

/** The sheet's current header names over the remembered block, or why it cannot be scanned. */
function checkSheet(entry: SupplierEntry): { request?: Parameters<typeof sendScan>[0]; pause?: string } {
  const ss = activeSpreadsheet();
  const sheet = ss.getSheets().find((x) => x.getSheetId() === entry.s) || null;
  if (!sheet)
    return {
      pause:
        'The sheet "' +
        entry.n +
        '" was deleted, so the schedule is paused. Nothing was sent. Scan the list again from its new sheet to schedule it there.',
    };
  const range = entry.sel ? sheet.getRange(entry.a) : sheet.getDataRange();
  const col = range.getColumn();
  const width = range.getNumColumns();
  const head = sheet.getRange(entry.hr, col, 1, width);
  const names = suggestColumns(head.getValues(), 0, { display: head.getDisplayValues(), firstSheetColumn: col }).map((c) => c.header);
  if (headerIdentity(names).signature !== entry.h)
    return {
      pause:
        'The header row of "' +
        sheet.getName() +
        '" changed since it was scheduled, so the schedule is paused. Nothing was sent. Scan it with New scan to check its columns, then schedule it again.',
    };
  return {
    request: {
      roles: rolesFor(entry, names),
      options: {
        ...(entry.o as object),
        name: defaultScanName(sheet.getName(), formatInSpreadsheetZone(new Date(now()), 'yyyy-MM-dd')),
      } as Parameters<typeof sendScan>[0]['options'],
      sheetName: sheet.getName(),
      rangeA1: entry.sel ? entry.a : undefined,
      selection: entry.sel,
      headerRow: entry.hr,
      headers: names,
      // The seller's column choice, so the re-scan's tab has the shape of their own (issue 36).
      ...(entry.c === 'all' ? { columns: entry.c } : {}),
    },
  };
}

/** Whether a schedule's latest slot (`slot`) is still to be sent: not paused, not before the schedule, not claimed. */
function unclaimed(s: ScheduleRecord, slot: number): boolean {
  return !s.p && slot >= s.c && (s.k === undefined || slot > s.k);
}

/** What one slot came to: said on the schedule (and in its email); the scan when one was sent. */
interface SlotOutcome {
  said: string;
  started?: StartedScan;
}

/**
 * Sends one schedule's slot, the trigger's way and the sidebar's (the seller's click) alike: claims
 * it under the document lock BEFORE anything is sent (null: claimed already, by a trigger run or a
 * click, so it is never sent twice), checks the sheet, then sends through sendScan. `byTrigger`: a
 * slot more than SLOT_WINDOW_MS late is skipped (a click on an offered slot sends it late, as asked).
 * Daily-quota errors propagate (after the slot is recorded as skipped for it).
 */
function sendSlot(s0: ScheduleRecord, rule: ScheduleRule, slot: number, budgetEnd: number, byTrigger: boolean): SlotOutcome | null {
  const t = now();
  // Claim the slot first: whatever happens next, no other run sends for it.
  const claimed = change(s0.h, (s) => {
    if (!unclaimed(s, slot)) return null;
    s.k = slot;
    s.st = 'Sending the scan of ' + when(slot) + '…';
    return { ...s };
  });
  if (!claimed) return null;
  const say = (st: string, extra?: (s: ScheduleRecord) => void) =>
    change(s0.h, (s) => {
      s.st = st;
      if (extra) extra(s);
    });
  const next = () => ' ' + nextText(rule);
  // Said, then emailed (opt-in): a skipped slot and a pause are news the seller gets plainly.
  const tell = (st: string, extra?: (s: ScheduleRecord) => void, paused = false): SlotOutcome => {
    say(st, extra);
    mailAfter(claimed, { what: st, next: paused ? PAUSED_NEXT : '' });
    return { said: st };
  };
  const skipped = 'The scan of ' + when(slot) + ' was skipped: ';
  if (byTrigger && t - slot > SLOT_WINDOW_MS)
    return tell(
      skipped +
        "the add-on could not run at that time (Google's daily quota, or the document was not open to it). Nothing was sent." +
        next(),
    );
  if (claimed.sid !== undefined)
    return tell(skipped + 'the previous scheduled scan (' + claimed.sid + ') is not imported yet. Nothing was sent.' + next());
  if (budgetEnd - now() < UPLOAD_BUDGET_MS)
    return tell(skipped + "Google's daily time for this add-on's automatic runs is nearly spent. Nothing was sent." + next());
  // Read only when a slot is due: an hourly run with nothing due reads one property here.
  const entry = readSuppliers(userProperties(), activeSpreadsheet().getId()).find((e) => e.h === s0.h);
  if (!entry) return tell('Paused: this supplier is no longer remembered. Nothing was sent.', (s) => (s.p = 'forgotten'), true);
  let checked: ReturnType<typeof checkSheet>;
  try {
    checked = checkSheet(entry);
  } catch (e) {
    if (dailyQuotaOf(e)) {
      tell(skipped + "Google's daily quota was reached. Nothing was sent." + next());
      throw e;
    }
    return tell(skipped + messageOf(e) + ' Nothing was sent.' + next());
  }
  if (checked.pause) {
    const why = checked.pause;
    return tell(why, (s) => (s.p = why), true);
  }
  try {
    const started = sendScan(checked.request!, now());
    const id = started.progress.scanId;
    const said =
      'Sent scan ' + id + ' (' + started.progress.name + ') on ' + when(now()) + '; its Changes tab follows its import.' + next();
    say(said, (s) => (s.sid = id));
    return { said, started };
  } catch (e) {
    if (dailyQuotaOf(e)) {
      tell(skipped + "Google's daily quota was reached. Nothing was sent." + next());
      throw e;
    }
    const service = problemOf(e);
    return tell(
      skipped +
        (service ? 'the Scan Service could not take it: ' : '') +
        messageOf(e) +
        (service && service.kind === 'timeout' ? ' Look in Scans before sending it by hand.' : ' Nothing was charged.') +
        next(),
    );
  }
}

/**
 * One trigger run's schedules; `budgetEnd` is where the day's trigger budget ends. Daily-quota errors
 * propagate (after the slot is recorded as skipped for it).
 */
export function runSchedules(budgetEnd: number): void {
  const list = readSchedules(userProperties(), activeSpreadsheet().getId());
  if (!list.length) return;
  for (const s of list) {
    if (s.sid !== undefined) finishScheduled(s, budgetEnd);
  }
  for (const s0 of list) {
    const rule = parseRule(s0.r);
    if (!rule) continue;
    const slot = lastSlot(rule, now(), zoneOffset);
    if (unclaimed(s0, slot)) sendSlot(s0, rule, slot, budgetEnd, true);
  }
}

/** After this long unclaimed, the hourly trigger did not send a slot (it runs hourly): the sidebar offers it. */
export const OFFER_AFTER_MS = 90 * 60_000;

/**
 * The slots the sidebar offers to send (Scans and New scan, when opened): each schedule's latest slot
 * not yet claimed and with no scheduled scan waiting for import, when the last hourly run here had no
 * document (Google did not give it one), or when the slot is more than OFFER_AFTER_MS old (the trigger
 * did not run). A slot due in the last 90 minutes with a trigger that has its document is left to it.
 */
export function dueSlots(noDocument: boolean): DueScan[] {
  const ssId = activeSpreadsheet().getId();
  const list = readSchedules(userProperties(), ssId);
  if (!list.length) return [];
  const names: Record<string, string> = {};
  for (const e of readSuppliers(userProperties(), ssId)) names[e.h] = e.n;
  const t = now();
  const out: DueScan[] = [];
  for (const s of list) {
    const rule = parseRule(s.r);
    if (!rule || s.sid !== undefined) continue;
    const slot = lastSlot(rule, t, zoneOffset);
    if (!unclaimed(s, slot) || (!noDocument && t - slot < OFFER_AFTER_MS)) continue;
    const sheet = names[s.h] || 'a remembered list';
    out.push({
      id: s.h,
      slot,
      question: 'The ' + EVERY_WORD[rule.f] + ' scan of ' + sheet + ' is due (' + when(slot) + '): send it now (a paid scan)?',
    });
  }
  return out;
}

const EVERY_WORD: Record<ScheduleRule['f'], string> = { d: 'daily', w: 'weekly', m: 'monthly' };

/**
 * Sidebar: the slots due that the seller may send now (dueSlots). When the last hourly run here had
 * no document, the trigger cannot write the Changes tabs either: an imported scheduled scan gets its
 * Changes tab (and its email) here, as the trigger would (a long compare goes on at the next open).
 */
export function getDueScans(): DueScan[] {
  return asSidebarCall(() => {
    const noDocument = readNoDocument() !== null;
    if (noDocument) {
      const end = now() + SIDEBAR_FINISH_MS;
      for (const s of readSchedules(userProperties(), activeSpreadsheet().getId())) if (s.sid !== undefined) finishScheduled(s, end);
    }
    return dueSlots(noDocument);
  });
}

/**
 * Sidebar: sends an offered slot (`slot`, ms, as getDueScans gave it) through the trigger's own path,
 * under the same claim: a slot the trigger or another click already took sends nothing and says so.
 */
export function sendDueScan(id: string, slot: number): DueScanResult {
  return asSidebarCall(() => {
    const s = readSchedules(userProperties(), activeSpreadsheet().getId()).find((x) => x.h === id);
    const rule = s ? parseRule(s.r) : null;
    if (!s || !rule) throw new Error('This schedule is not there any more: see Settings > Remembered suppliers.');
    if (typeof slot !== 'number' || slot !== lastSlot(rule, now(), zoneOffset))
      return { message: 'This run is no longer the one due. Nothing was sent.', progress: null };
    const out = sendSlot(s, rule, slot, now() + EXECUTION_LIMIT_MS, false);
    if (!out) return { message: 'This run was already sent (or skipped) by another run. Nothing more was sent.', progress: null };
    return { message: out.said, progress: out.started ? out.started.progress : null };
  });
}

/**
 * Whether the scheduled scan is imported: its import is not waiting (recorded here) nor under way,
 * and the service says it finished (asked, never inferred from a record missing here: a scan still
 * running stays waited for). A scan that ended without results is said; the schedule goes on from
 * the previous scan.
 */
function scheduledScanImported(s: ScheduleRecord): boolean {
  const sid = s.sid!;
  if (recordedScanIds().indexOf(sid) >= 0 || pendingImportIds(documentProperties()).indexOf(sid) >= 0) return false;
  const scan = fetchScan(gasImportEnv(), sid);
  if (!isFinishedState(scan.status)) return false;
  if (scan.status !== 'success') {
    const what =
      'Scan ' + sid + ' ' + (scan.status === 'cancelled' ? 'was cancelled' : 'failed at the Scan Service') + ', so it has no Changes tab.';
    change(s.h, (x) => {
      delete x.sid;
      x.st = what + ' ' + nextRun(x);
    });
    mailAfter(s, { what, next: nextRun(s) });
    return false;
  }
  return true;
}

/** Writes the Changes tab of an imported scheduled scan against the previous scan of its list. */
function finishScheduled(s: ScheduleRecord, budgetEnd: number): void {
  const sid = s.sid!;
  try {
    if (!scheduledScanImported(s)) return;
  } catch (e) {
    if (dailyQuotaOf(e)) throw e;
    const problem = problemOf(e);
    if (problem && problem.kind === 'not-found')
      change(s.h, (x) => {
        delete x.sid;
        x.st = 'Scan ' + sid + ' is no longer at the Scan Service (deleted), so it has no Changes tab. ' + nextRun(x);
      });
    return; // otherwise the service did not answer: asked again next run
  }
  if (s.prev === undefined || s.prev === sid) {
    change(s.h, (x) => {
      x.prev = sid;
      delete x.sid;
      x.sum = 'Scan ' + sid + ' imported on ' + when(now()) + '. It is the first of this schedule: the next one writes its Changes tab.';
    });
    mailAfter(s, {
      what: 'Scan ' + sid + ' imported on ' + when(now()) + '. It is the first of this schedule: the next one writes its Changes tab.',
      next: nextRun(s),
    });
    return;
  }
  const prev = s.prev;
  try {
    const env = gasJobEnv();
    env.deadline = Math.min(env.deadline, budgetEnd);
    let p = withDocumentLock(() => runCompare(prev, sid, env), 30000, null);
    for (let i = 0; i < 4 && !p.done && now() < env.deadline; i++) p = withDocumentLock(() => runCompare(prev, sid, env), 30000, null);
    if (!p.done) return; // continued by the next run
    change(s.h, (x) => {
      x.prev = sid;
      delete x.sid;
      x.st = 'Scan ' + sid + ' imported and compared on ' + when(now()) + '.';
      x.sum =
        when(now()) +
        ' — scan ' +
        sid +
        ' against ' +
        prev +
        (p.sheetName ? ' ("' + p.sheetName + '")' : ' (no Changes tab)') +
        ': ' +
        (p.summary || 'no change') +
        '.';
    });
    mailAfter(s, {
      what: 'Scan ' + sid + ' imported and compared with scan ' + prev + ' on ' + when(now()) + '.',
      summary: p.summary || 'no change',
      changesTab: p.sheetName || undefined,
      next: nextRun(s),
    });
  } catch (e) {
    if (dailyQuotaOf(e)) throw e;
    const problem = problemOf(e);
    if (
      problem &&
      (problem.kind === 'server' || problem.kind === 'unreachable' || problem.kind === 'timeout' || problem.kind === 'rate-limited')
    )
      return; // tried again next run
    change(s.h, (x) => {
      x.prev = sid;
      delete x.sid;
      x.sum = 'Scan ' + sid + ' imported; its Changes tab could not be written: ' + messageOf(e) + ' Compare it from Scans.';
    });
    mailAfter(s, {
      what: 'Scan ' + sid + ' imported; its Changes tab could not be written: ' + messageOf(e) + ' Compare it from Scans.',
      next: nextRun(s),
    });
  }
}
