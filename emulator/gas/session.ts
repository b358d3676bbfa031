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

export function createSession(state: RuntimeState, opts: { scriptTimeZone: () => string; scriptId: string }) {
  const use = () => requireService(state, 'Session');
  // Where Google withholds the identity (custom functions, AuthMode NONE), getEmail() is ''
  // (Session reference: "returns a blank string if the email address is not available"). (chosen for NONE)
  const email = () => {
    const e = state.exec();
    return e.authMode === 'CUSTOM_FUNCTION' || e.authMode === 'NONE' ? '' : e.user;
  };
  return {
    getActiveUser(): LocalUser {
      use();
      return new LocalUser(email());
    },
    /** For an add-on the effective user is the user running it. */
    getEffectiveUser(): LocalUser {
      use();
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
    /** Stable per user and script, not the email. (format chosen) */
    getTemporaryActiveUserKey(): string {
      use();
      return createHash('sha256').update(`${opts.scriptId}\n${state.exec().user}`).digest('base64').replace(/=+$/, '');
    },
  };
}
