/** Listing matches (document 2.7, 4.6): list, upsert {identifier, asin, is_match}, delete by identifier + ASIN; paced (bulk.ts). */
import type { PacedArea } from './bulk';

export const LISTING_MATCHES: PacedArea<'/api/v3/listing-matches'> = {
  path: '/api/v3/listing-matches',
  post: 'matches',
  delete: 'matches',
};
