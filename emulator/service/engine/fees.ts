/**
 * The fee schedule and sales curve of the financial model (FINANCIAL-MODEL.md): the one place
 * these numbers live. Amounts are cents of the marketplace currency, rates basis points. The
 * same schedule applies on every marketplace in its own currency (a simplification the model
 * documents); only the inbound shipping rate and the sales volume factor differ per marketplace.
 */
import { ceilDiv, roundDiv } from './money';

export interface CategoryRule {
  /** Referral fee rate, basis points of the sale price. */
  referralBp: number;
  /** Lower rate for sale prices at or below `lowPriceMax` cents (e.g. Beauty: 8% up to $10). */
  lowPriceBp?: number;
  lowPriceMax?: number;
  /** Minimum referral fee per item, cents. */
  minReferral: number;
  /** Variable closing fee per item, cents (media categories). */
  closingFee: number;
  /** Sales curve scale, basis points of the reference curve. */
  salesBp: number;
  /** Listings in the category (for bsr_percentage). */
  size: number;
}

export const CATEGORIES: Readonly<Record<string, CategoryRule>> = {
  'Home & Kitchen': { referralBp: 1500, minReferral: 30, closingFee: 0, salesBp: 12000, size: 3_000_000 },
  'Toys & Games': { referralBp: 1500, minReferral: 30, closingFee: 0, salesBp: 10000, size: 1_200_000 },
  'Health & Household': {
    referralBp: 1500,
    lowPriceBp: 800,
    lowPriceMax: 1000,
    minReferral: 30,
    closingFee: 0,
    salesBp: 11000,
    size: 1_000_000,
  },
  'Beauty & Personal Care': {
    referralBp: 1500,
    lowPriceBp: 800,
    lowPriceMax: 1000,
    minReferral: 30,
    closingFee: 0,
    salesBp: 11000,
    size: 1_500_000,
  },
  'Grocery & Gourmet Food': {
    referralBp: 1500,
    lowPriceBp: 800,
    lowPriceMax: 1500,
    minReferral: 30,
    closingFee: 0,
    salesBp: 9000,
    size: 500_000,
  },
  'Sports & Outdoors': { referralBp: 1500, minReferral: 30, closingFee: 0, salesBp: 8000, size: 2_000_000 },
  'Tools & Home Improvement': { referralBp: 1500, minReferral: 30, closingFee: 0, salesBp: 8000, size: 2_000_000 },
  Electronics: { referralBp: 800, minReferral: 30, closingFee: 0, salesBp: 9000, size: 1_000_000 },
  'Office Products': { referralBp: 1500, minReferral: 30, closingFee: 0, salesBp: 7000, size: 900_000 },
  'Pet Supplies': { referralBp: 1500, minReferral: 30, closingFee: 0, salesBp: 7000, size: 500_000 },
  Baby: { referralBp: 1500, lowPriceBp: 800, lowPriceMax: 1000, minReferral: 30, closingFee: 0, salesBp: 6000, size: 300_000 },
  'Clothing, Shoes & Jewelry': { referralBp: 1700, minReferral: 30, closingFee: 0, salesBp: 10000, size: 10_000_000 },
  Automotive: { referralBp: 1200, minReferral: 30, closingFee: 0, salesBp: 6000, size: 1_500_000 },
  Books: { referralBp: 1500, minReferral: 0, closingFee: 180, salesBp: 7000, size: 8_000_000 },
  'Movies & TV': { referralBp: 1500, minReferral: 0, closingFee: 180, salesBp: 4000, size: 500_000 },
  Music: { referralBp: 1500, minReferral: 0, closingFee: 180, salesBp: 3000, size: 700_000 },
  'Video Games': { referralBp: 1500, minReferral: 0, closingFee: 180, salesBp: 5000, size: 200_000 },
};

/** Unknown categories (a catalog file from elsewhere) fall back to this rule. */
export const DEFAULT_CATEGORY: CategoryRule = { referralBp: 1500, minReferral: 30, closingFee: 0, salesBp: 5000, size: 1_000_000 };

export const categoryRule = (category: string): CategoryRule => CATEGORIES[category] ?? DEFAULT_CATEGORY;

