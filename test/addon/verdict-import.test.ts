/**
 * Issue 36: the verdict of each result row, through importScan of a default scan over the shipped
 * sample catalog (the local service marks some of its products ineligible for FBA inbound, some
 * hazmat). The built add-on in the local Apps Script runtime.
 */
import { spawnService } from '../../emulator/service/spawn';
import { sampleUsListings, serviceRows, useUploadedScan, type SampleListing, type SupplierRow } from './import-helpers';
import { CANT_SEND } from '../../src/domain/result-tabs/verdict';

jest.setTimeout(60_000);

const NAME = 'Sample buys';

/** UPCs of the sample's US listings (one listing each): `n` of each kind the verdict tells apart. */
function sampleRows(n: number): SupplierRow[] {
  const { us, single } = sampleUsListings(['upc']);
  const kinds = [
    (r: SampleListing) => !r.inbound_eligibility.eligible,
    (r: SampleListing) => r.inbound_eligibility.eligible && r.is_hazmat,
    (r: SampleListing) => r.inbound_eligibility.eligible && !r.is_hazmat && !r.is_meltable && !r.is_adult,
  ];
  const picked: SampleListing[] = [];
  for (const kind of kinds) picked.push(...us.filter((r) => kind(r) && single(r) && r.buybox_price).slice(0, n));
  // Every other row at a low cost (profitable: an ineligible one would look like a buy), the others
  // at 60% of the Buy Box (short of 30% ROI: what Negotiate asks a discount for).
  return picked.map((r, i) => ({
    upc: single(r)!,
    cost: i % 2 ? ((r.buybox_price! * 0.6) / 100).toFixed(2) : '1.00',
    sku: 'S-' + i,
    sheetRow: i + 2,
    note: '',
  }));
}

const scan = useUploadedScan(
  NAME,
  () => sampleRows(8),
  () => spawnService({ SCAN_SERVICE_SPEED: '6000000', SCAN_SERVICE_API_KEYS: 'imp-key-a' }),
);
const session = () => scan.session();

test('every row has a verdict after Title; a product Amazon will not take into FBA, or hazmat, says so with the reasons in its note', async () => {
  const { rt, wb } = session();
  try {
    rt.scriptRun('importScan', [scan.scanId, null]);
    const products = await serviceRows(scan.service, scan.scanId);
    const header = wb.values(NAME)[0];
    expect(header.slice(0, 4)).toEqual(['ASIN', 'Title', 'Picture', 'Verdict']);
    const at = (r: number) => wb.cell(NAME, wb.a1(r, 4));
    const ineligible = products.map((p, i) => [p, i + 2] as const).filter(([p]) => p.inbound_eligibility.eligible === false);
    const hazmat = products.map((p, i) => [p, i + 2] as const).filter(([p]) => p.inbound_eligibility.eligible && p.is_hazmat === true);
    // The premise: the scan holds both kinds, and ineligible rows that are profitable.
    expect(ineligible.length).toBe(8);
    expect(hazmat.length).toBe(8);
    expect(ineligible.some(([p]) => p.financials.profit > 0)).toBe(true);
    for (const [p, r] of ineligible) {
      expect(at(r).value).toBe("Can't send to FBA");
      expect(at(r).note).toMatch(/^Amazon will not take it into FBA: /);
      if (p.inbound_eligibility.ineligible_codes.includes('HAZMAT_REVIEW_REQUIRED')) expect(at(r).note).toContain('(hazmat)');
    }
    for (const [, r] of hazmat) {
      expect(at(r).value).toBe('Check');
      expect(at(r).note).toContain('Hazmat: dangerous goods');
    }
    // A plain buy is profitable, eligible and has no note.
    products.forEach((p, i) => {
      if (at(i + 2).value === 'Buy')
        expect([at(i + 2).note, p.inbound_eligibility.eligible, p.financials.profit > 0]).toEqual(['', true, true]);
    });
    expect(products.some((_, i) => at(i + 2).value === 'Buy')).toBe(true);
  } finally {
    await rt.stop();
  }
});

