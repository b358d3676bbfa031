/**
 * The account's own data that changes scan results (document 4.6), read for one marketplace:
 * blocked brands and ASINs, multipack corrections, listing matches. Used by scans/.
 */
import type Database from 'better-sqlite3';
import type { AccountRules } from '../engine/types';

/** The account's blocklists, multipack corrections and listing matches for one marketplace. */
export function loadAccountRules(db: Database.Database, accountId: number, marketplaceId: number): AccountRules {
  const args = [accountId, marketplaceId];
  const where = 'WHERE account_id = ? AND marketplace_id = ?';
  const brands = db
    .prepare(`SELECT name FROM brand_blocklist ${where}`)
    .pluck()
    .all(...args) as string[];
  const asins = db
    .prepare(`SELECT asin FROM asin_blocklist ${where}`)
    .pluck()
    .all(...args) as string[];
  const corrections = db.prepare(`SELECT asin, quantity FROM multipack_corrections ${where}`).all(...args) as Array<{
    asin: string;
    quantity: number;
  }>;
  const matches = db.prepare(`SELECT identifier, asin, is_match FROM listing_matches ${where}`).all(...args) as Array<{
    identifier: string;
    asin: string;
    is_match: number;
  }>;
  return {
    blockedBrands: new Set(brands),
    blockedAsins: new Set(asins),
    multipackCorrections: new Map(corrections.map((c) => [c.asin, c.quantity])),
    listingMatches: new Map(matches.map((m) => [`${m.identifier}\u0000${m.asin}`, m.is_match === 1])),
  };
}
