/**
 * Tables of scans. Product and error rows are stored as JSON text (what the API answers, so answering
 * needs no re-serialisation); filters and sorts read them with SQLite's json_extract.
 * Times: created_at/updated_at/completed_at/deleted_at hold ISO 8601 with milliseconds and Z (UTC);
 * records format them for answers.
 */
export const SCANS_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS scans (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id INTEGER NOT NULL,
  user_id INTEGER NOT NULL,
  marketplace_id INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('queued','in_progress','success','error','cancelled')),
  source_type TEXT NOT NULL DEFAULT 'Upload',
  name TEXT NOT NULL,
  filename TEXT,
  attributes TEXT NOT NULL,
  lines INTEGER NOT NULL,
  lines_done INTEGER NOT NULL DEFAULT 0,
  products INTEGER NOT NULL DEFAULT 0,
  errors INTEGER NOT NULL DEFAULT 0,
  processing_ms INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  completed_at TEXT,
  deleted_at TEXT
);
CREATE INDEX IF NOT EXISTS scans_account_finished ON scans(account_id, deleted_at, status, id);
CREATE INDEX IF NOT EXISTS scans_pending ON scans(status) WHERE status IN ('queued','in_progress');
CREATE TABLE IF NOT EXISTS scan_inputs (
  scan_id INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  line INTEGER NOT NULL,
  cells TEXT NOT NULL,
  PRIMARY KEY (scan_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS scan_products (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  scan_id INTEGER NOT NULL,
  line INTEGER NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS scan_products_scan ON scan_products(scan_id, id);
CREATE TABLE IF NOT EXISTS scan_errors (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  scan_id INTEGER NOT NULL,
  line INTEGER NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS scan_errors_scan ON scan_errors(scan_id, id);
CREATE TABLE IF NOT EXISTS scan_exports (
  token TEXT PRIMARY KEY,
  scan_id INTEGER NOT NULL,
  account_id INTEGER NOT NULL,
  rows INTEGER NOT NULL,
  workbook BLOB NOT NULL,
  created_at TEXT NOT NULL
);
`;
