import { shownText, listKind, readRows, tagNames } from '../../../../src/app/lists/kinds';
import { matchColumns } from '../../../../src/app/lists/sheet';
import { decodeBase, encodeBase, BASE_CHUNK_CHARS } from '../../../../src/store/lists';

const rows = (list: Array<Record<string, unknown>>) => list.map((cells, i) => ({ row: i + 2, cells }));

test('headers are matched without case, spaces or underscores, in any order; missing required ones are named', () => {
  const k = listKind('matches');
  expect(matchColumns(k, ['is_match', ' ASIN ', 'notes', 'Supplier Identifier'])).toEqual({
    columns: { match: 0, asin: 1, identifier: 3 },
    missing: [],
  });
  expect(matchColumns(k, ['ASIN', 'Match']).missing).toEqual(['Identifier']);
});

test('rows become canonical entries: tags sorted, units whole, match TRUE/FALSE, default marketplace', () => {
  expect(readRows(listKind('tags'), rows([{ asin: 'B000000001', tags: ' keep,check, keep ' }]), 'DE').entries).toEqual(
    new Map([['DE\tB000000001', 'check, keep']]),
  );
  expect(readRows(listKind('multipack'), rows([{ marketplace: 'gb', asin: 'B000000001', units: '3' }]), 'US').entries).toEqual(
    new Map([['UK\tB000000001', '3']]),
  );
  // a UPC typed as a number gets back the zero its check digit proves; text is taken as typed
  expect(readRows(listKind('matches'), rows([{ identifier: 12345678905, asin: 'B000000001', match: 'no' }]), 'US').entries).toEqual(
    new Map([['US\t012345678905\tB000000001', 'FALSE']]),
  );
  expect(readRows(listKind('matches'), rows([{ identifier: 'SKU-7', asin: 'B000000001', match: true }]), 'US').entries).toEqual(
    new Map([['US\tSKU-7\tB000000001', 'TRUE']]),
  );
  expect(tagNames('b, a,, b')).toEqual(['a', 'b']);
  expect(shownText(1e15)).toBe('1000000000000000');
});

test('refusals name the row; a refused key is held; the same key twice with different values is refused on both rows', () => {
  const r = readRows(
    listKind('multipack'),
    rows([
      { asin: 'B000000001', units: 2 },
      { asin: 'B000000001', units: 3 },
      { asin: 'B000000002', units: -1 },
      { asin: '', units: 2 },
      {},
    ]),
    'US',
  );
  expect(r.refused).toEqual([
    { row: 2, reason: 'the same entry is on several rows with different values' },
    { row: 3, reason: 'the same entry is on several rows with different values' },
    { row: 4, reason: 'Units must be a whole number, 1 or more (got "-1")' },
    { row: 5, reason: 'empty ASIN' },
  ]);
  expect(Array.from(r.held).sort()).toEqual(['US\tB000000001', 'US\tB000000002']);
  expect(r.entries.size).toBe(0);
});

test('the base round-trips through cells under the cell limit; a damaged base reads as none', () => {
  const base = new Map(Array.from({ length: 5000 }, (_, i) => [`US\tBrand "${i}" =x`, i % 2 ? 'TRUE' : '']));
  const cells = encodeBase(base);
  expect(cells.every((c) => c.length <= BASE_CHUNK_CHARS)).toBe(true);
  expect(cells.length).toBeGreaterThan(1);
  expect(decodeBase(cells)).toEqual(base);
  expect(decodeBase(['[["a"'])).toBeNull();
});
