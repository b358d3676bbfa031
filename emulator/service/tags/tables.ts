/** Tables of the tags: a tag per account, marketplace and name; its assignments to ASINs. Idempotent: run at every start (shared/db.ts). */
export const TAGS_TABLES = `
CREATE TABLE IF NOT EXISTS tags (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL,
  marketplace_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  color TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (account_id, marketplace_id, name)
);
CREATE TABLE IF NOT EXISTS tag_assignments (
  tag_id INTEGER NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
  asin TEXT NOT NULL,
  PRIMARY KEY (tag_id, asin)
);
`;
