/** The financial model (emulator/service/engine/FINANCIAL-MODEL.md), formula by formula. */
import { computeFinancials, multipackPrepCost, type CostInputs } from '../../../emulator/service/engine/financials';
import {
  dimensionalWeight,
  fbaFee,
  inboundPlacementFee,
  inboundShipping,
  measure,
  referralFee,
  shippingWeight,
  sizeTier,
  storageFee,
  unitsPerMonth,
} from '../../../emulator/service/engine/fees';
import { roundDiv } from '../../../emulator/service/engine/money';
import { record } from './fixtures';

const example: CostInputs = {
  packCost: 1800,
  supplierPackQuantity: 3,
  supplierDiscountBp: 500,
  productDiscountBp: 200,
  unitsPerOrder: 2,
  prepCost: 25,
  multipackPrep: { enabled: true, firstN: 1, costForFirstN: 10, costForRest: 5 },
};

describe('worked example of FINANCIAL-MODEL.md', () => {
  const f = computeFinancials(record(), 'US', example);
  it('gives every figure of the table', () => {
    expect(f).toEqual({
      sizeTier: 'large_standard',
      shippingWeight: 1295,
      salePrice: 2499,
      unitCost: 600,
      discountCost: 559,
      totalCogs: 1117,
      referralFee: 375,
      fbaFee: 463,
      perItemFee: 0,
      variableClosingFee: 0,
      inboundPlacementFee: 34,
      prepCost: 40,
      inboundShipping: 52,
      storageFee: 8,
      netRevenue: 1627,
      profit: 418,
      margin: 1673,
      roi: 3742,
      unitsPerMonth: 315,
      salesPerMonth: 787185,
      profitPerMonth: 131670,
      smallAndLight: false,
    });
  });
  it('with 3 units per order (a multipack correction) costs and profit change as the document says', () => {
    const g = computeFinancials(record(), 'US', { ...example, unitsPerOrder: 3 });
    expect([g.totalCogs, g.prepCost, g.profit]).toEqual([1676, 45, -146]);
  });
});

describe('rounding', () => {
  it('rounds halves away from zero, exactly for large values', () => {
    expect([roundDiv(17, 2), roundDiv(-17, 2), roundDiv(16, 3), roundDiv(-16, 3), roundDiv(0, 5)]).toEqual([9, -9, 5, -5, 0]);
    expect(roundDiv(10n ** 20n + 1n, 2n)).toBe(Number(5n * 10n ** 19n + 1n));
    expect(() => roundDiv(1, 0)).toThrow(/positive/);
  });
});

describe('F2-F4 costs and discounts', () => {
  const base: CostInputs = {
    packCost: 1000,
    supplierPackQuantity: 1,
    supplierDiscountBp: 0,
    productDiscountBp: 0,
    unitsPerOrder: 1,
    prepCost: 0,
  };
  it('without discounts cost = pack cost / pack quantity and COGS = N units', () => {
    const f = computeFinancials(record(), 'US', { ...base, supplierPackQuantity: 4, unitsPerOrder: 6 });
    expect([f.unitCost, f.discountCost, f.totalCogs]).toEqual([250, 250, 1500]);
  });
  it('supplier discount alone, per-product discount alone, both compounded', () => {
    expect(computeFinancials(record(), 'US', { ...base, supplierDiscountBp: 1000 }).discountCost).toBe(900);
    expect(computeFinancials(record(), 'US', { ...base, productDiscountBp: 250 }).discountCost).toBe(975);
    const both = computeFinancials(record(), 'US', { ...base, supplierDiscountBp: 1000, productDiscountBp: 1000 });
    expect([both.unitCost, both.discountCost]).toEqual([1000, 810]);
  });
  it('a 100% discount makes COGS 0 and leaves ROI null', () => {
    const f = computeFinancials(record(), 'US', { ...base, supplierDiscountBp: 10000 });
    expect([f.totalCogs, f.roi]).toEqual([0, null]);
    expect(f.profit).not.toBeNull();
  });
  it('COGS is rounded once, not N times the rounded unit cost', () => {
    const f = computeFinancials(record(), 'US', { ...base, packCost: 1000, supplierPackQuantity: 3, unitsPerOrder: 3 });
    expect([f.unitCost, f.totalCogs]).toEqual([333, 1000]);
  });
});

