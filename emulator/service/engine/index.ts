/**
 * The scan engine: turns one row of a supplier price list into product rows (document 2.3) or an
 * error row, and answers the conversion endpoints. Pure: catalog and account rules are handed in.
 * Row semantics are described in engine/README.md, money in FINANCIAL-MODEL.md.
 */
import { findMarketplace } from '../../../contract/marketplaces';
import type { CatalogRecord } from '../catalog/format';
import { pictureLink } from '../catalog/pictures';
import { computeFinancials, type CostInputs } from './financials';
import { IDENTIFIER_KINDS, parseIdentifier } from './ident';
import { categoryRule } from './fees';
import { parseBasisPoints, parseCount, parseMoney, roundDiv } from './money';
import {
  MAPPING_COLUMNS,
  type AccountRules,
  type Catalog,
  type ProductRow,
  type RowOutcome,
  type ScanAttributes,
  type ScanEngine,
  type ScanErrorRow,
} from './types';
import { parseUpload, readUpload } from './upload';

export { parseUpload, readUpload };

/** Element of `errors` and `flags` in a product row. */
export interface Notice {
  code: string;
  message: string;
}

/** Why a matched product left the results (not an error: the row's other products still count). */
export type DropReason = 'brand_blocklisted' | 'asin_blocklisted' | 'listing_mismatch';

const HISTORY_DAYS = [30, 60, 90, 180] as const;

const cell = (row: string[], col: number | undefined): string | undefined =>
  col === undefined || col === null || !Number.isInteger(col) || col < 0 ? undefined : (row[col] ?? '');

/**
 * Problems of upload attributes the JSON schema cannot express (ranges, integers). The HTTP side
 * answers 422 with them; processRow itself never throws on them (it clamps).
 */
export function checkAttributes(attrs: ScanAttributes): Array<{ field: string; message: string }> {
  const out: Array<{ field: string; message: string }> = [];
  const m = attrs.mapping ?? ({} as ScanAttributes['mapping']);
  const o = attrs.options ?? ({} as ScanAttributes['options']);
  const col = (f: string, v: unknown) => {
    if (v !== undefined && !(Number.isInteger(v) && (v as number) >= 0))
      out.push({ field: `mapping.${f}`, message: 'must be a 0-indexed column number (integer >= 0)' });
  };
  for (const f of MAPPING_COLUMNS) col(f, (m as Record<string, unknown>)[f]);
  if (m.id === undefined) out.push({ field: 'mapping.id', message: 'is required' });
  if (m.cost === undefined) out.push({ field: 'mapping.cost', message: 'is required' });
  (m.custom_columns ?? []).forEach((v, i) => col(`custom_columns.${i}`, v));
  const bp = (f: string, v: unknown) => {
    if (v !== undefined && !(Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 10000))
      out.push({ field: `options.${f}`, message: 'must be basis points, an integer from 0 to 10000' });
  };
  const cents = (f: string, v: unknown) => {
    if (v !== undefined && !(Number.isInteger(v) && (v as number) >= 0))
      out.push({ field: `options.${f}`, message: 'must be cents, an integer >= 0' });
  };
  bp('discount_supplier', o.discount_supplier);
  cents('prep_cost', o.prep_cost);
  const mp = o.multipack_prep_cost;
  if (mp) {
    if (!(Number.isInteger(mp.firstN) && mp.firstN >= 0))
      out.push({ field: 'options.multipack_prep_cost.firstN', message: 'must be an integer >= 0' });
    cents('multipack_prep_cost.costForFirstN', mp.costForFirstN);
    cents('multipack_prep_cost.costForRest', mp.costForRest);
  }
  if (o.multipack_override && !(Number.isInteger(o.multipack_override_quantity) && (o.multipack_override_quantity as number) >= 1)) {
    out.push({ field: 'options.multipack_override_quantity', message: 'must be an integer >= 1 when multipack_override is true' });
  }
  return out;
}

const nonNegInt = (v: unknown, dflt: number) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : dflt);

function errorRow(line: number, identifier: string, row: string[], code: string, message: string): RowOutcome {
  const error: ScanErrorRow = { line, identifier, code, message, input: row.slice() };
  return { products: [], error };
}

