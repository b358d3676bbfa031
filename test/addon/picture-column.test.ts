/**
 * Issue 36: a picture per result row, through the add-on's entry points (importScan, previewScan,
 * startScan) in the local Apps Script runtime against the local Scan Service.
 *
 * The picture cell is `=IMAGE("<checked https address>")`, written by the import's one setValues a
 * wave: IMAGE takes its URL as a quoted string (support.google.com/docs/answer/3093333), and a
 * formula is a value Range.setValues writes
 * (developers.google.com/apps-script/reference/spreadsheet/range#setValues(Object)); Google's
 * in-cell image pages (developers.google.com/apps-script/reference/spreadsheet/cell-image-builder)
 * document no block of 1,000 (src/domain/result-tabs/picture.ts says why).
 */
import { Workbook } from '../../emulator/gas/spreadsheet';
import type { Runtime } from '../../emulator/gas';
import { SheetImpl } from '../../emulator/gas/spreadsheet/sheet';
import { PICTURE_ROW_HEIGHT } from '../../src/domain/result-tabs/picture';
import { scanRequest } from './scanflow-helpers';
import { serviceRows, supplierRows, upc, useUploadedScan, waitFinished } from './import-helpers';

jest.setTimeout(60_000);

const NAME = 'Pictured list';
const PRODUCTS = 120;
const scan = useUploadedScan(NAME, () => supplierRows(PRODUCTS, 0));
const session = () => scan.session();

test('every result row shows its first image beside the title, in rows tall enough, and a saved .xlsx keeps both', async () => {
  const { rt, wb } = session();
  try {
    rt.scriptRun('importScan', [scan.scanId, null]);
    const products = await serviceRows(scan.service, scan.scanId);
    expect(products.length).toBeGreaterThan(100); // the premise: more than one page
    const header = wb.values(NAME)[0];
    expect(header.slice(0, 4)).toEqual(['ASIN', 'Title', 'Picture', 'Verdict']);
    const sheet = wb.requireSheet(NAME);
    products.forEach((p, i) => {
      const link = p.images[0].url as string;
      expect(link).toMatch(/^https:\/\/images\.scan-service\.invalid\/I\/[A-Z0-9]{10}-0\.png$/);
      const cell = wb.cell(NAME, wb.a1(i + 2, 3));
      expect(cell.formula).toBe(`=IMAGE("${link}")`);
      // In Google a picture cell holds no value (emulator/gas/spreadsheet/picture-functions.ts).
      expect(cell.value).toBe('');
      expect(sheet.rowHeights.get(i + 2)).toBe(60);
    });
    expect(sheet.rowHeights.get(1)).toBeUndefined(); // the header keeps its height

    const saved = await Workbook.fromXlsx(await wb.toXlsx());
    const back = saved.requireSheet(NAME);
    expect(saved.cell(NAME, 'C2').formula).toBe(`=IMAGE("${products[0].images[0].url}")`);
    expect(back.rowHeights.get(products.length + 1)).toBe(60);
  } finally {
    await rt.stop();
  }
});

test("the overview's top products show each product's picture: IMAGE of the address read from the ranked row's Picture cell", async () => {
  const { rt, wb } = session();
  try {
    const rowHeightCalls = jest.spyOn(SheetImpl.prototype, 'setRowHeights');
    rt.scriptRun('importScan', [scan.scanId, null]);
    const tab = `${NAME} – Overview`;
    const rows = wb.values(tab);
    const head = rows.findIndex((r) => r[0] === 'Rank');
    expect(rows[head].slice(0, 6)).toEqual(['Rank', 'Expected profit a month', 'ASIN', 'Title', 'Picture', 'Picture link']);
    const result = wb.values(NAME);
    const asins = result.map((r) => r[0]);
    const products = await serviceRows(scan.service, scan.scanId);
    const linkOf = (asin: unknown) => products.find((p) => p.asin === asin)!.images[0].url as string;
    for (let k = 1; k <= 20; k++) {
      const r = head + 1 + k; // the k-th product's sheet row
      const asin = rows[r - 1][2];
      expect(asins).toContain(asin);
      // IMAGE of a cell holding the address (support.google.com/docs/answer/3093333), not INDEX of
      // the result tab's IMAGE cell, which computes to no value (and Sheets does not document it).
      expect(wb.cell(tab, wb.a1(r, 5)).formula).toBe(`=IF(F${r}="","",IMAGE(F${r}))`);
      expect(rows[r - 1][5]).toBe(linkOf(asin));
    }
    // The address is read from the result tab's Picture cell, by a formula over its column and the monthly column.
    expect(wb.cell(tab, wb.a1(head + 2, 6)).formula).toContain(
      `FORMULATEXT(INDEX('${NAME}'!C:C,MATCH(B${head + 2},'${NAME}'!${monthlyColumn(wb)}:${monthlyColumn(wb)},0)))`,
    );
    // The top rows are as tall as the result tab's picture rows (60 px), the others keep the default.
    const heights = (sheet: { rowHeights: Map<number, number> }) =>
      Array.from({ length: rows.length }, (_, i) => sheet.rowHeights.get(i + 1) ?? 'default');
    const tall = (h: Array<number | string>) => h.flatMap((v, i) => (v === 'default' ? [] : [[i + 1, v]]));
    const expected = Array.from({ length: 20 }, (_, k) => [head + 2 + k, PICTURE_ROW_HEIGHT]);
    expect(tall(heights(wb.requireSheet(tab)))).toEqual(expected);
    // ... in one call, and a saved .xlsx keeps them.
    const onOverview = rowHeightCalls.mock.calls.filter((_, i) => (rowHeightCalls.mock.contexts[i] as SheetImpl).getName() === tab);
    rowHeightCalls.mockRestore();
    expect(onOverview).toEqual([[head + 2, 20, PICTURE_ROW_HEIGHT]]);
    const saved = await Workbook.fromXlsx(await wb.toXlsx());
    expect(tall(heights(saved.requireSheet(tab)))).toEqual(expected);
  } finally {
    await rt.stop();
  }
});

