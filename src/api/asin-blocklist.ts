/** ASIN blocklist (document 4.6): list, add, delete; paced (bulk.ts). */
import type { components } from '../../contract/schema';
import { listAllPages, writeRows, type BulkCounts, type PacedContext } from './bulk';

export type BlockedAsin = components['schemas']['BlockedAsin'];
const PATH = '/api/v3/asin-blocklist';

export function listBlockedAsins(ctx: PacedContext, marketplace?: string): BlockedAsin[] {
  return listAllPages<BlockedAsin>(ctx, PATH, { marketplace_id: marketplace });
}
export function addBlockedAsins(ctx: PacedContext, marketplace: string, asins: readonly string[]): BulkCounts {
  return writeRows(ctx, 'post', PATH, marketplace, 'asins', asins);
}
export function deleteBlockedAsins(ctx: PacedContext, marketplace: string, asins: readonly string[]): BulkCounts {
  return writeRows(ctx, 'delete', PATH, marketplace, 'asins', asins);
}
