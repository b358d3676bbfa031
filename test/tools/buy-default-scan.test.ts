/**
 * Issue 32, item 1: the buy tabs read the output of a REAL scan made with defaults, not a
 * hand-built tab. The shipped sample is scanned headless (`npm run local -- scan`, the BUILT add-on
 * in the local runtime against the local Scan Service), with no prep cost: the import leaves the
 * empty "Prep" (and "Cost after discount", "Pack qty") columns out. Then the Negotiate tab and the
 * purchase order are made from that saved workbook through the add-on's entry points, and
 * `npm run local -- po` runs again on the scan's own saved output.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { runtime } from '../addon/scanflow-helpers';
import { CELL_PADDING_PX, FILTER_BUTTON_PX, textWidth } from '../../src/domain/sheet/text-width';
import { runLocal } from './run-local';

jest.setTimeout(120_000);
const dir = mkdtempSync(join(tmpdir(), 'buy-default-'));
const scanned = join(dir, 'scan.xlsx');
let tab = '';

/** A tab's rows as objects by header. */
function byHeader(wb: Workbook, name: string): Array<Record<string, unknown>> {
  const [h, ...rows] = wb.values(name);
  return rows.map((r) => Object.fromEntries((h as string[]).map((x, i) => [x, r[i]])));
}

beforeAll(async () => {
  const r = await runLocal(['scan', join('samples', 'supplier-price-list.xlsx'), '--out', scanned]);
  expect(r.code).toBe(0);
  tab = /-> tab "([^"]+)"/.exec(r.stdout)![1];
});

test('the default scan has no Prep column (the import trims it), and the Negotiate tab and PO are made from it with its figures', async () => {
  const wb = await Workbook.fromXlsx(scanned);
  const header = wb.values(tab)[0] as string[];
  // The premise: a default scan's tab lacks the columns nothing came back for.
  expect(header).not.toContain('Prep');
  expect(header).not.toContain('Cost after discount');
  const results = byHeader(wb, tab);
  const byAsin = new Map(results.map((r) => [r.ASIN, r]));
  const rt = runtime(wb);

  const n = rt.scriptRun('makeNegotiateTab', [{ sheetName: tab }]) as { sheetName: string; lines: number };
  expect(n.lines).toBeGreaterThan(0);
  for (const line of byHeader(wb, n.sheetName)) {
    const r = byAsin.get(line.ASIN)!;
    expect(line['Today’s cost']).toBe(r.Cost);
    expect(line['Cost needed']).toBe(r['Cost for 30% ROI']);
    // No prep cost: Prep + inbound is the inbound shipping alone.
    expect(line['Prep + inbound']).toBe(r['Inbound shipping']);
    expect(line['Discount needed']).toBeCloseTo(1 - (r['Cost for 30% ROI'] as number) / (r.Cost as number), 5);
  }

  // Rows 2-11 of the result tab; quantities: Your units/mo × Units/order × 2 months (the default), whole case packs, capped by
  // stock, and no more whole case packs than sell through within the default cover of 90 days (3 months).
  const p = rt.scriptRun('makePurchaseOrder', [{ sheetName: tab, rows: '2-11' }]) as { sheetName: string; lines: number };
  expect(p.lines).toBe(10);
  const lines = byHeader(wb, p.sheetName).slice(0, 10);
  lines.forEach((line, i) => {
    const r = results[i];
    expect(line.ASIN).toBe(r.ASIN);
    expect(line['Cost per unit']).toBe(r.Cost);
    expect(line['Prep + inbound']).toBe(r['Inbound shipping']);
    expect(line['Case pack']).toBe(Number(r['Case Pack']));
    const want = (r['Your units/mo'] as number) * (r['Units/order'] as number) * 2;
    const pack = Number(r['Case Pack']);
    const inCover = Math.floor(((r['Your units/mo'] as number) * (r['Units/order'] as number) * 3) / pack + 1e-9);
    const cases = Math.min(Math.ceil(want / pack), Math.floor((r.Stock as number) / pack), inCover);
    expect(line.Quantity).toBe(cases * pack);
  });
  await rt.stop();
});

test('headless: po on the saved output of a default scan writes the PO', async () => {
  const out = join(dir, 'po.xlsx');
  const r = await runLocal(['po', scanned, '--tab', tab, '--rows', '2-11', '--out', out], { SCAN_SERVICE_URL: 'http://127.0.0.1:9' });
  expect(r.stdout).toContain('Purchase order "' + tab + ' – PO": 10 lines.');
  expect(r.code).toBe(0);
  const wb = await Workbook.fromXlsx(out);
  const po = byHeader(wb, tab + ' – PO');
  const results = byHeader(wb, tab);
  expect(po.slice(0, 10).map((l) => l['Prep + inbound'])).toEqual(results.slice(0, 10).map((r) => r['Inbound shipping']));
});

