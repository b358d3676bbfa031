/**
 * Google's DAILY quotas, per user, on the virtual clock: URL Fetch calls, property reads/writes, email
 * recipients (MailApp) and the total runtime of triggers (quotas page, developers.google.com/apps-script/guides/services/quotas),
 * for consumer or Workspace accounts. Counted where the call is made (urlfetch.ts, properties.ts,
 * mail.ts, index.ts for triggers); a call past a quota fails with Google's message, as Google does.
 *
 * The quota day (chosen, after the quotas page: "Quotas are per user and reset 24 hours after the
 * first request"): each quota of each user has its own window, which opens at the first use counted
 * against it and lasts 24 hours; the first use after that opens a new window from zero. (Public
 * reports also speak of a reset at midnight Pacific; Google's page says 24 hours, so that is the model.)
 */
import type { Execution } from './execution';

export type QuotaTier = 'consumer' | 'workspace';
export type QuotaName = 'urlFetchCalls' | 'urlFetchBytesReceived' | 'propertiesReadWrite' | 'triggerRuntimeMs' | 'emailRecipients';

export const QUOTA_DAY_MS = 24 * 3600_000;

/**
 * Daily limits. null = counted but not enforced: "URL Fetch data received" (100 MB/day) was on the
 * quotas page until about 2019 and is no longer (the current page lists calls only), so it is
 * reported for benchmarks and not refused unless a test sets a limit.
 */
export const DAILY_QUOTAS: Record<QuotaTier, Record<QuotaName, number | null>> = {
  consumer: {
    urlFetchCalls: 20_000,
    urlFetchBytesReceived: null,
    propertiesReadWrite: 50_000,
    triggerRuntimeMs: 90 * 60_000,
    emailRecipients: 100,
  },
  workspace: {
    urlFetchCalls: 100_000,
    urlFetchBytesReceived: null,
    propertiesReadWrite: 500_000,
    triggerRuntimeMs: 6 * 3600_000,
    emailRecipients: 1_500,
  },
};

/**
 * Messages. URL Fetch: Google's, as quoted in many public logs (e.g. github.com/bradjasper/ImportJSON/issues/189,
 * evepraisal/evepraisal-google-sheets/issues/2, joseballester/muFunds/issues/98). Trigger runtime: the
 * quotas page's "Service using too much computer time for one day." Property writes: Google's
 * internal store name, as in a public log (googleworkspace/apps-script-oauth2/issues/217); property
 * reads: chosen after the same pattern with the service's name. Data received: chosen.
 */
export const QUOTA_MESSAGES = {
  urlFetchCalls: 'Service invoked too many times for one day: urlfetch.',
  urlFetchBytesReceived: 'Service invoked too many times for one day: urlfetch data received.',
  propertyReads: 'Service invoked too many times for one day: properties.',
  propertyWrites: 'Service invoked too many times for one day: graphite property writes.',
  triggerRuntimeMs: 'Service using too much computer time for one day.',
  /** MailApp past "Email recipients per day", as public logs show it (e.g. dwyl/learn-to-send-email-via-google-script-html-no-server/issues/376). */
  emailRecipients: 'Service invoked too many times for one day: email.',
} as const;

/** How a runtime counts quotas: a tier, or false for none (a runtime that counts nothing). */
export type QuotaOption = QuotaTier | { tier?: QuotaTier; limits?: Partial<Record<QuotaName, number | null>> } | false;

interface Window {
  /** Virtual ms the window opened (the first counted use), or null before any use. */
  start: number | null;
  used: number;
}

export interface QuotaReading {
  used: number;
  limit: number | null;
  /** When the current window ends (and the count returns to zero), or null when nothing was counted. */
  resetsAt: number | null;
}
export type QuotaUsage = { tier: QuotaTier | null; user: string } & Record<QuotaName, QuotaReading>;

