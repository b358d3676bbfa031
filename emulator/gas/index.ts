/// <reference types="google-apps-script" />
/**
 * The local Apps Script runtime: loads the built add-on (dist/Code.js) into a vm
 * context holding only Apps Script's globals, and runs its functions as executions — each with its
 * own fresh context (Apps Script re-runs the top level every execution), user, auth mode and time
 * limit on the virtual clock. See README.md in this folder.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as vm from 'node:vm';
import { ExecutionTimeLimitError, LIMIT_MS, RuntimeState, VirtualClock, emptyCounters } from './execution';
import type { AuthMode, CostModel, Execution, ExecutionCounters, ExecutionKind, UiEvent } from './execution';
import { Workbook, createSpreadsheetApp } from './spreadsheet';
import { FormulaError } from './spreadsheet/formulas';
import type { SpreadsheetHooks } from './spreadsheet';
import { gasError, toRealm } from './realm';
import { createUtilities } from './utilities';
import { HttpWorker, createUrlFetchApp } from './urlfetch';
import { createPropertiesService, createPropertyStores, type PropertyStores } from './properties';
import { createCacheService, createCacheStores, type CacheStores } from './cache';
import { LockTable, createLockService } from './lock';
import { createHtmlService } from './html';
import { AuthModeEnum, TriggerTable, createScriptApp, type TriggerRecord } from './triggers';
import { LOCAL_SCRIPT_ID, createSession } from './session';
import { DriveStore, createDriveApp } from './drive';
import { createMailApp, type SentMail } from './mail';
import { createAdvancedDrive, enabledDriveSymbol } from './advanced-drive';
import { createLogging } from './logging';
import { documentStateOf, restoreDocumentState } from './document-state';
import { MimeTypeEnum, createContentService } from './enums';
import { transportArgs, transportResult } from './scriptrun';
import { APPS_SCRIPT_GLOBALS } from './globals';
import { requireScope } from './scopes';
import { QUOTA_MESSAGES, QuotaMeter, DailyComputeTimeError, type QuotaOption, type QuotaUsage } from './quotas';
import type { Stoppable } from '../stand-in';

/**
 * The script file compiled once per version (path, size, modification time) and run in each
 * execution's fresh context: what gas-local did on every execution (read the folder and the file,
 * decode 350 KB, hand the text to V8), without doing it again each time. The top level still runs
 * anew in every context, as in Apps Script.
 */
const compiled = new Map<string, { version: string; script: vm.Script }>();
function runScriptFile(file: string, ctx: vm.Context): void {
  const st = fs.statSync(file);
  const version = `${st.size}:${st.mtimeMs}:${st.ino}`;
  let entry = compiled.get(file);
  if (!entry || entry.version !== version) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const vmod: typeof vm = require('node:vm');
    entry = { version, script: new vmod.Script(fs.readFileSync(file, 'utf8'), { filename: file }) };
    compiled.set(file, entry);
  }
  entry.script.runInContext(ctx);
}

export { APPS_SCRIPT_GLOBALS, ADVANCED_SERVICE_GLOBALS, loadBare, extraGlobals } from './globals';
export { temporaryActiveUserKey } from './session';
export { scopeRule } from './scopes';
export { RuntimeState, VirtualClock, LIMIT_MS, DEFAULT_COST_MODEL, ExecutionTimeLimitError } from './execution';
export type { AuthMode, CostModel, ExecutionKind, UiEvent } from './execution';
export type { SentMail } from './mail';
export { DAILY_QUOTAS, QUOTA_MESSAGES, QUOTA_DAY_MS } from './quotas';
export type { QuotaName, QuotaOption, QuotaTier, QuotaUsage, QuotaReading } from './quotas';

// ADDON_OUT_DIR (as for the build) lets parallel work use its own build.
export const DEFAULT_SCRIPT_PATH = path.resolve(__dirname, '../..', process.env.ADDON_OUT_DIR || 'dist', 'Code.js');
/**
 * Replaces the context's Date with one whose "now" is the virtual clock. A subclass keeps
 * Date.UTC/parse, instanceof and every method; calling Date() as a function gives the string of now.
 */
const VIRTUAL_DATE_SOURCE = `(function (now) {
  var RealDate = Date;
  class VirtualDate extends RealDate {
    constructor(...args) { if (args.length === 0) super(now()); else super(...args); }
    static now() { return now(); }
  }
  globalThis.Date = new Proxy(VirtualDate, { apply: function () { return new RealDate(now()).toString(); } });
})`;