test('a default PO leaves out full case packs of slow sellers (0.5 and 0.2 a month), saying how it was computed', async () => {
  const wb = await Workbook.fromXlsx(scanned);
  const results = byHeader(wb, tab);
  // The premise, from the scan itself: rows 64 and 65 sell 0.5 and 0.2 a month with case packs of 6; row 3 sells 29 a month.
  expect([results[62]['Your units/mo'], results[62]['Case Pack']]).toEqual([0.5, '6']);
  expect([results[63]['Your units/mo'], results[63]['Case Pack']]).toEqual([0.2, '6']);
  expect(results[1]['Your units/mo']).toBe(29);
  const rt = runtime(wb);
  const p = rt.scriptRun('makePurchaseOrder', [{ sheetName: tab, rows: '3, 64-65' }]) as { sheetName: string; message: string };
  const lines = byHeader(wb, p.sheetName);
  // One case pack of 6 at 0.5 a month: 360 days; at 0.2: 900 days. Both over the 90-day default: quantity 0, no cash tied up.
  expect(lines.slice(0, 3).map((l) => [l.ASIN, l.Quantity])).toEqual([
    [results[1].ASIN, 60],
    [results[62].ASIN, 0],
    [results[63].ASIN, 0],
  ]);
  expect(p.message).toContain(
    'Row 64 (' +
      results[62].ASIN +
      '): not even one case pack of 6 sells through in time (6 units ÷ 1 per order ÷ 0.5 a month × 30 = 360 days to sell through, over the 90-day default cover',
  );
  expect(p.message).toContain('÷ 0.2 a month × 30 = 900 days to sell through, over the 90-day default cover');
  // The sheet shows the limit it used, and its warning formula checks the seller's later edits against it.
  const v = wb.values(p.sheetName);
  const limit = v.find((r) => r[0] === 'Sell through within (days)')!;
  expect(limit[1]).toBe(90);
  expect(wb.cell(p.sheetName, 'L1').note).toContain('sell through within 90 days');
  await rt.stop();
});

/**
 * Columns too narrow for their bold header (beside the filter button) or for a figure they show, at
 * Sheets' default font: "Net reve…", "$191,976.…" (issue 32). 1 px allowed for the .xlsx round trip.
 */
function cutColumns(wb: Workbook, tab: string): string[] {
  const model = (wb as any).sheets.find((m: any) => m.name === tab);
  const v = wb.values(tab);
  const out: string[] = [];
  (v[0] as string[]).forEach((h, i) => {
    const w = model.colWidths.get(i + 1) ?? 100;
    if (w + 1 < textWidth(String(h), true) + CELL_PADDING_PX + FILTER_BUTTON_PX) out.push(`${h} (${w} px): header`);
    let widest = '';
    for (let r = 2; r <= v.length; r++) {
      const d = wb.cell(tab, wb.a1(r, i + 1)).display;
      if (/^-?[$€£¥]?-?[\d,]+(\.\d+)?%?$/.test(d) && textWidth(d) > textWidth(widest)) widest = d;
    }
    if (widest && w + 1 < textWidth(widest) + CELL_PADDING_PX) out.push(`${h} (${w} px): ${widest}`);
  });
  return out;
}

test('headers and figures fit their columns: the result tab, the Negotiate tab and the PO of a default scan', async () => {
  const wb = await Workbook.fromXlsx(scanned);
  expect(cutColumns(wb, tab)).toEqual([]);
  const rt = runtime(wb);
  const n = rt.scriptRun('makeNegotiateTab', [{ sheetName: tab }]) as { sheetName: string };
  const p = rt.scriptRun('makePurchaseOrder', [{ sheetName: tab, rows: '2-293' }]) as { sheetName: string };
  expect(cutColumns(wb, n.sheetName)).toEqual([]);
  expect(cutColumns(wb, p.sheetName)).toEqual([]);
  // The bold labels under the PO's lines ("Cash you have", "Sell through within (days)") are not cut either.
  const widthA = (wb as any).sheets.find((m: any) => m.name === p.sheetName).colWidths.get(1) as number;
  const labels = wb
    .values(p.sheetName)
    .map((r) => String(r[0]))
    .filter((x) => /^(Total|Cash you have|Sell through within)/.test(x));
  expect(labels).toHaveLength(3);
  expect(labels.filter((l) => widthA + 1 < textWidth(l, true) + CELL_PADDING_PX)).toEqual([]);
  await rt.stop();
});
