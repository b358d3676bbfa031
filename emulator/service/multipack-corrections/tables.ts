/** Tables of the multipack corrections. Idempotent: run at every start (shared/db.ts). */
export const MULTIPACK_CORRECTIONS_TABLES = `
CREATE TABLE IF NOT EXISTS multipack_corrections (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL,
  marketplace_id INTEGER NOT NULL,
  asin TEXT NOT NULL,
  quantity INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (account_id, marketplace_id, asin)
);
CREATE INDEX IF NOT EXISTS multipack_corrections_account ON multipack_corrections (account_id, id);
CREATE INDEX IF NOT EXISTS multipack_corrections_asin ON multipack_corrections (account_id, asin);
`;
