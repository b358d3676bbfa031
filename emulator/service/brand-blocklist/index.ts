/** Brand blocklist (document 4.6, 8): brands the account never wants in scan results. */
import { TEXT_MAX, text, times, type BulkArea } from '../shared/bulk';

export const brandBlocklist: BulkArea = {
  table: 'brand_blocklist',
  ops: { list: 'listBrandBlocklist', upsert: 'addBrandBlocklist', remove: 'deleteBrandBlocklist' },
  upsertField: 'brands',
  deleteField: 'brands',
  keys: ['name'],
  values: [],
  upsertRow: (raw, i, e) => {
    const name = text(raw, i, 'brand', e, 1, TEXT_MAX, 'brand');
    return name === undefined ? undefined : { name };
  },
  deleteRow: (raw, i, e) => {
    const name = text(raw, i, 'brand', e, 1, TEXT_MAX, 'brand');
    return name === undefined ? undefined : { name };
  },
  filters: ['name'],
  toJson: (r) => ({ id: r.id, marketplace_id: r.marketplace_id, name: r.name, ...times(r) }),
};