/** Look-up: an ASIN-shaped input is an ASIN first (a book's ASIN is its ISBN-10), then a code. */
function lookUp(
  catalog: Catalog,
  ident: Extract<ReturnType<typeof parseIdentifier>, { ok: true }>,
  rawId: string,
  marketplaceId: number,
): { found: CatalogRecord[]; foundByCode: boolean } {
  let found: CatalogRecord[] = [];
  if (ident.kind === 'asin') {
    const p = catalog.byAsin(marketplaceId, ident.asin) as CatalogRecord | undefined;
    if (p) found = [p];
  }
  let foundByCode = false;
  if (found.length === 0 && ident.keys.length > 0) {
    found = catalog.byIdentifier(marketplaceId, rawId) as unknown as CatalogRecord[];
    foundByCode = true;
  }
  return { found, foundByCode };
}

/** The optional MAP and stock cells: a value each, or a note saying why it was ignored. */
function mapAndStock(row: string[], mapping: ScanAttributes['mapping']): { map: number | null; stock: number | null; notes: Notice[] } {
  const notes: Notice[] = [];
  const mapCell = cell(row, mapping.map);
  let map: number | null = null;
  if (mapCell !== undefined && mapCell.trim() !== '') {
    const v = parseMoney(mapCell);
    if (v.ok) map = v.value;
    else notes.push({ code: 'invalid_map', message: `MAP ignored: ${v.reason}` });
  }
  const stockCell = cell(row, mapping.stock_quantity);
  let stock: number | null = null;
  if (stockCell !== undefined && stockCell.trim() !== '') {
    const v = parseCount(stockCell);
    if (v.ok) stock = v.value;
    else notes.push({ code: 'invalid_stock', message: `Stock ignored: ${v.reason}` });
  }
  return { map, stock, notes };
}

/** One input line of a scan: its error, or the products it found (blocked and rejected ones dropped). */
function scanRow(
  catalog: Catalog,
  row: string[],
  line: number,
  attrs: ScanAttributes,
  marketplaceId: number,
  rules: AccountRules,
): RowOutcome {
  const { mapping } = attrs;
  const marketCode = findMarketplace(marketplaceId)?.code ?? '';
  if (row.every((c) => (c ?? '').trim() === '')) return { products: [], blank: true };

  const rawId = (cell(row, mapping.id) ?? '').trim();
  if (rawId === '') return errorRow(line, rawId, row, 'missing_identifier', 'The row has no identifier in the mapped column.');
  const ident = parseIdentifier(rawId);
  if (!ident.ok) return errorRow(line, rawId, row, 'invalid_identifier', ident.reason);

  const costCell = cell(row, mapping.cost) ?? '';
  const cost = parseMoney(costCell);
  if (!cost.ok)
    return errorRow(line, rawId, row, 'invalid_cost', costCell.trim() === '' ? 'The cost is empty.' : `The cost ${cost.reason}`);
  if (cost.value === 0) return errorRow(line, rawId, row, 'invalid_cost', 'The cost must be greater than zero.');

  let spq = 1;
  const spqCell = cell(row, mapping.supplier_pack_quantity);
  if (spqCell !== undefined && spqCell.trim() !== '') {
    const q = parseCount(spqCell);
    if (!q.ok || q.value < 1)
      return errorRow(
        line,
        rawId,
        row,
        'invalid_pack_quantity',
        `The supplier pack quantity "${spqCell.trim()}" is not a whole number of 1 or more.`,
      );
    spq = q.value;
  }
  let productDiscount = 0;
  const discCell = cell(row, mapping.discount_per_product);
  if (discCell !== undefined && discCell.trim() !== '') {
    const d = parseBasisPoints(discCell);
    if (!d.ok) return errorRow(line, rawId, row, 'invalid_discount', d.reason);
    productDiscount = d.value;
  }

  const { found, foundByCode } = lookUp(catalog, ident, rawId, marketplaceId);
  if (found.length === 0) {
    return errorRow(
      line,
      rawId,
      row,
      'not_found',
      `No product with ${ident.kind === 'asin' ? 'ASIN' : 'identifier'} ${rawId} on the ${marketCode || marketplaceId} marketplace.`,
    );
  }

  const { map, stock, notes } = mapAndStock(row, mapping);
  // A UPC/EAN that lost its leading zeros in a spreadsheet still matched: say so on the product.
  const digits = rawId.replace(/[\s-]/g, '');
  const padded = (p: CatalogRecord) =>
    foundByCode &&
    /^\d{1,11}$/.test(digits) &&
    IDENTIFIER_KINDS.some((k) =>
      (p.identifiers[k] ?? []).some(
        (c) => c.length > digits.length && c.endsWith(digits) && /^0+$/.test(c.slice(0, c.length - digits.length)),
      ),
    );

  const products: ProductRow[] = [];
  const dropped: Array<{ asin: string; reason: DropReason }> = [];
  for (const p of found) {
    if (p.brand !== null && rules.blockedBrands.has(p.brand)) {
      dropped.push({ asin: p.asin, reason: 'brand_blocklisted' });
      continue;
    }
    if (rules.blockedAsins.has(p.asin)) {
      dropped.push({ asin: p.asin, reason: 'asin_blocklisted' });
      continue;
    }
    const match = rules.listingMatches.get(rawId + '\u0000' + p.asin);
    if (match === false) {
      dropped.push({ asin: p.asin, reason: 'listing_mismatch' });
      continue;
    }
    const identFlags = padded(p) ? [{ code: 'identifier_padded', message: `${rawId} matched with its leading zeros restored.` }] : [];
    products.push(
      buildProduct(p, {
        row,
        line,
        rawId,
        attrs,
        marketCode,
        costCents: cost.value,
        spq,
        productDiscount,
        map,
        stock,
        match,
        rules,
        notes,
        identFlags,
      }),
    );
  }
  return dropped.length ? { products, dropped } : { products };
}

