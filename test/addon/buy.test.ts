/**
 * Issue 24, what to buy: the Negotiate tab and the purchase order, made by the BUILT add-on in the
 * local runtime from a result tab with known rows (no Scan Service: nothing beyond what the scan
 * paid for is asked). Arithmetic checked cell by cell; the PO's formulas recomputed after a
 * quantity edit by the runtime's formula engine (HyperFormula).
 */
import type { Workbook } from '../../emulator/gas/spreadsheet';
import { runtime, thrown } from './scanflow-helpers';
import { resultWorkbook } from './buy-helpers';

function setup() {
  const wb = resultWorkbook();
  const rt = runtime(wb);
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
  test('only items short of the target ROI that reach it within the largest discount; a negative break-even and a 100 % discount are left out', async () => {
    const { wb, rt } = setup();
    const r = rt.scriptRun('makeNegotiateTab', [{ sheetName: 'Sheet1' }]) as any;
    expect(r).toMatchObject({ sheetName: 'Sheet1 – Negotiate', lines: 1 });
    const v = wb.values('Sheet1 – Negotiate');
    expect(v[0].slice(0, 8)).toEqual([
      'SKU',
      'Identifier',
      'Title',
      'Today’s cost',
      'Cost needed',
      'Discount needed',
      'Expected units/mo',
      'Agreed cost',
    ]);
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
    await rt.stop();
  });

  test('a PO from the Negotiate tab orders the rows with an agreed cost, at that cost', async () => {
    const { wb, rt } = setup();
    const n = rt.scriptRun('makeNegotiateTab', [{ sheetName: 'Sheet1' }]) as any;
    expect(thrown(() => rt.scriptRun('makePurchaseOrder', [{ sheetName: n.sheetName }]))).toContain(
      'No row of "Sheet1 – Negotiate" has an Agreed cost yet',
    );
    wb.type(n.sheetName, 'H2', 10.5);
    const p = rt.scriptRun('makePurchaseOrder', [{ sheetName: n.sheetName }]) as any;
    expect(p.lines).toBe(1);
    // 9 a month × 2 months = 18 → 2 cases of 12 = 24, at the agreed 10.50.
    expect(po(wb, p.sheetName, 2)).toMatchObject({ ASIN: 'B00000000E', 'Cost per unit': 10.5, Quantity: 24, 'Line cost': 252 });
    await rt.stop();
  });
});

describe('a tab as a file for the supplier', () => {
  test('the Negotiate tab as CSV in Drive: only the supplier’s columns, as shown, nothing a spreadsheet program would run', async () => {
    const { rt } = setup();
    rt.scriptRun('makeNegotiateTab', [{ sheetName: 'Sheet1' }]);
    const r = rt.scriptRun('exportTabCsv', ['Sheet1 – Negotiate']) as any;
    expect(r.fileName).toBe('Sheet1 – Negotiate.csv');
    const file = [...rt.drive.files.values()].find((f) => r.url === `https://drive.google.com/file/d/${f.id}/view?usp=drivesdk`)!;
    expect(file.mimeType).toBe('text/csv');
    expect(file.data.toString('utf8')).toBe(
      [
        'SKU,Identifier,Title,Today’s cost,Cost needed,Discount needed,Expected units/mo',
        // The SKU "=S-5" gets an apostrophe (OWASP CSV injection); the identifier keeps its zero.
        "'=S-5,012345678943,Echo,$12.00,$10.53,12.25%,9",
        '',
      ].join('\r\n'),
    );
    await rt.stop();
  });
});

