/**
 * ScriptApp: AuthMode and other enums, and installable triggers. Time-driven triggers fire from
 * Runtime.runDueTriggers() on the VIRTUAL clock. Add-on rules (add-ons guide, editor triggers):
 * time-driven triggers at most once an hour, one trigger of each event type per user per document;
 * 20 triggers per user per script for every script.
 */
import { randomBytes } from 'node:crypto';
import type { RuntimeState } from './execution';
import { gasError, isDate } from './realm';
import { requireService } from './permissions';
import { grantedScopes } from './scopes';

export const AuthModeEnum = Object.freeze({ NONE: 'NONE', CUSTOM_FUNCTION: 'CUSTOM_FUNCTION', LIMITED: 'LIMITED', FULL: 'FULL' });
export const EventType = Object.freeze({
  CLOCK: 'CLOCK',
  ON_OPEN: 'ON_OPEN',
  ON_EDIT: 'ON_EDIT',
  ON_FORM_SUBMIT: 'ON_FORM_SUBMIT',
  ON_CHANGE: 'ON_CHANGE',
  ON_EVENT_UPDATED: 'ON_EVENT_UPDATED',
});
export const TriggerSource = Object.freeze({
  SPREADSHEETS: 'SPREADSHEETS',
  CLOCK: 'CLOCK',
  FORMS: 'FORMS',
  DOCUMENTS: 'DOCUMENTS',
  CALENDAR: 'CALENDAR',
});
export const WeekDay = Object.freeze({
  MONDAY: 'MONDAY',
  TUESDAY: 'TUESDAY',
  WEDNESDAY: 'WEDNESDAY',
  THURSDAY: 'THURSDAY',
  FRIDAY: 'FRIDAY',
  SATURDAY: 'SATURDAY',
  SUNDAY: 'SUNDAY',
});
export const AuthorizationStatus = Object.freeze({ REQUIRED: 'REQUIRED', NOT_REQUIRED: 'NOT_REQUIRED' });

export const MAX_TRIGGERS_PER_USER = 20;
const HOUR = 3600000;
const EVERY_MINUTES_ALLOWED = [1, 5, 10, 15, 30];
const EVERY_HOURS_ALLOWED = [1, 2, 4, 6, 8, 12];

// Google's messages: the first two are quoted in public add-on bug reports
// (github.com/ttsukagoshi/mail-merge-for-gmail/issues/165, ljay79/jira-tools/issues/53); the third is
// the wording Apps Script uses for the 20-trigger quota (from memory of public logs, not re-verified).
export const ADDON_RECURRENCE_MESSAGE = 'The recurrence interval for an Add-on trigger must be at least one hour.';
export const ADDON_ONE_PER_TYPE_MESSAGE =
  'This add-on has created too many time-based triggers in this document for this Google user account.';
/**
 * The same refusal for the other event types. Only the time-based wording is documented in public
 * logs; these follow its pattern with the type's name (chosen).
 */
const TRIGGER_KIND_WORDS: Record<string, string> = {
  CLOCK: 'time-based',
  ON_OPEN: 'open',
  ON_EDIT: 'edit',
  ON_CHANGE: 'change',
  ON_FORM_SUBMIT: 'form submit',
};
export function addonOnePerTypeMessage(eventType: string): string {
  return `This add-on has created too many ${TRIGGER_KIND_WORDS[eventType] ?? eventType.toLowerCase()} triggers in this document for this Google user account.`;
}
/**
 * What requireScopes throws when the user has not granted a scope it names (chosen: Google's page
 * says the execution ends and the user is asked for the missing consent; this is the wording Apps
 * Script shows for an execution that needs authorisation).
 */
export const AUTHORIZATION_REQUIRED_MESSAGE = 'Authorization is required to perform that action.';

/**
 * The authorisation link of getAuthorizationInfo (chosen form: Google documents only that it is a URL
 * that asks the user for the missing consent, and null when none is missing).
 */
export function authorizationUrl(scriptId: string): string {
  return `https://script.google.com/macros/d/${scriptId}/authorize`;
}

export const TOO_MANY_TRIGGERS_MESSAGE =
  'This script has too many triggers. Triggers must be deleted from the script before more can be added.';

/** One installed trigger (runtime-side record). */
export interface TriggerRecord {
  uid: string;
  handler: string;
  user: string;
  eventType: string;
  source: string;
  sourceId: string;
  /** For clock triggers: next due time (virtual ms); null once a one-shot fired. */
  nextAt: number | null;
  /** Repeat interval (ms) or null for after()/at() one-shots. */
  everyMs: number | null;
}

export class TriggerTable {
  readonly records: TriggerRecord[] = [];
  forUser(user: string): TriggerRecord[] {
    return this.records.filter((t) => t.user === user);
  }
  remove(uid: string): void {
    const i = this.records.findIndex((t) => t.uid === uid);
    if (i >= 0) this.records.splice(i, 1);
  }
  /** Clock triggers due at virtual time `now`, in due order. */
  due(now: number): TriggerRecord[] {
    return this.records
      .filter((t) => t.eventType === EventType.CLOCK && t.nextAt !== null && t.nextAt <= now)
      .sort((a, b) => a.nextAt! - b.nextAt!);
  }
}

