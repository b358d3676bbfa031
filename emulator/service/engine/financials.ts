/**
 * The financial model of one product row (FINANCIAL-MODEL.md, formulas F1-F16). Pure integer
 * arithmetic: cents and basis points in, cents and basis points out.
 */
import type { CatalogRecord } from '../catalog/format';
import {
  categoryRule,
  fbaFee,
  inboundPlacementFee,
  inboundShipping,
  measure,
  PER_ITEM_FEE,
  referralFee,
  shippingWeight,
  sizeTier,
  smallAndLightEligible,
  storageFee,
  unitsPerMonth,
  type SizeTier,
} from './fees';
import { roundDiv } from './money';

export interface CostInputs {
  /** Cost of one supplier pack as the file states it, cents. */
  packCost: number;
  /** Units in one supplier pack (>= 1). */
  supplierPackQuantity: number;
  /** options.discount_supplier, basis points. */
  supplierDiscountBp: number;
  /** mapping.discount_per_product cell, basis points. */
  productDiscountBp: number;
  /** Units shipped in one marketplace order (market pack quantity after corrections/override). */
  unitsPerOrder: number;
  /** options.prep_cost, cents per marketplace unit sold. */
  prepCost: number;
  multipackPrep?: { enabled: boolean; firstN: number; costForFirstN: number; costForRest: number };
}

export interface Financials {
  sizeTier: SizeTier;
  /** thousandths of a pound */
  shippingWeight: number;
  salePrice: number | null;
  unitCost: number;
  discountCost: number;
  totalCogs: number;
  referralFee: number | null;
  fbaFee: number | null;
  perItemFee: number | null;
  variableClosingFee: number | null;
  inboundPlacementFee: number;
  prepCost: number;
  inboundShipping: number;
  storageFee: number;
  netRevenue: number | null;
  profit: number | null;
  margin: number | null;
  roi: number | null;
  unitsPerMonth: number | null;
  salesPerMonth: number | null;
  profitPerMonth: number | null;
  smallAndLight: boolean;
}

const keep = (bp: number) => BigInt(10000 - bp);

/** Multipack prep (F8): each of the first firstN units at costForFirstN, each further unit at costForRest; only for N > 1. */
export function multipackPrepCost(n: number, mp: CostInputs['multipackPrep']): number {
  if (!mp || !mp.enabled || n <= 1) return 0;
  const first = Math.min(n, Math.max(0, mp.firstN));
  return first * mp.costForFirstN + (n - first) * mp.costForRest;
}

/** Sale price (F1): buy box, else lowest new FBA, else lowest new FBM offer. */
export function salePriceOf(p: CatalogRecord): number | null {
  return p.buybox_price ?? p.lowest_price_new_fba ?? p.lowest_price_new_fbm ?? null;
}

export function computeFinancials(p: CatalogRecord, marketCode: string, c: CostInputs): Financials {
  const m = measure(p.package_dimensions);
  const tier = sizeTier(m);
  const sw = shippingWeight(m, tier);
  const price = salePriceOf(p);
  const spq = BigInt(c.supplierPackQuantity);
  const kept = keep(c.supplierDiscountBp) * keep(c.productDiscountBp);
  const unitCost = roundDiv(c.packCost, spq); // F2
  const discountCost = roundDiv(BigInt(c.packCost) * kept, spq * 100_000_000n); // F3
  const totalCogs = roundDiv(BigInt(c.packCost) * BigInt(c.unitsPerOrder) * kept, spq * 100_000_000n); // F4
  const feesKnown = p.fees_available && price !== null;
  const referral = feesKnown ? referralFee(p.category, price!) : null; // F9
  const fba = p.fees_available ? fbaFee(tier, sw, p.is_hazmat) : null; // F10
  const perItem = p.fees_available ? PER_ITEM_FEE : null; // F11
  const closing = p.fees_available ? categoryRule(p.category).closingFee : null; // F11
  const placement = inboundPlacementFee(tier, sw); // F12
  const prep = c.prepCost + multipackPrepCost(c.unitsPerOrder, c.multipackPrep); // F7, F8
  const inbound = inboundShipping(marketCode, sw); // F6
  const storage = storageFee(m, tier); // F13
  let netRevenue: number | null = null;
  let profit: number | null = null;
  let margin: number | null = null;
  let roi: number | null = null;
  if (feesKnown && referral !== null && fba !== null && perItem !== null && closing !== null) {
    netRevenue = price! - referral - fba - perItem - closing - placement; // F14
    profit = netRevenue - totalCogs - prep - inbound; // F15
    margin = price! > 0 ? roundDiv(BigInt(profit) * 10000n, BigInt(price!)) : null; // F16
    roi = totalCogs > 0 ? roundDiv(BigInt(profit) * 10000n, BigInt(totalCogs)) : null; // F16
  }
  const units = unitsPerMonth(p.category, marketCode, p.rank); // F17
  return {
    sizeTier: tier,
    shippingWeight: sw,
    salePrice: price,
    unitCost,
    discountCost,
    totalCogs,
    referralFee: referral,
    fbaFee: fba,
    perItemFee: perItem,
    variableClosingFee: closing,
    inboundPlacementFee: placement,
    prepCost: prep,
    inboundShipping: inbound,
    storageFee: storage,
    netRevenue,
    profit,
    margin,
    roi,
    unitsPerMonth: units,
    salesPerMonth: units !== null && price !== null ? units * price : null,
    profitPerMonth: units !== null && profit !== null ? units * profit : null,
    smallAndLight: smallAndLightEligible(tier, sw, price),
  };
}
