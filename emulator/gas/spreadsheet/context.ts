/**
 * What every service object shares: the runtime state (clock, cost model, current execution),
 * the workbook, and the guards that make custom functions read-only like in Sheets.
 */
import type { RuntimeState } from '../execution';
import type { WorkbookCore } from './model';
import type { EngineHooks } from './model';

/** An error as Apps Script throws it (shown as "Exception: message"). */
export function gasError(message: string): Error {
  const e = new Error(message);
  e.name = 'Exception';
  return e;
}

export class Ctx {
  constructor(
    readonly state: RuntimeState,
    readonly wb: WorkbookCore,
    readonly hooks: EngineHooks & { addonMenuName?: string },
  ) {}

  /** An Apps Script service error, built in the script's realm so its `instanceof Error` holds. */
  error(message: string): Error {
    const e = new this.state.realm.Error(message);
    e.name = 'Exception';
    return e;
  }

  /** A list handed to the script, as an array of the script's realm. */
  arr<T>(xs: readonly T[]): T[] {
    const A = this.state.realm.Array;
    const out = new A(xs.length) as T[];
    for (let i = 0; i < xs.length; i++) out[i] = xs[i];
    return out;
  }

  inCustomFunction(): boolean {
    return this.state.current?.kind === 'custom-function';
  }

  /**
   * Custom functions get a read-only Spreadsheet: every mutating call throws Google's
   * "You do not have permission to call setValue" (wording from public error logs).
   */
  guard(method: string): void {
    if (this.inCustomFunction()) throw this.error(`You do not have permission to call ${method}`);
    // A viewer's execution may read the file but change nothing. (wording chosen)
    const user = this.state.current?.user;
    if (user !== undefined && this.state.viewers.has(user))
      throw this.error(`You do not have permission to edit this spreadsheet (${method}). Ask its owner for edit access.`);
  }

  /** A read of `cells` cells. */
  read(cells: number): void {
    this.state.sheetRead(cells);
  }

  /** A write of `cells` cells by `method` (refused inside custom functions). */
  write(method: string, cells: number): void {
    this.guard(method);
    this.state.sheetWrite(cells);
  }

  /** A cheap call that reads nothing from the grid. */
  call(): void {
    this.state.serviceCall();
  }

  /** A cheap call that changes something (refused inside custom functions). */
  mutate(method: string): void {
    this.guard(method);
    this.state.serviceCall();
  }
}
