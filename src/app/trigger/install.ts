/**
 * The add-on's one hourly trigger: at most one time-driven trigger per user and document (Google's
 * add-on rule), shared by the automatic import of finished scans (../results/) and the automatic
 * lists sync (../lists/). ensureImportTrigger reuses one that exists; removal keeps it while the
 * automatic lists sync is on.
 */
import { activeSpreadsheet } from '../services';
import { autoSyncEnabled } from '../lists/auto';

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

export function removeImportTriggers(): void {
  // The one trigger is shared with the automatic lists sync: it stays while that is on.
  if (autoSyncEnabled()) return;
  for (const t of ownTriggers()) ScriptApp.deleteTrigger(t);
}
