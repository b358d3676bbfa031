/** Row actions' pure plan: entries per action, skipped rows in words, already-present entries, marks. */
import { checkArgs, planAction, rowAction } from '../../../../src/app/actions/plan';
import { marksOf, notesByAsin, resultColumnsOf, resultRows } from '../../../../src/app/lists/mark-plan';

const row = (n: number, asin: string, brand: string, identifier = '012345678905') => ({ row: n, asin, brand, identifier });

test('block brands: one entry per brand, rows without a brand skipped and counted', () => {
  const rows = [
    row(2, 'B000000001', 'Acme'),
    row(3, 'B000000002', ''),
    row(4, 'B000000003', 'Acme'),
    row(5, 'B000000004', 'Zeta'),
    row(6, 'B000000005', ''),
  ];
  const p = planAction('blockBrands', '', rows, 'US', new Map([['US\tZeta', '']]));
  expect(p.changes).toEqual([{ key: 'US\tAcme', before: null, after: '' }]);
  expect(p.skipped).toEqual(['2 of the 5 selected rows have no brand: skipped', '1 entry is already in the list as asked']);
  expect(p.summary).toBe('Block 1 brand (US): Acme');
});

test('listing matches key on identifier and ASIN; a flip keeps the value before for undo', () => {
  const p = planAction(
    'markNotMatch',
    '',
    [row(2, 'B000000001', 'A'), row(3, 'B000000002', 'A', '')],
    'DE',
    new Map([['DE\t012345678905\tB000000001', 'TRUE']]),
  );
  expect(p.changes).toEqual([{ key: 'DE\t012345678905\tB000000001', before: 'TRUE', after: 'FALSE' }]);
  expect(p.skipped).toEqual(['1 of the 2 selected rows has no identifier: skipped']);
});

test('tags add to the tags an ASIN has; units and ASINs are checked', () => {
  const p = planAction(
    'addTags',
    checkArgs('addTags', 'new, keep'),
    [row(2, 'B000000001', ''), row(3, 'SHORT', '')],
    'US',
    new Map([['US\tB000000001', 'keep, old']]),
  );
  expect(p.changes).toEqual([{ key: 'US\tB000000001', before: 'keep, old', after: 'keep, new, old' }]);
  expect(p.skipped).toEqual(['1 of the 2 selected rows has an ASIN that is not 10 to 25 characters long: skipped']);
  expect(checkArgs('setUnitsPerOrder', ' 6 ')).toBe('6');
  expect(() => checkArgs('setUnitsPerOrder', '0')).toThrow('Units per order must be a whole number, 1 or more (got "0").');
  expect(() => checkArgs('addTags', ' , ')).toThrow('Type one or more tag names, separated by commas.');
  expect(() => rowAction('dropTable')).toThrow(/^Unknown row action "dropTable"/);
});

test('notes are new entries, one per ASIN of the selection; the summary lists five and counts the rest', () => {
  const rows = Array.from({ length: 7 }, (_, i) => row(i + 2, 'B00000000' + i, 'A'));
  const p = planAction('addNote', 'MOQ 12', rows.concat([row(9, 'B000000000', 'A')]), 'US', new Map());
  expect(p.changes.length).toBe(7);
  expect(p.changes[0]).toEqual({ key: 'new:B000000000', before: null, after: 'US\tB000000000\tMOQ 12' });
  expect(p.summary).toBe('Add a note to 7 ASINs (US): B000000000, B000000001, B000000002, B000000003, B000000004 and 2 more');
});

test('result columns by header; the mark columns are the last of their name; marks from the lists', () => {
  const cols = resultColumnsOf(['ASIN', 'Title', 'Identifier', 'Brand', 'List note', 'List tags', 'List note', 'List']);
  expect(cols).toEqual({ asin: 0, brand: 3, identifier: 2, tags: 5, note: 6, mark: 7 });
  const rows = resultRows(cols, [['B000000001', 't', '0099', 'Acme']], 2);
  const facts = {
    tags: new Map([['US\tB000000001', 'a, b']]),
    notes: notesByAsin(
      new Map([
        ['id:1', 'US\tB000000001\tfirst'],
        ['id:2', 'US\tB000000001\tsecond'],
        ['id:3', 'DE\tB000000001\telsewhere'],
      ]),
    ),
    brands: new Set(['US\tAcme']),
    asins: new Set(['DE\tB000000001']),
    matches: new Map([['US\t0099\tB000000001', 'FALSE']]),
  };
  expect(marksOf(rows[0], 'US', facts)).toEqual({ tags: 'a, b', note: 'first\nsecond', mark: 'blocked brand, not a match' });
  expect(marksOf(rows[0], 'DE', facts)).toEqual({ tags: '', note: 'elsewhere', mark: 'blocked ASIN' });
});
