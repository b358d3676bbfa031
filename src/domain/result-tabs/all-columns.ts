/**
 * New scan's column choice (issue 36): the essential columns (the default) or all of them. 'All'
 * adds every other product field of the API document (section 2.3) a seller checks before buying,
 * each beside the column it belongs with (`after`), in the seller's words and units: FBA inbound
 * eligibility with its reasons in words (verdict.ts), Small and Light, the brand blocklist, the
 * variation family, used offers, competing sellers, the package's size (inches) and weight
 * (pounds), the listing's other identifiers, the fee problem, and when eligibility was checked (a
 * date). Pure; units from contract/units.ts.
 */
import { LENGTH_UNIT, plainDecimal, WEIGHT_UNIT } from '../../../contract/units';
import { pick, type ColumnEntry, type Product } from './columns';
import { ineligibleReason } from './verdict';

/** Which columns a result tab has. */
export type ColumnSet = 'essential' | 'all';

/** A stored or sent choice read back: anything but 'all' is the default. */
export function columnSetOf(v: unknown): ColumnSet {
  return v === 'all' ? 'all' : 'essential';
}

const obj = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** The reasons Amazon will not take it into FBA, in words; '' when it will (or the service does not say). */
function whyNotFba(p: Product): string {
  const el = obj(p.inbound_eligibility);
  if (el.eligible !== false) return '';
  const codes = Array.isArray(el.ineligible_codes)
    ? el.ineligible_codes.filter((c): c is string => typeof c === 'string' && c.trim() !== '')
    : [];
  const words = codes.length ? codes.map(ineligibleReason).join('; ') : 'no reason given by the service';
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "12 × 8.5 × 3": the package's length, width and height as the service gives them (inches); '' when one is missing. */
function packageSize(p: Product): string {
  const d = obj(obj(p.dimensions).package_dimensions);
  const sides = [d.length, d.width, d.height];
  if (!sides.every((v) => typeof v === 'number' && isFinite(v) && v > 0)) return '';
  return sides.map((v) => plainDecimal(v as number)).join(' × ');
}

/** The listing's identifiers of one kind ("upc"), comma-separated. */
function identifiersOf(kind: string): (p: Product) => string {
  return (p) => {
    const list = obj(p.identifiers)[kind];
    return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string' && v !== '').join(', ') : '';
  };
}

const identifierColumns = (['upc', 'ean', 'isbn', 'gtin', 'jan'] as const).map((kind) => ({
  after: 'identifier',
  key: 'listing_' + kind,
  header: 'Listing ' + kind.toUpperCase(),
  width: 130,
  kind: 'identifier' as const,
  get: identifiersOf(kind),
  note: kind === 'upc' ? 'The marketplace listing’s own identifiers of each kind (several are comma-separated).' : undefined,
}));

/** The 'all' columns, each placed right after the layout column `after`. */
export const ALL_COLUMNS: ReadonlyArray<ColumnEntry & { after: string }> = [
  ...identifierColumns,
  { after: 'category', key: 'parent_asin', header: 'Parent ASIN', width: 110, kind: 'text', get: pick('parent_asin') },
  {
    after: 'category',
    key: 'variations',
    header: 'Variations',
    width: 80,
    kind: 'int',
    get: pick('number_of_variations'),
    note: 'Listings in its variation family (sizes, colours); 0 when it is not a variation.',
  },
  {
    after: 'other_fees',
    key: 'fee_error',
    header: 'Fee problem',
    width: 200,
    kind: 'text',
    get: pick('market_fees.error'),
    note: 'Why the Scan Service could not compute the fees (then profit is unknown), in its words.',
  },
  {
    after: 'lowest_price_new_fbm',
    key: 'lowest_price_used_fba',
    header: 'Lowest used FBA',
    width: 95,
    kind: 'money',
    get: pick('lowest_price_used_fba'),
  },
  {
    after: 'lowest_price_used_fba',
    key: 'lowest_price_used_fbm',
    header: 'Lowest used FBM',
    width: 95,
    kind: 'money',
    get: pick('lowest_price_used_fbm'),
  },
  {
    after: 'offers',
    key: 'competitive_sellers',
    header: 'Competing sellers',
    width: 90,
    kind: 'int',
    get: pick('competitive_sellers'),
    note: 'Sellers competing for the Buy Box, as the Scan Service counts them.',
  },
  {
    after: 'size_tier',
    key: 'fba_eligible',
    header: 'Can send to FBA',
    width: 95,
    kind: 'bool',
    get: pick('inbound_eligibility.eligible'),
    note: 'Whether Amazon takes it into its warehouses (FBA inbound eligibility); the reasons when not are in Why not FBA.',
  },
  { after: 'fba_eligible', key: 'why_not_fba', header: 'Why not FBA', width: 220, kind: 'text', get: whyNotFba },
  {
    after: 'why_not_fba',
    key: 'fba_checked',
    header: 'FBA checked on',
    width: 95,
    kind: 'date',
    get: pick('inbound_eligibility.updated_at'),
    note: 'When the Scan Service last checked FBA eligibility (the spreadsheet’s time zone).',
  },
  {
    after: 'fba_checked',
    key: 'small_and_light',
    header: 'Small and Light',
    width: 95,
    kind: 'bool',
    get: pick('small_and_light_eligible'),
  },
  { after: 'small_and_light', key: 'brand_blocked', header: 'Brand blocked', width: 90, kind: 'bool', get: pick('is_brand_blocklisted') },
  {
    after: 'brand_blocked',
    key: 'package_size',
    header: `Package (${LENGTH_UNIT})`,
    width: 120,
    kind: 'text',
    get: packageSize,
    note: `Shipping package: length × width × height, in inches (${LENGTH_UNIT}).`,
  },
  {
    after: 'package_size',
    key: 'package_weight',
    header: `Package weight (${WEIGHT_UNIT})`,
    width: 100,
    kind: 'number',
    get: pick('dimensions.package_dimensions.weight'),
    note: `Shipping weight in pounds (${WEIGHT_UNIT}).`,
  },
];

/** The headers 'All' adds, in the order of ALL_COLUMNS (the tests read the tab by them). */
export const ALL_COLUMN_HEADERS: readonly string[] = ALL_COLUMNS.map((c) => c.header);