export const DEFAULT_OWNER = 'owner@example.com';
export const CUSTOM_FUNCTION_TIMEOUT_MESSAGE = 'Exceeded maximum execution time (line 0).';
/** Google's quota: simultaneous executions per user. */
export const MAX_SIMULTANEOUS_EXECUTIONS = 30;
/**
 * What a custom-function cell shows when Sheets cannot start its execution (apps-script-platform.md).
 * The trailing period is chosen (public logs quote it both ways).
 */
export const TOO_MANY_SCRIPTS_MESSAGE = 'There are too many scripts running simultaneously for this Google user account.';

export interface RuntimeOptions {
  /** The script to run (default dist/Code.js). HTML files are read from its folder. */
  scriptPath?: string;
  /** The spreadsheet the script is bound to (default: a new empty workbook owned by `owner`). */
  workbook?: Workbook;
  /** Owner of the spreadsheet (default the workbook's owner, else owner@example.com). */
  owner?: string;
  /** Script time zone (default: appsscript.json next to the script, else Etc/UTC). */
  timeZone?: string;
  /** Apply Editor add-on rules (trigger limits, activation). Default true. */
  addOn?: boolean;
  /**
   * Editor add-on activation: until a menu item of the add-on has run in this document (by any user),
   * its custom functions are unknown to Sheets (`#NAME?`) and onOpen runs in AuthMode NONE. Default: `addOn`.
   */
  requireMenuRun?: boolean;
  /** The add-on has already been used in this document (as if a menu item had run). Default false. */
  usedInDocument?: boolean;
  /** URL prefixes every fetch must match; 'manifest' reads appsscript.json's urlFetchWhitelist. Default: none enforced. */
  urlFetchWhitelist?: string[] | 'manifest' | null;
  /** UrlFetch per-request timeout (Google: about 60 s). */
  urlFetchTimeoutMs?: number;
  /** Virtual clock start (ms since epoch; default now) or a clock to share. */
  startTime?: number;
  clock?: VirtualClock;
  cost?: Partial<CostModel>;
  /** Mirror every DriveApp-created file into this folder. */
  driveDir?: string;
  /** Also print logs to the host console. */
  echoLogs?: boolean;
  /** Name under which createAddonMenu() menus appear (default "Add-on"). */
  addOnName?: string;
  /**
   * false: behave as a standalone script (no document): getDocumentProperties/Cache/Lock return null.
   * Default true (the add-on is bound to its spreadsheet).
   */
  bound?: boolean;
  /**
   * Google's daily per-user quotas (quotas.ts): 'consumer' (default) or 'workspace' figures, an object
   * to change single limits (`{tier, limits: {urlFetchCalls: 10}}`), or false to count nothing.
   */
  quotas?: QuotaOption;
  /**
   * The scopes the script is authorised for (scopes.ts checks every listed method against them):
   * 'manifest' (default) = appsscript.json's `oauthScopes` (none declared: nothing checked, as
   * Google then detects scopes itself), a list, or null to check nothing.
   */
  oauthScopes?: string[] | 'manifest' | null;
  /**
   * Granular consent: the scopes a user ticked at the consent screen (any subset of the manifest's).
   * A user not listed granted them all. Also how a user authorised under an older manifest looks
   * after a version adds a scope: their grant lacks it. `runtime.grant(user, …)` changes it later.
   */
  grants?: Record<string, string[]>;
  /**
   * Whether a time-driven trigger runs with an active document. Google does not promise one to an
   * add-on's trigger (apps-script-platform.md), so the add-on must work in both: 'active' (default)
   * = as in a sidebar call; 'none' = getActiveSpreadsheet() null, document properties, cache and lock
   * null (opening the file by id then needs the `spreadsheets` scope).
   */
  triggerDocument?: 'active' | 'none';
  /**
   * Session.getTemporaryActiveUserKey() in an installable trigger: 'same' (default) as the user's in
   * the sidebar, or 'other' (Google does not say which; RuntimeState.userKeys).
   */
  triggerUserKey?: 'same' | 'other';
  /**
   * The same add-on in another document: this runtime shares `sameScriptAs`'s script and user
   * properties (Google keeps them per script and user, not per document), so one user's two
   * spreadsheets can be tested together. Give it the same `clock` too. Caches, locks and quotas stay apart.
   */
  sameScriptAs?: Runtime;
  /**
   * Users to whom Google gives no email even when they authorised the add-on (Session reference:
   * "many cross-domain consumer cases"): their getActiveUser().getEmail() is ''.
   */
  withheldEmails?: string[];
  /** Users who may only view the spreadsheet: every change to it throws (identity.ts wording). */
  viewers?: string[];
  /** The file is in a shared drive: Spreadsheet.getOwner() is null (sets the workbook's `sharedDrive`). */
  sharedDrive?: boolean;
  /**
   * Cells the bound spreadsheet may hold (Google: 10,000,000, counted as every sheet's max rows x max
   * columns). Tests lower it so a full spreadsheet is cheap to reach; sets `workbook.cellLimit`.
   */
  cellLimit?: number;
}

