/**
 * What a seller decides on, from a product row the scan already returned (no API call): the ROI on
 * everything one order costs, the seller's expected share of the listing's sales, the buy cost that
 * breaks even and the one that reaches a target ROI, the discount that would take, and the order
 * quantity in whole case packs. Pure; nothing runs at load time. The columns that show these figures
 * are in layout.ts (THE column layouts); this module only computes.
 *
 * Units: money in cents, ROI as a fraction. "Units a month" is the listing's sales (orders; an
 * order of a multipack is Units/order supplier units); stock and case packs are supplier units.
 */
import { percentInputToBps, wholeNumberInput, type OptionProblem } from './option-input';
import { isBlankCell } from '../sheet/safe';

/** How the listing's sales are divided among its offers. */
export type ShareRule = 'fba-weighted' | 'even';

/** The seller's parameters for these figures (scan options, kept by the add-on: the service never sees them). */
export interface DecisionOptions {
  /** Months of sales one purchase should cover (caps the share by stock ÷ months; sizes the PO). */
  monthsOfCover: number;
  shareRule: ShareRule;
  /** Target ROI on the all-in cost, basis points. */
  targetRoiBps: number;
  /** Largest discount worth asking a supplier for (Negotiate tab), basis points. */
  maxDiscountBps: number;
}

/**
 * A purchase order's default cover when the seller sets no "Sell through within": 90 days. The
 * default months of cover (2, 60 days) plus room for rounding up to whole case packs; past it a line
 * ties cash up for a season, and stock ageing toward Amazon's aged-inventory surcharges. A line that
 * would not sell through within it is cut to the whole case packs that do (0 when not even one does).
 */
export const DEFAULT_SELL_THROUGH_DAYS = 90;

export const DEFAULT_DECISION: DecisionOptions = { monthsOfCover: 2, shareRule: 'fba-weighted', targetRoiBps: 3000, maxDiscountBps: 2000 };

/** Where the Buy Box is FBA, an FBM offer takes this much of the sales an FBA offer takes. */
export const FBM_WEIGHT_AGAINST_FBA = 0.5;

/** The sidebar's input for these options: text or numbers, blank = the default. */
export interface DecisionInput {
  monthsOfCover?: number | string | null;
  shareRule?: ShareRule | string | null;
  /** Percent, like the supplier discount: 30, "30", "30%". */
  targetRoi?: number | string | null;
  /** Percent. */
  maxDiscount?: number | string | null;
}

/** The options, or the problems (named by their sidebar field, like the other scan options). */
export function readDecisionOptions(
  input: DecisionInput,
): { ok: true; options: DecisionOptions } | { ok: false; problems: OptionProblem[] } {
  const problems: OptionProblem[] = [];
  const out: DecisionOptions = { ...DEFAULT_DECISION };
  if (!isBlankCell(input.monthsOfCover)) {
    const n = wholeNumberInput(input.monthsOfCover as number | string, 1);
    if (n === null || n > 24) problems.push({ field: 'monthsOfCover', message: 'Months of cover must be a whole number from 1 to 24.' });
    else out.monthsOfCover = n;
  }
  if (!isBlankCell(input.shareRule)) {
    if (input.shareRule === 'fba-weighted' || input.shareRule === 'even') out.shareRule = input.shareRule;
    else problems.push({ field: 'shareRule', message: 'Choose how sales are shared among offers.' });
  }
  if (!isBlankCell(input.targetRoi)) {
    const bps = percentInputToBps(input.targetRoi as number | string);
    if (bps === null || bps < 0 || bps > 100000)
      problems.push({ field: 'targetRoi', message: 'Target ROI must be a percent from 0 to 1000.' });
    else out.targetRoiBps = bps;
  }
  if (!isBlankCell(input.maxDiscount)) {
    const bps = percentInputToBps(input.maxDiscount as number | string);
    if (bps === null || bps <= 0 || bps > 10000)
      problems.push({ field: 'maxDiscount', message: 'Largest discount to ask for must be a percent above 0, at most 100.' });
    else out.maxDiscountBps = bps;
  }
  return problems.length ? { ok: false, problems } : { ok: true, options: out };
}

/** A stored record back to options (unknown or damaged members fall back to the defaults). */
export function decisionFromRecord(v: unknown): DecisionOptions {
  const o = v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  const int = (x: unknown, lo: number, hi: number, d: number) =>
    typeof x === 'number' && Number.isInteger(x) && x >= lo && x <= hi ? x : d;
  return {
    monthsOfCover: int(o.monthsOfCover, 1, 24, DEFAULT_DECISION.monthsOfCover),
    shareRule: o.shareRule === 'even' ? 'even' : 'fba-weighted',
    targetRoiBps: int(o.targetRoiBps, 0, 100000, DEFAULT_DECISION.targetRoiBps),
    maxDiscountBps: int(o.maxDiscountBps, 1, 10000, DEFAULT_DECISION.maxDiscountBps),
  };
}

