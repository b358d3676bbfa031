/**
 * A file opened and edited: its built-in formulas follow the edit, as in any spreadsheet program
 * (Sheets recalculates a formula whose inputs change; an opened .xlsx is no different). Found by the
 * seller's week run headless: a quantity typed into a saved purchase order left its line cost and
 * total stale, because the loaded workbook had no formula engine until a script attached.
 */
import { Workbook } from '../../../emulator/gas/spreadsheet';

test('a value typed into a workbook loaded from .xlsx recomputes the formulas that read it, totals included', async () => {
  const wb = new Workbook({ name: 'PO', empty: true });
  wb.addSheet('PO');
  wb.type('PO', 'A1', 12);
  wb.type('PO', 'B1', 8);
  wb.type('PO', 'C1', '=A1*B1');
  wb.type('PO', 'A2', 6);
  wb.type('PO', 'B2', 4);
  wb.type('PO', 'C2', '=A2*B2');
  wb.type('PO', 'C3', '=SUM(C1:C2)');
  expect(wb.cell('PO', 'C3').value).toBe(120);
  const again = await Workbook.fromXlsx(await wb.toXlsx());
  expect(again.cell('PO', 'C3').value).toBe(120);
  again.type('PO', 'A1', 24);
  expect(again.cell('PO', 'C1').value).toBe(192);
  expect(again.cell('PO', 'C3').value).toBe(216);
});
