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
import { record } from '../../store/records';
import type { ConsentNoticeView, ConsentView } from './protocol';

interface ReauthRecord {
  at: number;
  url: string;
  /** The consent lines of the scopes not granted, when Google says which (getAuthorizedScopes). */
  missing: string[];
}

const REAUTH = record<ReauthRecord>(TRIGGER_REAUTH_KEY, {
  decode: (raw) => {
    const v = raw as Record<string, unknown> | null;
    return v && typeof v.at === 'number'
      ? { at: v.at, url: String(v.url || ''), missing: Array.isArray(v.missing) ? v.missing.map(String) : [] }
      : null;
  },
});

function readReauth(): ReauthRecord | null {
  try {
    return REAUTH.get(userProperties());
  } catch (_e) {
    // unreadable: as if none
  }
  return null;
}

function clearReauth(): void {
  try {
    if (userProperties().getProperty(REAUTH.key()) !== null) REAUTH.remove(userProperties());
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
    REAUTH.put(userProperties(), { at, url, missing });
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
  return `The hourly run at ${when} found that Google needs you to allow this add-on again${what} (you did not give it, or an update asks for it): until you do, what needs it does not run while the sidebar is closed.`;
}

const httpsOrNull = (url: string | null) => (url && /^https:\/\//.test(url) ? url : null);

/** Sidebar: what the hourly run recorded, then every feature whose permission this user did not give. */
export function getConsent(): ConsentView {
  const notices: ConsentNoticeView[] = [];
  const rec = readReauth();
  // Authorised again since: the record no longer applies.
  if (rec && authorizationNeeded() === null) clearReauth();
  else if (rec) notices.push({ about: 'reauth', text: reauthText(rec) + ' Allow the add-on again.', url: httpsOrNull(rec.url) });
  for (const feature of CONSENT_FEATURES) {
    const url = authorizationNeeded([featureScope(feature).scope]);
    if (url !== null) notices.push({ about: feature, text: consentNeedText(feature) + ' Allow it in Google.', url: httpsOrNull(url) });
  }
  return { notices };
}
