/** Tables of the notes. Idempotent: run at every start (shared/db.ts). */
export const NOTES_TABLES = `
CREATE TABLE IF NOT EXISTS notes (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL,
  marketplace_id INTEGER NOT NULL,
  asin TEXT NOT NULL,
  note TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS notes_account ON notes (account_id, marketplace_id, asin);
`;
