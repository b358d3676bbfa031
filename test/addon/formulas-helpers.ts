/**
 * Shared set-up of the identifier-formula tests and benchmark: the BUILT add-on in the local Apps
 * Script runtime (ADDON_OUT_DIR), the local Scan Service in a child process (behind the
 * fault-injecting proxy of the scan-flow tests when faults are needed), a workbook with a column
 * of real identifiers from the shipped sample catalog, and readers of what the formulas cost.
 */
import { createRuntime, type Runtime, type RuntimeOptions } from '../../emulator/gas';
import { Workbook } from '../../emulator/gas/spreadsheet';

export const OWNER = 'owner@example.com';
export const EDITOR = 'editor@example.com';
export const START = Date.UTC(2026, 10, 21, 9, 0, 0);
export const SHEET = 'Sheet1';

export { sampleIndex, type SampleIndex } from '../../emulator/service/catalog/sample-index';

/** A spreadsheet with one sheet of `rows` rows (a new sheet has 1,000; longer columns need more). */
export function newWorkbook(rows = 6000): Workbook {
  const wb = new Workbook({ owner: OWNER, name: 'Identifiers', empty: true });
  wb.addSheet(SHEET, undefined, rows, 26);
  return wb;
}

/** Writes a column as plain values (strings stay strings: the workbook model's raw write through a leading apostrophe). */
export function fillColumn(wb: Workbook, column: string, firstRow: number, values: unknown[]): void {
  values.forEach((v, i) => {
    if (v === '' || v === null || v === undefined) return;
    wb.type(SHEET, column + (firstRow + i), typeof v === 'string' ? "'" + v : v);
  });
}

export function runtimeFor(wb: Workbook, opts: RuntimeOptions = {}): Runtime {
  return createRuntime({ workbook: wb, startTime: START, urlFetchTimeoutMs: 10_000, ...opts });
}

/**
 * Uses the add-on in this spreadsheet the way a user does: the spreadsheet opens (onOpen adds the
 * add-on's menu) and `user` clicks Settings in it. Only then are its custom functions known to Sheets.
 */
export function useAddOn(rt: Runtime, user = OWNER): void {
  rt.open({ user });
  const items = rt.uiEvents.flatMap((e) => (e.kind === 'menu' ? e.items : []));
  if (!items.some((it) => it?.functionName === 'menuSettings')) throw new Error('The add-on menu offers no Settings item');
  rt.run('menuSettings', [], { user });
}

/** Saves address and key through the add-on's Settings server function, as `user`. */
export function saveKey(rt: Runtime, url: string, apiKey: string, user = OWNER): void {
  rt.scriptRun('saveSettings', [{ apiKey, serviceUrl: url }], { user });
}

/** Executions of custom functions since index `from`, with what they cost. */
export function formulaRuns(rt: Runtime, from = 0) {
  const runs = rt.executions.slice(from).filter((e) => e.kind === 'custom-function');
  return {
    runs,
    requests: runs.reduce((n, e) => n + e.counters.urlFetchRequests, 0),
    fetchAlls: runs.reduce((n, e) => n + e.counters.urlFetchCalls, 0),
    maxSeconds: runs.reduce((m, e) => Math.max(m, e.durationMs / 1000), 0),
    errors: runs.filter((e) => !e.ok).map((e) => e.error),
  };
}

/** Values of a column block (rows first..last) as the sheet holds them. */
export function columnValues(wb: Workbook, column: string, first: number, last: number): unknown[] {
  const out: unknown[] = [];
  for (let r = first; r <= last; r++) out.push(wb.cell(SHEET, column + r).value);
  return out;
}

/** A UPC-A check digit for 11 digits (to build ids the catalog does not have). */
export function upcWithCheck(body11: string): string {
  let sum = 0;
  for (let i = 0; i < 11; i++) sum += Number(body11[i]) * (i % 2 === 0 ? 3 : 1);
  return body11 + ((10 - (sum % 10)) % 10);
}
