/** A result tab with known rows, for the what-to-buy tests (test/addon/buy.test.ts, test/tools/po.test.ts). */
import { Workbook } from '../../emulator/gas/spreadsheet';

/** A result tab as the import writes it (the columns the buy tabs read), known rows. */
export const HEAD = [
  'ASIN',
  'Title',
  'Identifier',
  'Net revenue',
  'Cost',
  'Cost after discount',
  'Units/order',
  'Total cost',
  'Prep',
  'Inbound shipping',
  'Profit',
  'Break-even cost',
  'Cost for 30% ROI',
  'Your units/mo',
  'SKU',
  'Stock',
  'Pack qty',
  'Case Pack',
];
export const ROWS = [
  // row 2: 18 a month for you, case pack 12, plenty of stock
  ['B00000000A', 'Alpha', '012345678905', 15, 8, 8, 1, 8, 0.5, 0.5, 6, 14, 10.53, 18, 'S-1', 1000, 1, 12],
  // row 3: stock 10, below one case pack of 12
  ['B00000000B', 'Bravo', '012345678912', 15, 8, 8, 1, 8, 0.5, 0.5, 6, 14, 10.53, 5, 'S-2', 10, 1, 12],
  // row 4: no units a month (blank share)
  ['B00000000C', 'Charlie', '012345678929', 15, 8, 8, 1, 8, 0.5, 0.5, 6, 14, 10.53, '', 'S-3', 100, 1, 6],
  // row 5: a 2-pack listing: 5 a month × 2 units × 2 months = 20 → 4 cases of 6 = 24
  ['B00000000D', 'Delta 2-pack', '012345678936', 15, 4, 4, 2, 8, 0.5, 0.5, 6, 7, 5.26, 5, 'S-4', 100, 1, 6],
  // row 6: 12.00 today, 30 % needs 10.53: 12.25 % off
  ['B00000000E', 'Echo', '012345678943', 15, 12, 12, 1, 12, 0.5, 0.5, 2, 14, 10.53, 9, '=S-5', 500, 1, 12],
  // row 7: a negative break-even (fees and shipping exceed the price)
  ['B00000000F', 'Foxtrot', '012345678950', 0.8, 8, 8, 1, 8, 0.5, 1.3, -9, -1, -1.19, 3, 'S-6', 50, 1, 1],
  // row 8: a 100 % discount needed (Cost for 30% ROI = 0.00)
  ['B00000000G', 'Golf', '012345678967', 1.3, 7, 7, 1, 7, 1, 0, -6.7, 0.3, 0, 3, 'S-7', 50, 1, 1],
];

/** A workbook whose tab "Sheet1" is that result tab (also the headless runner's input, test/tools/po.test.ts). */
export function resultWorkbook(): Workbook {
  const wb = new Workbook({ name: 'Buying' });
  // Text is typed with a leading apostrophe where the import guards it (identifiers, a SKU like a formula): kept as text.
  [HEAD, ...ROWS].forEach((row, r) =>
    row.forEach((v, c) => wb.type('Sheet1', wb.a1(r + 1, c + 1), typeof v === 'string' && r > 0 && /^[=\d]/.test(v) ? "'" + v : v)),
  );
  return wb;
}
