/**
 * One line of a catalog file (format: catalog/README.md). Units: money in integer cents of the
 * marketplace currency, lengths in inches, weights in pounds, rates in basis points.
 */
export interface Dimensions {
  /** inches, at most 2 decimals */
  length: number;
  width: number;
  height: number;
  /** pounds, at most 3 decimals */
  weight: number;
}

export interface CatalogRecord {
  marketplace_id: number;
  asin: string;
  title: string;
  brand: string | null;
  color: string | null;
  size_name: string | null;
  /** One of the categories of engine/fees.ts (referral rate, closing fee, sales curve). */
  category: string;
  /** Best Sellers Rank in the category; null when the listing has none. */
  rank: number | null;
  buybox_price: number | null;
  lowest_price_new_fba: number | null;
  lowest_price_new_fbm: number | null;
  lowest_price_used_fba: number | null;
  lowest_price_used_fbm: number | null;
  competitive_sellers: number;
  new_fba_offers_count: number;
  new_fbm_offers_count: number;
  total_offers_count: number;
  /** Units in one marketplace listing (a "pack of 6" is 6). */
  market_pack_quantity: number;
  number_of_variations: number;
  parent_asin: string | null;
  is_hazmat: boolean;
  is_meltable: boolean;
  is_adult: boolean;
  package_dimensions: Dimensions;
  item_dimensions: Dimensions;
  /** Arrays of valid identifiers; a kind with none is absent. */
  identifiers: Partial<Record<'upc' | 'ean' | 'isbn' | 'gtin' | 'jan', string[]>>;
  /** Image ids; one picture each in answers, drawn by the service (pictures.ts). */
  images: string[];
  /** false: the marketplace gave no fee estimate (referral/FBA/closing fees are null). */
  fees_available: boolean;
  inbound_eligibility: { eligible: boolean; updated_at: number; ineligible_codes: string[] };
  /** Historical averages for 30/60/90/180 days; absent when unknown. */
  history?: {
    bsr: [number, number, number, number];
    /** cents */
    price: [number, number, number, number];
    /** basis points of the period the listing was in stock */
    instock_rate: [number, number, number, number];
    rank_drops: [number, number, number, number];
  };
}
