/**
 * Granular consent and the hourly run. A seller may untick any scope at install, and a new version
 * that adds a scope leaves existing users' triggers failing until they authorise again (editor-triggers,
 * "authorization challenges after updates"); Google emails add-on users nothing about trigger
 * failures. So every trigger run first reads getAuthorizationInfo(FULL) and, when authorisation is
 * required, records it for this USER (user properties: in a trigger, its owner's) and goes on with
 * what it may still do; it never throws for it. The sidebar's getConsent shows the record and every
 * feature whose permission is missing, each with Google's link.
 */
import { authorizationNeeded, authorizedScopes, formatInSpreadsheetZone, userProperties } from '../../apps-script';
import { CONSENT_FEATURES, consentNeedText, featureScope, manifestScopes } from '../../domain/consent/consent';
import { TRIGGER_REAUTH_KEY } from '../../store/keys';
import type { ConsentView } from './protocol';

interface ReauthRecord {
  at: number;
  url: string;
  /** The consent lines of the scopes not granted, when Google says which (getAuthorizedScopes). */
  missing: string[];
}

function readReauth(): ReauthRecord | null {
  try {
    const v = JSON.parse(userProperties().getProperty(TRIGGER_REAUTH_KEY) || 'null');
    if (v && typeof v.at === 'number')
      return { at: v.at, url: String(v.url || ''), missing: Array.isArray(v.missing) ? v.missing.map(String) : [] };
  } catch (_e) {
    // unreadable: as if none
  }
  return null;
}

function clearReauth(): void {
  try {
    if (userProperties().getProperty(TRIGGER_REAUTH_KEY) !== null) userProperties().deleteProperty(TRIGGER_REAUTH_KEY);
  } catch (_e) {
    // left for the next run
  }
}

/**
 * At the start of a trigger run: records (or clears) whether Google needs this user to authorise
 * again. Never throws. Answers whether authorisation is required.
 */
export function noteTriggerAuthorization(at: number): boolean {
  const url = authorizationNeeded();
  if (url === null) {
    clearReauth();
    return false;
  }
  const granted = authorizedScopes(manifestScopes().map((s) => s.scope));
  const missing = granted
    ? manifestScopes()
        .filter((s) => !granted.includes(s.scope))
        .map((s) => s.consent)
    : [];
  try {
    userProperties().setProperty(TRIGGER_REAUTH_KEY, JSON.stringify({ at, url, missing }));
  } catch (_e) {
    // nothing more to do: the sidebar still lists the missing permissions itself
  }
  console.log('hourly run: Google needs the user to authorise the add-on again; recorded for the sidebar.');
  return true;
}

/** What the hourly run recorded, in a seller's words, or null. */
function reauthText(rec: ReauthRecord): string {
  const when = formatInSpreadsheetZone(new Date(rec.at), 'MMM d, HH:mm');
  const what = rec.missing.length ? ` (missing: ${rec.missing.map((m) => '"' + m + '"').join(', ')})` : '';
  return `The hourly run at ${when} found that Google needs you to allow this add-on again${what}: an update asks for a permission you have not given. Until you do, what needs it does not run while the sidebar is closed.`;
}

/** Sidebar: every feature whose permission this user did not give, and what the hourly run recorded. */
export function getConsent(): ConsentView {
  const missing = CONSENT_FEATURES.flatMap((feature) => {
    const url = authorizationNeeded([featureScope(feature).scope]);
    return url === null ? [] : [{ feature, text: consentNeedText(feature), url: /^https:\/\//.test(url) ? url : null }];
  });
  let rec = readReauth();
  // Authorised again since: the record no longer applies.
  if (rec && authorizationNeeded() === null) {
    clearReauth();
    rec = null;
  }
  return {
    missing,
    reauth: rec ? reauthText(rec) : null,
    reauthUrl: rec && /^https:\/\//.test(rec.url) ? rec.url : null,
  };
}
