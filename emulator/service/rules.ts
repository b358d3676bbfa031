// STUB by the lead; the service-core owner implements it over the bulk areas' tables.
import type Database from 'better-sqlite3';
import type { AccountRules } from './engine/types';
/** The account's blocklists, multipack corrections and listing matches for one marketplace. */
export function loadAccountRules(_db: Database.Database, _accountId: number, _marketplaceId: number): AccountRules {
  return { blockedBrands: new Set(), blockedAsins: new Set(), multipackCorrections: new Map(), listingMatches: new Map() };
}
