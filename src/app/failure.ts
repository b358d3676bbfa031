/**
 * How a server function's failure tells the sidebar to open Settings: shared by the server (which
 * adds the marker) and the sidebar (which reads it). The one piece of runtime code the two share.
 */

/**
 * A server function's failure message that starts with this marker means "the API key is missing
 * or was refused" (401): the sidebar shows the rest of the message and opens Settings. Added by the
 * scan-flow server functions; read it with readFailure.
 */
export const OPEN_SETTINGS_MARKER = '[open-settings] ';

/** What a failure handler got, as the user should see it: Google's "Error: "/"Exception: " prefix and the marker removed. */
export function readFailure(message: string): { message: string; openSettings: boolean } {
  let m = String(message || '').replace(/^(Error|Exception|ScriptError):\s*/, '');
  const openSettings = m.indexOf(OPEN_SETTINGS_MARKER) === 0;
  if (openSettings) m = m.slice(OPEN_SETTINGS_MARKER.length);
  return { message: m, openSettings };
}