// ---- Reading a product ---------------------------------------------------------------------------

type Product = Record<string, unknown>;

/** An object's members ({} for anything else): answers read without checking each level. */
export function asRecord(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
function num(v: unknown): number | null {
  return typeof v === 'number' && isFinite(v) ? v : null;
}

/** Units per order (the listing's pack), at least 1. */
export function unitsPerOrder(p: Product): number {
  const n = num(p.market_pack_quantity);
  return n !== null && n >= 1 ? Math.round(n) : 1;
}

/** Everything one order costs: Total cost + Prep + Inbound shipping (cents); null when Total cost is unknown. */
export function allInCostCents(p: Product): number | null {
  const total = num(asRecord(p.inputs).total_cogs);
  if (total === null) return null;
  const f = asRecord(p.financials);
  return total + (num(f.prep_cost) || 0) + (num(f.inbound_shipping) || 0);
}

/** ROI = Profit ÷ (Total cost + Prep + Inbound shipping), a fraction; null when either is unknown or the cost is not above 0. */
export function allInRoi(p: Product): number | null {
  const profit = num(asRecord(p.financials).profit);
  const cost = allInCostCents(p);
  if (profit === null || cost === null || !(cost > 0)) return null;
  return profit / cost;
}

// ---- Expected share ------------------------------------------------------------------------------

/** Whether the Buy Box is held by an FBA offer: there is one, priced at or below the Buy Box. */
export function buyBoxIsFba(p: Product): boolean {
  const fba = num(p.new_fba_offers_count);
  const low = num(p.lowest_price_new_fba);
  const bb = num(p.buybox_price);
  return fba !== null && fba > 0 && low !== null && bb !== null && low <= bb;
}

/** The competing offers as the rule counts them; null when the service gave no offer count. */
/** The result tab's Offers column: the one offer count, said once. */
export const OFFERS_NOTE =
  'Offers = FBA offers + FBM offers: the new offers competing for the sale (the count Your units/mo divides by). ' +
  'The Scan Service’s own total also counts used offers; it is used only when it gives no FBA and FBM counts.';

export function competingOffers(p: Product, rule: ShareRule): number | null {
  const fba = num(p.new_fba_offers_count);
  const fbm = num(p.new_fbm_offers_count);
  if (fba === null && fbm === null) {
    const total = num(p.total_offers_count);
    return total === null ? null : Math.max(0, total);
  }
  const a = Math.max(0, fba || 0);
  const b = Math.max(0, fbm || 0);
  return rule === 'fba-weighted' && buyBoxIsFba(p) ? a + b * FBM_WEIGHT_AGAINST_FBA : a + b;
}

export interface Share {
  /** Expected sales a month for this seller (orders), to one decimal; null when it cannot be estimated. */
  units: number | null;
  /** Expected profit a month from them (cents); null when units or profit is unknown. */
  profitCents: number | null;
  /** Why it is blank, or what capped it: 'no-sales' | 'no-offers' | 'stock' | ''. */
  why: string;
}

/** One decimal, half up (what the cell shows, so Your units/mo × Profit checks to the cent). */
function oneDecimal(x: number): number {
  return Math.round(x * 10 + 1e-9) / 10;
}

/**
 * Units a month for this seller: the listing's Units/mo ÷ (competing offers + 1), the +1 being the
 * seller (no other offer: all of it); capped by the supplier's stock over the months of cover
 * (Stock ÷ Units/order ÷ months). Then × Profit per order.
 */
export function expectedShare(p: Product, o: DecisionOptions): Share {
  const perMonth = num(p.units_per_month);
  if (perMonth === null || perMonth < 0) return { units: null, profitCents: null, why: 'no-sales' };
  const offers = competingOffers(p, o.shareRule);
  if (offers === null) return { units: null, profitCents: null, why: 'no-offers' };
  let units = perMonth / (offers + 1);
  let why = '';
  const stock = num(asRecord(p.inputs).stock);
  if (stock !== null && stock >= 0) {
    const cap = stock / unitsPerOrder(p) / o.monthsOfCover;
    if (cap < units) {
      units = cap;
      why = 'stock';
    }
  }
  units = oneDecimal(units);
  const profit = num(asRecord(p.financials).profit);
  return { units, profitCents: profit === null ? null : Math.round(units * profit), why };
}

/** The method in words, for header notes and summaries. */
export function shareBasis(o: DecisionOptions, short = false): string {
  const weighted = o.shareRule === 'fba-weighted';
  const months = o.monthsOfCover + ' month' + (o.monthsOfCover === 1 ? '' : 's');
  if (short)
    return (
      'expected for you: units ÷ (offers + 1)' +
      (weighted ? ', an FBM offer counting ½ where the Buy Box is FBA' : '') +
      ', capped by stock for ' +
      months
    );
  return (
    'Your units/mo = Units/mo ÷ (competing offers + 1): the listing’s sales shared with the other sellers, +1 for you ' +
    '(no other offer: all of it). ' +
    (weighted
      ? 'Competing offers = the Offers column (FBA offers + FBM offers), where an FBM offer counts ½ when the Buy Box is FBA (an FBA offer priced at or below the Buy Box). '
      : 'Competing offers = the Offers column (FBA offers + FBM offers), each counting 1. ') +
    'Capped by the supplier’s Stock ÷ Units/order ÷ ' +
    months +
    ' of cover. Blank when the service gave no Units/mo or no offer count. Rounded to 0.1. ' +
    'Set the rule and the months in New scan > options.'
  );
}

// ---- Negotiation ---------------------------------------------------------------------------------

/** Share of the supplier's price the seller pays after the discounts (Cost after discount ÷ Cost); 1 when unknown. */
function keptAfterDiscount(p: Product): number {
  const cost = num(asRecord(p.inputs).cost);
  const after = num(asRecord(p.inputs).discount_cost);
  return cost !== null && after !== null && cost > 0 && after > 0 ? after / cost : 1;
}

/**
 * The supplier's price per unit (the Cost column's basis, before the discounts) at which one order's
 * all-in ROI is `roi` (0: break-even): Net revenue ÷ (1 + roi) − Prep − Inbound shipping, per unit,
 * grossed up by the discounts. Rounded DOWN to the cent so that buying at it reaches the ROI.
 * Negative when the fees and shipping alone exceed the price. null when Net revenue is unknown.
 */
export function costForRoi(p: Product, roi: number): number | null {
  const f = asRecord(p.financials);
  const net = num(f.net_revenue);
  if (net === null) return null;
  const goods = net / (1 + roi) - (num(f.prep_cost) || 0) - (num(f.inbound_shipping) || 0);
  return Math.floor(goods / unitsPerOrder(p) / keptAfterDiscount(p) + 1e-9);
}

export interface Negotiation {
  /** Supplier's price per unit today (cents). */
  costCents: number;
  /** Price per unit that breaks even / reaches the target ROI (cents; may be negative). */
  breakEvenCents: number;
  targetCents: number;
  /** Discount off today's price that reaches the target, a fraction (0 when already there; above 1 cannot be). */
  discountNeeded: number;
}

export function negotiation(p: Product, o: DecisionOptions): Negotiation | null {
  const cost = num(asRecord(p.inputs).cost);
  const be = costForRoi(p, 0);
  const target = costForRoi(p, o.targetRoiBps / 10000);
  if (cost === null || !(cost > 0) || be === null || target === null) return null;
  const discount = target >= cost ? 0 : (cost - target) / cost;
  return { costCents: cost, breakEvenCents: be, targetCents: target, discountNeeded: discount };
}

/** On the Negotiate list: short of the target ROI today, reaching it at a discount of at most the option's. */
export function worthNegotiating(p: Product, o: DecisionOptions): Negotiation | null {
  const n = negotiation(p, o);
  if (!n || n.discountNeeded <= 0) return null;
  return n.discountNeeded <= o.maxDiscountBps / 10000 + 1e-12 ? n : null;
}

// ---- Purchase order ------------------------------------------------------------------------------

/**
 * Units to order (supplier units): expected sales a month × Units/order × months of cover, capped by
 * stock, rounded UP to whole case packs. A stock below one case pack orders nothing (a case cannot be
 * split). 0 when the expected sales are unknown.
 */
export function orderQuantity(
  expectedUnits: number | null,
  perOrder: number,
  months: number,
  stock: number | null,
  casePack: number,
): number {
  if (expectedUnits === null || !(expectedUnits > 0)) return 0;
  const pack = casePack >= 1 ? Math.round(casePack) : 1;
  let want = expectedUnits * perOrder * months;
  if (stock !== null && stock >= 0) want = Math.min(want, stock);
  let q = Math.ceil(want / pack - 1e-9) * pack;
  // Rounding up must not pass the stock: then the whole packs the stock holds.
  if (stock !== null && stock >= 0 && q > stock) q = Math.floor(stock / pack) * pack;
  return q;
}
