/** Tables of the ASIN blocklist. Idempotent: run at every start (shared/db.ts). */
export const ASIN_BLOCKLIST_TABLES = `
CREATE TABLE IF NOT EXISTS asin_blocklist (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL,
  marketplace_id INTEGER NOT NULL,
  asin TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (account_id, marketplace_id, asin)
);
CREATE INDEX IF NOT EXISTS asin_blocklist_account ON asin_blocklist (account_id, id);
CREATE INDEX IF NOT EXISTS asin_blocklist_asin ON asin_blocklist (account_id, asin);
`;
