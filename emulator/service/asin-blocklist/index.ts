/** ASIN blocklist (document 4.6, 8): ASINs the account never wants in scan results. */
import { asin, times, type BulkArea } from '../shared/bulk';

export const asinBlocklist: BulkArea = {
  table: 'asin_blocklist',
  ops: { list: 'listAsinBlocklist', upsert: 'addAsinBlocklist', remove: 'deleteAsinBlocklist' },
  upsertField: 'asins',
  deleteField: 'asins',
  keys: ['asin'],
  values: [],
  upsertRow: (raw, i, e) => {
    const a = asin(raw, i, e);
    return a === undefined ? undefined : { asin: a };
  },
  deleteRow: (raw, i, e) => {
    const a = asin(raw, i, e);
    return a === undefined ? undefined : { asin: a };
  },
  filters: ['asin'],
  toJson: (r) => ({ id: r.id, marketplace_id: r.marketplace_id, asin: r.asin, ...times(r) }),
};