test('the headline names the profitable rows Amazon will not take into FBA and leaves them out of the counted buys', async () => {
  const { rt } = session();
  try {
    const result = rt.scriptRun('importScan', [scan.scanId, null]) as any;
    const products = await serviceRows(scan.service, scan.scanId);
    const profitable = products.filter((p) => p.financials.profit > 0);
    const cantSend = profitable.filter((p) => p.inbound_eligibility.eligible === false).length;
    expect(cantSend).toBeGreaterThan(0);
    expect(
      result.summary.startsWith(
        `${profitable.length - cantSend} of ${products.length} products profitable · ${cantSend} more profitable ${cantSend === 1 ? 'one' : 'ones'} Amazon will not take into FBA, left out (Verdict "Can't send to FBA") · `,
      ),
    ).toBe(true);
    expect(result.summary).toContain(
      `from the ${profitable.length - cantSend} profitable, the other ${products.length - profitable.length} (losing or no profit figure) left out`,
    );
    expect(result.message).toContain(result.summary);
  } finally {
    await rt.stop();
  }
});

test("Negotiate and PO leave out rows whose Verdict is Can't send to FBA, naming them by sheet row; an overtyped Verdict keeps the row", async () => {
  const { rt, wb } = session();
  try {
    rt.scriptRun('importScan', [scan.scanId, null]);
    const products = await serviceRows(scan.service, scan.scanId);
    const last = products.length + 1;
    const ineligible = products.map((p, i) => [p, i + 2] as const).filter(([p]) => p.inbound_eligibility.eligible === false);
    const named = (r: number, asin: string) => `Row ${r} (${asin})`;
    const asinsOf = (tab: string) => {
      const v = wb.values(tab);
      const c = v[0].indexOf('ASIN');
      return v.slice(1).map((r) => r[c]);
    };
    const neg = rt.scriptRun('makeNegotiateTab', [{ sheetName: NAME, maxDiscount: '100' }]) as any;
    for (const [p, r] of ineligible) expect(neg.message).toContain(named(r, p.asin));
    const negAsins = asinsOf(neg.sheetName);
    // The premise: Negotiate has lines, and would have had ineligible ones (half the rows are short of 30% ROI).
    expect(negAsins.length).toBeGreaterThan(0);
    for (const [p] of ineligible) expect(negAsins).not.toContain(p.asin);
    const po = rt.scriptRun('makePurchaseOrder', [{ sheetName: NAME, rows: `2-${last}` }]) as any;
    for (const [p, r] of ineligible) expect(po.message).toContain(named(r, p.asin));
    for (const [p] of ineligible) expect(asinsOf(po.sheetName)).not.toContain(p.asin);
    // The seller keeps one: its Verdict overtyped.
    const [kept, keptRow] = ineligible[0];
    wb.type(NAME, wb.a1(keptRow, 4), 'Keep');
    const again = rt.scriptRun('makePurchaseOrder', [{ sheetName: NAME, rows: `2-${last}` }]) as any;
    const leftOut = (m: string) => m.split('; ').find((part) => part.includes(': left out, Amazon will not take')) || '';
    expect(leftOut(po.message)).toContain(named(keptRow, kept.asin));
    expect(leftOut(again.message)).not.toContain(named(keptRow, kept.asin));
    for (const [p, r] of ineligible.slice(1)) expect(leftOut(again.message)).toContain(named(r, p.asin));
    // (kept: in the PO, unless skipped for a reason of its own, named by its row with that reason)
    const inPo = asinsOf(again.sheetName).includes(kept.asin);
    expect(inPo || again.message.includes(named(keptRow, kept.asin) + ':')).toBe(true);
  } finally {
    await rt.stop();
  }
});

