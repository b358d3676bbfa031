/** Listing matches (document 4.6, 7): which ASIN an identifier of the supplier is, or is not. */
import { TEXT_MAX, all, asin, bool, obj, text, times, type BulkArea } from '../shared/bulk';

export const listingMatches: BulkArea = {
  table: 'listing_matches',
  ops: { list: 'listListingMatches', upsert: 'upsertListingMatches', remove: 'deleteListingMatches' },
  upsertField: 'matches',
  deleteField: 'matches',
  keys: ['identifier', 'asin'],
  values: ['is_match'],
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
  filters: ['identifier', 'asin'],
  toJson: (r) => ({
    id: r.id,
    marketplace_id: r.marketplace_id,
    identifier: r.identifier,
    asin: r.asin,
    is_match: r.is_match === 1,
    ...times(r),
  }),
};
