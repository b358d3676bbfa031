/**
 * Issue 24, what to buy: the Negotiate tab and the purchase order, made by the BUILT add-on in the
 * local runtime from a result tab with known rows (no Scan Service: nothing beyond what the scan
 * paid for is asked). Arithmetic checked cell by cell; the PO's formulas recomputed after a
 * quantity edit by the runtime's formula engine (HyperFormula).
 */
import { Workbook } from '../../emulator/gas/spreadsheet';
import { runtime, thrown } from './scanflow-helpers';

/** A result tab as the import writes it (the columns the buy tabs read), known rows. */
const HEAD = [
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
const ROWS = [
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

function setup() {
  const wb = new Workbook({ name: 'Buying' });
  const rt = runtime(wb);
  // Text is typed with a leading apostrophe where the import guards it (identifiers, a SKU like a formula): kept as text.
  [HEAD, ...ROWS].forEach((row, r) =>
    row.forEach((v, c) => wb.type('Sheet1', wb.a1(r + 1, c + 1), typeof v === 'string' && r > 0 && /^[=\d]/.test(v) ? "'" + v : v)),
  );
  return { wb, rt };
}

/** The PO's cells by header, sheet row r. */
function po(wb: Workbook, tab: string, r: number): Record<string, unknown> {
  const v = wb.values(tab);
  const out: Record<string, unknown> = {};
  (v[0] as string[]).forEach((h, i) => (out[h] = v[r - 1][i]));
  return out;
}

describe('Negotiate tab', () => {
  test('only items short of the target ROI that reach it within the largest discount; a negative break-even and a 100 % discount are left out', () => {
    const { wb, rt } = setup();
    const r = rt.scriptRun('makeNegotiateTab', [{ sheetName: 'Sheet1' }]) as any;
    expect(r).toMatchObject({ sheetName: 'Sheet1 – Negotiate', lines: 1 });
    const v = wb.values('Sheet1 – Negotiate');
    expect(v[0].slice(0, 8)).toEqual(['SKU', 'Identifier', 'Title', 'Today’s cost', 'Cost needed', 'Discount needed', 'Expected units/mo', 'Agreed cost']);
    // Echo: (12.00 − 10.53) ÷ 12.00 = 12.25 %; the SKU that looks like a formula stays text.
    expect(v[1].slice(0, 8)).toEqual(['=S-5', '012345678943', 'Echo', 12, 10.53, 0.1225, 9, '']);
    expect(wb.cell('Sheet1 – Negotiate', 'A2').formula).toBe('');
    expect(wb.cell('Sheet1 – Negotiate', 'F2').display).toBe('12.25%');
    // Asking for up to 100 %: Golf (0.00 needed: 100 % off) joins; Foxtrot (negative: no price works) never does.
    const all = rt.scriptRun('makeNegotiateTab', [{ sheetName: 'Sheet1', maxDiscount: '100' }]) as any;
    expect(all.lines).toBe(2);
    const w = wb.values(all.sheetName);
    expect(w.slice(1).map((x) => [x[2], x[4], x[5]])).toEqual([
      ['Echo', 10.53, 0.1225],
      ['Golf', 0, 1],
    ]);
    rt.close();
  });

  test('a PO from the Negotiate tab orders the rows with an agreed cost, at that cost', () => {
    const { wb, rt } = setup();
    const n = rt.scriptRun('makeNegotiateTab', [{ sheetName: 'Sheet1' }]) as any;
    expect(thrown(() => rt.scriptRun('makePurchaseOrder', [{ sheetName: n.sheetName }]))).toContain('No row of "Sheet1 – Negotiate" has an Agreed cost yet');
    wb.type(n.sheetName, 'H2', 10.5);
    const p = rt.scriptRun('makePurchaseOrder', [{ sheetName: n.sheetName }]) as any;
    expect(p.lines).toBe(1);
    // 9 a month × 2 months = 18 → 2 cases of 12 = 24, at the agreed 10.50.
    expect(po(wb, p.sheetName, 2)).toMatchObject({ ASIN: 'B00000000E', 'Cost per unit': 10.5, Quantity: 24, 'Line cost': 252 });
    rt.close();
  });
});

describe('purchase order', () => {
  test('quantities in whole case packs capped by stock; cost, cash, profit and days as formulas; totals and warnings', () => {
    const { wb, rt } = setup();
    const r = rt.scriptRun('makePurchaseOrder', [{ sheetName: 'Sheet1', rows: '2-5', cash: '$400', days: 90 }]) as any;
    expect(r).toMatchObject({ sheetName: 'Sheet1 – PO', lines: 4 });
    expect(r.message).toContain('Row 3 (B00000000B): stock 10 is below one case pack of 12, quantity 0');
    expect(r.message).toContain('Row 4 (B00000000C): no sales estimate');
    const tab = r.sheetName;
    // Row 2: 18 × 1 × 2 = 36 = 3 cases. 36 × 8.00 = 288; + 36 × 1.00 prep and inbound = 324; 36 × (15 − 8 − 1) = 216; 36 ÷ 18 × 30 = 60 days.
    expect(po(wb, tab, 2)).toMatchObject({
      ASIN: 'B00000000A',
      'Case pack': 12,
      Quantity: 36,
      'Line cost': 288,
      'Cash needed': 324,
      'Expected profit': 216,
      'Days to sell through': 60,
    });
    expect(po(wb, tab, 3)).toMatchObject({ Quantity: 0, 'Line cost': 0, 'Days to sell through': '' });
    expect(po(wb, tab, 4)).toMatchObject({ 'Your units/mo': '', Quantity: 0 });
    // A 2-pack: 24 units = 12 orders; 24 × 4.00 = 96; + 12 × 1.00 = 108; 12 × (15 − 8 − 1) = 72; 12 ÷ 5 × 30 = 72 days.
    expect(po(wb, tab, 5)).toMatchObject({ Quantity: 24, 'Line cost': 96, 'Cash needed': 108, 'Expected profit': 72, 'Days to sell through': 72 });
    // The cells are our formulas, from cell references only.
    expect(wb.cell(tab, 'M2').formula).toBe('=L2*I2');
    expect(wb.cell(tab, 'N2').formula).toBe('=M2+L2/E2*K2');
    expect(wb.cell(tab, 'O5').formula).toBe('=L5/E5*(J5-E5*I5-K5)');
    // Totals two rows below the lines; the cash warning is on (432 > 400), the days one is not (72 ≤ 90).
    expect(po(wb, tab, 7)).toMatchObject({ ASIN: 'Total', Quantity: 60, 'Line cost': 384, 'Cash needed': 432, 'Expected profit': 288, 'Days to sell through': 72 });
    expect(wb.cell(tab, 'B8').value).toBe(400);
    expect(wb.cell(tab, 'C8').value).toBe('Over: this order needs more cash than you set');
    expect(wb.cell(tab, 'C9').value).toBe('');
    // The header notes say how each figure is computed.
    expect(wb.cell(tab, 'L1').note).toContain('rounded UP to whole case packs');
    expect(wb.cell(tab, 'F1').note).toContain('“Case Pack”');
    rt.close();
  });

  test('after a quantity edit the runtime’s formula engine recomputes the line and the totals; the warning goes', () => {
    const { wb, rt } = setup();
    const r = rt.scriptRun('makePurchaseOrder', [{ sheetName: 'Sheet1', rows: '2-5', cash: 400, days: 50 }]) as any;
    const tab = r.sheetName;
    expect(wb.cell(tab, 'C9').value).toBe('Over: an item takes longer to sell through than you set'); // 72 > 50
    wb.type(tab, 'L2', 24);
    wb.type(tab, 'L5', 12);
    // Row 2: 24 × 8 = 192; + 24 = 216; 24 × 6 = 144; 24 ÷ 18 × 30 = 40 days. Row 5: 48; 54; 36; 36 days.
    expect(po(wb, tab, 2)).toMatchObject({ Quantity: 24, 'Line cost': 192, 'Cash needed': 216, 'Expected profit': 144, 'Days to sell through': 40 });
    expect(po(wb, tab, 5)).toMatchObject({ Quantity: 12, 'Line cost': 48, 'Cash needed': 54, 'Expected profit': 36, 'Days to sell through': 36 });
    expect(po(wb, tab, 7)).toMatchObject({ Quantity: 36, 'Line cost': 240, 'Cash needed': 270, 'Expected profit': 180, 'Days to sell through': 40 });
    expect(wb.cell(tab, 'C8').value).toBe('');
    expect(wb.cell(tab, 'C9').value).toBe('');
    rt.close();
  });

  test('no rows given and none selected in the result tab: says to select them; a wrong row range is named', () => {
    const { rt } = setup();
    rt.scriptRun('makeNegotiateTab', [{ sheetName: 'Sheet1' }]); // activates another tab
    expect(thrown(() => rt.scriptRun('makePurchaseOrder', [{ sheetName: 'Sheet1' }]))).toBe(
      'Select the rows to order in "Sheet1" (or give rows like 2-40), then make the purchase order.',
    );
    expect(thrown(() => rt.scriptRun('makePurchaseOrder', [{ sheetName: 'Sheet1', rows: '2-99' }]))).toBe(
      'Row 9 is not a product row of "Sheet1" (rows 2 to 8).',
    );
    rt.close();
  });
});
