/** Session: the running user, the script's time zone, a per-user temporary key. */
import { createHash } from 'node:crypto';
import type { RuntimeState } from './execution';
import { requireService } from './permissions';

class LocalUser {
  constructor(private readonly email: string) {}
  getEmail(): string {
    return this.email;
  }
  /** Deprecated in Apps Script; the email, as Google returns. */
  getUserLoginId(): string {
    return this.email;
  }
  toString(): string {
    return this.email;
  }
}

/** The local runtime's scriptId (index.ts), exported for tests that build a user's temporary key. */
export const LOCAL_SCRIPT_ID = 'local-script-id';

/** Google: the temporary key "rotates every 30 days" (Session reference, getTemporaryActiveUserKey). */
export const USER_KEY_ROTATION_MS = 30 * 24 * 3600_000;

/**
 * Session.getTemporaryActiveUserKey() of `user`: per user and script, not the email (format chosen).
 * `generation`: how many times it has rotated (0: the key of the runtime's first 30 days, in the
 * sidebar); `trigger`: the key an installable trigger sees when RuntimeState.userKeys.trigger is 'other'.
 */
export function temporaryActiveUserKey(user: string, scriptId: string = LOCAL_SCRIPT_ID, generation = 0, trigger = false): string {
  const salt = (generation ? `\n${generation}` : '') + (trigger ? '\ntrigger' : '');
  return createHash('sha256').update(`${scriptId}\n${user}${salt}`).digest('base64').replace(/=+$/, '');
}

export function createSession(state: RuntimeState, opts: { scriptTimeZone: () => string; scriptId: string }) {
  const use = (method?: string) => requireService(state, 'Session', method);
  // Where Google withholds the identity, getEmail() is '' (Session reference, getActiveUser: "the
  // user's email address is not available in any context that allows a script to run without that
  // user's authorization, like a simple onOpen(e) or onEdit(e) trigger, a custom function"): custom
  // functions, simple triggers (also in LIMITED), AuthMode NONE, and the users Google withholds it
  // from even when they authorized (state.withheldEmails: "many cross-domain consumer cases").
  // The method itself needs the userinfo.email scope (scopes.ts), else it throws.
  const email = () => {
    const e = state.exec();
    if (e.authMode === 'CUSTOM_FUNCTION' || e.authMode === 'NONE' || (e.kind === 'simple-trigger' && e.authMode !== 'FULL')) return '';
    return state.withheldEmails.has(e.user) ? '' : e.user;
  };
  return {
    getActiveUser(): LocalUser {
      use('getActiveUser');
      return new LocalUser(email());
    },
    /** For an add-on the effective user is the user running it. */
    getEffectiveUser(): LocalUser {
      use('getEffectiveUser');
      return new LocalUser(email());
    },
    getScriptTimeZone(): string {
      use();
      return opts.scriptTimeZone();
    },
    getActiveUserLocale(): string {
      use();
      return 'en';
    },
    /** Per user and script, not the email; rotates every 30 days of the virtual clock (format chosen). */
    getTemporaryActiveUserKey(): string {
      use();
      const e = state.exec();
      const k = state.userKeys;
      const generation = Math.floor((state.clock.now() - k.since) / USER_KEY_ROTATION_MS) + k.rotations;
      return temporaryActiveUserKey(
        e.user,
        opts.scriptId,
        Math.max(0, generation),
        k.trigger === 'other' && e.kind === 'installable-trigger',
      );
    },
  };
}
