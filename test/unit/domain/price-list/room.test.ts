/** The room estimate before sending (src/domain/price-list/room.ts) and the columns an import leaves out (src/domain/result-tabs/result-columns.ts). */
import { checkRoom, fullMessage, neededCells, PRODUCTS_PER_LINE } from '../../../../src/domain/price-list/room';
import { omittedColumns, resultColumns, uploadColumns } from '../../../../src/domain/result-tabs/result-columns';

describe('room before sending', () => {
  test('all columns chosen (issue 36): the message names what the essential columns would save; not offered otherwise', () => {
    const base = { lines: 1000, columns: 78, notSent: 0, limit: 50_000, used: 0, resultTabs: [] };
    const all = checkRoom({ ...base, beyondEssential: 18 });
    expect(all.fits).toBe(false);
    expect(all.message).toContain(
      "• The essential columns instead of all of them (New scan's Columns): 18 fewer columns, about 20,178 cells less.",
    );
    expect(checkRoom(base).message).not.toContain('essential columns');
    // The upload's columns count the choice: 'all' adds the documented fields.
    const mapping = { id: 0, cost: 1 };
    expect(uploadColumns([], false, mapping, {}, 'all').length - uploadColumns([], false, mapping, {}).length).toBe(18);
  });

  test('needed cells: lines x 1.12 products (rounded up) plus the header, times the columns; skipped rows add a 4-column errors tab', () => {
    expect(PRODUCTS_PER_LINE).toBe(1.12);
    expect(neededCells(100_000, 34, 0)).toEqual({ products: 112_000, needed: 112_001 * 34 });
    expect(neededCells(10, 30, 3)).toEqual({ products: 12, needed: 13 * 30 + 4 * 4 });
  });

  test('fits exactly at the cells left; one cell short it does not, and the message names the numbers and the largest tabs first', () => {
    const base = { lines: 1000, columns: 30, notSent: 0, limit: 100_000 };
    const need = 1121 * 30;
    expect(checkRoom({ ...base, used: 100_000 - need, resultTabs: [] })).toMatchObject({ fits: true, message: null, left: need });
    const r = checkRoom({
      ...base,
      used: 100_000 - need + 1,
      resultTabs: [
        { name: 'Small', cells: 10 },
        { name: 'Big', cells: 5_000 },
      ],
    });
    expect(r.fits).toBe(false);
    expect(r.resultTabs.map((t) => t.name)).toEqual(['Big', 'Small']);
    expect(r.message).toContain(`need about 33,630 cells; the spreadsheet has 33,629 of its 100,000 cells left`);
    expect(r.message).toContain('about 1,119 rows fit');
    expect(r.message).toContain('"Big" (5,000 cells), "Small" (10 cells)');
  });

  test('the import says how far it got and where it continues', () => {
    const m = fullMessage({
      scanName: 'List',
      rowsDone: 2500,
      rowsTotal: 9000,
      neededCells: 170_000,
      left: 12,
      limit: 10_000_000,
      resultTabs: [],
    });
    expect(m).toBe(
      'The spreadsheet is full: 2,500 of 9,000 rows of "List" are imported so far (kept in a hidden tab; nothing is lost). The next rows need 170,000 cells and the spreadsheet has 12 of its 10,000,000 cells left (Sheets counts every cell of every tab, empty ones too). To free room, delete tabs you no longer need. Then import the scan again: it continues from row 2,501. Or import only the rows that pass filters, or download the results (Scans > Download).',
    );
  });
});

describe('columns with nothing the seller gave', () => {
  test('inputs not uploaded, cost after no discount, prep without a prep cost are left out; each comes back with what fills it', () => {
    expect(omittedColumns({ id: 0, cost: 1 }, {})).toEqual([
      'supplier_sku',
      'map',
      'stock',
      'supplier_pack_quantity',
      'discount_cost',
      'prep_cost',
    ]);
    expect(
      omittedColumns({ id: 0, cost: 1, supplier_sku: 2, map: 3, stock_quantity: 4, supplier_pack_quantity: 5 }, { prep_cost: 50 }),
    ).toEqual([]);
    expect(omittedColumns({ id: 0, cost: 1, supplier_sku: 2, map: 3, stock_quantity: 4 }, { discount_supplier: 500 })).toEqual([
      'supplier_pack_quantity',
      'prep_cost',
    ]);
    expect(omittedColumns({ id: 0, cost: 1, discount_per_product: 2 }, { multipack_prep_cost: { enabled: true } })).toEqual([
      'supplier_sku',
      'map',
      'stock',
      'supplier_pack_quantity',
    ]);
    const all = resultColumns(['Sheet row']);
    const kept = uploadColumns(['Sheet row'], false, { id: 0, cost: 1 }, {});
    expect(all.length - kept.length).toBe(6);
    expect(kept.map((c) => c.key)).toEqual(all.map((c) => c.key).filter((k) => kept.some((c) => c.key === k)));
  });
});
