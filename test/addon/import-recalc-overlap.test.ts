/**
 * Issue 20: a formula recalculation (=ASIN_FROM_UPC through the runtime's recalculation waves) at a
 * service-call boundary of the sidebar's "Import" (emulator/gas/interleave.ts), on the same virtual
 * clock, as Google runs a user's executions side by side. Both come out right; and the import that
 * is running is one of the user's 30 simultaneous executions (Google's quotas page,
 * https://developers.google.com/apps-script/guides/services/quotas), so a wave of 30 formulas at its
 * boundary starts 29 and the 30th cell shows Google's message.
 */
import type { SpawnedService } from '../../emulator/service/spawn';
import type { Runtime } from '../../emulator/gas';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { interleave } from '../../emulator/gas/interleave';
import { connect, runtime } from './scanflow-helpers';
import { useAddOn } from './formulas-helpers';
import { asinOf, serviceRows, startImportService, supplierRows, upc, uploadScan, waitFinished } from './import-helpers';

jest.setTimeout(90_000);

const TOO_MANY = 'There are too many scripts running simultaneously for this Google user account.';
const QUOTAS = "Google's quotas page (guides/services/quotas: 30 simultaneous executions per user)";
const SHEET = 'Sheet1';

let service: SpawnedService;
let scanId: number;
let products: Array<{ asin: string }>;
beforeAll(async () => {
  service = await startImportService();
  scanId = await uploadScan(service, supplierRows(40, 0), 'Overlap recalc');
  await waitFinished(service, scanId);
  products = await serviceRows(service, scanId);
});
afterAll(async () => {
  await service?.stop();
});

/** A document where the add-on is in use, connected, its formulas sharing the owner's key; UPCs of catalog products 1..n in A1:An (as text). */
function world(n: number): { wb: Workbook; rt: Runtime } {
  const wb = new Workbook({ name: 'Supplier' });
  const rt = runtime(wb);
  useAddOn(rt);
  connect(rt, service.url, service.apiKey);
  rt.scriptRun('setFormulaKeySharing', [true]);
  for (let i = 1; i <= n; i++) wb.type(SHEET, 'A' + i, "'" + upc(20000 + i));
  return { wb, rt };
}

/** The import wrote every product of the scan once, in the service's order. */
function expectImported(wb: Workbook, imported: any): void {
  expect(imported).toMatchObject({ done: true, sheetName: 'Overlap recalc', rowsWritten: products.length });
  expect(
    wb
      .values('Overlap recalc')
      .slice(1)
      .map((r) => r[0]),
  ).toEqual(products.map((p) => p.asin));
}

test(`${QUOTAS}: a user types =ASIN_FROM_UPC while the sidebar import is between two service calls: the formula runs there, beside the import on the same clock, and both are right`, async () => {
  const { wb, rt } = world(5);
  const recalc = interleave(rt, {
    afterCalls: 6,
    into: (e) => e.kind === 'sidebar-call',
    run: () => wb.type(SHEET, 'B1', '=ASIN_FROM_UPC(A1:A5)'),
  });
  const from = rt.executions.length;
  const imported = rt.scriptRun('importScan', [scanId, null]);
  expect(recalc.fired()).toBe(true);
  expectImported(wb, imported);
  expect([1, 2, 3, 4, 5].map((i) => wb.cell(SHEET, 'B' + i).value)).toEqual([1, 2, 3, 4, 5].map(asinOf));
  const runs = rt.executions.slice(from);
  const call = runs.find((e) => e.kind === 'sidebar-call' && e.functionName === 'importScan')!;
  const formula = runs.find((e) => e.kind === 'custom-function' && e.functionName === 'ASIN_FROM_UPC')!;
  expect(formula).toMatchObject({ ok: true });
  expect(formula.counters.urlFetchRequests).toBeGreaterThan(0);
  // It started while the import ran (inside its time on the one clock), and ended before it did.
  expect(formula.startedAt).toBeGreaterThan(call.startedAt);
  expect(formula.startedAt + formula.durationMs).toBeLessThanOrEqual(call.startedAt + call.durationMs);
  await rt.stop();
});

test(`${QUOTAS}: 30 one-cell =ASIN_FROM_UPC formulas recalculated while the sidebar import runs: the import is one of the 30, so 29 cells compute and the 30th shows "${TOO_MANY}"; the import is right`, async () => {
  const { wb, rt } = world(30);
  for (let i = 1; i <= 30; i++) wb.type(SHEET, 'B' + i, `=ASIN_FROM_UPC(A${i})`);
  // Typed one at a time, each its own recalculation: all 30 compute.
  for (let i = 1; i <= 30; i++) expect(wb.cell(SHEET, 'B' + i).value).toBe(asinOf(i));
  const recalc = interleave(rt, { afterCalls: 6, into: (e) => e.kind === 'sidebar-call', run: () => rt.recalculate() });
  const imported = rt.scriptRun('importScan', [scanId, null]);
  expect(recalc.fired()).toBe(true);
  expectImported(wb, imported);
  for (let i = 1; i <= 29; i++) expect(wb.cell(SHEET, 'B' + i).value).toBe(asinOf(i));
  expect(wb.cell(SHEET, 'B30')).toMatchObject({ value: '#ERROR!', error: TOO_MANY });
  await rt.stop();
});

test(`${QUOTAS}: the same 30 formulas recalculated while the Scans list loads during the import (two sidebar calls running): both count, 28 cells compute and the 29th and 30th show the message; the import and the list are right`, async () => {
  const { wb, rt } = world(30);
  for (let i = 1; i <= 30; i++) wb.type(SHEET, 'B' + i, `=ASIN_FROM_UPC(A${i})`);
  // Innermost armed first: the recalculation cuts into the Scans list, the list into the import.
  const recalc = interleave(rt, {
    afterCalls: 2,
    into: (e) => e.kind === 'sidebar-call' && rt.state.running.length === 2,
    run: () => rt.recalculate(),
  });
  const list = interleave(rt, { afterCalls: 6, into: (e) => e.kind === 'sidebar-call', run: () => rt.scriptRun('listScans', [1]) });
  const imported = rt.scriptRun('importScan', [scanId, null]);
  expect(list.fired()).toBe(true);
  expect(recalc.fired()).toBe(true);
  expectImported(wb, imported);
  const scans = (list.outcome()!.result as any).scans as Array<{ scanId: number }>;
  expect(scans.map((s) => s.scanId)).toContain(scanId);
  for (let i = 1; i <= 28; i++) expect(wb.cell(SHEET, 'B' + i).value).toBe(asinOf(i));
  for (const i of [29, 30]) expect(wb.cell(SHEET, 'B' + i)).toMatchObject({ value: '#ERROR!', error: TOO_MANY });
  await rt.stop();
});
