/** Listing matches (document 4.6, 7): which ASIN an identifier of the supplier is, or is not. */
import { TEXT_MAX, all, asin, bool, obj, text } from '../shared/bulk';
import { defineBulkArea } from '../shared/bulk-area';

export const listingMatches = defineBulkArea({
  name: 'listing-matches',
  table: 'listing_matches',
  ops: { list: 'listListingMatches', upsert: 'upsertListingMatches', remove: 'deleteListingMatches' },
  upsertField: 'matches',
  deleteField: 'matches',
  keys: { identifier: 'TEXT', asin: 'TEXT' },
  values: { is_match: 'INTEGER' },
  lookup: 'asin',
  upsertRow(raw, i, e) {
    const o = obj(raw, i, e);
    if (!o) return undefined;
    const identifier = text(o.identifier, i, 'identifier', e, 1, TEXT_MAX, 'identifier');
    const a = asin(o.asin, i, e);
    const isMatch = bool(o.is_match, i, 'is_match', e);
    return all(identifier, a, isMatch) ? { identifier: identifier!, asin: a!, is_match: isMatch ? 1 : 0 } : undefined;
  },
  deleteRow(raw, i, e) {
    const o = obj(raw, i, e);
    if (!o) return undefined;
    const identifier = text(o.identifier, i, 'identifier', e, 1, TEXT_MAX, 'identifier');
    const a = asin(o.asin, i, e);
    return all(identifier, a) ? { identifier: identifier!, asin: a! } : undefined;
  },
  json: { is_match: (stored) => stored === 1 },
});