class LocalTrigger {
  constructor(readonly _rec: TriggerRecord) {
    Object.defineProperty(this, '_rec', { enumerable: false });
  }
  getHandlerFunction(): string {
    return this._rec.handler;
  }
  getUniqueId(): string {
    return this._rec.uid;
  }
  getEventType(): string {
    return this._rec.eventType;
  }
  getTriggerSource(): string {
    return this._rec.source;
  }
  getTriggerSourceId(): string {
    return this._rec.sourceId;
  }
}

export interface ScriptAppOptions {
  addOn: boolean;
  documentId: string | null;
  scriptId: string;
}

/** What the trigger builders of one ScriptApp share with it. */
interface BuilderContext {
  state: RuntimeState;
  opts: ScriptAppOptions;
  manage(): void;
  install(rec: Omit<TriggerRecord, 'uid' | 'user'>): LocalTrigger;
}

class ClockTriggerBuilder {
  private everyMs: number | null = null;
  private firstAt: number | null = null;
  constructor(
    private readonly ctx: BuilderContext,
    private readonly handler: string,
  ) {}
  everyMinutes(n: number): this {
    if (!EVERY_MINUTES_ALLOWED.includes(Number(n)))
      throw gasError(this.ctx.state, 'Invalid argument: minutes. Allowed values are 1, 5, 10, 15 and 30.');
    this.everyMs = Number(n) * 60000;
    return this;
  }
  everyHours(n: number): this {
    if (!EVERY_HOURS_ALLOWED.includes(Number(n)))
      throw gasError(this.ctx.state, 'Invalid argument: hours. Allowed values are 1, 2, 4, 6, 8 and 12.');
    this.everyMs = Number(n) * HOUR;
    return this;
  }
  everyDays(n: number): this {
    this.everyMs = Number(n) * 24 * HOUR;
    return this;
  }
  everyWeeks(n: number): this {
    this.everyMs = Number(n) * 7 * 24 * HOUR;
    return this;
  }
  after(ms: number): this {
    this.firstAt = this.ctx.state.clock.now() + Math.max(0, Number(ms));
    this.everyMs = null;
    return this;
  }
  at(date: Date): this {
    if (!isDate(date)) throw gasError(this.ctx.state, 'Invalid argument: date');
    this.firstAt = date.getTime();
    this.everyMs = null;
    return this;
  }
  create(): LocalTrigger {
    this.ctx.manage();
    if (this.everyMs === null && this.firstAt === null) throw gasError(this.ctx.state, 'Missing required clock trigger schedule.');
    if (this.ctx.opts.addOn && this.everyMs !== null && this.everyMs < HOUR) throw gasError(this.ctx.state, ADDON_RECURRENCE_MESSAGE);
    return this.ctx.install({
      handler: this.handler,
      eventType: EventType.CLOCK,
      source: TriggerSource.CLOCK,
      // Add-on triggers belong to the document they were created in.
      sourceId: this.ctx.opts.documentId ?? '',
      nextAt: this.firstAt ?? this.ctx.state.clock.now() + this.everyMs!,
      everyMs: this.everyMs,
    });
  }
}

class SpreadsheetTriggerBuilder {
  private eventType: string | null = null;
  constructor(
    private readonly ctx: BuilderContext,
    private readonly handler: string,
    private readonly sourceId: string,
  ) {}
  onOpen(): this {
    this.eventType = EventType.ON_OPEN;
    return this;
  }
  onEdit(): this {
    this.eventType = EventType.ON_EDIT;
    return this;
  }
  onChange(): this {
    this.eventType = EventType.ON_CHANGE;
    return this;
  }
  onFormSubmit(): this {
    this.eventType = EventType.ON_FORM_SUBMIT;
    return this;
  }
  create(): LocalTrigger {
    if (!this.eventType) throw gasError(this.ctx.state, 'Missing required spreadsheet trigger event type.');
    return this.ctx.install({
      handler: this.handler,
      eventType: this.eventType,
      source: TriggerSource.SPREADSHEETS,
      sourceId: this.sourceId,
      nextAt: null,
      everyMs: null,
    });
  }
}

