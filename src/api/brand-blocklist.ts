/** Brand blocklist (document 4.6): list, add, delete; paced (bulk.ts). */
import type { components } from '../../contract/schema';
import { listAllPages, writeRows, type BulkCounts, type PacedContext } from './bulk';

export type BlockedBrand = components['schemas']['BlockedBrand'];
const PATH = '/api/v3/brand-blocklist';

/** Every blocked brand (of one marketplace when given). */
export function listBrands(ctx: PacedContext, marketplace?: string): BlockedBrand[] {
  return listAllPages<BlockedBrand>(ctx, PATH, { marketplace_id: marketplace });
}
export function addBrands(ctx: PacedContext, marketplace: string, brands: readonly string[]): BulkCounts {
  return writeRows(ctx, 'post', PATH, marketplace, 'brands', brands);
}
export function deleteBrands(ctx: PacedContext, marketplace: string, brands: readonly string[]): BulkCounts {
  return writeRows(ctx, 'delete', PATH, marketplace, 'brands', brands);
}