describe('F8 multipack prep', () => {
  const mp = { enabled: true, firstN: 2, costForFirstN: 50, costForRest: 25 };
  it('charges the first N units and the rest at their rates, only for multipacks', () => {
    expect(multipackPrepCost(6, mp)).toBe(2 * 50 + 4 * 25);
    expect(multipackPrepCost(2, mp)).toBe(100);
    expect(multipackPrepCost(1, mp)).toBe(0);
    expect(multipackPrepCost(6, { ...mp, enabled: false })).toBe(0);
    expect(multipackPrepCost(6, undefined)).toBe(0);
  });
});

describe('F10 size tiers, shipping weight and FBA fee', () => {
  const dims = (length: number, width: number, height: number, weight: number) => measure({ length, width, height, weight });
  it('classifies at the documented thresholds', () => {
    expect(sizeTier(dims(15, 12, 0.75, 1))).toBe('small_standard');
    expect(sizeTier(dims(15, 12, 0.76, 1))).toBe('large_standard');
    expect(sizeTier(dims(15, 12, 0.75, 1.001))).toBe('large_standard');
    expect(sizeTier(dims(18, 14, 8, 20))).toBe('large_standard');
    expect(sizeTier(dims(18.01, 14, 8, 20))).toBe('small_oversize');
    expect(sizeTier(dims(60, 30, 5, 70))).toBe('small_oversize');
    expect(sizeTier(dims(61, 20, 10, 30))).toBe('medium_oversize');
  });
  it('girth-plus-length decides between the large tiers', () => {
    expect(sizeTier(dims(100, 7, 7, 100))).toBe('medium_oversize'); // 100 + 28 = 128
    expect(sizeTier(dims(100, 15, 15, 100))).toBe('large_oversize'); // 100 + 60 = 160
    expect(sizeTier(dims(100, 20, 20, 100))).toBe('special_oversize'); // 180
    expect(sizeTier(dims(110, 5, 5, 10))).toBe('special_oversize');
    expect(sizeTier(dims(50, 20, 20, 151))).toBe('special_oversize');
  });
  it('shipping weight: unit weight for small standard, else the larger of unit and dimensional weight (rounded up)', () => {
    const m = dims(10, 6, 3, 1.2);
    expect(dimensionalWeight(m)).toBe(1295);
    expect(shippingWeight(m, 'large_standard')).toBe(1295);
    const small = dims(10, 6, 0.5, 0.2);
    expect(shippingWeight(small, 'small_standard')).toBe(200);
    expect(shippingWeight(dims(5, 4, 2, 3), 'large_standard')).toBe(3000);
  });
  it('charges by the fee table', () => {
    expect([250, 251, 500, 750, 1000].map((w) => fbaFee('small_standard', w, false))).toEqual([306, 315, 315, 324, 333]);
    expect([100, 300, 500, 750, 1000, 1500, 2000, 2500, 3000].map((w) => fbaFee('large_standard', w, false))).toEqual([
      368, 390, 390, 412, 437, 463, 480, 501, 518,
    ]);
    expect(fbaFee('large_standard', 3001, false)).toBe(534);
    expect(fbaFee('large_standard', 4000, false)).toBe(518 + 2 * 16);
    expect(fbaFee('small_oversize', 1000, false)).toBe(912);
    expect(fbaFee('small_oversize', 10001, false)).toBe(912 + 10 * 38);
    expect(fbaFee('medium_oversize', 2000, false)).toBe(1913 + 38);
    expect(fbaFee('large_oversize', 90000, false)).toBe(8998);
    expect(fbaFee('large_oversize', 92500, false)).toBe(8998 + 3 * 79);
    expect(fbaFee('special_oversize', 100000, false)).toBe(15855 + 10 * 79);
  });
  it('adds the hazmat surcharge', () => {
    expect(fbaFee('small_standard', 200, true)).toBe(346);
    expect(computeFinancials(record({ is_hazmat: true }), 'US', example).fbaFee).toBe(503);
  });
});

