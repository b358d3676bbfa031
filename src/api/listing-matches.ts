/** Listing matches (document 2.7, 4.6): list, upsert, delete by identifier + ASIN; paced (bulk.ts). */
import type { components } from '../../contract/schema';
import { listAllPages, writeRows, type BulkCounts, type PacedContext } from './bulk';

export type ListingMatch = components['schemas']['ListingMatch'];
export interface MatchRow {
  identifier: string;
  asin: string;
  is_match: boolean;
}
const PATH = '/api/v3/listing-matches';

export function listListingMatches(ctx: PacedContext, marketplace?: string): ListingMatch[] {
  return listAllPages<ListingMatch>(ctx, PATH, { marketplace_id: marketplace });
}
export function upsertListingMatches(ctx: PacedContext, marketplace: string, matches: readonly MatchRow[]): BulkCounts {
  return writeRows(ctx, 'post', PATH, marketplace, 'matches', matches);
}
export function deleteListingMatches(
  ctx: PacedContext,
  marketplace: string,
  matches: ReadonlyArray<{ identifier: string; asin: string }>,
): BulkCounts {
  return writeRows(ctx, 'delete', PATH, marketplace, 'matches', matches);
}
