/** Multipack corrections (document 4.6, 8): the real pack quantity of an ASIN. */
import { all, asin, obj, positiveInt } from '../shared/bulk';
import { defineBulkArea, oneKeyRow } from '../shared/bulk-area';

export const multipackCorrections = defineBulkArea({
  name: 'multipack-corrections',
  table: 'multipack_corrections',
  ops: { list: 'listMultipackCorrections', upsert: 'upsertMultipackCorrections', remove: 'deleteMultipackCorrections' },
  upsertField: 'corrections',
  deleteField: 'asins',
  keys: { asin: 'TEXT' },
  values: { quantity: 'INTEGER' },
  lookup: 'asin',
  upsertRow(raw, i, e) {
    const o = obj(raw, i, e);
    if (!o) return undefined;
    const a = asin(o.asin, i, e);
    const q = positiveInt(o.quantity, i, 'quantity', e);
    return all(a, q) ? { asin: a!, quantity: q! } : undefined;
  },
  deleteRow: oneKeyRow('asin', asin),
});
