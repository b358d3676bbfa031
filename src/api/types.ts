/**
 * Request/response types of the Scan Service endpoints this client uses, taken from the types
 * GENERATED from the OpenAPI description (contract/schema.ts, `npm run gen:api`; the API is described once,
 * in contract/openapi/). Everything in src/api and src/custom-functions imports these names from
 * here only. Response types describe what the description promises; the readers in read.ts accept
 * more (the service's silent parts may differ from the local stand-in).
 */
import type { components, operations } from '../../contract/schema';

type JsonBody<T> = T extends { content: { 'application/json': infer B } } ? B : never;

/** POST /api/v3/convert request (document 4.2): 1 to 20 ids. */
export type ConvertRequest = JsonBody<operations['convertIdentifiers']['requestBody']>;

/**
 * POST /api/v3/convert response: keyed by each input that matched; every matching ASIN first
 * (best-ranked first), then other identifiers (convert.yaml x-decision).
 */
export type ConvertResponse = JsonBody<operations['convertIdentifiers']['responses'][200]>;

/** POST /api/v3/asin-convert request (document 4.2): 1 to 1,000 ASINs. */
export type AsinConvertRequest = JsonBody<operations['convertAsins']['requestBody']>;

/** POST /api/v3/asin-convert response: keyed by ASIN; object of arrays keyed by kind (upc, ean, isbn, ...). */
export type AsinConvertResponse = JsonBody<operations['convertAsins']['responses'][200]>;

/** One refused row of a 422 (document section 7). */
export type ValidationRow = components['schemas']['RowError'];

/** Error body: at least `message` (service-silent-parts.md, Errors); `errors` on a 422. */
export type ErrorBody = Partial<components['schemas']['ValidationError']>;

/**
 * The API's batch ceilings (document section 8). Numbers cannot travel through generated types;
 * test/unit/api/types.test.ts checks them against `maxItems` in convert.yaml.
 */
export const CONVERT_MAX_IDS = 20;
export const ASIN_CONVERT_MAX_ASINS = 1000;
