/**
 * Shared state of the local Apps Script runtime: the virtual clock, the cost model that advances it,
 * the execution now running (with its kind, auth mode and time limit), and the log of what the add-on
 * showed the user. Every service of the runtime charges its work here, so that time limits and
 * benchmarks see modelled Apps Script time instead of this machine's speed.
 *
 * This file is the contract between the parts of emulator/gas; keep it small and stable.
 */

/** Kinds of execution, each with Google's own time limit. */
export type ExecutionKind = 'normal' | 'custom-function' | 'simple-trigger' | 'installable-trigger' | 'sidebar-call';

/** Mirrors ScriptApp.AuthMode. */
export type AuthMode = 'NONE' | 'CUSTOM_FUNCTION' | 'LIMITED' | 'FULL';

export const LIMIT_MS: Record<ExecutionKind, number> = {
  normal: 6 * 60 * 1000,
  'sidebar-call': 6 * 60 * 1000,
  'installable-trigger': 6 * 60 * 1000,
  'custom-function': 30 * 1000,
  'simple-trigger': 30 * 1000,
};

/**
 * Modelled cost of Apps Script operations, in milliseconds of Apps Script time.
 * Figures are rounded from public measurements of Apps Script (documented in emulator/gas/README.md,
 * with sources); they are deliberately on the slow side of what people report, because a
 * stand-in that is faster than Google would hide time-outs.
 */
export interface CostModel {
  /** Fixed cost of any Spreadsheet service call that reads (getValues, getDisplayValues, getFormulas, ...). */
  sheetReadCallMs: number;
  /** Additional cost per cell read. */
  sheetReadCellMs: number;
  /** Fixed cost of any Spreadsheet service call that writes (setValues, setNumberFormats, appendRow, ...). */
  sheetWriteCallMs: number;
  /** Additional cost per cell written. */
  sheetWriteCellMs: number;
  /** Cost of other cheap service calls (getSheetByName, getLastRow, properties, cache, ...). */
  serviceCallMs: number;
  /** Round trip of one UrlFetchApp.fetch, on top of the server's own real time. */
  urlFetchCallMs: number;
  /** Per KB sent or received by UrlFetchApp. */
  urlFetchPerKbMs: number;
  /** Script start-up per execution (loading the bundle). */
  executionStartMs: number;
  /** Extra cost per additional request of one UrlFetchApp.fetchAll (the requests themselves run in parallel). */
  urlFetchAllPerRequestMs: number;
  /** PropertiesService getProperty/getProperties/getKeys. */
  propertiesReadMs: number;
  /** PropertiesService setProperty/setProperties/deleteProperty. */
  propertiesWriteMs: number;
  /** CacheService get/getAll. */
  cacheReadMs: number;
  /** CacheService put/putAll/remove/removeAll. */
  cacheWriteMs: number;
}

export const DEFAULT_COST_MODEL: CostModel = {
  sheetReadCallMs: 60,
  sheetReadCellMs: 0.01,
  sheetWriteCallMs: 120,
  sheetWriteCellMs: 0.03,
  serviceCallMs: 5,
  urlFetchCallMs: 250,
  urlFetchPerKbMs: 0.5,
  executionStartMs: 300,
  urlFetchAllPerRequestMs: 20,
  propertiesReadMs: 35,
  propertiesWriteMs: 65,
  cacheReadMs: 5,
  cacheWriteMs: 95,
};

/** Thrown when an execution passes its limit; the message is Google's. */
export class ExecutionTimeLimitError extends Error {
  constructor() {
    super('Exceeded maximum execution time');
    this.name = 'Exception';
  }
}

/** Virtual time in ms since the epoch; starts at the real time when the runtime is created. */
export class VirtualClock {
  private t: number;
  constructor(start: number = Date.now()) {
    this.t = start;
  }
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    if (ms > 0) this.t += ms;
  }
  /**
   * Moves the clock back to an earlier reading. Only the runtime assembly uses this: a custom function
   * recalculated during an execution runs, as in Sheets, beside it, so its time is not the caller's.
   */
  rewindTo(t: number): void {
    if (t < this.t) this.t = t;
  }
}

export interface Execution {
  kind: ExecutionKind;
  authMode: AuthMode;
  /** Virtual time at start. */
  startedAt: number;
  limitMs: number;
  /** The effective user of this execution (email). */
  user: string;
  /** Counters for benchmarks. */
  counters: ExecutionCounters;
  /**
   * A second, earlier end than `limitMs` (a trigger execution spending the day's trigger runtime,
   * quotas.ts): past `at` the next service call throws `error()`.
   */
  deadline?: { at: number; error: () => Error };
  /**
   * false: the execution has no active document (a time-driven trigger in the "no document" world,
   * RuntimeOptions.triggerDocument): getActiveSpreadsheet() is null, document properties/cache/lock null.
   */
  document?: boolean;
}

export interface ExecutionCounters {
  urlFetchCalls: number;
  urlFetchRequests: number;
  sheetReadCalls: number;
  sheetWriteCalls: number;
  cellsRead: number;
  cellsWritten: number;
  serviceCalls: number;
}

/** What the add-on showed the user, in order. */
export type UiEvent =
  | { kind: 'toast'; message: string; title: string; timeoutSeconds: number }
  | { kind: 'alert'; title: string; prompt: string; buttons: string; answer: string }
  | { kind: 'prompt'; title: string; prompt: string; buttons: string; answer: string; text: string }
  | { kind: 'sidebar'; title: string; html: string }
  | { kind: 'dialog'; title: string; html: string; modal: boolean }
  | { kind: 'menu'; name: string; items: Array<{ caption: string; functionName: string } | null> }
  | { kind: 'log'; message: string };