/** Thrown (host realm, named like Google's service errors) when a trigger execution spends the day's trigger runtime. */
export class DailyComputeTimeError extends Error {
  constructor() {
    super(QUOTA_MESSAGES.triggerRuntimeMs);
    this.name = 'Exception';
  }
}

const NAMES: QuotaName[] = ['urlFetchCalls', 'urlFetchBytesReceived', 'propertiesReadWrite', 'triggerRuntimeMs', 'emailRecipients'];

export class QuotaMeter {
  readonly tier: QuotaTier | null;
  readonly limits: Record<QuotaName, number | null>;
  private readonly users = new Map<string, Record<QuotaName, Window>>();

  constructor(
    option: QuotaOption,
    private readonly now: () => number,
  ) {
    if (option === false) {
      this.tier = null;
      this.limits = {
        urlFetchCalls: null,
        urlFetchBytesReceived: null,
        propertiesReadWrite: null,
        triggerRuntimeMs: null,
        emailRecipients: null,
      };
    } else {
      const o = typeof option === 'string' ? { tier: option } : option;
      this.tier = o.tier ?? 'consumer';
      this.limits = { ...DAILY_QUOTAS[this.tier], ...(o.limits ?? {}) };
    }
  }

  /** The user's window of `name`, rolled over when its 24 hours have passed at `at`. */
  private window(user: string, name: QuotaName, at: number): Window {
    let u = this.users.get(user);
    if (!u) this.users.set(user, (u = Object.fromEntries(NAMES.map((n) => [n, { start: null, used: 0 }])) as Record<QuotaName, Window>));
    const w = u[name];
    if (w.start !== null && at >= w.start + QUOTA_DAY_MS) {
      w.start = null;
      w.used = 0;
    }
    return w;
  }

  /** What is left of `name` for `user` now (Infinity when not enforced). */
  remaining(user: string, name: QuotaName, at = this.now()): number {
    const limit = this.limits[name];
    return limit === null ? Infinity : Math.max(0, limit - this.window(user, name, at).used);
  }

  /**
   * Counts `n` uses, or returns false and counts nothing when they would pass the limit (the caller
   * then throws Google's message; nothing of the call happens). The first use opens the window.
   */
  tryUse(user: string, name: QuotaName, n: number, at = this.now()): boolean {
    const w = this.window(user, name, at);
    const limit = this.limits[name];
    if (limit !== null && w.used + n > limit) return false;
    if (w.start === null) w.start = at;
    w.used += n;
    return true;
  }

  /** Counts `n` that already happened (data received, trigger runtime): may pass the limit. */
  add(user: string, name: QuotaName, n: number, at = this.now(), openedAt = at): void {
    const w = this.window(user, name, at);
    if (w.start === null) w.start = Math.min(openedAt, at);
    w.used += n;
  }

  /**
   * Models the user's OTHER scripts and add-ons spending the same account-wide quota today (tests and
   * benches use it to start near a limit without making 20,000 real calls).
   */
  spend(user: string, name: QuotaName, n: number): void {
    this.add(user, name, n);
  }

  usage(user: string, at = this.now()): QuotaUsage {
    const out = { tier: this.tier, user } as QuotaUsage;
    for (const n of NAMES) {
      const w = this.window(user, n, at);
      out[n] = { used: w.used, limit: this.limits[n], resetsAt: w.start === null ? null : w.start + QUOTA_DAY_MS };
    }
    return out;
  }

  /**
   * Trigger executions: the instant the running one spends the user's remaining trigger runtime, or
   * null when not enforced. Past it, the execution fails at its next service call with
   * "Service using too much computer time for one day." (chosen: like the 6-minute limit, the
   * runtime observes time only at service calls, and a script that catches it still ends with it).
   */
  triggerDeadline(exec: Execution): number | null {
    const left = this.remaining(exec.user, 'triggerRuntimeMs', exec.startedAt);
    return left === Infinity ? null : exec.startedAt + left;
  }
}