/** Per-item fee: the model assumes the Professional selling plan, which has none. */
export const PER_ITEM_FEE = 0;

/** Inbound shipping to the fulfilment centre, cents per pound of shipping weight, by marketplace code. */
export const INBOUND_PER_LB: Readonly<Record<string, number>> = { US: 40, CA: 55, UK: 45, DE: 50 };
export const DEFAULT_INBOUND_PER_LB = 50;

/** Sales volume of a marketplace relative to US, basis points. */
export const MARKET_SALES_BP: Readonly<Record<string, number>> = { US: 10000, CA: 2500, UK: 4500, DE: 5000 };
export const DEFAULT_MARKET_SALES_BP = 2000;

/** Reference sales curve: (rank, units per month) points; linear between them, 0 beyond the last. */
export const SALES_CURVE: ReadonlyArray<readonly [number, number]> = [
  [1, 6000],
  [10, 3000],
  [100, 1200],
  [1000, 400],
  [10000, 90],
  [100000, 12],
  [1000000, 1],
  [3000000, 0],
];

/** Monthly storage, cents per cubic foot (standard-size / oversize), no seasonal peak. */
export const STORAGE_PER_CUFT = { standard: 78, oversize: 56 } as const;

/** Dangerous-goods surcharge on the FBA fee, cents. */
export const HAZMAT_SURCHARGE = 40;

export type SizeTier = 'small_standard' | 'large_standard' | 'small_oversize' | 'medium_oversize' | 'large_oversize' | 'special_oversize';

/** Package measured in integers: hundredths of an inch, thousandths of a pound. */
export interface Measured {
  longest: number;
  median: number;
  shortest: number;
  /** thousandths of a pound */
  weight: number;
}

export function measure(d: { length: number; width: number; height: number; weight: number }): Measured {
  const [longest, median, shortest] = [d.length, d.width, d.height].map((x) => Math.round(x * 100)).sort((a, b) => b - a);
  return { longest, median, shortest, weight: Math.round(d.weight * 1000) };
}

const IN = 100; // hundredths per inch
const LB = 1000; // thousandths per pound

/** Size tier from the package's sides and unit weight (thresholds in FINANCIAL-MODEL.md). */
export function sizeTier(m: Measured): SizeTier {
  const girthPlusLength = m.longest + 2 * (m.median + m.shortest);
  if (m.weight <= 1 * LB && m.longest <= 15 * IN && m.median <= 12 * IN && m.shortest <= 75) return 'small_standard';
  if (m.weight <= 20 * LB && m.longest <= 18 * IN && m.median <= 14 * IN && m.shortest <= 8 * IN) return 'large_standard';
  if (m.weight <= 70 * LB && m.longest <= 60 * IN && m.median <= 30 * IN && girthPlusLength <= 130 * IN) return 'small_oversize';
  if (m.weight <= 150 * LB && m.longest <= 108 * IN && girthPlusLength <= 130 * IN) return 'medium_oversize';
  if (m.weight <= 150 * LB && m.longest <= 108 * IN && girthPlusLength <= 165 * IN) return 'large_oversize';
  return 'special_oversize';
}

export const isStandard = (t: SizeTier): boolean => t === 'small_standard' || t === 'large_standard';

/** Dimensional weight L*W*H/139 in thousandths of a pound, rounded up. */
export function dimensionalWeight(m: Measured): number {
  return ceilDiv(m.longest * m.median * m.shortest * LB, 139 * IN * IN * IN);
}

/** Shipping weight, thousandths of a pound: unit weight for small standard, else the larger of unit and dimensional weight. */
export function shippingWeight(m: Measured, tier: SizeTier): number {
  return tier === 'small_standard' ? m.weight : Math.max(m.weight, dimensionalWeight(m));
}

