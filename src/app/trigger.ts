/**
 * The sidebar-closed path: an hourly add-on trigger (the most often an add-on's time-driven trigger
 * may run) imports this user's finished scans recorded in this document (src/app/progress.ts) and
 * says so with a toast. At most one such trigger per user and document (Google's add-on rule):
 * ensureImportTrigger reuses one that exists; the handler removes it when nothing is left to do.
 */
import { sendAll } from '../api/client';
import { ApiProblemError } from '../api/problems';
import { activeSpreadsheet, clientDeps, documentProperties, loadSettings } from './gas';
import { checkScanId, gasImportEnv, pendingImportIds, runImport, withDocumentLock } from './import';
import { forgetRunningScan, mapStatus, recordedScanIds } from './progress';

/** The handler's name: must be a top-level function of the bundle (exported from src/main.ts). */
export const IMPORT_TRIGGER_HANDLER = 'importFinishedScans';

function ownTriggers(): GoogleAppsScript.Script.Trigger[] {
  return ScriptApp.getUserTriggers(activeSpreadsheet()).filter((t) => t.getHandlerFunction() === IMPORT_TRIGGER_HANDLER);
}

/**
 * Makes sure the hourly import trigger exists for the current user in this document (call it when a
 * scan starts). Returns false when the trigger could not be made (it is a convenience: the sidebar
 * still imports when opened).
 */
export function ensureImportTrigger(): boolean {
  try {
    if (ownTriggers().length) return true;
    ScriptApp.newTrigger(IMPORT_TRIGGER_HANDLER).timeBased().everyHours(1).create();
    return true;
  } catch (e) {
    console.log('import trigger not created: ' + (e instanceof Error ? e.message : String(e)));
    return false;
  }
}

function removeImportTriggers(): void {
  for (const t of ownTriggers()) ScriptApp.deleteTrigger(t);
}

/**
 * Trigger handler: for each of the user's recorded scans, imports the finished ones (continuing an
 * import cut short by the time limit), toasts each one done, forgets scans the service no longer
 * knows, and removes the trigger when no scan is left waiting.
 */
export function importFinishedScans(): void {
  const settings = loadSettings();
  if (!settings.apiKey) {
    removeImportTriggers();
    return;
  }
  const props = documentProperties();
  const recorded = recordedScanIds();
  const ids = recorded.concat(pendingImportIds(props).filter((id) => recorded.indexOf(id) < 0));
  if (!ids.length) {
    removeImportTriggers();
    return;
  }
  const env = gasImportEnv();
  const answers = sendAll(env.settings, env.deps, ids.map((id) => ({ method: 'get' as const, path: '/api/v3/scans/' + id, subject: 'scan ' + id })), { deadline: env.deadline });
  let waiting = 0;
  const ss = activeSpreadsheet();
  ids.forEach((id, i) => {
    const r = answers[i];
    if (!r.ok) {
      if (r.problem.kind === 'not-found') forgetRunningScan(id);
      else waiting++;
      if (r.problem.kind === 'auth') console.log('automatic import: ' + r.problem.message);
      return;
    }
    const scan = (r.body || {}) as Record<string, unknown>;
    const status = mapStatus(scan.status);
    if (status === 'queued' || status === 'running') {
      waiting++;
      return;
    }
    try {
      const result = withDocumentLock(() => runImport(checkScanId(id), null, env));
      if (result.done) {
        forgetRunningScan(id);
        ss.toast(result.message, `Scan "${String(scan.name || id)}" is done`, 10);
      } else waiting++;
    } catch (e) {
      waiting++;
      console.log('automatic import of scan ' + id + ': ' + (e instanceof ApiProblemError ? e.problem.message : e instanceof Error ? e.message : String(e)));
    }
  });
  if (!waiting) removeImportTriggers();
}