export function createEngine(catalog: Catalog): ScanEngine & { checkAttributes: typeof checkAttributes } {
  const processRow = (row: string[], line: number, attrs: ScanAttributes, marketplaceId: number, rules: AccountRules): RowOutcome =>
    scanRow(catalog, row, line, attrs, marketplaceId, rules);

  /**
   * Team decision (openapi/areas/convert.yaml x-decision): every matching ASIN first, best rank
   * first; then the other identifiers of those products, product by product, kinds in the order
   * upc, ean, isbn, gtin, jan, leaving out the input as written; no value twice.
   */
  function convert(marketplaceId: number, ids: string[]): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const id of ids) {
      if (typeof id !== 'string' || Object.prototype.hasOwnProperty.call(out, id)) continue;
      const parsed = parseIdentifier(id);
      if (!parsed.ok || parsed.keys.length === 0) continue;
      const found = catalog.byIdentifier(marketplaceId, id) as unknown as CatalogRecord[];
      if (found.length === 0) continue;
      const written = id
        .trim()
        .replace(/[\s-]+/g, '')
        .toUpperCase();
      const answer = found.map((p) => p.asin);
      const seen = new Set(answer);
      for (const p of found) {
        for (const kind of IDENTIFIER_KINDS) {
          for (const code of p.identifiers[kind] ?? []) {
            if (code === written || seen.has(code)) continue;
            seen.add(code);
            answer.push(code);
          }
        }
      }
      out[id] = answer;
    }
    return out;
  }

  function asinConvert(marketplaceId: number, asins: string[]): Record<string, Record<string, string[]>> {
    const out: Record<string, Record<string, string[]>> = {};
    for (const asin of asins) {
      if (typeof asin !== 'string') continue;
      const p = catalog.byAsin(marketplaceId, asin) as CatalogRecord | undefined;
      if (!p) continue;
      const ids: Record<string, string[]> = {};
      for (const kind of IDENTIFIER_KINDS) if (p.identifiers[kind]?.length) ids[kind] = p.identifiers[kind]!.slice();
      if (Object.keys(ids).length) out[asin] = ids;
    }
    return out;
  }

  return { parseUpload, readUpload, processRow, convert, asinConvert, checkAttributes };
}

interface RowContext {
  row: string[];
  line: number;
  rawId: string;
  attrs: ScanAttributes;
  marketCode: string;
  costCents: number;
  spq: number;
  productDiscount: number;
  map: number | null;
  stock: number | null;
  match: boolean | undefined;
  rules: AccountRules;
  /** Flags about reading the row's optional cells (MAP, stock). */
  notes: Notice[];
  /** Flags about how the identifier matched this product. */
  identFlags: Notice[];
}

/** Blocked brands by lower case, built once per rules object (a blocklist may hold thousands). */
const lowerCaseBrands = new WeakMap<AccountRules, { size: number; map: Map<string, string> }>();
function blockedByLowerCase(rules: AccountRules): Map<string, string> {
  const hit = lowerCaseBrands.get(rules);
  if (hit && hit.size === rules.blockedBrands.size) return hit.map;
  const map = new Map<string, string>();
  for (const b of rules.blockedBrands) if (!map.has(b.toLowerCase())) map.set(b.toLowerCase(), b);
  lowerCaseBrands.set(rules, { size: rules.blockedBrands.size, map });
  return map;
}

