/** Multipack corrections (document 2.8, 4.6): list, upsert {asin, quantity}, delete by ASIN; paced (bulk.ts). */
import type { components } from '../../contract/schema';
import { listAllPages, writeRows, type BulkCounts, type PacedContext } from './bulk';

export type MultipackCorrection = components['schemas']['MultipackCorrection'];
const PATH = '/api/v3/multipack-corrections';

export function listCorrections(ctx: PacedContext, marketplace?: string): MultipackCorrection[] {
  return listAllPages<MultipackCorrection>(ctx, PATH, { marketplace_id: marketplace });
}
export function upsertCorrections(
  ctx: PacedContext,
  marketplace: string,
  corrections: ReadonlyArray<{ asin: string; quantity: number }>,
): BulkCounts {
  return writeRows(ctx, 'post', PATH, marketplace, 'corrections', corrections);
}
export function deleteCorrections(ctx: PacedContext, marketplace: string, asins: readonly string[]): BulkCounts {
  return writeRows(ctx, 'delete', PATH, marketplace, 'asins', asins);
}
