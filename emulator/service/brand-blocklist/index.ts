/** Brand blocklist (document 4.6, 8): brands the account never wants in scan results. */
import { TEXT_MAX, text } from '../shared/bulk';
import { defineBulkArea, oneKeyRow } from '../shared/bulk-area';

const brand = oneKeyRow('name', (raw, i, e) => text(raw, i, 'brand', e, 1, TEXT_MAX, 'brand'));

export const brandBlocklist = defineBulkArea({
  name: 'brand-blocklist',
  table: 'brand_blocklist',
  ops: { list: 'listBrandBlocklist', upsert: 'addBrandBlocklist', remove: 'deleteBrandBlocklist' },
  upsertField: 'brands',
  deleteField: 'brands',
  keys: { name: 'TEXT' },
  lookup: 'name',
  upsertRow: brand,
  deleteRow: brand,
});
