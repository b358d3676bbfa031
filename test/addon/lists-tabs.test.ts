/**
 * Issue 32, item 10: where "Set up lists" puts its tabs (after the seller's own tabs and result tabs,
 * never in front of them), and what Undo of a row action leaves in the list's tab (no blank rows:
 * the table closes up and its named range shrinks with it). The BUILT add-on in the local runtime
 * against the local Scan Service.
 */
import type { SpawnedService } from '../../emulator/service/spawn';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { connect, runtime } from './scanflow-helpers';
import { startImportService, supplierRows, uploadScan, waitFinished } from './import-helpers';
import { rangeArea } from './lists-helpers';

jest.setTimeout(60_000);

let service: SpawnedService;
beforeAll(async () => {
  service = await startImportService();
}, 60_000);
afterAll(() => service?.stop());

async function imported() {
  const wb = new Workbook({ name: 'Sourcing' });
  const rt = runtime(wb);
  connect(rt, service.url, service.apiKey);
  const scanId = await uploadScan(service, supplierRows(12, 0), 'Price list');
  await waitFinished(service, scanId);
  let p: any;
  do p = rt.scriptRun('importScan', [scanId, null]);
  while (!p.done);
  return { wb, rt, sheet: p.sheetName as string };
}

test('Set up lists puts its six tabs after every tab the seller has, whichever tab is active', async () => {
  const { wb, rt, sheet } = await imported();
  const before = wb.sheetNames();
  // The seller is on their first tab (the price list), as when they open Lists from the menu.
  wb.activeSheet = wb.requireSheet(before[0]);
  rt.scriptRun('setUpLists');
  const after = wb.sheetNames();
  expect(after.slice(0, before.length)).toEqual(before);
  expect(after.slice(before.length)).toHaveLength(6);
  expect(after.indexOf(sheet)).toBeLessThan(after.indexOf('Scan tags'));
  await rt.stop();
});

test('Undo of "add tags" leaves no blank rows in the tags tab: the rows close up and the named range shrinks', async () => {
  const { wb, rt, sheet } = await imported();
  const s = wb.requireSheet(sheet);
  wb.activeSheet = s;
  wb.activeRange = { sheet: s, r1: 2, c1: 3, r2: 4, c2: 5 };
  const tagged = rt.scriptRun('applyRowAction', ['addTags', 'call']) as any;
  wb.activeRange = { sheet: s, r1: 6, c1: 3, r2: 6, c2: 5 };
  rt.scriptRun('applyRowAction', ['addTags', 'keep']);
  expect(wb.requireSheet('Scan tags').lastRow()).toBe(5);
  rt.scriptRun('undoRowAction', [tagged.id]);
  // One entry is left: the header and that row, nothing below it (a blank row would read as an entry to the seller).
  const tags = wb.requireSheet('Scan tags');
  expect(tags.lastRow()).toBe(2);
  expect(
    wb
      .values('Scan tags')
      .slice(1, 2)
      .map((r) => r[2]),
  ).toEqual(['keep']);
  expect(rangeArea(wb, 'SCAN_TAGS')).toMatchObject({ r1: 1, r2: 2 });
  await rt.stop();
});