describe('F9 referral, F11 closing fees, F12 placement, F13 storage, F6 inbound', () => {
  it('referral is the category rate with its minimum and low-price rate', () => {
    expect(referralFee('Home & Kitchen', 2499)).toBe(375);
    expect(referralFee('Home & Kitchen', 150)).toBe(30); // 22.5 -> minimum 30
    expect(referralFee('Electronics', 10000)).toBe(800);
    expect(referralFee('Beauty & Personal Care', 1000)).toBe(80);
    expect(referralFee('Beauty & Personal Care', 1001)).toBe(150);
    expect(referralFee('Books', 150)).toBe(23); // media: no minimum
    expect(referralFee('Something Else', 1000)).toBe(150);
  });
  it('media categories carry the variable closing fee, others none; no per-item fee', () => {
    const book = computeFinancials(record({ category: 'Books' }), 'US', example);
    expect([book.variableClosingFee, book.perItemFee]).toEqual([180, 0]);
    expect(book.netRevenue).toBe(2499 - 375 - 463 - 180 - 34);
    expect(computeFinancials(record({ category: 'Toys & Games' }), 'US', example).variableClosingFee).toBe(0);
  });
  it('placement fee by tier and weight', () => {
    expect([
      inboundPlacementFee('small_standard', 100),
      inboundPlacementFee('large_standard', 1000),
      inboundPlacementFee('large_standard', 3000),
      inboundPlacementFee('large_standard', 3001),
      inboundPlacementFee('special_oversize', 1),
    ]).toEqual([21, 30, 34, 41, 400]);
  });
  it('storage by cubic foot at the standard or oversize rate, not subtracted from profit', () => {
    expect(storageFee(measure({ length: 12, width: 12, height: 12, weight: 1 }), 'large_standard')).toBe(78);
    expect(storageFee(measure({ length: 24, width: 12, height: 12, weight: 30 }), 'small_oversize')).toBe(112);
    const f = computeFinancials(record(), 'US', example);
    expect(f.profit).toBe(f.netRevenue! - f.totalCogs - f.prepCost - f.inboundShipping);
  });
  it('inbound shipping uses the marketplace rate per pound', () => {
    expect([
      inboundShipping('US', 2000),
      inboundShipping('CA', 2000),
      inboundShipping('UK', 2000),
      inboundShipping('DE', 2000),
      inboundShipping('JP', 2000),
    ]).toEqual([80, 110, 90, 100, 100]);
  });
});

describe('F1 sale price, missing fees', () => {
  it('falls back to the lowest new FBA, then FBM offer without a buy box', () => {
    expect(computeFinancials(record({ buybox_price: null }), 'US', example).salePrice).toBe(2450);
    expect(computeFinancials(record({ buybox_price: null, lowest_price_new_fba: null }), 'US', example).salePrice).toBe(2600);
  });
  it('without any price: no referral, no profit, margin or ROI', () => {
    const f = computeFinancials(record({ buybox_price: null, lowest_price_new_fba: null, lowest_price_new_fbm: null }), 'US', example);
    expect([f.salePrice, f.referralFee, f.profit, f.margin, f.roi, f.salesPerMonth, f.profitPerMonth]).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(f.totalCogs).toBe(1117);
  });
  it('fees_available false: the four fees and profit figures are null, costs and estimates remain', () => {
    const f = computeFinancials(record({ fees_available: false }), 'US', example);
    expect([
      f.referralFee,
      f.fbaFee,
      f.perItemFee,
      f.variableClosingFee,
      f.netRevenue,
      f.profit,
      f.margin,
      f.roi,
      f.profitPerMonth,
    ]).toEqual([null, null, null, null, null, null, null, null, null]);
    expect([f.inboundPlacementFee, f.totalCogs, f.inboundShipping, f.unitsPerMonth]).toEqual([34, 1117, 52, 315]);
  });
});

describe('F17 units per month', () => {
  it('follows the reference curve at its points and between them', () => {
    const cat = 'Toys & Games'; // scale 10000
    expect([1, 10, 100, 1000, 10000, 100000, 1000000, 3000000, 5000000].map((r) => unitsPerMonth(cat, 'US', r))).toEqual([
      6000, 3000, 1200, 400, 90, 12, 1, 0, 0,
    ]);
    expect(unitsPerMonth(cat, 'US', 55)).toBe(2100); // halfway between 10 and 100
  });
  it('scales by category and marketplace; null without a rank', () => {
    expect(unitsPerMonth('Home & Kitchen', 'US', 1000)).toBe(480);
    expect(unitsPerMonth('Toys & Games', 'CA', 1000)).toBe(100);
    expect(unitsPerMonth('Toys & Games', 'DE', 1000)).toBe(200);
    expect(unitsPerMonth('Toys & Games', 'US', null)).toBeNull();
  });
});
