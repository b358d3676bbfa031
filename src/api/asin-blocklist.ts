/** ASIN blocklist (document 4.6): list, add, delete ASINs; paced (bulk.ts). */
import type { PacedArea } from './bulk';

export const ASIN_BLOCKLIST: PacedArea<'/api/v3/asin-blocklist'> = { path: '/api/v3/asin-blocklist', post: 'asins', delete: 'asins' };
