/** Multipack corrections (document 4.6, 8): the real pack quantity of an ASIN. */
import { all, asin, obj, positiveInt, times, type BulkArea } from '../shared/bulk';

export const multipackCorrections: BulkArea = {
  table: 'multipack_corrections',
  ops: { list: 'listMultipackCorrections', upsert: 'upsertMultipackCorrections', remove: 'deleteMultipackCorrections' },
  upsertField: 'corrections',
  deleteField: 'asins',
  keys: ['asin'],
  values: ['quantity'],
  upsertRow(raw, i, e) {
    const o = obj(raw, i, e);
    if (!o) return undefined;
    const a = asin(o.asin, i, e);
    const q = positiveInt(o.quantity, i, 'quantity', e);
    return all(a, q) ? { asin: a!, quantity: q! } : undefined;
  },
  deleteRow: (raw, i, e) => {
    const a = asin(raw, i, e);
    return a === undefined ? undefined : { asin: a };
  },
  filters: ['asin'],
  toJson: (r) => ({ id: r.id, marketplace_id: r.marketplace_id, asin: r.asin, quantity: r.quantity, ...times(r) }),
};
