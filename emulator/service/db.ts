/**
 * The service's database: better-sqlite3 in WAL mode. Schema changes are numbered migrations
 * recorded in `user_version`, so a file database survives restarts and upgrades; the scans'
 * schema (owned by scans/) is idempotent SQL run at every start.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { SCANS_SCHEMA_SQL } from './scans';

const MIGRATIONS: string[] = [
  // 1: accounts, the four bulk areas, tags, notes, webhooks.
  `
  CREATE TABLE accounts (
    id INTEGER PRIMARY KEY,
    api_key TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
  );
  CREATE TABLE listing_matches (
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
  CREATE INDEX listing_matches_account ON listing_matches (account_id, id);
  CREATE INDEX listing_matches_asin ON listing_matches (account_id, asin);
  CREATE TABLE brand_blocklist (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL,
    marketplace_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (account_id, marketplace_id, name)
  );
  CREATE INDEX brand_blocklist_account ON brand_blocklist (account_id, id);
  CREATE INDEX brand_blocklist_name ON brand_blocklist (account_id, name);
  CREATE TABLE asin_blocklist (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL,
    marketplace_id INTEGER NOT NULL,
    asin TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (account_id, marketplace_id, asin)
  );
  CREATE INDEX asin_blocklist_account ON asin_blocklist (account_id, id);
  CREATE INDEX asin_blocklist_asin ON asin_blocklist (account_id, asin);
  CREATE TABLE multipack_corrections (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL,
    marketplace_id INTEGER NOT NULL,
    asin TEXT NOT NULL,
    quantity INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (account_id, marketplace_id, asin)
  );
  CREATE INDEX multipack_corrections_account ON multipack_corrections (account_id, id);
  CREATE INDEX multipack_corrections_asin ON multipack_corrections (account_id, asin);
  CREATE TABLE tags (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL,
    marketplace_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    color TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (account_id, marketplace_id, name)
  );
  CREATE TABLE tag_assignments (
    tag_id INTEGER NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    asin TEXT NOT NULL,
    PRIMARY KEY (tag_id, asin)
  );
  CREATE TABLE notes (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL,
    marketplace_id INTEGER NOT NULL,
    asin TEXT NOT NULL,
    note TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX notes_account ON notes (account_id, marketplace_id, asin);
  CREATE TABLE webhooks (
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
  CREATE INDEX webhooks_account ON webhooks (account_id);
  `,
  // 2: webhook deliveries still due (the outbox), so retries survive a restart.
  `
  CREATE TABLE webhook_outbox (
    id INTEGER PRIMARY KEY,
    webhook_id INTEGER NOT NULL,
    account_id INTEGER NOT NULL,
    scan TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    due_at INTEGER NOT NULL,
    started_at INTEGER
  );
  CREATE INDEX webhook_outbox_due ON webhook_outbox (due_at);
  `,
];

/** Opens (creating if needed) the database and brings its schema up to date. */
export function openDatabase(path: string): Database.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

function migrate(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  for (let i = version; i < MIGRATIONS.length; i++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[i]);
      db.pragma(`user_version = ${i + 1}`);
    })();
  }
  if (SCANS_SCHEMA_SQL.trim()) db.transaction(() => db.exec(SCANS_SCHEMA_SQL))();
}