/** Units per order: account correction, else the scan's override, else the catalog's pack quantity. */
function unitsPerOrder(p: CatalogRecord, ctx: RowContext): { n: number; source: 'catalog' | 'correction' | 'override' } {
  const corr = ctx.rules.multipackCorrections.get(p.asin);
  if (corr !== undefined && Number.isInteger(corr) && corr >= 1) return { n: corr, source: 'correction' };
  const o = ctx.attrs.options;
  if (o.multipack_override && Number.isInteger(o.multipack_override_quantity) && (o.multipack_override_quantity as number) >= 1) {
    return { n: o.multipack_override_quantity as number, source: 'override' };
  }
  return { n: Math.max(1, p.market_pack_quantity || 1), source: 'catalog' };
}

/** The cost side of one product's financials: the row's cost, pack and discounts, the scan's options. */
function costInputs(ctx: RowContext, unitsPerOrder: number): CostInputs {
  const options = ctx.attrs.options;
  const mp = options.multipack_prep_cost;
  return {
    packCost: ctx.costCents,
    supplierPackQuantity: ctx.spq,
    supplierDiscountBp: Math.min(10000, nonNegInt(options.discount_supplier, 0)),
    productDiscountBp: ctx.productDiscount,
    unitsPerOrder,
    prepCost: nonNegInt(options.prep_cost, 0),
    multipackPrep:
      mp && mp.enabled
        ? {
            enabled: true,
            firstN: nonNegInt(mp.firstN, 0),
            costForFirstN: nonNegInt(mp.costForFirstN, 0),
            costForRest: nonNegInt(mp.costForRest, 0),
          }
        : undefined,
  };
}

/** Why a product's profit, margin and ROI are not computed. */
function productErrors(p: CatalogRecord, f: ReturnType<typeof computeFinancials>): Notice[] {
  const errors: Notice[] = [];
  if (!p.fees_available)
    errors.push({
      code: 'fees_unavailable',
      message: 'The marketplace gave no fee estimate for this listing; profit, margin and ROI are not computed.',
    });
  if (f.salePrice === null)
    errors.push({ code: 'no_price', message: 'The listing has no buy box and no new offer; profit, margin and ROI are not computed.' });
  return errors;
}

/** What a seller should know about a product (the row's notes first). */
function productFlags(
  p: CatalogRecord,
  ctx: RowContext,
  f: ReturnType<typeof computeFinancials>,
  units: ReturnType<typeof unitsPerOrder>,
): Notice[] {
  const flags: Notice[] = [...ctx.identFlags, ...ctx.notes];
  if (p.buybox_price === null && f.salePrice !== null)
    flags.push({ code: 'no_buybox', message: 'No buy box; the lowest new offer is used as the sale price.' });
  if (p.is_hazmat) flags.push({ code: 'hazmat', message: 'Dangerous goods: FBA surcharge applies and inbound needs review.' });
  if (p.is_meltable) flags.push({ code: 'meltable', message: 'Meltable: FBA accepts it only from October to April.' });
  if (p.is_adult) flags.push({ code: 'adult', message: 'Adult product.' });
  if (units.source === 'correction')
    flags.push({
      code: 'multipack_corrected',
      message: `Your multipack correction: ${units.n} units per order (catalog says ${p.market_pack_quantity}).`,
    });
  if (units.source === 'override')
    flags.push({
      code: 'multipack_override',
      message: `Scan override: ${units.n} units per order (catalog says ${p.market_pack_quantity}).`,
    });
  if (ctx.match === true) flags.push({ code: 'listing_match_confirmed', message: `You confirmed that ${ctx.rawId} is ${p.asin}.` });
  if (ctx.map !== null && f.salePrice !== null && f.salePrice < ctx.map * units.n)
    flags.push({ code: 'below_map', message: 'The sale price is below the minimum advertised price.' });
  if (p.brand !== null && ctx.rules.blockedBrands.size > 0 && !ctx.rules.blockedBrands.has(p.brand)) {
    const b = blockedByLowerCase(ctx.rules).get(p.brand.toLowerCase());
    if (b !== undefined)
      flags.push({
        code: 'brand_blocklist_case_variant',
        message: `Brand "${p.brand}" differs only in letter case from blocked brand "${b}"; blocklist matching is exact.`,
      });
  }
  return flags;
}

/** Historical data (silent parts): -1 when not pulled (option off) or unknown for the listing. */
function historyExtras(p: CatalogRecord, pulled: boolean): Record<string, number> {
  const hist = pulled ? p.history : undefined;
  const extras: Record<string, number> = {};
  HISTORY_DAYS.forEach((d, i) => {
    extras[`bsr_${d}_days`] = hist ? hist.bsr[i] : -1;
    extras[`price_${d}_days`] = hist ? hist.price[i] : -1;
    extras[`instock_rate_${d}_days`] = hist ? hist.instock_rate[i] : -1;
    extras[`sales_rank_drops_${d}_days`] = hist ? hist.rank_drops[i] : -1;
  });
  return extras;
}

