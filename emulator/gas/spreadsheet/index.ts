/// <reference types="google-apps-script" />
/**
 * The in-memory workbook and the SpreadsheetApp service of the local Apps Script runtime.
 * Public surface used by the runtime assembly (emulator/gas); see README.md in this folder.
 * (Skeleton: bodies are being filled in.)
 */
import type { RuntimeState } from '../execution';

export class Workbook {
  id: string;
  name: string;
  owner: string;
  timeZone: string;
  constructor(opts: { name?: string; owner?: string; timeZone?: string; id?: string } = {}) {
    this.id = opts.id ?? 'local-spreadsheet';
    this.name = opts.name ?? 'Untitled spreadsheet';
    this.owner = opts.owner ?? 'owner@example.com';
    this.timeZone = opts.timeZone ?? 'Etc/UTC';
  }
  static async fromXlsx(_data: Buffer | string, _opts: { name?: string; owner?: string; timeZone?: string; id?: string } = {}): Promise<Workbook> {
    throw new Error('not implemented yet');
  }
  static fromCsv(_text: string, _sheetName: string, _opts: { name?: string; owner?: string; timeZone?: string; id?: string } = {}): Workbook {
    throw new Error('not implemented yet');
  }
  async toXlsx(): Promise<Buffer> {
    throw new Error('not implemented yet');
  }
  async saveXlsx(_path: string): Promise<void> {
    throw new Error('not implemented yet');
  }
  toCsv(_sheetName: string): string {
    throw new Error('not implemented yet');
  }
  recalculate(): void {}
  sheetNames(): string[] {
    return [];
  }
}

export interface SpreadsheetHooks {
  /** Runs a custom function as its own execution (the runtime does that); returns its result or throws (the cell then shows #ERROR! with that message). */
  callCustomFunction(name: string, args: unknown[]): unknown;
  /** True when the loaded script declares a top-level function of that name usable as custom function. */
  isCustomFunction(name: string): boolean;
}

/** The SpreadsheetApp global for one runtime. */
export function createSpreadsheetApp(_state: RuntimeState, _workbook: Workbook, _hooks: SpreadsheetHooks): GoogleAppsScript.Spreadsheet.SpreadsheetApp {
  throw new Error('not implemented yet');
}
