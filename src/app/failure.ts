/**
 * How a failure reaches a seller, read in one place: the markers a server message may start with,
 * and what the message becomes in the sidebar (which acts on the marker) and in a menu alert, a
 * dialog or a toast (which show plain words only). Shared by the server (which adds a marker) and the
 * sidebar (which reads it): the one piece of runtime code the two share.
 */

/**
 * "The API key is missing or was refused" (401): the sidebar shows the rest of the message and opens
 * Settings. Added by asSidebarCall (src/app/context.ts) for such API problems.
 */
export const OPEN_SETTINGS_MARKER = '[open-settings] ';
/**
 * "The results will not fit in this spreadsheet": the sidebar offers "Send anyway" beside the message.
 * Added by startScan when it refuses a scan for room.
 */
export const NEEDS_ROOM_MARKER = '[needs-room] ';

/** A failure as the seller should read it, with what the markers asked for. */
export interface Failure {
  message: string;
  openSettings: boolean;
  needsRoom: boolean;
}

/** The message with `marker` in front, as its only marker. */
export function withMarker(marker: typeof OPEN_SETTINGS_MARKER | typeof NEEDS_ROOM_MARKER, message: string): string {
  return marker + readFailure(message).message;
}

/** What a failure handler got, as the user should see it: Google's "Error: "/"Exception: " prefix and the marker removed (one at most: withMarker). */
export function readFailure(message: string): Failure {
  const m = String(message || '').replace(/^(Error|Exception|ScriptError):\s*/, '');
  const openSettings = m.indexOf(OPEN_SETTINGS_MARKER) === 0;
  const needsRoom = m.indexOf(NEEDS_ROOM_MARKER) === 0;
  // Every marker ends with "] ".
  return { message: openSettings || needsRoom ? m.slice(m.indexOf('] ') + 2) : m, openSettings, needsRoom };
}

/** Where a seller finds Settings when nothing on screen opens it for them. */
export const SETTINGS_STEP = 'Open Extensions > Product Sourcing Scan > Settings and paste the key from Integrations > API Access.';

/**
 * The words a menu alert, a dialog or a toast shows: no marker, and when the marker asked the sidebar
 * to open Settings (which a menu cannot), the way there, unless the message already says it.
 */
export function forSeller(message: string): string {
  const f = readFailure(message);
  if (f.openSettings && !/Settings/.test(f.message)) return f.message.replace(/\s*$/, ' ') + SETTINGS_STEP;
  return f.message;
}