test('the import makes "<name> – Overview" after the result tab in one write; its figures are the result tab’s; a re-import replaces it', async () => {
  const { rt, wb } = session();
  try {
    const imported = rt.scriptRun('importScan', [scan.scanId, null]);
    const overview = `${NAME} – Overview`;
    expect(wb.sheetNames()).toEqual(['Sheet1', NAME, overview]);
    const ex = rt.executions[rt.executions.length - 1];
    expect(ex.counters.sheetWriteCalls).toBeGreaterThan(0);
    const tab = wb.values(NAME);
    const col = (h: string) => tab.slice(1).map((r) => r[tab[0].indexOf(h)]);
    const nums = (h: string) => col(h).filter((v): v is number => typeof v === 'number');
    const ov = wb.values(overview);
    const row = (label: string) => ov.find((r) => r[0] === label)!;
    expect(ov[0][0]).toBe(`Overview of ${NAME}`);
    expect(row('Products')[1]).toBe(tab.length - 1);
    // As the headline counts it: the rows with a profit, less those Amazon will not take into FBA.
    const verdicts = col('Verdict');
    const profitOf = col('Profit');
    const monthly = col('Your profit/mo').reduce(
      (a: number, v, i) => (typeof v === 'number' && (profitOf[i] as number) > 0 && verdicts[i] !== CANT_SEND ? a + v : a),
      0,
    );
    expect(verdicts).toContain(CANT_SEND);
    expect(row('Expected profit a month')[1]).toBeCloseTo(monthly, 6);
    const headline = /\$([\d,]+\.\d\d) profit a month expected/.exec(JSON.stringify(imported));
    expect(Number(headline![1].replace(/,/g, ''))).toBeCloseTo(row('Expected profit a month')[1] as number, 2);
    const profits = nums('Profit');
    expect(row('Loss (below $0)')[1]).toBe(profits.filter((p) => p < 0).length);
    expect(row('$2 to $5')[1]).toBe(profits.filter((p) => p >= 2 && p < 5).length);
    expect(row('$10 or more')[1]).toBe(profits.filter((p) => p >= 10).length);
    const rois = nums('ROI');
    expect(row('50% or more')[1]).toBe(rois.filter((r) => r >= 0.5).length);
    expect(row('Hazmat')[1]).toBeCloseTo(col('Hazmat').filter((v) => v === true).length / (tab.length - 1), 9);
    // The share of rows in each size tier the result tab holds, A to Z (the premise: more than one).
    const tiers = [...new Set(col('Size tier').filter((t): t is string => typeof t === 'string' && t !== ''))].sort();
    expect(tiers.length).toBeGreaterThan(1);
    const tierHead = ov.findIndex((r) => r[0] === 'Size tier');
    expect(ov[tierHead].slice(0, 2)).toEqual(['Size tier', 'Share of rows']);
    expect(ov.slice(tierHead + 1, tierHead + 1 + tiers.length).map((r) => r[0])).toEqual(tiers);
    for (const t of tiers) expect(row(t)[1]).toBeCloseTo(col('Size tier').filter((v) => v === t).length / (tab.length - 1), 9);
    // Shares as percent, the categories' counts as numbers.
    const formatAt = (label: string) => wb.cell(overview, wb.a1(ov.findIndex((r) => r[0] === label) + 1, 2)).format;
    expect([formatAt('Hazmat'), formatAt(tiers[0]), formatAt('No size tier')]).toEqual(['0%', '0%', '0%']);
    expect(formatAt(String(ov[ov.findIndex((r) => r[0] === 'Category') + 1][0]))).not.toBe('0%');
    // Its top product is the row with the most expected profit a month.
    const top = ov.findIndex((r) => r[0] === 'Rank') + 1;
    expect(ov[top][1]).toBe(Math.max(...nums('Your profit/mo')));
    expect(ov[top][2]).toBe(col('ASIN')[nums('Your profit/mo').indexOf(Math.max(...nums('Your profit/mo')))]);
    // Imported again: replaced, not doubled.
    rt.scriptRun('importScan', [scan.scanId, null]);
    expect(wb.sheetNames()).toEqual(['Sheet1', NAME, overview]);
    expect(wb.values(overview)[1][1]).toBe(tab.length - 1);
  } finally {
    await rt.stop();
  }
});
