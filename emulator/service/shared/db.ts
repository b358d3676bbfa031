/**
 * The service's database: better-sqlite3 in WAL mode. Each area owns its tables (its `tables.ts`,
 * registered in areas.ts); their SQL is idempotent (IF NOT EXISTS) and runs at every start, in one
 * transaction, so a file database survives restarts and gains the tables of new areas.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** Opens (creating if needed) the database and creates what is missing of the given tables. */
export function openDatabase(path: string, tables: string[]): Database.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.transaction(() => {
    for (const sql of tables) if (sql.trim()) db.exec(sql);
  })();
  return db;
}
