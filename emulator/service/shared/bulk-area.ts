/**
 * How a bulk area is defined (shared/bulk.ts has the rules they share): its folder names its table's
 * columns and its row checks; its table (idempotent SQL) and its rows' JSON are made from the
 * columns here, so each area says only what is its own.
 */
import type { RowError } from './errors';
import { times, type BulkArea, type Row } from './bulk';

type RowCheck = (raw: unknown, index: number, errors: RowError[]) => Row | undefined;
type SqlType = 'TEXT' | 'INTEGER';

export interface BulkAreaSpec {
  /** Its folder. */
  name: string;
  table: string;
  ops: BulkArea['ops'];
  upsertField: string;
  deleteField: string;
  /** Columns that identify an entry (with account and marketplace), in order; a list filters exactly by each. */
  keys: Record<string, SqlType>;
  /** Columns whose change makes an upsert an update. */
  values?: Record<string, SqlType>;
  /** The column indexed for lookups over all marketplaces of an account. */
  lookup: string;
  upsertRow: RowCheck;
  deleteRow: RowCheck;
  /** A column's JSON value when it is not the stored one (SQLite has no booleans). */
  json?: Record<string, (stored: unknown) => unknown>;
}

/** A bulk area with its table and JSON made from its columns. */
export function defineBulkArea(spec: BulkAreaSpec): BulkArea {
  const { name, table, ops, upsertField, deleteField, upsertRow, deleteRow, lookup, json = {} } = spec;
  const keys = Object.keys(spec.keys);
  const values = Object.keys(spec.values ?? {});
  const columns = { ...spec.keys, ...spec.values };
  const columnDefs = Object.entries(columns)
    .map(([column, type]) => `\n  ${column} ${type} NOT NULL,`)
    .join('');
  const tables = `
CREATE TABLE IF NOT EXISTS ${table} (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL,
  marketplace_id INTEGER NOT NULL,${columnDefs}
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (account_id, marketplace_id, ${keys.join(', ')})
);
CREATE INDEX IF NOT EXISTS ${table}_account ON ${table} (account_id, id);
CREATE INDEX IF NOT EXISTS ${table}_${lookup} ON ${table} (account_id, ${lookup});
`;
  const toJson = (r: any) => {
    const out: Record<string, unknown> = { id: r.id, marketplace_id: r.marketplace_id };
    for (const c of Object.keys(columns)) out[c] = json[c] ? json[c](r[c]) : r[c];
    return { ...out, ...times(r) };
  };
  return { name, tables, table, ops, upsertField, deleteField, keys, values, upsertRow, deleteRow, toJson };
}

/** The check of a row that is one key column given as a bare string (a blocklist entry, a correction to delete). */
export const oneKeyRow =
  (column: string, check: (raw: unknown, index: number, errors: RowError[]) => string | undefined): RowCheck =>
  (raw, i, e) => {
    const v = check(raw, i, e);
    return v === undefined ? undefined : { [column]: v };
  };
