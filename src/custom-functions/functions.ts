/**
 * The identifier custom functions Sheets sees. Each is a thin entry point: it binds the Apps Script
 * services (gas.ts) and delegates to engine.ts. The build copies this JSDoc onto the top-level
 * declarations, so Sheets' autocomplete shows it: keep every @param and the @customfunction tag.
 * Exported from src/main.ts to become top-level functions.
 */
import { asinFromIds, identifiersFromAsins, idsFromAsins, type FormulaOutput } from './engine';
import { gasFormulaDeps } from './deps';

/**
 * Finds the ASIN of each UPC (a single cell or a whole range; the result has the same shape).
 * Blank cells stay blank; an unmatched UPC shows "not found"; a value that cannot be a UPC says why.
 * UPCs that lost their leading zeros (typed as numbers) are restored. Results are cached for 6 hours.
 *
 * @param {string|number|Array<Array<string|number>>} ids The UPCs: one cell or a range, e.g. A2:A.
 * @param {string} marketplace [optional] Marketplace code such as "US", "UK", "DE". Default: the default marketplace of the spreadsheet owner's Settings.
 * @param {string} matches [optional] When a UPC is on several ASINs: "first" (default) shows the first, "all" joins them with ", " in one cell, "spill" puts them in the next columns.
 * @return The ASIN of each UPC, in the shape of the input.
 * @customfunction
 */
export function ASIN_FROM_UPC(ids: unknown, marketplace?: unknown, matches?: unknown): FormulaOutput {
  return asinFromIds('UPC', ids, marketplace, matches, gasFormulaDeps());
}

/**
 * Finds the ASIN of each EAN (a single cell or a whole range; the result has the same shape).
 * Blank cells stay blank; an unmatched EAN shows "not found"; a value that cannot be an EAN says why.
 * EANs that lost their leading zeros (typed as numbers) are restored. Results are cached for 6 hours.
 *
 * @param {string|number|Array<Array<string|number>>} ids The EANs: one cell or a range, e.g. A2:A.
 * @param {string} marketplace [optional] Marketplace code such as "US", "UK", "DE". Default: the default marketplace of the spreadsheet owner's Settings.
 * @param {string} matches [optional] When an EAN is on several ASINs: "first" (default) shows the first, "all" joins them with ", " in one cell, "spill" puts them in the next columns.
 * @return The ASIN of each EAN, in the shape of the input.
 * @customfunction
 */
export function ASIN_FROM_EAN(ids: unknown, marketplace?: unknown, matches?: unknown): FormulaOutput {
  return asinFromIds('EAN', ids, marketplace, matches, gasFormulaDeps());
}

/**
 * Finds the ASIN of each ISBN (ISBN-10 or ISBN-13; a single cell or a whole range; the result has the same shape).
 * Blank cells stay blank; an unmatched ISBN shows "not found"; a value that cannot be an ISBN says why.
 * Results are cached for 6 hours.
 *
 * @param {string|number|Array<Array<string|number>>} ids The ISBNs: one cell or a range, e.g. A2:A; hyphens are fine.
 * @param {string} marketplace [optional] Marketplace code such as "US", "UK", "DE". Default: the default marketplace of the spreadsheet owner's Settings.
 * @param {string} matches [optional] When an ISBN is on several ASINs: "first" (default) shows the first, "all" joins them with ", " in one cell, "spill" puts them in the next columns.
 * @return The ASIN of each ISBN, in the shape of the input.
 * @customfunction
 */
export function ASIN_FROM_ISBN(ids: unknown, marketplace?: unknown, matches?: unknown): FormulaOutput {
  return asinFromIds('ISBN', ids, marketplace, matches, gasFormulaDeps());
}

/**
 * Finds the UPC of each ASIN (a single cell or a whole range; the result has the same shape).
 * Blank cells stay blank; an ASIN without a UPC shows "not found"; a value that cannot be an ASIN says why.
 * Results are cached for 6 hours.
 *
 * @param {string|Array<Array<string>>} asins The ASINs: one cell or a range, e.g. A2:A.
 * @param {string} marketplace [optional] Marketplace code such as "US", "UK", "DE". Default: the default marketplace of the spreadsheet owner's Settings.
 * @param {string} matches [optional] When an ASIN has several UPCs: "first" (default) shows the first, "all" joins them with ", " in one cell, "spill" puts them in the next columns.
 * @return The UPC of each ASIN, in the shape of the input.
 * @customfunction
 */
export function UPC_FROM_ASIN(asins: unknown, marketplace?: unknown, matches?: unknown): FormulaOutput {
  return idsFromAsins('UPC', asins, marketplace, matches, gasFormulaDeps());
}

