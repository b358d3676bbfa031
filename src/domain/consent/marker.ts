/**
 * How a failure carries Google's authorisation link to the sidebar: `[consent <url>] ` anywhere in
 * the message (a feature may wrap the binder's message in its own words). Shared by the server and
 * the sidebar (src/app/failure.ts reads it); no build-time constants here, so the sidebar may bundle it.
 */
export const CONSENT_MARKER = '[consent ';

/** The message without the marker, and the link it carried (only an https link; else null). */
export function readConsentMarker(message: string): { message: string; consentUrl: string | null } {
  const m = /\[consent (\S*)\] /.exec(message);
  if (!m) return { message, consentUrl: null };
  const url = /^https:\/\/[^\s"'<>]+$/.test(m[1]) ? m[1] : null;
  return { message: message.slice(0, m.index) + message.slice(m.index + m[0].length), consentUrl: url };
}
