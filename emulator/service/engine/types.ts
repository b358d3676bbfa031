import type { components } from '../../../contract/schema';
/**
 * Contract between the catalog/financial engine (emulator/service/engine, emulator/service/catalog)
 * and the HTTP side (routes). The engine is pure: no database, no HTTP. The HTTP side reads the
 * account's rules from the database and hands them in.
 */

/** One product as the catalog file describes it (format documented in emulator/service/catalog/README.md). */
export interface CatalogProduct {
  asin: string;
  marketplace_id: number;
  [field: string]: unknown;
}

export interface Catalog {
  /** Products of a marketplace with this UPC/EAN/GTIN/ISBN/JAN (several ASINs may share one). */
  byIdentifier(marketplaceId: number, identifier: string): CatalogProduct[];
  byAsin(marketplaceId: number, asin: string): CatalogProduct | undefined;
  /** Number of products, for start-up logs and tests. */
  size(): number;
}

/** The account's own data that changes scan results (document 4.6). Matching is exact (case-sensitive). */
export interface AccountRules {
  blockedBrands: Set<string>;
  blockedAsins: Set<string>;
  /** ASIN -> units actually shipped per order. */
  multipackCorrections: Map<string, number>;
  /** key `${identifier}\u0000${asin}` -> is_match. */
  listingMatches: Map<string, boolean>;
}

/** Upload attributes (document 2.1), as the API description defines them (generated types). */
export type ScanAttributes = components['schemas']['ScanAttributes'];

/**
 * The members of `mapping` that name one 0-indexed column (custom_columns aside). `supplier_title`
 * is an extension of 2.1 (marked in scans.yaml): the supplier's product title -> inputs.supplier_title.
 */
export const MAPPING_COLUMNS = [
  'id',
  'cost',
  'supplier_sku',
  'supplier_image',
  'supplier_pack_quantity',
  'map',
  'stock_quantity',
  'discount_per_product',
  'supplier_title',
] as const satisfies ReadonlyArray<keyof ScanAttributes['mapping']>;

/** One row the service could not use (tableType=errors). */
export interface ScanErrorRow {
  /** 1-based line of the uploaded file (header included when present). */
  line: number;
  identifier: string;
  /** Machine code, e.g. `not_found`, `invalid_cost`, `invalid_identifier`. */
  code: string;
  /** Plain-language reason. */
  message: string;
  /** The row's cells as uploaded. */
  input: string[];
}

/** Product result row: the document's product object (2.3) plus tolerated extras. */
export type ProductRow = Record<string, unknown> & { asin: string };

export interface RowOutcome {
  products: ProductRow[];
  error?: ScanErrorRow;
  /** Added by the engine: true for a row whose cells are all empty (no product, no error). */
  blank?: true;
  /** Added by the engine: matched products left out by the account's rules (not errors). */
  dropped?: Array<{ asin: string; reason: 'brand_blocklisted' | 'asin_blocklisted' | 'listing_mismatch' }>;
}

/** Thrown by parseUpload for a file the service cannot read; the message goes to the client (4xx). */
export class UploadError extends Error {}

/** What the HTTP side asks of the engine. Made by `createEngine(catalog)` in engine/index.ts. */
export interface ScanEngine {
  /** Rows of cell text of an uploaded CSV or XLSX file; throws UploadError when it is neither or is unreadable. */
  parseUpload(data: Buffer, filename: string, mimetype: string): Promise<string[][]>;
  /**
   * The same rows one at a time, limits checked while reading (engine/upload.ts): what the upload
   * handler uses, so a hostile file is refused before it fills memory. `onRow` may throw to stop.
   */
  readUpload(data: Buffer, filename: string, onRow: (cells: string[], line: number) => void): Promise<void>;
  /** One input row of a scan (line is 1-based in the file). Pure: same inputs, same outcome. */
  processRow(row: string[], line: number, attrs: ScanAttributes, marketplaceId: number, rules: AccountRules): RowOutcome;
  /** POST /api/v3/convert: input id -> [ASIN, other identifiers...]; unmatched inputs omitted. */
  convert(marketplaceId: number, ids: string[]): Record<string, string[]>;
  /** POST /api/v3/asin-convert: ASIN -> { upc: [...], ean: [...], ... }; ASINs without identifiers omitted. */
  asinConvert(marketplaceId: number, asins: string[]): Record<string, Record<string, string[]>>;
}
