/**
 * The result tab's number formats, in both worlds Google leaves open. The Sheets API page says rows
 * inserted after a row take its formats (developers.google.com/sheets/api/reference/rest/v4/
 * spreadsheets/request#InsertDimensionRequest, inheritFromBefore); Apps Script's insertRowsAfter
 * page is silent. The import formats the tab's first data row, grows the tab, reads one new row
 * back, and formats the new rows itself only when they came in blank. Through importScan of a
 * default scan, the BUILT add-on in the local runtime, once per world (Workbook option
 * insertInheritsFormats).
 */
import type { SpawnedService } from '../../emulator/service/spawn';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { AUTOMATIC_FORMAT } from '../../emulator/gas/spreadsheet/values';
import { findMarketplace } from '../../contract/marketplaces';
import { connect, runtime } from './scanflow-helpers';
import { startImportService, supplierRows, uploadScan, waitFinished } from './import-helpers';

jest.setTimeout(60_000);

const NAME = 'Formats';
const ROWS = 40;
let service: SpawnedService;
let scanId: number;

beforeAll(async () => {
  service = await startImportService();
  scanId = await uploadScan(service, supplierRows(ROWS, 0), NAME);
  await waitFinished(service, scanId);
});
afterAll(async () => {
  await service?.stop();
});

/** Imports the scan into a new workbook of the given world: every data row's formats, and the cells the import wrote. */
function importIn(insertInheritsFormats: boolean): { formats: string[][]; header: unknown[]; cellsWritten: number } {
  const wb = new Workbook({ name: 'Supplier', insertInheritsFormats });
  const rt = runtime(wb);
  try {
    connect(rt, service.url, service.apiKey);
    const first = rt.executions.length;
    const r = rt.scriptRun('importScan', [scanId, null]) as { done: boolean };
    expect(r.done).toBe(true);
    const values = wb.values(NAME);
    const header = values[0];
    const formats = values.slice(1).map((_, i) => header.map((_, c) => wb.cell(NAME, wb.a1(i + 2, c + 1)).format));
    const cellsWritten = rt.executions.slice(first).reduce((a, e) => a + e.counters.cellsWritten, 0);
    return { formats, header, cellsWritten };
  } finally {
    rt.close();
  }
}

test('every result row carries the money and percent formats whether inserted rows inherit formats or come in blank; where they inherit, the import does not write them again', () => {
  const inheriting = importIn(true);
  const blank = importIn(false);
  const money = findMarketplace('US')!.moneyFormat;
  const col = (name: string) => inheriting.header.indexOf(name);
  // The premise: a scan of many rows, one growth at least, the columns the seller reads as money and percent.
  expect(inheriting.formats.length).toBeGreaterThanOrEqual(ROWS);
  expect(col('Profit')).toBeGreaterThan(0);
  expect(col('ROI')).toBeGreaterThan(0);
  for (const row of inheriting.formats) {
    expect(row[col('Profit')]).toBe(money);
    expect(row[col('ROI')]).toMatch(/%/);
  }
  // The same formats, cell by cell, in the world where inserted rows come in blank.
  expect(blank.header).toEqual(inheriting.header);
  expect(blank.formats).toEqual(inheriting.formats);
  // Where rows inherit, the formats are written on one row, not on every row.
  const formatted = inheriting.formats[0].filter((f) => f !== AUTOMATIC_FORMAT).length;
  expect(formatted).toBeGreaterThan(5);
  expect(blank.cellsWritten - inheriting.cellsWritten).toBeGreaterThanOrEqual((inheriting.formats.length - 1) * formatted);
});
