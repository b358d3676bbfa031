/** ASIN blocklist (document 4.6, 8): ASINs the account never wants in scan results. */
import { asin } from '../shared/bulk';
import { defineBulkArea, oneKeyRow } from '../shared/bulk-area';

export const asinBlocklist = defineBulkArea({
  name: 'asin-blocklist',
  table: 'asin_blocklist',
  ops: { list: 'listAsinBlocklist', upsert: 'addAsinBlocklist', remove: 'deleteAsinBlocklist' },
  upsertField: 'asins',
  deleteField: 'asins',
  keys: { asin: 'TEXT' },
  lookup: 'asin',
  upsertRow: oneKeyRow('asin', asin),
  deleteRow: oneKeyRow('asin', asin),
});
