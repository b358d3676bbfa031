/** Hand-made catalog records and rules for the engine's tests. */
import type { CatalogRecord } from '../../../emulator/service/catalog/format';
import type { AccountRules, ScanAttributes } from '../../../emulator/service/engine/types';

/** The worked example's listing (FINANCIAL-MODEL.md), with overrides. */
export function record(over: Partial<CatalogRecord> = {}): CatalogRecord {
  return {
    marketplace_id: 1,
    asin: 'B0EXAMPLE1',
    title: 'Acme Mixing Bowls, Pack of 2',
    brand: 'Acme',
    color: null,
    size_name: null,
    category: 'Home & Kitchen',
    rank: 5000,
    buybox_price: 2499,
    lowest_price_new_fba: 2450,
    lowest_price_new_fbm: 2600,
    lowest_price_used_fba: null,
    lowest_price_used_fbm: 1800,
    competitive_sellers: 2,
    new_fba_offers_count: 3,
    new_fbm_offers_count: 1,
    total_offers_count: 5,
    market_pack_quantity: 2,
    number_of_variations: 0,
    parent_asin: null,
    is_hazmat: false,
    is_meltable: false,
    is_adult: false,
    package_dimensions: { length: 10, width: 6, height: 3, weight: 1.2 },
    item_dimensions: { length: 9.5, width: 5.5, height: 2.5, weight: 1.1 },
    identifiers: { upc: ['012345678905'], ean: ['0012345678905'] },
    images: ['AbCdEfGhIjK'],
    fees_available: true,
    inbound_eligibility: { eligible: true, updated_at: 1763337600, ineligible_codes: [] },
    ...over,
  };
}

export function rules(over: Partial<AccountRules> = {}): AccountRules {
  return { blockedBrands: new Set(), blockedAsins: new Set(), multipackCorrections: new Map(), listingMatches: new Map(), ...over };
}

export function attrs(mapping: Partial<ScanAttributes['mapping']> = {}, options: Partial<ScanAttributes['options']> = {}): ScanAttributes {
  return { mapping: { id: 0, cost: 1, ...mapping }, options: { marketplace_id: 'US', name: 'test', ...options } };
}
