/** Reading and finishing stored scans, shared by the handlers and the background processor. */
import type { Account, ServiceContext } from '../context';
import { ApiError } from '../shared/errors';
import { notifyScanComplete } from '../webhooks/notify';
import { localIsoTime, zuluTime } from '../shared/time';
import { FINISHED, speedOf, type ScanRow, type ScanStatus } from './records';

/** The account's scan, or 404 (another account's scan is indistinguishable from a missing one). */
export function loadScan(ctx: ServiceContext, account: Account, id: number): ScanRow {
  const row = ctx.db.prepare('SELECT * FROM scans WHERE id = ? AND account_id = ? AND deleted_at IS NULL').get(id, account.id) as
    | ScanRow
    | undefined;
  if (!row) throw new ApiError(404, `Scan ${id} not found.`);
  return row;
}

export function getScanRow(ctx: ServiceContext, id: number): ScanRow | undefined {
  return ctx.db.prepare('SELECT * FROM scans WHERE id = ?').get(id) as ScanRow | undefined;
}

export const isFinished = (s: ScanStatus) => FINISHED.includes(s);

/**
 * Marks a queued or running scan finished, drops its pending input lines, and queues the
 * scan.complete webhooks once the change is committed. Returns the finished row.
 */
export function finishScan(ctx: ServiceContext, id: number, status: 'success' | 'error' | 'cancelled', extraMs = 0): ScanRow {
  const now = ctx.now().toISOString();
  const row = ctx.db.transaction(() => {
    ctx.db
      .prepare(
        "UPDATE scans SET status = ?, completed_at = ?, updated_at = ?, processing_ms = processing_ms + ? WHERE id = ? AND status IN ('queued','in_progress')",
      )
      .run(status, now, now, Math.round(extraMs), id);
    ctx.db.prepare('DELETE FROM scan_inputs WHERE scan_id = ?').run(id);
    return getScanRow(ctx, id)!;
  })();
  notifyScanComplete(ctx, row.account_id, {
    id: row.id,
    name: row.name,
    status,
    marketplace_id: row.marketplace_id,
    products: row.products,
    errors: row.errors,
    speed: speedOf(row),
    lines: row.lines,
    created_at: localIsoTime(new Date(row.created_at)),
    completed_at: zuluTime(new Date(row.completed_at!)),
  });
  return row;
}
