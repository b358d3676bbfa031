/** Multipack corrections (document 2.8, 4.6): list, upsert {asin, quantity}, delete by ASIN; paced (bulk.ts). */
import type { PacedArea } from './bulk';

export const MULTIPACK_CORRECTIONS: PacedArea<'/api/v3/multipack-corrections'> = {
  path: '/api/v3/multipack-corrections',
  post: 'corrections',
  delete: 'asins',
};