/** FBA fulfilment fee per unit, cents, from tier and shipping weight (thousandths of a pound). */
export function fbaFee(tier: SizeTier, sw: number, hazmat: boolean): number {
  const oz4 = ceilDiv(sw * 16, 4 * LB); // number of started 4-ounce steps
  let fee: number;
  switch (tier) {
    case 'small_standard':
      fee = [306, 306, 315, 324, 333][Math.min(Math.max(oz4, 1), 4)];
      break;
    case 'large_standard':
      if (sw <= 1 * LB) fee = [368, 368, 390, 412, 437][Math.max(oz4, 1)];
      else if (sw <= 1.5 * LB) fee = 463;
      else if (sw <= 2 * LB) fee = 480;
      else if (sw <= 2.5 * LB) fee = 501;
      else if (sw <= 3 * LB) fee = 518;
      else fee = 518 + 16 * ceilDiv(sw - 3 * LB, LB / 2);
      break;
    case 'small_oversize':
      fee = 912 + 38 * Math.max(0, ceilDiv(sw, LB) - 1);
      break;
    case 'medium_oversize':
      fee = 1913 + 38 * Math.max(0, ceilDiv(sw, LB) - 1);
      break;
    case 'large_oversize':
      fee = 8998 + 79 * Math.max(0, ceilDiv(sw, LB) - 90);
      break;
    case 'special_oversize':
      fee = 15855 + 79 * Math.max(0, ceilDiv(sw, LB) - 90);
      break;
  }
  return fee + (hazmat ? HAZMAT_SURCHARGE : 0);
}

/** Referral fee per item, cents: rate of the sale price (half away from zero), at least the minimum. */
export function referralFee(category: string, price: number): number {
  const r = categoryRule(category);
  const bp = r.lowPriceBp !== undefined && price <= (r.lowPriceMax ?? 0) ? r.lowPriceBp : r.referralBp;
  return Math.max(r.minReferral, roundDiv(price * bp, 10000));
}

/** Inbound placement fee per unit, cents, by tier and shipping weight. */
export function inboundPlacementFee(tier: SizeTier, sw: number): number {
  switch (tier) {
    case 'small_standard':
      return 21;
    case 'large_standard':
      return sw <= 1 * LB ? 30 : sw <= 3 * LB ? 34 : 41;
    case 'small_oversize':
      return 160;
    case 'medium_oversize':
      return 240;
    case 'large_oversize':
      return 280;
    case 'special_oversize':
      return 400;
  }
}

/** Monthly storage fee per unit, cents: package volume in cubic feet times the rate. */
export function storageFee(m: Measured, tier: SizeTier): number {
  const rate = isStandard(tier) ? STORAGE_PER_CUFT.standard : STORAGE_PER_CUFT.oversize;
  return roundDiv(BigInt(m.longest) * BigInt(m.median) * BigInt(m.shortest) * BigInt(rate), 1728n * 1_000_000n);
}

/** Inbound shipping per unit, cents: shipping weight times the marketplace's rate per pound. */
export function inboundShipping(marketCode: string, sw: number): number {
  return roundDiv(sw * (INBOUND_PER_LB[marketCode] ?? DEFAULT_INBOUND_PER_LB), LB);
}

/** Small and Light: standard size, shipping weight up to 3 lb, price under 12.00. */
export function smallAndLightEligible(tier: SizeTier, sw: number, price: number | null): boolean {
  return isStandard(tier) && sw <= 3 * LB && price !== null && price < 1200;
}

/** Estimated units sold per month for a rank, or null without a rank. */
export function unitsPerMonth(category: string, marketCode: string, rank: number | null): number | null {
  if (rank === null || !Number.isInteger(rank) || rank < 1) return null;
  const scale = BigInt(categoryRule(category).salesBp) * BigInt(MARKET_SALES_BP[marketCode] ?? DEFAULT_MARKET_SALES_BP);
  for (let i = 1; i < SALES_CURVE.length; i++) {
    const [r0, u0] = SALES_CURVE[i - 1];
    const [r1, u1] = SALES_CURVE[i];
    if (rank <= r1) {
      // u = u0 + (u1-u0)*(rank-r0)/(r1-r0), times both scales, one rounding
      const num = BigInt(u0) * BigInt(r1 - r0) + BigInt(u1 - u0) * BigInt(rank - r0);
      return roundDiv(num * scale, BigInt(r1 - r0) * 100_000_000n);
    }
  }
  return 0;
}
