/**
 * The stored-record helper (src/store/records.ts): every checkpoint and record of the add-on is read
 * and written through it. Apps Script's limit it enforces: 9 KB per property value
 * (developers.google.com/apps-script/guides/services/quotas, "Properties value size").
 */
import { record, scanMapOf } from '../../../src/store/records';
import { PROPERTY_VALUE_MAX_BYTES } from '../../../src/store/keys';

/** A property store in memory, counting writes. */
function store(init: Record<string, string> = {}) {
  const m = new Map(Object.entries(init));
  const writes: string[] = [];
  return {
    m,
    writes,
    getProperty: (k: string) => (m.has(k) ? m.get(k)! : null),
    setProperty: (k: string, v: string) => {
      writes.push(k);
      m.set(k, v);
    },
    deleteProperty: (k: string) => {
      m.delete(k);
    },
  };
}

interface Point {
  x: number;
  label: string;
}
const pointOf = (v: unknown): Point | null => {
  const r = v as Point | null;
  return r && typeof r.x === 'number' && typeof r.label === 'string' ? { x: r.x, label: r.label } : null;
};
const POINT = record<Point, [number]>((id) => `test.point.${id}`, { decode: pointOf });

test('a record written is read back under its key, and removed', () => {
  const s = store();
  POINT.put(s, { x: 3, label: 'three' }, 7);
  expect(s.m.get('test.point.7')).toBe('{"x":3,"label":"three"}');
  expect(POINT.get(s, 7)).toEqual({ x: 3, label: 'three' });
  expect(POINT.get(s, 8)).toBeNull();
  POINT.remove(s, 7);
  expect(s.m.has('test.point.7')).toBe(false);
  expect(POINT.get(s, 7)).toBeNull();
});

test('corrupt JSON, a foreign shape and JSON null read as null, never a throw', () => {
  const s = store({
    'test.point.1': '{"x":3,',
    'test.point.2': '{"y":1}',
    'test.point.3': 'null',
    'test.point.4': '',
    'test.point.5': '[1,2]',
  });
  for (const id of [1, 2, 3, 4, 5]) expect(POINT.get(s, id)).toBeNull();
  expect(POINT.parse('not json at all')).toBeNull();
  expect(POINT.parse(undefined)).toBeNull();
  expect(POINT.parse('{"x":1,"label":"a"}')).toEqual({ x: 1, label: 'a' });
});

test('a record over its cap is refused before the store is asked, with a message naming the key and the sizes', () => {
  const s = store();
  const big = { x: 1, label: 'é'.repeat(PROPERTY_VALUE_MAX_BYTES / 2) }; // 2 bytes each in UTF-8: over 9 KB
  expect(() => POINT.put(s, big, 9)).toThrow(
    /^Not saved: the record test\.point\.9 takes \d+ bytes, over the 9216 a stored value may hold\.$/,
  );
  expect(s.writes).toEqual([]);
  // Measured in UTF-8 bytes, not characters: the same length in ASCII fits.
  POINT.put(s, { x: 1, label: 'e'.repeat(PROPERTY_VALUE_MAX_BYTES / 2) }, 9);
  expect(s.writes).toEqual(['test.point.9']);
});

test('a smaller cap and an own encode are kept', () => {
  const small = record<Point>('test.small', { decode: pointOf, encode: (p) => `{"x":${p.x},"label":"${p.label}"}`, cap: 20 });
  const s = store();
  small.put(s, { x: 1, label: 'ok' });
  expect(small.get(s)).toEqual({ x: 1, label: 'ok' });
  expect(() => small.put(s, { x: 1, label: 'far too long' })).toThrow(
    'Not saved: the record test.small takes 30 bytes, over the 20 a stored value may hold.',
  );
  expect(small.get(s)).toEqual({ x: 1, label: 'ok' });
});

test('a per-scan map record keeps the entries that read and drops the rest', () => {
  const MAP = record<{ [scanId: string]: string }>('test.map', {
    decode: (v) => scanMapOf(v, (r) => (typeof r.u === 'string' ? r.u : undefined)),
  });
  expect(MAP.parse('{"1":{"u":"a"},"x":{"u":"b"},"2":{"u":3},"3":null,"4":{"u":"d"}}')).toEqual({ 1: 'a', 4: 'd' });
  expect(MAP.parse('[{"u":"a"}]')).toEqual({});
  expect(MAP.parse('{"1":')).toBeNull();
  expect(MAP.parse(null)).toBeNull();
});
