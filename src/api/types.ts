/**
 * Minimal request/response types of the Scan Service endpoints this client uses.
 *
 * TEMPORARY: to be replaced by the types generated from the OpenAPI description
 * (`import type { paths, components } from './schema'`) once src/api/schema.ts exists. Everything
 * in src/api and src/formulas imports these names from here only, so the switch is a one-file change.
 * Response types describe what the document promises; the readers in read.ts accept more (the
 * service's silent parts may differ from the local stand-in).
 */

/** POST /api/v3/convert request (document 4.2): 1 to 20 ids. */
export interface ConvertRequest {
  marketplace: string;
  ids: string[];
}

/** POST /api/v3/convert response: keyed by each input that matched; [ASIN, other identifiers...]. */
export type ConvertResponse = Record<string, string[]>;

/** POST /api/v3/asin-convert request (document 4.2): 1 to 1,000 ASINs. */
export interface AsinConvertRequest {
  marketplace: string;
  asins: string[];
}

/** POST /api/v3/asin-convert response: keyed by ASIN; object of arrays keyed by kind (upc, ean, isbn, ...). */
export type AsinConvertResponse = Record<string, Record<string, string[]>>;

/** One refused row of a 422 (document section 7). */
export interface ValidationRow {
  index: number;
  field: string;
  message: string;
}

/** Error body: at least `message` (service-silent-parts.md, Errors). */
export interface ErrorBody {
  message?: string;
  errors?: ValidationRow[];
}

/** The API's batch ceilings (document section 8). */
export const CONVERT_MAX_IDS = 20;
export const ASIN_CONVERT_MAX_ASINS = 1000;