/**
 * Finds the EAN of each ASIN (a single cell or a whole range; the result has the same shape).
 * Blank cells stay blank; an ASIN without an EAN shows "not found"; a value that cannot be an ASIN says why.
 * Results are cached for 6 hours.
 *
 * @param {string|Array<Array<string>>} asins The ASINs: one cell or a range, e.g. A2:A.
 * @param {string} marketplace [optional] Marketplace code such as "US", "UK", "DE". Default: the default marketplace of the spreadsheet owner's Settings.
 * @param {string} matches [optional] When an ASIN has several EANs: "first" (default) shows the first, "all" joins them with ", " in one cell, "spill" puts them in the next columns.
 * @return The EAN of each ASIN, in the shape of the input.
 * @customfunction
 */
export function EAN_FROM_ASIN(asins: unknown, marketplace?: unknown, matches?: unknown): FormulaOutput {
  return idsFromAsins('EAN', asins, marketplace, matches, gasFormulaDeps());
}

/**
 * Finds the ISBN of each ASIN (a single cell or a whole range; the result has the same shape).
 * Blank cells stay blank; an ASIN without an ISBN shows "not found"; a value that cannot be an ASIN says why.
 * Results are cached for 6 hours.
 *
 * @param {string|Array<Array<string>>} asins The ASINs: one cell or a range, e.g. A2:A.
 * @param {string} marketplace [optional] Marketplace code such as "US", "UK", "DE". Default: the default marketplace of the spreadsheet owner's Settings.
 * @param {string} matches [optional] When an ASIN has several ISBNs: "first" (default) shows the first, "all" joins them with ", " in one cell, "spill" puts them in the next columns.
 * @return The ISBN of each ASIN, in the shape of the input.
 * @customfunction
 */
export function ISBN_FROM_ASIN(asins: unknown, marketplace?: unknown, matches?: unknown): FormulaOutput {
  return idsFromAsins('ISBN', asins, marketplace, matches, gasFormulaDeps());
}

/**
 * Finds the GTIN (14 digits) of each ASIN (a single cell or a whole range; the result has the same shape).
 * Where the service lists no GTIN, the ASIN's UPC or EAN is written as a GTIN-14. Blank cells stay blank;
 * an ASIN without one shows "not found"; a value that cannot be an ASIN says why. Results are cached for 6 hours.
 *
 * @param {string|Array<Array<string>>} asins The ASINs: one cell or a range, e.g. A2:A.
 * @param {string} marketplace [optional] Marketplace code such as "US", "UK", "DE". Default: the default marketplace of the spreadsheet owner's Settings.
 * @param {string} matches [optional] When an ASIN has several GTINs: "first" (default) shows the first, "all" joins them with ", " in one cell, "spill" puts them in the next columns.
 * @return The GTIN of each ASIN, in the shape of the input.
 * @customfunction
 */
export function GTIN_FROM_ASIN(asins: unknown, marketplace?: unknown, matches?: unknown): FormulaOutput {
  return idsFromAsins('GTIN', asins, marketplace, matches, gasFormulaDeps());
}

/**
 * Finds the JAN (Japanese EAN, prefix 45 or 49) of each ASIN (a single cell or a whole range; the result has the same shape).
 * Blank cells stay blank; an ASIN without a JAN shows "not found"; a value that cannot be an ASIN says why.
 * Results are cached for 6 hours.
 *
 * @param {string|Array<Array<string>>} asins The ASINs: one cell or a range, e.g. A2:A.
 * @param {string} marketplace [optional] Marketplace code such as "JP", "US", "DE". Default: the default marketplace of the spreadsheet owner's Settings.
 * @param {string} matches [optional] When an ASIN has several JANs: "first" (default) shows the first, "all" joins them with ", " in one cell, "spill" puts them in the next columns.
 * @return The JAN of each ASIN, in the shape of the input.
 * @customfunction
 */
export function JAN_FROM_ASIN(asins: unknown, marketplace?: unknown, matches?: unknown): FormulaOutput {
  return idsFromAsins('JAN', asins, marketplace, matches, gasFormulaDeps());
}

/**
 * Lists the identifiers of each ASIN: a header row (UPC, EAN, ISBN, GTIN, JAN), then one row per ASIN
 * with one column per kind; several of a kind are joined with ", ". Blank cells give a blank row;
 * an ASIN with none shows "not found". Results are cached for 6 hours.
 *
 * @param {string|Array<Array<string>>} asins The ASINs: one cell or one column, e.g. A2:A.
 * @param {string} marketplace [optional] Marketplace code such as "US", "UK", "DE". Default: the default marketplace of the spreadsheet owner's Settings.
 * @return A header row, then the UPC, EAN, ISBN, GTIN and JAN of each ASIN.
 * @customfunction
 */
export function IDENTIFIERS_FROM_ASIN(asins: unknown, marketplace?: unknown): string[][] {
  return identifiersFromAsins(asins, marketplace, gasFormulaDeps());
}