export function createScriptApp(state: RuntimeState, table: TriggerTable, opts: ScriptAppOptions) {
  const manage = (method?: string) => requireService(state, 'ScriptApp', method);
  const wrap = (list: TriggerRecord[]) => state.realm.Array.from(list, (r) => new LocalTrigger(r)) as LocalTrigger[];

  function install(rec: Omit<TriggerRecord, 'uid' | 'user'>): LocalTrigger {
    manage();
    state.serviceCall();
    const user = state.exec().user;
    const mine = table.forUser(user);
    if (mine.length >= MAX_TRIGGERS_PER_USER) throw gasError(state, TOO_MANY_TRIGGERS_MESSAGE);
    if (opts.addOn && mine.some((t) => t.eventType === rec.eventType && t.sourceId === (opts.documentId ?? '')))
      throw gasError(state, addonOnePerTypeMessage(rec.eventType));
    const full: TriggerRecord = { ...rec, uid: String(BigInt('0x' + randomBytes(8).toString('hex')) % 10n ** 19n), user };
    table.records.push(full);
    return new LocalTrigger(full);
  }
  const builders: BuilderContext = { state, opts, manage: () => manage(), install };

  /**
   * Granular consent (reference/script/script-app, reference/script/authorization-info): only FULL
   * needs a user's grant ("no other authorization mode requires that users grant authorization"), so
   * in any other mode nothing is missing. In FULL a scope is missing when the manifest asks for it
   * and the user did not grant it, or when the manifest does not ask for it (no one can grant it).
   */
  function missingOf(authMode: unknown, scopes: readonly string[] | null): { asked: string[]; missing: string[] } {
    const manifest = state.scopes;
    const asked = scopes ? scopes.map(String) : manifest ? [...manifest] : [];
    if (String(authMode) !== AuthModeEnum.FULL || !manifest) return { asked, missing: [] };
    const granted = grantedScopes(state, state.exec().user)!;
    return { asked, missing: asked.filter((s) => !granted.has(s)) };
  }
  const scopeList = (v: unknown): string[] => {
    if (!Array.isArray(v)) throw gasError(state, 'Invalid argument: oAuthScopes');
    return v.map(String);
  };

  return {
    AuthMode: AuthModeEnum,
    EventType,
    TriggerSource,
    WeekDay,
    AuthorizationStatus,
    getScriptId(): string {
      return opts.scriptId;
    },
    /** Ends the execution (throws) when the user has not granted one of `scopes` (FULL only). */
    requireScopes(authMode: unknown, scopes: unknown): void {
      state.checkLimit();
      if (missingOf(authMode, scopeList(scopes)).missing.length) throw gasError(state, AUTHORIZATION_REQUIRED_MESSAGE);
    },
    requireAllScopes(authMode: unknown): void {
      state.checkLimit();
      if (missingOf(authMode, null).missing.length) throw gasError(state, AUTHORIZATION_REQUIRED_MESSAGE);
    },
    /**
     * AuthorizationInfo: status REQUIRED while any of `scopes` (default: every scope of the manifest)
     * is not granted, with the link that asks for it (null when nothing is missing); the authorised
     * scopes among those asked about.
     */
    getAuthorizationInfo(authMode: unknown, scopes?: unknown) {
      state.checkLimit();
      state.serviceCall();
      const { asked, missing } = missingOf(authMode, scopes === undefined ? null : scopeList(scopes));
      const required = missing.length > 0;
      const authorized = asked.filter((s) => !missing.includes(s));
      return {
        getAuthorizationStatus: () => (required ? AuthorizationStatus.REQUIRED : AuthorizationStatus.NOT_REQUIRED),
        getAuthorizationUrl: () => (required ? authorizationUrl(opts.scriptId) : null),
        getAuthorizedScopes: () => state.realm.Array.from(authorized),
      };
    },
    /** The current user's triggers (for add-ons: in this document). (chosen) */
    getProjectTriggers(): LocalTrigger[] {
      manage('getProjectTriggers');
      state.serviceCall();
      const user = state.exec().user;
      return wrap(table.forUser(user).filter((t) => !opts.addOn || t.sourceId === (opts.documentId ?? '')));
    },
    /**
     * The user's triggers whose source is this document: its open/edit/change/form-submit triggers.
     * A time-driven trigger's source is the clock, not the document (Trigger.getTriggerSource() is
     * CLOCK), and Google's page does not say this method lists it: here it does not (chosen, the
     * stricter world; getProjectTriggers lists it).
     */
    getUserTriggers(doc: { getId(): string }): LocalTrigger[] {
      manage('getUserTriggers');
      state.serviceCall();
      const user = state.exec().user;
      const id = doc.getId();
      return wrap(table.forUser(user).filter((t) => t.sourceId === id && t.eventType !== EventType.CLOCK));
    },
    deleteTrigger(trigger: LocalTrigger): void {
      manage('deleteTrigger');
      state.serviceCall();
      const rec = trigger?._rec;
      if (!rec) throw gasError(state, 'Invalid argument: trigger');
      if (rec.user !== state.exec().user) throw gasError(state, 'You do not have permission to delete this trigger.'); // (chosen)
      table.remove(rec.uid);
    },
    newTrigger(functionName: string) {
      manage('newTrigger');
      const handler = String(functionName);
      return {
        timeBased: () => new ClockTriggerBuilder(builders, handler),
        forSpreadsheet: (ss: string | { getId(): string }) =>
          new SpreadsheetTriggerBuilder(builders, handler, typeof ss === 'string' ? ss : ss.getId()),
      };
    },
    getOAuthToken(): string {
      manage();
      return 'local-oauth-token';
    },
  };
}
