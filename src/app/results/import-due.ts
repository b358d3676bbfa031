/**
 * The automatic import of this user's finished scans recorded in this document
 * (src/app/scan/running.ts), one run of the hourly trigger (src/entry/hourly.ts), which says
 * each one done with a toast and removes the trigger when nothing is left to do.
 *
 * Giving up (consumer accounts have 90 min/day of trigger runtime, and a failing import can spend
 * minutes retrying): a refused key (401) removes the trigger at once, without touching the scans;
 * it comes back when a call with a working key ensures it again (a scan started, or Scans listing a
 * running one). Any other failure of a scan counts against that scan: a failure that will not pass
 * by itself (403, 404 of its results, 422, a redirect) stops its automatic import at once; others
 * (5xx, time-outs, 429, unreadable answers, sheet errors) back off 1, 2, 4, 8 hours and stop after
 * MAX_FAILURES in a row. A stopped scan keeps its record, so the sidebar still lists it and the user
 * imports it from Scans; autoImportNotes() gives the reason to show. A run with nothing due reads
 * two properties and makes no call.
 */
import { checkScanId, fetchScans, readScan, readStatus } from '../../api/scans';
import { POLL_BUDGET_MS } from '../../domain/time-budgets';
import { problemOf } from '../../api/exceptions';
import type { Problem } from '../../api/problems';
import { activeSpreadsheet, documentProperties, now } from '../../apps-script';
import { loadSettings, messageOf } from '../context';
import { gasImportEnv, pendingImportIds, runImport } from './import';
import { readTuning } from '../records/import-tuning';
import { withDocumentLock } from '../../store/locks';
import { forgetRunningScan, recordedScanIds } from '../scan/running';
import { dailyQuotaOf } from '../quota-errors';
import { removeImportTriggers } from '../trigger/install';
import { readStates, writeStates, type AutoImportState, type AutoImportStates } from '../records/autoimport';
import { shortScanName } from './import-plan';
import { cutText } from '../../domain/sheet/safe';
import { SpreadsheetFullError } from '../records/room';

/** Failures in a row after which a scan's automatic import stops (at 0, 1, 3, 7 and 15 hours). */
export const MAX_FAILURES = 5;
const HOUR_MS = 3600_000;

/** Problems that will not go away by waiting: stop at the first one. */
export function isLasting(p: Problem): boolean {
  return p.kind === 'forbidden' || p.kind === 'not-found' || p.kind === 'validation' || p.kind === 'redirect';
}

/** The state after one more failure at `at`: backs off 1, 2, 4, 8 hours; stopped when lasting or the MAX_FAILURES-th. */
export function afterFailure(prev: AutoImportState | undefined, reason: string, lasting: boolean, at: number): AutoImportState {
  const n = (prev ? prev.n : 0) + 1;
  // (the reason is cut: the record of every scan shares one 9 KB property)
  if (lasting || n >= MAX_FAILURES) return { n, a: at, s: 'automatic import stopped: ' + cutText(reason, 400) + ' — import it from Scans' };
  // The trigger fires about hourly (Google lets it drift): slack so the run 2^(n-1) hours on is due.
  return { n, a: at + Math.pow(2, n - 1) * HOUR_MS - 15 * 60_000 };
}

/**
 * One run's work; `budgetEnd` is where the day's trigger budget ends. Returns true when an import
 * stopped unfinished with that budget as the limit. Daily-quota errors propagate.
 */
export function importDue(budgetEnd: number): boolean {
  const settings = loadSettings();
  if (!settings.apiKey) {
    removeImportTriggers();
    return false;
  }
  const props = documentProperties();
  const recorded = recordedScanIds();
  const ids = recorded.concat(pendingImportIds(props).filter((id) => recorded.indexOf(id) < 0));
  const before = readStates();
  // Only states of scans still waiting here are kept.
  const states: AutoImportStates = {};
  for (const id of ids) if (before[String(id)]) states[String(id)] = before[String(id)];
  const changed = () => JSON.stringify(states) !== JSON.stringify(before);
  const t0 = now();
  const live = ids.filter((id) => !(states[String(id)] && states[String(id)].s));
  const due = live.filter((id) => !states[String(id)] || states[String(id)].a <= t0);
  if (!live.length) {
    if (changed()) writeStates(states);
    removeImportTriggers();
    return false;
  }
  if (!due.length) {
    if (changed()) writeStates(states);
    return false;
  }
  // Imports get what is left of the execution and of the day's trigger budget, whichever ends first.
  const tuning = readTuning();
  const budgetLimited = budgetEnd - now() < tuning.budgetMs;
  const env = gasImportEnv({ ...tuning, budgetMs: Math.max(1, Math.min(tuning.budgetMs, budgetEnd - now())) });
  env.deadline = Math.min(env.deadline, budgetEnd);
  // Reading statuses is cheap when the service is well; when it is not, do not spend minutes retrying.
  const answers = fetchScans({ ...env, deadline: Math.min(env.deadline, t0 + POLL_BUDGET_MS) }, due);
  const refused = answers.find((r) => !r.ok && r.problem.kind === 'auth');
  if (refused && !refused.ok) {
    console.log('automatic import stopped: ' + refused.problem.message);
    if (changed()) writeStates(states);
    removeImportTriggers();
    return false;
  }
  const fail = (id: number, reason: string, lasting: boolean) => {
    states[String(id)] = afterFailure(states[String(id)], reason, lasting, t0);
    console.log('automatic import of scan ' + id + ': ' + reason);
  };
  const ss = activeSpreadsheet();
  let keyRefused = false;
  let quotaHit: unknown = null;
  let unfinished = false;
  const gone: number[] = [];
  due.forEach((id, i) => {
    const r = answers[i];
    if (keyRefused || quotaHit) return;
    if (!r.ok) {
      if (r.problem.kind === 'not-found') {
        forgetRunningScan(id);
        gone.push(id);
        delete states[String(id)];
      } else fail(id, r.problem.message, isLasting(r.problem));
      return;
    }
    const scan = readScan(r.body);
    const status = scan ? scan.status : readStatus(undefined);
    if (status === 'queued' || status === 'running') {
      delete states[String(id)];
      return;
    }
    try {
      const result = withDocumentLock(() => runImport(checkScanId(id), null, env));
      delete states[String(id)];
      if (!result.done) unfinished = true;
      if (result.done) {
        forgetRunningScan(id);
        gone.push(id);
        ss.toast(result.message, `Scan "${shortScanName(scan ? scan.name : '', id)}" is done`, 10);
      }
    } catch (e) {
      // A daily quota of Google: not this scan's fault; the checkpoint stays, the run stops.
      if (dailyQuotaOf(e)) {
        quotaHit = e;
        return;
      }
      const problem = problemOf(e);
      if (problem && problem.kind === 'auth') {
        keyRefused = true;
        console.log('automatic import stopped: ' + problem.message);
        return;
      }
      // A full spreadsheet: the rows so far are kept and only the user can make room, so they are told.
      if (e instanceof SpreadsheetFullError) ss.toast(e.message, `Scan "${shortScanName(scan ? scan.name : '', id)}" needs room`, 30);
      fail(id, messageOf(e), !!problem && isLasting(problem));
    }
  });
  for (const id of gone) delete states[String(id)];
  if (changed()) writeStates(states);
  if (quotaHit) throw quotaHit;
  const left = ids.filter((id) => gone.indexOf(id) < 0 && !(states[String(id)] && states[String(id)].s));
  if (keyRefused || !left.length) removeImportTriggers();
  return unfinished && budgetLimited;
}
