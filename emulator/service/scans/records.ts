/** A stored scan as the API answers it (the `Scan` schema of scans.yaml). */
import { findMarketplace } from '../../../contract/marketplaces';
import { localIsoTime, zuluTime } from '../shared/time';

export type ScanStatus = 'queued' | 'in_progress' | 'success' | 'error' | 'cancelled';
export const FINISHED: readonly ScanStatus[] = ['success', 'error', 'cancelled'];

export interface ScanRow {
  id: number;
  account_id: number;
  user_id: number;
  marketplace_id: number;
  status: ScanStatus;
  source_type: string;
  name: string;
  filename: string | null;
  attributes: string;
  lines: number;
  lines_done: number;
  products: number;
  errors: number;
  processing_ms: number;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  deleted_at: string | null;
}

/**
 * Products per minute of processing time (the contract's "Products per minute"): product rows
 * produced so far, over the time spent processing lines. Lines that gave no product (errors,
 * blocked) take time but add nothing; a line on several ASINs adds several.
 */
export function speedOf(row: Pick<ScanRow, 'products' | 'processing_ms'>): number {
  return row.processing_ms > 0 ? Math.round((row.products * 60000) / row.processing_ms) : 0;
}

export function scanRecord(row: ScanRow) {
  const attrs = JSON.parse(row.attributes);
  return {
    id: row.id,
    user_id: row.user_id,
    account_id: row.account_id,
    marketplace: findMarketplace(row.marketplace_id)?.code ?? String(row.marketplace_id),
    marketplace_id: row.marketplace_id,
    status: row.status,
    source_type: row.source_type,
    name: row.name,
    products: row.products,
    errors: row.errors,
    speed: speedOf(row),
    lines: row.lines,
    lines_done: row.lines_done,
    filename: row.filename,
    options: attrs.options,
    mapping: attrs.mapping,
    created_at: localIsoTime(new Date(row.created_at)),
    updated_at: localIsoTime(new Date(row.updated_at)),
    completed_at: row.completed_at ? zuluTime(new Date(row.completed_at)) : null,
    deleted_at: row.deleted_at ? localIsoTime(new Date(row.deleted_at)) : null,
  };
}
