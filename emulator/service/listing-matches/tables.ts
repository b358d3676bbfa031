/** Tables of the listing matches. Idempotent: run at every start (shared/db.ts). */
export const LISTING_MATCHES_TABLES = `
CREATE TABLE IF NOT EXISTS listing_matches (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL,
  marketplace_id INTEGER NOT NULL,
  identifier TEXT NOT NULL,
  asin TEXT NOT NULL,
  is_match INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (account_id, marketplace_id, identifier, asin)
);
CREATE INDEX IF NOT EXISTS listing_matches_account ON listing_matches (account_id, id);
CREATE INDEX IF NOT EXISTS listing_matches_asin ON listing_matches (account_id, asin);
`;
