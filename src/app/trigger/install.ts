/**
 * The add-on's one hourly trigger: at most one time-driven trigger per user and document (Google's
 * add-on rule), shared by the automatic import of finished scans (../results/) and the automatic
 * lists sync (../lists/). ensureImportTrigger reuses one that exists; removal keeps it while the
 * automatic lists sync is on.
 */
import {
  activeSpreadsheet,
  userProperties,
  projectTriggers,
  installHourlyTrigger,
  deleteTrigger,
  authorizationNeeded,
} from '../../apps-script';
import { consentNeedText, featureScope } from '../../domain/consent/consent';
import { autoSyncEnabled } from './auto-sync';
import { hasActiveSchedule } from '../../store/schedules';

/** The handler's name: must be a top-level function of the bundle (exported from src/main.ts). */
export const IMPORT_TRIGGER_HANDLER = 'importFinishedScans';

/**
 * The user's hourly trigger, found by its handler among the triggers getProjectTriggers lists (it
 * lists time-driven ones; getUserTriggers(spreadsheet) may not, and then a second trigger would be
 * refused and the first could never be removed). For an add-on, whether it lists the user's
 * triggers of OTHER documents too is not documented (docs/first-push.md); the local runtime lists
 * this document's (chosen).
 */
function ownTriggers(): GoogleAppsScript.Script.Trigger[] {
  return projectTriggers().filter((t) => t.getHandlerFunction() === IMPORT_TRIGGER_HANDLER);
}

/**
 * What the user is told when Google refuses the trigger because the user already has 20 triggers of
 * this add-on (one per document where automatic import or sync runs): nothing automatic here, what
 * frees one, and that everything works by hand.
 */
export const TRIGGER_LIMIT_NOTICE =
  'Automatic import and automatic sync cannot run in this document: Google allows each person 20 automatic triggers for this add-on (one per document), and your other documents use all 20. ' +
  'To free one, open a document you no longer need, turn off "Sync automatically" under Lists and import or delete its running scans. ' +
  'Until then everything works by hand here: open the sidebar to import finished scans, and use Sync now.';

/** The hourly trigger could not be made for another reason (it is retried on the next scan or sidebar visit). */
export const TRIGGER_FAILED_NOTICE =
  'Automatic import and automatic sync are not running in this document: Google did not let the add-on set up its hourly trigger. Open the sidebar to import finished scans, and use Sync now.';

/**
 * Whether the hourly trigger is there ('on'), refused for the 20-trigger limit, refused otherwise, or
 * not made because the seller did not grant its scope (granular consent: 'consent').
 */
export type TriggerState = 'on' | 'limit' | 'failed' | 'consent';

/**
 * Google's refusals of a trigger: a 21st of a script for one user ("This script has too many
 * triggers…") and a second time-driven one of an add-on in a document ("This add-on has created too
 * many time-based triggers in this document for this Google user account.", the wording public
 * add-on issue trackers quote).
 */
export function isTriggerLimit(e: unknown): boolean {
  return /too many (time-based )?triggers/i.test(e instanceof Error ? e.message : String(e));
}

/** The notice for a state, or null when the trigger is on. */
export function triggerNotice(state: TriggerState): string | null {
  if (state === 'consent')
    return (
      consentNeedText('trigger') +
      ' Allow it with the link at the top of the sidebar. Until then everything works by hand here: open the sidebar to import finished scans, and use Sync now.'
    );
  return state === 'on' ? null : state === 'limit' ? TRIGGER_LIMIT_NOTICE : TRIGGER_FAILED_NOTICE;
}

/**
 * Makes sure the hourly import trigger exists for the current user in this document (call it when a
 * scan starts). Never throws: a refusal is answered as 'limit' (Google's 20 triggers per user and
 * script) or 'failed', and the caller tells the user (the sidebar still imports when opened).
 */
export function ensureImportTrigger(): TriggerState {
  // Without the trigger scope nothing below may run (granular consent): say which permission.
  if (authorizationNeeded([featureScope('trigger').scope]) !== null) return 'consent';
  try {
    if (ownTriggers().length) return 'on';
    installHourlyTrigger(IMPORT_TRIGGER_HANDLER);
    return 'on';
  } catch (e) {
    console.log('import trigger not created: ' + (e instanceof Error ? e.message : String(e)));
    return isTriggerLimit(e) ? 'limit' : 'failed';
  }
}

export function removeImportTriggers(): void {
  // The one trigger is shared with the automatic lists sync: it stays while that is on.
  if (autoSyncEnabled()) return;
  // ... and while this user has a re-scan schedule running in this document.
  if (hasActiveSchedule(userProperties(), activeSpreadsheet().getId())) return;
  // Without the trigger scope there is none of ours to remove, and listing would fail.
  if (authorizationNeeded([featureScope('trigger').scope]) !== null) return;
  for (const t of ownTriggers()) deleteTrigger(t);
}