export interface RunOptions {
  user?: string;
  authMode?: AuthMode;
  kind?: ExecutionKind;
}

/** One finished (or failed) execution, for tests and benchmarks. */
export interface ExecutionRecord {
  functionName: string;
  kind: ExecutionKind;
  authMode: AuthMode;
  user: string;
  startedAt: number;
  /** Modelled Apps Script time, ms. */
  durationMs: number;
  ok: boolean;
  error?: string;
  counters: ExecutionCounters;
}

export interface FiredTrigger {
  uid: string;
  handler: string;
  user: string;
  ok: boolean;
  error?: string;
}

export interface Manifest {
  timeZone?: string;
  urlFetchWhitelist?: string[];
  oauthScopes?: string[];
  [key: string]: unknown;
}

/** appsscript.json next to the script, or {} when there is none. */
export function readManifest(dir: string): Manifest {
  const p = path.join(dir, 'appsscript.json');
  return fs.existsSync(p) ? (JSON.parse(fs.readFileSync(p, 'utf8')) as Manifest) : {};
}

/** Top-level `function NAME(` declarations of a script (column 0, as the build emits them). */
export function declaredFunctions(source: string): string[] {
  return [...source.matchAll(/^function\s+([A-Za-z_$][\w$]*)\s*\(/gm)].map((m) => m[1]);
}

export class Runtime implements Stoppable {
  readonly state: RuntimeState;
  readonly workbook: Workbook;
  readonly owner: string;
  readonly scriptPath: string;
  readonly timeZone: string;
  readonly properties: PropertyStores;
  readonly caches: CacheStores;
  readonly locks: LockTable;
  readonly triggers: TriggerTable;
  readonly drive: DriveStore;
  /** Every message MailApp sent, in order (mail.ts): nothing leaves the machine. */
  readonly outbox: SentMail[] = [];
  readonly executions: ExecutionRecord[] = [];
  /** Daily quotas per user (quotas.ts); `quotas.spend(user, name, n)` models the user's other scripts. */
  readonly quotas: QuotaMeter;
  /** The user recalculations outside any execution run as (default: the owner). */
  activeUser: string;

  private readonly declared: string[];
  private readonly http = new HttpWorker();
  private readonly services: Record<string, unknown>;
  /** Advanced services the manifest enables, by the global name it gives them (absent otherwise). */
  private readonly advanced: Record<string, unknown> = {};
  private spreadsheetApp: GoogleAppsScript.Spreadsheet.SpreadsheetApp | null = null;
  private ctx: vm.Context | null = null;
  private readonly echoLogs: boolean;
  private readonly addOnName: string | undefined;
  private readonly requireMenuRun: boolean;
  private used: boolean;
  /** RuntimeOptions.triggerDocument; tests switch it between trigger runs (the same document, another world). */
  triggerDocument: 'active' | 'none';

  constructor(opts: RuntimeOptions = {}) {
    this.scriptPath = path.resolve(opts.scriptPath ?? DEFAULT_SCRIPT_PATH);
    if (!fs.existsSync(this.scriptPath)) throw new Error(`No script at ${this.scriptPath} (run npm run build first?)`);
    const dir = path.dirname(this.scriptPath);
    const manifest = readManifest(dir);
    this.state = new RuntimeState({ clock: opts.clock ?? new VirtualClock(opts.startTime ?? Date.now()), cost: opts.cost });
    this.owner = opts.owner ?? opts.workbook?.owner ?? DEFAULT_OWNER;
    this.workbook = opts.workbook ?? new Workbook({ owner: this.owner });
    if (opts.cellLimit !== undefined) this.workbook.cellLimit = opts.cellLimit;
    this.activeUser = this.owner;
    this.timeZone = opts.timeZone ?? manifest.timeZone ?? 'Etc/UTC';
    this.echoLogs = Boolean(opts.echoLogs);
    this.addOnName = opts.addOnName;
    this.requireMenuRun = opts.requireMenuRun ?? opts.addOn ?? true;
    this.used = opts.usedInDocument ?? false;
    this.triggerDocument = opts.triggerDocument ?? 'active';
    this.state.userKeys.trigger = opts.triggerUserKey ?? 'same';
    if (opts.sharedDrive) this.workbook.sharedDrive = true;
    const scopes = opts.oauthScopes === undefined || opts.oauthScopes === 'manifest' ? manifest.oauthScopes : opts.oauthScopes;
    this.state.scopes = Array.isArray(scopes) ? new Set(scopes.map(String)) : null;
    for (const [u, list] of Object.entries(opts.grants ?? {})) this.grant(u, list);
    for (const u of opts.withheldEmails ?? []) this.state.withheldEmails.add(u);
    for (const u of opts.viewers ?? []) this.state.viewers.add(u);
    this.declared = declaredFunctions(fs.readFileSync(this.scriptPath, 'utf8'));

    const now = () => this.state.clock.now();
    this.quotas = new QuotaMeter(opts.quotas ?? 'consumer', now);
    const bound = opts.bound ?? true;
    const own = createPropertyStores(bound);
    const other = opts.sameScriptAs;
    this.properties = other
      ? {
          script: other.properties.script,
          document: own.document,
          user: (u) => other.properties.user(u),
          users: () => other.properties.users(),
        }
      : own;
    this.caches = createCacheStores(now, bound);
    this.locks = new LockTable(this.state, bound);
    this.triggers = new TriggerTable();
    this.keepDocumentState(opts.usedInDocument);
    this.drive = new DriveStore(opts.driveDir ?? null);
    const whitelist = opts.urlFetchWhitelist === 'manifest' ? (manifest.urlFetchWhitelist ?? []) : (opts.urlFetchWhitelist ?? null);
    const scriptTimeZone = () => this.timeZone;
    const scriptId = LOCAL_SCRIPT_ID;
    const logging = createLogging(this.state);
    this.services = {
      UrlFetchApp: createUrlFetchApp(this.state, this.http, { timeoutMs: opts.urlFetchTimeoutMs, whitelist, quota: this.quotas }),
      // Custom functions read the owner's user properties; a shared-drive file has no owner (no one's store).
      PropertiesService: createPropertiesService(
        this.state,
        this.properties,
        () => (this.workbook.sharedDrive ? '' : this.owner),
        this.quotas,
      ),
      CacheService: createCacheService(this.state, this.caches),
      LockService: createLockService(this.state, this.locks),
      Utilities: createUtilities(this.state, { scriptTimeZone }),
      HtmlService: createHtmlService(this.state, { dir, context: () => this.context() }),
      ScriptApp: createScriptApp(this.state, this.triggers, { addOn: opts.addOn ?? true, documentId: this.workbook.id, scriptId }),
      Session: createSession(this.state, { scriptTimeZone, scriptId }),
      DriveApp: withScopes(this.state, 'DriveApp', createDriveApp(this.state, this.drive)),
      MailApp: createMailApp(this.state, { quota: this.quotas, outbox: this.outbox }),
      Logger: logging.Logger,
      console: logging.console,
      MimeType: MimeTypeEnum,
      ContentService: createContentService(this.state),
    };
    const driveSymbol = enabledDriveSymbol(manifest);
    if (driveSymbol) {
      const scopes = Array.isArray(manifest.oauthScopes) ? (manifest.oauthScopes as string[]) : null;
      this.advanced[driveSymbol] = createAdvancedDrive(this.state, this.drive, { scopes });
    }
    // Attach the custom-function hooks to the workbook now, so formulas typed into it evaluate.
    this.spreadsheet();
  }

  /**
   * Takes the state a loaded file carried (document properties, triggers, the users' stand-in store,
   * whether the add-on was used here) and lets a save of the workbook write this runtime's
   * (document-state.ts). The file's state is taken once: a second runtime on the workbook starts from this one's save.
   */
  private keepDocumentState(usedInDocument: boolean | undefined): void {
    const holder = () => ({
      documentId: this.workbook.id,
      usedInDocument: this.used,
      properties: this.properties,
      triggers: this.triggers,
      grants: this.state.grants,
    });
    const restored = restoreDocumentState(holder(), this.workbook.loadedState);
    this.workbook.loadedState = null;
    this.used = usedInDocument ?? restored.usedInDocument;
    this.workbook.documentState = () => documentStateOf(holder());
  }

  /** UI events (toasts, alerts, sidebars, menus, logs) in order. */
  get uiEvents(): UiEvent[] {
    return this.state.uiEvents;
  }
  /** Everything Logger and console received, in order. */
  get logs(): string[] {
    return this.state.uiEvents.flatMap((e) => (e.kind === 'log' ? [e.message] : []));
  }
  /** The context of the running (or last) execution. */
  context(): vm.Context {
    if (!this.ctx) throw new Error('No execution has run yet.');
    return this.ctx;
  }

  /** The SpreadsheetApp of this runtime (one per workbook; it carries the custom-function hooks). */
  private spreadsheet(): GoogleAppsScript.Spreadsheet.SpreadsheetApp {
    if (!this.spreadsheetApp) {
      const hooks: SpreadsheetHooks = {
        isCustomFunction: (name) => this.customFunctionName(name) !== null,
        callCustomFunction: (name, args) => this.callCustomFunction(name, args),
        createDate: (ms) => new this.state.realm.Date(ms),
        addonMenuName: this.addOnName,
        recalculationWave: (body) => this.recalculationWave(body),
      };
      this.spreadsheetApp = createSpreadsheetApp(this.state, this.workbook, hooks);
    }
    return this.spreadsheetApp;
  }

  /** A fresh context with the Apps Script globals, the script's top level run in it. */
  private load(): vm.Context {
    const sandbox: Record<string, unknown> = {};
    for (const name of APPS_SCRIPT_GLOBALS) {
      if (name === 'SpreadsheetApp')
        Object.defineProperty(sandbox, name, { get: () => this.spreadsheet(), enumerable: true, configurable: true });
      else sandbox[name] = this.services[name];
    }
    // An advanced service is a global only when the manifest enables it (else: "Drive is not defined").
    for (const [name, service] of Object.entries(this.advanced)) sandbox[name] = service;
    if (this.echoLogs) {
      const c = this.services.console as Record<string, (...a: unknown[]) => void>;
      sandbox.console = Object.fromEntries(
        Object.entries(c).map(([k, f]) => [
          k,
          (...a: unknown[]) => {
            f(...a);
            console.log(...(a as [unknown, ...unknown[]]));
          },
        ]),
      );
    }
    // Pre-create the context so the realm is known before the script's top level runs.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const vmod: typeof vm = require('node:vm');
    const ctx = vmod.createContext(sandbox);
    // The script's clock is the virtual one: `new Date()` and `Date.now()` read it, so code that
    // budgets its own time (checkpoints before the 6-minute limit) sees modelled Apps Script time.
    vmod.runInContext(VIRTUAL_DATE_SOURCE, ctx)(() => this.state.clock.now());
    this.state.realm = vmod.runInContext('({ Object, Array, Date, Error })', ctx);
    this.ctx = ctx;
    runScriptFile(this.scriptPath, ctx);
    return ctx;
  }

  /** Runs `body` as one execution; restores the enclosing one afterwards. */
  private execute<T>(functionName: string, kind: ExecutionKind, authMode: AuthMode, user: string, body: (ctx: vm.Context) => T): T {
    const st = this.state;
    // Google's 30 simultaneous executions per user: one more does not start (a recalculation wave
    // counts its own starts against the same number before it gets here).
    if (st.runningFor(user) >= MAX_SIMULTANEOUS_EXECUTIONS) throw gasError(st, TOO_MANY_SCRIPTS_MESSAGE);
    const outer = { current: st.current, realm: st.realm, ctx: this.ctx };
    const exec: Execution = { kind, authMode, startedAt: st.clock.now(), limitMs: LIMIT_MS[kind], user, counters: emptyCounters() };
    if (kind === 'installable-trigger' && this.triggerDocument === 'none') exec.document = false;
    // A trigger execution also ends where it spends the rest of the user's daily trigger runtime.
    const quotaEnd = kind === 'installable-trigger' ? this.quotas.triggerDeadline(exec) : null;
    if (quotaEnd !== null) exec.deadline = { at: quotaEnd, error: () => new DailyComputeTimeError() };
    st.current = exec;
    st.running.push(exec);
    const record: ExecutionRecord = {
      functionName,
      kind,
      authMode,
      user,
      startedAt: exec.startedAt,
      durationMs: 0,
      ok: false,
      counters: exec.counters,
    };
    try {
      st.charge(st.cost.executionStartMs);
      const result = body(this.load());
      // A script that caught the time-limit error still dies: Google ends the execution.
      st.checkLimit();
      record.ok = true;
      return result;
    } catch (err) {
      // Past a limit (6 min / 30 s, or the day's trigger runtime) the execution ends with that error.
      let e = err;
      try {
        st.checkLimit();
      } catch (limit) {
        e = limit;
      }
      record.error = (e as Error)?.message ?? String(e);
      throw e;
    } finally {
      record.durationMs = st.clock.now() - exec.startedAt;
      if (kind === 'installable-trigger') this.quotas.add(user, 'triggerRuntimeMs', record.durationMs, exec.startedAt);
      this.executions.push(record);
      this.locks.releaseAll(exec);
      st.running.splice(st.running.indexOf(exec), 1);
      st.current = outer.current;
      st.realm = outer.realm;
      // Back to the enclosing execution's context; at top level keep this one for inspection.
      if (outer.current) this.ctx = outer.ctx;
    }
  }

  private fn(ctx: vm.Context, name: string): (...a: unknown[]) => unknown {
    const f = (ctx as Record<string, unknown>)[name];
    // Google's message when the function does not exist.
    if (typeof f !== 'function') throw gasError(this.state, `Script function not found: ${name}`);
    return f as (...a: unknown[]) => unknown;
  }

  /** Whether the add-on has been used in this document: a menu item of it has run here (or `usedInDocument`). */
  get addOnUsed(): boolean {
    return this.used;
  }

  /**
   * Whether the add-on is active in the document: its custom functions are known and onOpen runs in
   * LIMITED. Always true without the `requireMenuRun` rule.
   */
  get addOnActive(): boolean {
    return this.used || !this.requireMenuRun;
  }

  /** The functions of the menus the script has added (what a user can click). */
  private menuFunctions(): Set<string> {
    const out = new Set<string>();
    for (const e of this.state.uiEvents) if (e.kind === 'menu') for (const it of e.items) if (it) out.add(it.functionName);
    return out;
  }

  /**
   * Runs a top-level function as one execution (default: the owner, FULL, 'normal', 6 minutes). A
   * run of a function that a menu added by the script offers counts as the user clicking it: the
   * add-on is then used in this document (even when the run fails: the click enabled it).
   */
  run(entry: string, args: unknown[] = [], opts: RunOptions = {}): unknown {
    const kind = opts.kind ?? 'normal';
    if (kind === 'normal' && !this.used && this.menuFunctions().has(entry)) this.used = true;
    const authMode = opts.authMode ?? (kind === 'custom-function' ? 'CUSTOM_FUNCTION' : 'FULL');
    return this.execute(entry, kind, authMode, opts.user ?? this.owner, (ctx) => this.fn(ctx, entry)(...toRealm(this.state.realm, args)));
  }

  /**
   * google.script.run: `fn` must be a top-level function not ending in '_'; arguments and result must
   * be plain data (see scriptrun.ts). Returns a host copy of the result, as the sidebar receives it.
   */
  scriptRun(fn: string, args: unknown[] = [], opts: { user?: string } = {}): unknown {
    const sent = transportArgs(args);
    return this.execute(fn, 'sidebar-call', 'FULL', opts.user ?? this.owner, (ctx) => {
      if (fn.endsWith('_')) throw gasError(this.state, `Script function not found: ${fn}`);
      return transportResult(this.fn(ctx, fn)(...toRealm(this.state.realm, sent)));
    });
  }

  /** The functions google.script.run offers a page: the script's top-level functions not ending in '_'. */
  scriptRunFunctions(): string[] {
    return this.declared.filter((d) => !d.endsWith('_'));
  }

  private simpleTrigger(name: string, authMode: AuthMode, user: string): unknown {
    if (!this.declared.includes(name)) return undefined;
    return this.execute(name, 'simple-trigger', authMode, user, (ctx) => {
      const e = new this.state.realm.Object() as Record<string, unknown>;
      e.authMode = AuthModeEnum[authMode];
      // Simple triggers get no email unless authorised (FULL: onInstall). (Session reference)
      e.user = { getEmail: () => (authMode === 'FULL' && !this.state.withheldEmails.has(user) ? user : '') };
      Object.defineProperty(e, 'source', { get: () => this.spreadsheet().getActiveSpreadsheet(), enumerable: true });
      return this.fn(ctx, name)(e);
    });
  }

  /**
   * Opens the spreadsheet: fires onOpen(e) as a simple trigger. Default AuthMode: NONE while the add-on
   * is installed but not yet used in this document, LIMITED once it is (see `addOnActive`).
   */
  open(opts: { authMode?: 'NONE' | 'LIMITED'; user?: string } = {}): unknown {
    return this.simpleTrigger('onOpen', opts.authMode ?? (this.addOnActive ? 'LIMITED' : 'NONE'), opts.user ?? this.owner);
  }

  /** Installs the add-on: fires onInstall(e) in AuthMode FULL. */
  install(opts: { user?: string } = {}): unknown {
    return this.simpleTrigger('onInstall', 'FULL', opts.user ?? this.owner);
  }

  /** Every user's Session.getTemporaryActiveUserKey() rotates now (as Google's does every 30 days; the clock does it too). */
  rotateUserKeys(): void {
    this.state.userKeys.rotations++;
  }

  /** Advances the virtual clock (e.g. to let triggers come due). */
  advance(ms: number): void {
    this.state.clock.advance(ms);
  }

  /**
   * Fires every time-driven trigger due on the virtual clock, each as its own execution (the
   * trigger's user, FULL). A repeating trigger fires once however many periods passed (Google does
   * not catch up); a one-shot (after/at) is removed once fired. (chosen) Failures are recorded, not thrown.
   */
  runDueTriggers(): FiredTrigger[] {
    const now = this.state.clock.now();
    const fired: FiredTrigger[] = [];
    for (const t of this.triggers.due(now)) {
      this.reschedule(t, now);
      const out: FiredTrigger = { uid: t.uid, handler: t.handler, user: t.user, ok: false };
      // The user's trigger runtime for the day is spent: the trigger fails without starting (no execution).
      if (this.quotas.remaining(t.user, 'triggerRuntimeMs', this.state.clock.now()) <= 0) {
        out.error = QUOTA_MESSAGES.triggerRuntimeMs;
        fired.push(out);
        continue;
      }
      try {
        this.execute(t.handler, 'installable-trigger', 'FULL', t.user, (ctx) => this.fn(ctx, t.handler)(this.clockEvent(t)));
        out.ok = true;
      } catch (e) {
        out.error = (e as Error)?.message ?? String(e);
      }
      fired.push(out);
    }
    return fired;
  }

  private reschedule(t: TriggerRecord, now: number): void {
    if (t.everyMs === null) {
      this.triggers.remove(t.uid);
      return;
    }
    while (t.nextAt! <= now) t.nextAt! += t.everyMs;
  }

  private clockEvent(t: TriggerRecord): Record<string, unknown> {
    const d = new Date(this.state.clock.now());
    return toRealm(this.state.realm, {
      authMode: 'FULL',
      triggerUid: t.uid,
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      'day-of-month': d.getUTCDate(),
      'day-of-week': d.getUTCDay() === 0 ? 7 : d.getUTCDay(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      second: d.getUTCSeconds(),
      timezone: 'UTC',
    });
  }

  /** The declared function a formula name refers to (Sheets matches names case-insensitively), or null. */
  customFunctionName(name: string): string | null {
    const upper = String(name).toUpperCase();
    return this.declared.find((d) => !d.endsWith('_') && d.toUpperCase() === upper) ?? null;
  }

  /**
   * Runs a custom function as its own execution (CUSTOM_FUNCTION, 30 s). Inside another execution it
   * runs beside it, as in Sheets: the caller's clock is rewound afterwards. On the time limit the
   * error is the cell's note, `Exceeded maximum execution time (line 0).`
   */
  callCustomFunction(name: string, args: unknown[], admit?: () => void): unknown {
    const real = this.customFunctionName(name);
    if (!real) throw new Error(`Unknown function: ${name}`);
    // Before the add-on is used in this document Sheets does not know its functions: no execution runs.
    if (!this.addOnActive) throw new FormulaError('#NAME?', `Unknown function: '${String(name).toUpperCase()}'.`);
    admit?.();
    const parent = this.state.current;
    const t0 = this.state.clock.now();
    try {
      return this.execute(real, 'custom-function', 'CUSTOM_FUNCTION', parent?.user ?? this.activeUser, (ctx) =>
        this.fn(ctx, real)(...toRealm(this.state.realm, args)),
      );
    } catch (e) {
      if (e instanceof ExecutionTimeLimitError) throw new Error(CUSTOM_FUNCTION_TIMEOUT_MESSAGE);
      throw e;
    } finally {
      if (parent) this.state.clock.rewindTo(t0);
    }
  }

  /**
   * One wave of a recalculation (formulas.ts decides the waves): Sheets starts these custom functions
   * at the same time, each its own execution of the user. Model (the concurrency rule is Google's
   * quota, how Sheets meets it is chosen):
   * - at most MAX_SIMULTANEOUS_EXECUTIONS (30) run at once per user; the running execution whose write
   *   caused the recalculation is one of them (chosen), so a script's write gets 29, and so is every
   *   other execution of the user running at that moment (one an interleaved execution interrupted,
   *   interleave.ts): a wave at a service-call boundary of a sidebar call that a trigger interrupted gets 28;
   * - the calls beyond that fail at once, in sheet/row/column order (chosen: the first ones win),
   *   with TOO_MANY_SCRIPTS_MESSAGE in the cell (#ERROR!); no execution starts for them;
   * - the wave's executions run side by side: each starts at the wave's start, and the clock moves to
   *   the end of the slowest (inside another execution it is rewound, as for any recalculation there).
   * Executions of one wave have ended when the next wave starts, so each wave has the full limit.
   */
  private recalculationWave(body: (call: (name: string, args: unknown[]) => unknown) => void): void {
    const st = this.state;
    const parent = st.current;
    const t0 = st.clock.now();
    // Every execution of the user running now counts: the one whose write set the wave off, and those
    // it interrupted or that a recalculation interrupted (interleave.ts): all run at once on Google.
    const limit = MAX_SIMULTANEOUS_EXECUTIONS - st.runningFor(parent?.user ?? this.activeUser);
    let started = 0;
    let end = t0;
    body((name, args) => {
      st.clock.rewindTo(t0);
      try {
        return this.callCustomFunction(name, args, () => {
          if (started >= limit) throw new Error(TOO_MANY_SCRIPTS_MESSAGE);
          started++;
        });
      } finally {
        end = Math.max(end, st.clock.now());
      }
    });
    if (parent) st.clock.rewindTo(t0);
    else st.clock.advance(end - st.clock.now());
  }

  /** Recalculates the workbook (custom functions run through the hooks). */
  recalculate(): void {
    this.spreadsheet();
    this.workbook.recalculate();
  }

  /** What `user` (default the owner) spent of each daily quota in its current window, and when it resets. */
  /**
   * What `user` granted at the consent screen: a list (granular consent: the scopes they ticked), or
   * 'all' = every scope the manifest asks for now (what following getAuthorizationUrl()'s link and
   * allowing everything does).
   */
  grant(user: string, scopes: readonly string[] | 'all'): void {
    if (scopes === 'all') this.state.grants.delete(user);
    else this.state.grants.set(user, new Set(scopes));
  }

  quotaUsage(user: string = this.owner): QuotaUsage {
    return this.quotas.usage(user);
  }

  /** Stops the HTTP worker (the runtime serves nothing: it is a Stoppable, emulator/stand-in.ts); idempotent. */
  stop(): Promise<void> {
    return this.http.stop();
  }
}

/**
 * Wraps a service whose own module does not check scopes: every method call first checks
 * `Service.method` against the manifest (scopes.ts).
 */
function withScopes<T extends object>(state: RuntimeState, name: string, service: T): T {
  return new Proxy(service, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== 'function' || typeof prop !== 'string') return v;
      return (...args: unknown[]) => {
        if (state.current) requireScope(state, `${name}.${prop}`);
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

export function createRuntime(opts: RuntimeOptions = {}): Runtime {
  return new Runtime(opts);
}
