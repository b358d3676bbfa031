/**
 * The sidebar's contract with getConsent: types only (nothing runs, nothing is bundled). See
 * src/app/protocol.ts for the rules every server function follows.
 */

/**
 * One line at the top of the sidebar: a feature whose permission the seller did not give (granular
 * consent), or 'reauth': the hourly run found that Google needs the seller to authorise again (a new
 * version asks for more).
 */
export interface ConsentNoticeView {
  about: 'trigger' | 'drive' | 'mail' | 'reauth';
  /** What the seller reads (the whole line is the link): the feature, the permission as Google's consent screen names it, what to do. */
  text: string;
  /** Google's authorisation link (getAuthorizationUrl), or null when Google gave none. */
  url: string | null;
}

/** What the sidebar shows at its top while a permission is missing (nothing when all are given). */
export interface ConsentView {
  notices: ConsentNoticeView[];
}

export interface ConsentServerFunctions {
  /**
   * Granular consent: what the hourly run recorded (Google needs this user to authorise again) and
   * each feature whose scope the user did not grant (trigger, drive, mail), each with Google's
   * authorisation link; the sidebar shows them under its tabs. Those features check before their
   * calls: the trigger is not made, Save to Drive fails before writing, the schedule email is not sent.
   */
  getConsent(): ConsentView;
}
