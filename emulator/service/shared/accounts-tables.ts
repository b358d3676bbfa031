/** Accounts: one per configured API key, its id kept by key across restarts (shared/auth.ts). Idempotent: run at every start (shared/db.ts). */
export const ACCOUNTS_TABLES = `
CREATE TABLE IF NOT EXISTS accounts (
  id INTEGER PRIMARY KEY,
  api_key TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL
);
`;
