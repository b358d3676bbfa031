/** Brand blocklist (document 4.6): list, add, delete brand names; paced (bulk.ts). */
import type { PacedArea } from './bulk';

export const BRAND_BLOCKLIST: PacedArea<'/api/v3/brand-blocklist'> = { path: '/api/v3/brand-blocklist', post: 'brands', delete: 'brands' };