/** A scripted answer to the next alert or prompt (tests and the headless runner queue these). */
export interface UiAnswer {
  /** Button pressed: 'OK', 'CANCEL', 'YES', 'NO', 'CLOSE'. */
  button: string;
  /** Text typed into a prompt. */
  text?: string;
}

/**
 * Constructors of the script's own vm context. Values the services hand to the script (arrays, objects,
 * Dates, errors) are built with these so that the script's `instanceof Array/Date/Error` checks pass, as
 * they do in Apps Script. The runtime assembly sets this once the context exists; until then the host's.
 */
export interface Realm {
  Object: ObjectConstructor;
  Array: ArrayConstructor;
  Date: DateConstructor;
  Error: ErrorConstructor;
}

export class RuntimeState {
  readonly clock: VirtualClock;
  /** See Realm; emulator/gas/realm.ts has helpers (toRealm, gasError). */
  realm: Realm = { Object, Array, Date, Error };
  readonly cost: CostModel;
  current: Execution | null = null;
  /**
   * Every execution started and not yet ended: the running one and those it interrupted (an
   * interleaved execution, interleave.ts; a custom function inside a script's write). Counted per
   * user against Google's 30 simultaneous executions.
   */
  readonly running: Execution[] = [];
  /** How many executions of `user` are running now. */
  runningFor(user: string): number {
    return this.running.filter((e) => e.user === user).length;
  }
  readonly uiEvents: UiEvent[] = [];
  readonly uiAnswers: UiAnswer[] = [];
  /** Totals over all executions, for benchmarks. */
  readonly totals: ExecutionCounters = emptyCounters();
  /** The manifest's oauthScopes (scopes.ts checks methods against them); null = none declared, nothing checked. */
  scopes: ReadonlySet<string> | null = null;
  /**
   * What each user granted at the consent screen (granular consent: any subset of the manifest's
   * scopes). A user not listed granted every scope the manifest asks for. scopes.ts checks calls
   * against the manifest's scopes this user granted.
   */
  readonly grants = new Map<string, ReadonlySet<string>>();
  /** Users whose email Google withholds even in FULL (identity.ts); '' from getActiveUser().getEmail(). */
  readonly withheldEmails = new Set<string>();
  /** Users who may only view the document: every change to it throws (spreadsheet/context.ts). */
  readonly viewers = new Set<string>();

  /** Whether the running execution has an active document (see Execution.document). */
  hasDocument(): boolean {
    return this.current?.document !== false;
  }

  constructor(opts: { clock?: VirtualClock; cost?: Partial<CostModel> } = {}) {
    this.clock = opts.clock ?? new VirtualClock();
    this.cost = { ...DEFAULT_COST_MODEL, ...(opts.cost ?? {}) };
  }

  /** The running execution; services call this and fail like Google when none runs. */
  exec(): Execution {
    if (!this.current) throw new Error('No Apps Script execution is running (call through the runtime).');
    return this.current;
  }

  /** Advances the clock by ms of modelled time and enforces the execution's limit. */
  charge(ms: number): void {
    this.clock.advance(ms);
    this.checkLimit();
  }

  /** Throws Google's time-limit error when the running execution has passed its limit. */
  checkLimit(): void {
    const e = this.current;
    if (!e) return;
    const now = this.clock.now();
    // Whichever end came first is the one the execution met.
    if (e.deadline && now > e.deadline.at && e.deadline.at < e.startedAt + e.limitMs) throw e.deadline.error();
    if (now - e.startedAt > e.limitMs) throw new ExecutionTimeLimitError();
  }

  /**
   * Called at every service-call boundary of a running execution (a Spreadsheet read or write, a
   * service call, a URL fetch), before the call takes effect; interleave.ts runs other executions here.
   */
  onCall: ((key: keyof ExecutionCounters) => void) | null = null;

  /** Bumps a counter of the running execution and of the totals. */
  count(key: keyof ExecutionCounters, n = 1): void {
    if (this.current) this.current.counters[key] += n;
    this.totals[key] += n;
    if (this.onCall && this.current && key !== 'cellsRead' && key !== 'cellsWritten' && key !== 'urlFetchRequests') this.onCall(key);
  }

  /** Charges a Spreadsheet read of `cells` cells. */
  sheetRead(cells: number): void {
    this.count('sheetReadCalls');
    this.count('cellsRead', cells);
    this.charge(this.cost.sheetReadCallMs + cells * this.cost.sheetReadCellMs);
  }

  /** Charges a Spreadsheet write of `cells` cells. */
  sheetWrite(cells: number): void {
    this.count('sheetWriteCalls');
    this.count('cellsWritten', cells);
    this.charge(this.cost.sheetWriteCallMs + cells * this.cost.sheetWriteCellMs);
  }

  /** Charges a cheap service call. */
  serviceCall(): void {
    this.count('serviceCalls');
    this.charge(this.cost.serviceCallMs);
  }
}

export function emptyCounters(): ExecutionCounters {
  return { urlFetchCalls: 0, urlFetchRequests: 0, sheetReadCalls: 0, sheetWriteCalls: 0, cellsRead: 0, cellsWritten: 0, serviceCalls: 0 };
}