function buildProduct(p: CatalogRecord, ctx: RowContext): ProductRow {
  const { mapping, options } = ctx.attrs;
  const units = unitsPerOrder(p, ctx);
  const costs = costInputs(ctx, units.n);
  const f = computeFinancials(p, ctx.marketCode, costs);

  const errors = productErrors(p, f);
  const flags = productFlags(p, ctx, f, units);

  const extras = historyExtras(p, Boolean(options.pull_historical_data));

  const custom = (mapping.custom_columns ?? []).map((c) => cell(ctx.row, c) ?? '');
  const text = (col: number | undefined) => {
    const v = cell(ctx.row, col);
    return v === undefined || v.trim() === '' ? null : v.trim();
  };

  return {
    id: 0,
    asin: p.asin,
    market_title: p.title,
    brand: p.brand,
    color: p.color,
    size_name: p.size_name,
    category: p.category,
    rank: p.rank,
    buybox_price: p.buybox_price,
    lowest_price_new_fba: p.lowest_price_new_fba,
    lowest_price_new_fbm: p.lowest_price_new_fbm,
    lowest_price_used_fba: p.lowest_price_used_fba,
    lowest_price_used_fbm: p.lowest_price_used_fbm,
    market_pack_quantity: units.n,
    size_tier: f.sizeTier,
    competitive_sellers: p.competitive_sellers,
    new_fba_offers_count: p.new_fba_offers_count,
    new_fbm_offers_count: p.new_fbm_offers_count,
    total_offers_count: p.total_offers_count,
    number_of_variations: p.number_of_variations,
    parent_asin: p.parent_asin,
    is_hazmat: p.is_hazmat,
    is_meltable: p.is_meltable,
    is_adult: p.is_adult,
    is_brand_blocklisted: false,
    small_and_light_eligible: f.smallAndLight,
    units_per_month: f.unitsPerMonth,
    sales_per_month: f.salesPerMonth,
    profit_per_month: f.profitPerMonth,
    inputs: {
      identifier: ctx.rawId,
      cost: f.unitCost,
      stock: ctx.stock,
      map: ctx.map,
      supplier_title: text((mapping as { supplier_title?: number }).supplier_title),
      supplier_sku: text(mapping.supplier_sku),
      supplier_image: text(mapping.supplier_image),
      supplier_pack_quantity: ctx.spq,
      discount_cost: f.discountCost,
      total_cogs: f.totalCogs,
      custom_columns: custom,
    },
    financials: {
      profit: f.profit,
      margin: f.margin,
      roi: f.roi,
      net_revenue: f.netRevenue,
      prep_cost: f.prepCost,
      inbound_shipping: f.inboundShipping,
      fba_storage_fees: f.storageFee,
    },
    market_fees: {
      referral_fee: f.referralFee,
      fba_fees: f.fbaFee,
      per_item_fee: f.perItemFee,
      variable_closing_fee: f.variableClosingFee,
      inbound_placement_fee: f.inboundPlacementFee,
      ...(p.fees_available ? {} : { error: 'Fee estimate unavailable for this listing.' }),
    },
    dimensions: {
      package_dimensions: { ...p.package_dimensions },
      item_dimensions: { ...p.item_dimensions },
    },
    identifiers: Object.fromEntries(IDENTIFIER_KINDS.filter((k) => p.identifiers[k]?.length).map((k) => [k, p.identifiers[k]!.slice()])),
    inbound_eligibility: {
      eligible: p.inbound_eligibility.eligible,
      updated_at: p.inbound_eligibility.updated_at,
      ineligible_codes: p.inbound_eligibility.ineligible_codes.slice(),
    },
    // Pictures the local service draws and serves itself (catalog/pictures.ts), one per catalog image.
    images: p.images.map((_, i) => ({ marketplace_id: p.marketplace_id, url: pictureLink(p.asin, i) })),
    errors,
    flags,
    // Tolerated extras (service-silent-parts.md).
    line: ctx.line,
    marketplace_id: p.marketplace_id,
    market_pack_quantity_source: units.source,
    catalog_pack_quantity: p.market_pack_quantity,
    sale_price: f.salePrice,
    listing_match: ctx.match ?? null,
    bsr_percentage: p.rank === null ? -1 : roundDiv(p.rank * 10000, categoryRule(p.category).size),
    monthly_sold: f.unitsPerMonth ?? -1,
    ...extras,
  };
}
