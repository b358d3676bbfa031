/**
 * Google's daily-quota errors, recognised (pure: no Apps Script call; src/app/trigger/quota.ts has what
 * the trigger does about them, src/app/context.ts turns them into sidebar messages).
 */

export type QuotaKind = 'urlfetch' | 'properties' | 'runtime';
export const QUOTA_WHAT: Record<QuotaKind, string> = {
  urlfetch: 'URL Fetch calls',
  properties: 'property reads and writes',
  runtime: 'trigger runtime',
};

/**
 * Which daily quota an exception says was spent, or null. Google's messages:
 * "Service invoked too many times for one day: urlfetch." (and ": properties.", ": graphite property
 * writes.") and "Service using too much computer time for one day."
 */
export function dailyQuotaOf(e: unknown): QuotaKind | null {
  const m = e instanceof Error ? e.message : String(e);
  if (/Service using too much computer time for one day/.test(m)) return 'runtime';
  const x = /Service invoked too many times for one day: ([^.]*)/.exec(m);
  if (!x) return null;
  if (/propert/i.test(x[1])) return 'properties';
  // Another service's day (": email.", MailApp's recipients) stops neither imports nor syncs.
  return /urlfetch/i.test(x[1]) ? 'urlfetch' : null;
}

/** A sidebar call refused by a daily quota: what to tell the user instead of Google's bare message. */
export function quotaErrorMessage(q: QuotaKind): string {
  return `Google's daily quota of ${QUOTA_WHAT[q]} for your account is used up (it is shared by all your scripts and add-ons), so this cannot be done now. Nothing was lost; try again after Google resets it, within 24 hours.`;
}
