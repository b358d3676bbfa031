/** Tables of the brand blocklist. Idempotent: run at every start (shared/db.ts). */
export const BRAND_BLOCKLIST_TABLES = `
CREATE TABLE IF NOT EXISTS brand_blocklist (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL,
  marketplace_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (account_id, marketplace_id, name)
);
CREATE INDEX IF NOT EXISTS brand_blocklist_account ON brand_blocklist (account_id, id);
CREATE INDEX IF NOT EXISTS brand_blocklist_name ON brand_blocklist (account_id, name);
`;
