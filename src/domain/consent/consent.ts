/**
 * Consent a seller may give in part (granular OAuth consent, workspaceupdates.googleblog.com 2025/08):
 * at install a seller may untick any scope. The features that stand alone ask before their calls
 * (the binder's requireConsent): the hourly trigger (`script.scriptapp`), Save to Drive
 * (`drive.file`), the schedule email (`script.send_mail`). Pure: the scope of a feature and the words
 * a seller reads; the scopes and their consent lines come from the one table, tools/build/scopes.cjs.
 */
/** A feature that needs a scope of its own. */
export type ConsentFeature = 'trigger' | 'drive' | 'mail';

/** What the seller calls each feature. */
const WHAT: Record<ConsentFeature, string> = {
  trigger: 'Automatic import, automatic sync and scheduled re-scans (the hourly run while the sidebar is closed)',
  drive: 'Save to Drive',
  mail: 'The summary email after a scheduled re-scan',
};

export const CONSENT_FEATURES: readonly ConsentFeature[] = ['trigger', 'drive', 'mail'];

/** The scope a feature needs and the line Google's consent screen shows for it. */
export function featureScope(feature: ConsentFeature): { scope: string; consent: string } {
  const row = ADDON_SCOPES.find((s) => s.need === feature);
  if (!row) throw new Error('No scope is declared for ' + feature + ' (tools/build/scopes.cjs).');
  return { scope: row.scope, consent: row.consent };
}

/** Every scope of the manifest, with its consent line. */
export function manifestScopes(): ReadonlyArray<{ scope: string; consent: string }> {
  return ADDON_SCOPES;
}

/** Which permission a feature needs and that the seller did not give it. */
export function consentNeedText(feature: ConsentFeature): string {
  return `${WHAT[feature]} needs the permission "${featureScope(feature).consent}", which you did not give the add-on.`;
}

/**
 * What a seller reads when a feature stopped for its permission. The link is at the top of the
 * sidebar (getConsent: the sidebar asks again after every failure).
 */
export function consentText(feature: ConsentFeature): string {
  return consentNeedText(feature) + ' Allow it with the link at the top of the sidebar, then try again; nothing was changed.';
}

/** How Google's failures of each feature's calls read when its scope is missing (besides naming the scope). */
const FAILS: Record<ConsentFeature, RegExp> = {
  trigger: /\bScriptApp\./,
  drive: /\bdrive\.files\.|\bDrive\.Files\./,
  mail: /\bMailApp\./,
};

/**
 * A failure that a missing permission caused, in a seller's words; null when the message is of
 * another kind or the permission is in fact granted (`needed`: the link while the scope is missing,
 * else null).
 */
export function consentFailureOf(message: string, needed: (scope: string) => string | null): Error | null {
  if (!/Authorization is required|You do not have permission|insufficient authentication scopes/i.test(message)) return null;
  for (const feature of CONSENT_FEATURES) {
    const { scope } = featureScope(feature);
    if (message.indexOf(scope) < 0 && !FAILS[feature].test(message)) continue;
    if (needed(scope) !== null) return new Error(consentText(feature));
  }
  return null;
}