/** The letter of the result tab's "Your profit/mo" column. */
function monthlyColumn(wb: Workbook): string {
  const c = wb.values(NAME)[0].indexOf('Your profit/mo');
  expect(c).toBeGreaterThan(0);
  return wb.a1(1, c + 1).replace(/\d+$/, '');
}

/** A seller's New scan of `n` UPCs the catalog knows, sent with `options` through previewScan and startScan. */
function sheetScan(rt: Runtime, wb: Workbook, n: number, options: Record<string, unknown>): { preview: any; scanId: number } {
  const sh = wb.addSheet('Prices', undefined, n + 1, 2);
  wb.writeInput(sh, 1, 1, 'UPC');
  wb.writeInput(sh, 1, 2, 'Cost');
  for (let i = 0; i < n; i++) {
    wb.writeInput(sh, i + 2, 1, "'" + upc(20000 + i));
    wb.writeInput(sh, i + 2, 2, 4 + (i % 10));
  }
  wb.activeSheet = sh;
  const setup = rt.scriptRun('getScanSetup') as any;
  const request = { ...scanRequest(setup, { marketplace: 'US', ...options }), headerRow: setup.headerRow };
  const preview = rt.scriptRun('previewScan', [request]) as any;
  const started = rt.scriptRun('startScan', [request]) as any;
  return { preview, scanId: started.progress.scanId };
}

test('New scan\'s "Pictures" turned off: the room check counts one column fewer, and the import, run later, writes no picture column', async () => {
  const on = session();
  const off = session();
  try {
    const withPictures = sheetScan(on.rt, on.wb, 30, { name: 'With pictures' });
    const without = sheetScan(off.rt, off.wb, 30, { name: 'Without pictures', pictures: false });
    expect(without.preview.room.columns).toBe(withPictures.preview.room.columns - 1);
    expect(without.preview.room.needed).toBeLessThan(withPictures.preview.room.needed);
    await waitFinished(scan.service, withPictures.scanId);
    await waitFinished(scan.service, without.scanId);
    // The import reads the choice from the scan's record (as the hourly trigger's import would).
    off.rt.scriptRun('importScan', [without.scanId, null]);
    on.rt.scriptRun('importScan', [withPictures.scanId, null]);
    expect(on.wb.values('With pictures')[0].slice(0, 3)).toEqual(['ASIN', 'Title', 'Picture']);
    const header = off.wb.values('Without pictures')[0];
    expect(header.slice(0, 3)).toEqual(['ASIN', 'Title', 'Verdict']);
    expect(header).not.toContain('Picture');
    expect(off.wb.requireSheet('Without pictures').rowHeights.size).toBe(0);
    // Nor does its overview give its top rows a picture's height.
    expect(off.wb.values('Without pictures – Overview').some((r) => r[0] === 'Rank')).toBe(true);
    expect(off.wb.requireSheet('Without pictures – Overview').rowHeights.size).toBe(0);
    expect(header.length).toBe(on.wb.values('With pictures')[0].length - 1);
  } finally {
    await on.rt.stop();
    await off.rt.stop();
  }
});