describe('purchase order', () => {
  test('quantities in whole case packs capped by stock; cost, cash, profit and days as formulas; totals and warnings', async () => {
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
    expect(po(wb, tab, 5)).toMatchObject({
      Quantity: 24,
      'Line cost': 96,
      'Cash needed': 108,
      'Expected profit': 72,
      'Days to sell through': 72,
    });
    // The cells are our formulas, from cell references only.
    expect(wb.cell(tab, 'M2').formula).toBe('=L2*I2');
    expect(wb.cell(tab, 'N2').formula).toBe('=M2+L2/E2*K2');
    expect(wb.cell(tab, 'O5').formula).toBe('=L5/E5*(J5-E5*I5-K5)');
    // Totals two rows below the lines; the cash warning is on (432 > 400), the days one is not (72 ≤ 90).
    expect(po(wb, tab, 7)).toMatchObject({
      ASIN: 'Total',
      Quantity: 60,
      'Line cost': 384,
      'Cash needed': 432,
      'Expected profit': 288,
      'Days to sell through': 72,
    });
    expect(wb.cell(tab, 'B8').value).toBe(400);
    expect(wb.cell(tab, 'B8').display).toBe('$400.00');
    expect(wb.cell(tab, 'N7').display).toBe('$432.00');
    expect(wb.cell(tab, 'C8').value).toBe('Over: this order needs more cash than you set');
    expect(wb.cell(tab, 'C9').value).toBe('');
    // The header notes say how each figure is computed.
    expect(wb.cell(tab, 'L1').note).toContain('rounded UP to whole case packs');
    expect(wb.cell(tab, 'F1').note).toContain('“Case Pack”');
    await rt.stop();
  });

  test('after a quantity edit the runtime’s formula engine recomputes the line and the totals; the warning goes', async () => {
    const { wb, rt } = setup();
    const r = rt.scriptRun('makePurchaseOrder', [{ sheetName: 'Sheet1', rows: '2-5', cash: 400, days: 50 }]) as any;
    const tab = r.sheetName;
    expect(wb.cell(tab, 'C9').value).toBe('Over: an item takes longer to sell through than you set'); // 72 > 50
    wb.type(tab, 'L2', 24);
    wb.type(tab, 'L5', 12);
    // Row 2: 24 × 8 = 192; + 24 = 216; 24 × 6 = 144; 24 ÷ 18 × 30 = 40 days. Row 5: 48; 54; 36; 36 days.
    expect(po(wb, tab, 2)).toMatchObject({
      Quantity: 24,
      'Line cost': 192,
      'Cash needed': 216,
      'Expected profit': 144,
      'Days to sell through': 40,
    });
    expect(po(wb, tab, 5)).toMatchObject({
      Quantity: 12,
      'Line cost': 48,
      'Cash needed': 54,
      'Expected profit': 36,
      'Days to sell through': 36,
    });
    expect(po(wb, tab, 7)).toMatchObject({
      Quantity: 36,
      'Line cost': 240,
      'Cash needed': 270,
      'Expected profit': 180,
      'Days to sell through': 40,
    });
    expect(wb.cell(tab, 'C8').value).toBe('');
    expect(wb.cell(tab, 'C9').value).toBe('');
    await rt.stop();
  });

  test('from the menu: the selected rows of the result tab, the months of the scan’s options, the answer in an alert (default 2 months of cover for a tab without a scan record)', async () => {
    const { wb, rt } = setup();
    const s = wb.requireSheet('Sheet1');
    wb.activeSheet = s;
    wb.activeRange = { sheet: s, r1: 1, c1: 2, r2: 2, c2: 4 }; // the header and row 2: the header is left out
    rt.state.uiAnswers.push({ button: 'OK' });
    rt.scriptRun('menuPurchaseOrder');
    const alert = rt.uiEvents.filter((e) => e.kind === 'alert').pop() as any;
    expect(alert.title).toBe('Purchase order');
    expect(alert.prompt).toMatch(/^Purchase order "Sheet1 – PO": 1 line\. Edit Quantity/);
    expect(po(wb, 'Sheet1 – PO', 2)).toMatchObject({ ASIN: 'B00000000A', Quantity: 36 });
    // ASIN and Title stay in view, like in the result tab.
    expect(wb.requireSheet('Sheet1 – PO').frozenCols).toBe(2);
    await rt.stop();
  });

  test('no rows given and none selected in the result tab: says to select them; a wrong row range is named', async () => {
    const { rt } = setup();
    rt.scriptRun('makeNegotiateTab', [{ sheetName: 'Sheet1' }]); // activates another tab
    expect(thrown(() => rt.scriptRun('makePurchaseOrder', [{ sheetName: 'Sheet1' }]))).toBe(
      'Select the rows to order in "Sheet1" (or give rows like 2-40), then make the purchase order.',
    );
    expect(thrown(() => rt.scriptRun('makePurchaseOrder', [{ sheetName: 'Sheet1', rows: '2-99' }]))).toBe(
      'Row 9 is not a product row of "Sheet1" (rows 2 to 8).',
    );
    await rt.stop();
  });
});
