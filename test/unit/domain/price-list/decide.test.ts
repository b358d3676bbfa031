/**
 * What a seller decides on (src/domain/price-list/decide.ts), cell by cell on known rows: expected share
 * (issues 24 and 27.3), the one ROI (27.9), break-even and target costs, discounts, order quantities.
 */
import {
  allInRoi,
  costForRoi,
  DEFAULT_DECISION,
  expectedShare,
  negotiation,
  orderQuantity,
  readDecisionOptions,
  worthNegotiating,
  type DecisionOptions,
} from '../../../../src/domain/price-list/decide';

const D: DecisionOptions = DEFAULT_DECISION;

/** A one-unit listing: sells at 20.00, nets 15.00; costs 8.00; prep 0.50, inbound 0.50; profit 6.00. */
function row(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    buybox_price: 2000,
    lowest_price_new_fba: 2000,
    new_fba_offers_count: 3,
    new_fbm_offers_count: 2,
    total_offers_count: 5,
    units_per_month: 90,
    market_pack_quantity: 1,
    inputs: { cost: 800, discount_cost: 800, total_cogs: 800, stock: 1000 },
    financials: { profit: 600, net_revenue: 1500, prep_cost: 50, inbound_shipping: 50 },
    ...over,
  };
}

describe('expected share: units a month for this seller', () => {
  test('defaults are the documented ones: 2 months of cover, FBA-weighted, 30 % target ROI, 20 % largest discount', () => {
    expect(D).toEqual({ monthsOfCover: 2, shareRule: 'fba-weighted', targetRoiBps: 3000, maxDiscountBps: 2000 });
  });

  test('zero offers: the seller gets all of the listing’s sales (capped by nothing else)', () => {
    const s = expectedShare(row({ new_fba_offers_count: 0, new_fbm_offers_count: 0, total_offers_count: 0 }), D);
    expect(s).toEqual({ units: 90, profitCents: 90 * 600, why: '' });
  });

  test('an FBA Buy Box: FBM offers count ½ — 90 ÷ (3 + 2 × ½ + 1) = 18; every offer counting 1: 90 ÷ 6 = 15', () => {
    expect(expectedShare(row(), D)).toEqual({ units: 18, profitCents: 18 * 600, why: '' });
    expect(expectedShare(row(), { ...D, shareRule: 'even' })).toEqual({ units: 15, profitCents: 15 * 600, why: '' });
    // The lowest FBA offer above the Buy Box: an FBM offer holds it, every offer counts 1.
    expect(expectedShare(row({ lowest_price_new_fba: 2100 }), D).units).toBe(15);
  });

  test('capped by the supplier’s stock over the months of cover: 20 units, 2 per order, 2 months → 5 a month', () => {
    const s = expectedShare(row({ market_pack_quantity: 2, inputs: { cost: 400, discount_cost: 400, total_cogs: 800, stock: 20 } }), D);
    expect(s).toEqual({ units: 5, profitCents: 5 * 600, why: 'stock' });
    expect(expectedShare(row({ inputs: { cost: 800, stock: 0 } }), D).units).toBe(0);
  });

  test('missing units a month (or no offer count): blank, never a guess', () => {
    expect(expectedShare(row({ units_per_month: null }), D)).toEqual({ units: null, profitCents: null, why: 'no-sales' });
    expect(expectedShare(row({ units_per_month: undefined }), D).units).toBeNull();
    const noOffers = row({ new_fba_offers_count: null, new_fbm_offers_count: undefined, total_offers_count: null });
    expect(expectedShare(noOffers, D)).toEqual({ units: null, profitCents: null, why: 'no-offers' });
    // Only a total: every offer counts 1.
    expect(expectedShare(row({ new_fba_offers_count: null, new_fbm_offers_count: null, total_offers_count: 9 }), D).units).toBe(9);
  });

  test('rounded to 0.1 as shown, and the profit is that figure × Profit (checkable to the cent)', () => {
    const s = expectedShare(row({ units_per_month: 100, new_fba_offers_count: 5, new_fbm_offers_count: 0 }), D); // 100 ÷ 6 = 16.67
    expect(s.units).toBe(16.7);
    expect(s.profitCents).toBe(Math.round(16.7 * 600));
  });
});

describe('one ROI: Profit ÷ (Total cost + Prep + Inbound shipping)', () => {
  test('6.00 ÷ (8.00 + 0.50 + 0.50) = 66.67 %, not the service’s 6.00 ÷ 8.00 = 75 %', () => {
    expect(allInRoi(row())).toBeCloseTo(600 / 900, 12);
    expect(
      allInRoi(row({ inputs: { cost: 0, total_cogs: 0 }, financials: { profit: 500, prep_cost: 0, inbound_shipping: 0 } })),
    ).toBeNull();
    expect(allInRoi(row({ financials: { profit: null } }))).toBeNull();
  });
});

