/** Tables of the webhooks, and the outbox of deliveries still due (webhooks/notify.ts). Idempotent: run at every start (shared/db.ts). */
export const WEBHOOKS_TABLES = `
CREATE TABLE IF NOT EXISTS webhooks (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL,
  user_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  url TEXT NOT NULL,
  secret TEXT NOT NULL,
  events TEXT NOT NULL,
  is_active INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS webhooks_account ON webhooks (account_id);
CREATE TABLE IF NOT EXISTS webhook_outbox (
  id INTEGER PRIMARY KEY,
  webhook_id INTEGER NOT NULL,
  account_id INTEGER NOT NULL,
  scan TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  due_at INTEGER NOT NULL,
  started_at INTEGER
);
CREATE INDEX IF NOT EXISTS webhook_outbox_due ON webhook_outbox (due_at);
`;
