/**
 * The sidebar's contract with getConsent: types only (nothing runs, nothing is bundled). See
 * src/app/protocol.ts for the rules every server function follows.
 */

/** A feature whose permission the seller did not give (granular consent), with Google's link. */
export interface ConsentNeedView {
  feature: 'trigger' | 'drive' | 'mail';
  /** What the seller reads: the feature, the permission as Google's consent screen names it. */
  text: string;
  /** Google's authorisation link (getAuthorizationUrl), or null when Google gave none. */
  url: string | null;
}

/** What the sidebar shows at its top while a permission is missing. */
export interface ConsentView {
  missing: ConsentNeedView[];
  /** The hourly run found that Google needs the seller to authorise again (a new version asks for more), or null. */
  reauth: string | null;
  /** The link for that (null when none). */
  reauthUrl: string | null;
}

export interface ConsentServerFunctions {
  getConsent(): ConsentView;
}