describe('negotiation: break-even cost, cost for the target ROI, discount needed', () => {
  test('break-even and 30 % costs of a known row', () => {
    // Break-even: 15.00 − 0.50 − 0.50 = 14.00. Target: 15.00 ÷ 1.3 − 1.00 = 10.538… → 10.53 (rounded down).
    expect(costForRoi(row(), 0)).toBe(1400);
    expect(costForRoi(row(), 0.3)).toBe(1053);
    // Buying at the target cost reaches the target: (15.00 − 10.53 − 1.00) ÷ (10.53 + 1.00) ≥ 30 %.
    expect((1500 - 1053 - 100) / (1053 + 100)).toBeGreaterThanOrEqual(0.3);
    // Per unit of a 2-pack, before a 10 % supplier discount: 14.00 ÷ 2 ÷ 0.9 = 7.777… → 7.77.
    expect(costForRoi(row({ market_pack_quantity: 2, inputs: { cost: 500, discount_cost: 450, total_cogs: 900 } }), 0)).toBe(777);
  });

  test('a negative break-even: fees and shipping alone exceed the price; no discount helps, it is not on the Negotiate list', () => {
    const r = row({
      financials: { profit: -900, net_revenue: 80, prep_cost: 50, inbound_shipping: 130 },
      inputs: { cost: 800, total_cogs: 800 },
    });
    expect(costForRoi(r, 0)).toBe(-100);
    const n = negotiation(r, D)!;
    expect(n.breakEvenCents).toBe(-100);
    expect(n.targetCents).toBe(Math.floor(80 / 1.3 - 180)); // -119
    expect(n.discountNeeded).toBeCloseTo((800 + 119) / 800, 12); // above 100 %
    expect(worthNegotiating(r, { ...D, maxDiscountBps: 10000 })).toBeNull();
  });

  test('a 100 % discount needed: the target cost is 0.00', () => {
    // Net revenue 1.30, nothing else: 1.30 ÷ 1.3 = 1.00 − 1.00 prep = 0.
    const r = row({ financials: { profit: -700, net_revenue: 130, prep_cost: 100, inbound_shipping: 0 } });
    const n = negotiation(r, D)!;
    expect(n.targetCents).toBe(0);
    expect(n.discountNeeded).toBe(1);
    expect(worthNegotiating(r, D)).toBeNull(); // above the 20 % the seller would ask for
    expect(worthNegotiating(r, { ...D, maxDiscountBps: 10000 })).toEqual(n); // asking for everything: on the list
  });

  test('on the list only when short of the target today and within the largest discount', () => {
    // Costs 12.00 today; 30 % needs 10.53: 12.25 % off.
    const r = row({
      inputs: { cost: 1200, discount_cost: 1200, total_cogs: 1200 },
      financials: { profit: 200, net_revenue: 1500, prep_cost: 50, inbound_shipping: 50 },
    });
    const n = worthNegotiating(r, D)!;
    expect(n).toEqual({ costCents: 1200, breakEvenCents: 1400, targetCents: 1053, discountNeeded: (1200 - 1053) / 1200 });
    expect(worthNegotiating(r, { ...D, maxDiscountBps: 1000 })).toBeNull();
    expect(worthNegotiating(row(), D)).toBeNull(); // 8.00 already reaches 30 %
  });
});

describe('order quantity: expected units × units/order × months, capped by stock, whole case packs', () => {
  test('rounded UP to whole case packs', () => {
    expect(orderQuantity(18, 1, 2, 1000, 12)).toBe(36);
    expect(orderQuantity(18.5, 1, 2, 1000, 12)).toBe(48); // 37 → 4 cases
    expect(orderQuantity(5, 2, 2, null, 1)).toBe(20);
  });

  test('stock below one case pack: nothing can be ordered (a case is not split)', () => {
    expect(orderQuantity(18, 1, 2, 10, 12)).toBe(0);
  });

  test('rounding up never passes the stock: the whole cases the stock holds', () => {
    expect(orderQuantity(18, 1, 2, 30, 12)).toBe(24);
  });

  test('missing or zero expected units: 0', () => {
    expect(orderQuantity(null, 1, 2, 100, 6)).toBe(0);
    expect(orderQuantity(0, 1, 2, 100, 6)).toBe(0);
  });
});

describe('decision options from the sidebar', () => {
  test('blank means the default; percents as typed; every wrong value named by its field', () => {
    expect(readDecisionOptions({})).toEqual({ ok: true, options: D });
    expect(readDecisionOptions({ monthsOfCover: '3', shareRule: 'even', targetRoi: '45%', maxDiscount: 12.5 })).toEqual({
      ok: true,
      options: { monthsOfCover: 3, shareRule: 'even', targetRoiBps: 4500, maxDiscountBps: 1250 },
    });
    const bad = readDecisionOptions({ monthsOfCover: '0', shareRule: 'most', targetRoi: 'lots', maxDiscount: '150' });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.problems.map((p) => p.field)).toEqual(['monthsOfCover', 'shareRule', 'targetRoi', 'maxDiscount']);
  });
});
