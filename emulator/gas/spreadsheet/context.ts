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

  inCustomFunction(): boolean {
    return this.state.current?.kind === 'custom-function';
  }

  /**
   * Custom functions get a read-only Spreadsheet: every mutating call throws Google's
   * "You do not have permission to call setValue" (wording from public error logs).
   */
  guard(method: string): void {
    if (this.inCustomFunction()) throw gasError(`You do not have permission to call ${method}`);
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
