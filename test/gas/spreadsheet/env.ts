/** Test bed for the workbook and SpreadsheetApp: a RuntimeState with a fake running execution. */
import { ExecutionKind, AuthMode, RuntimeState, emptyCounters, LIMIT_MS } from '../../../emulator/gas/execution';
import { Workbook, createSpreadsheetApp, SpreadsheetHooks } from '../../../emulator/gas/spreadsheet';

export type CustomFns = Record<string, (...args: any[]) => unknown>;

export interface Env {
  state: RuntimeState;
  wb: Workbook;
  app: GoogleAppsScript.Spreadsheet.SpreadsheetApp;
  ss: GoogleAppsScript.Spreadsheet.Spreadsheet;
  sheet: GoogleAppsScript.Spreadsheet.Sheet;
  calls: Array<{ name: string; args: unknown[] }>;
  /** Runs fn as the given kind of execution (like the runtime does). */
  run<T>(kind: ExecutionKind, fn: () => T, authMode?: AuthMode): T;
}

export function startExecution(
  state: RuntimeState,
  kind: ExecutionKind,
  authMode: AuthMode = kind === 'custom-function' ? 'CUSTOM_FUNCTION' : 'FULL',
): void {
  state.current = {
    kind,
    authMode,
    startedAt: state.clock.now(),
    limitMs: LIMIT_MS[kind],
    user: 'owner@example.com',
    counters: emptyCounters(),
  };
}

export function makeEnv(opts: { wb?: Workbook; fns?: CustomFns } = {}): Env {
  const state = new RuntimeState();
  const wb = opts.wb ?? new Workbook({ name: 'Test', id: 'test-id' });
  const fns = opts.fns ?? {};
  const calls: Env['calls'] = [];
  const hooks: SpreadsheetHooks = {
    isCustomFunction: (name) => Object.prototype.hasOwnProperty.call(fns, name),
    callCustomFunction: (name, args) => {
      calls.push({ name, args });
      const prev = state.current;
      startExecution(state, 'custom-function');
      try {
        return fns[name](...args);
      } finally {
        state.current = prev;
      }
    },
  };
  const app = createSpreadsheetApp(state, wb, hooks);
  startExecution(state, 'normal');
  const ss = app.getActiveSpreadsheet();
  const sheet = ss.getActiveSheet();
  const run = <T>(kind: ExecutionKind, fn: () => T, authMode?: AuthMode): T => {
    const prev = state.current;
    startExecution(state, kind, authMode);
    try {
      return fn();
    } finally {
      state.current = prev;
    }
  };
  return { state, wb, app, ss, sheet, calls, run };
}

/** The message of what fn throws. */
export function thrown(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected an exception, none was thrown');
}
