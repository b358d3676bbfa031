import { makeEnv } from './env';

describe('costs: every call is charged to the cost model', () => {
  test('reads charge sheetRead(cells), writes sheetWrite(cells), other calls serviceCall()', () => {
    const { state, sheet } = makeEnv();
    const c = state.current!.counters;
    const before = { ...c };
    const t0 = state.clock.now();
    sheet.getRange(1, 1, 10, 3).setValues(Array.from({ length: 10 }, () => [1, 2, 3]));
    sheet.getRange(1, 1, 10, 3).getValues();
    sheet.getLastRow();
    expect(c.sheetWriteCalls - before.sheetWriteCalls).toBe(1);
    expect(c.cellsWritten - before.cellsWritten).toBe(30);
    expect(c.sheetReadCalls - before.sheetReadCalls).toBe(1);
    expect(c.cellsRead - before.cellsRead).toBe(30);
    expect(c.serviceCalls - before.serviceCalls).toBe(3); // two getRange calls and getLastRow
    const cost = state.cost;
    const expected =
      cost.sheetWriteCallMs + 30 * cost.sheetWriteCellMs + cost.sheetReadCallMs + 30 * cost.sheetReadCellMs + 3 * cost.serviceCallMs;
    expect(state.clock.now() - t0).toBeCloseTo(expected, 2);
  });

  test('cell-by-cell writing costs far more modelled time than one block write', () => {
    const a = makeEnv();
    const t0 = a.state.clock.now();
    for (let r = 1; r <= 100; r++) a.sheet.getRange(r, 1).setValue(r);
    const slow = a.state.clock.now() - t0;
    const b = makeEnv();
    const t1 = b.state.clock.now();
    b.sheet.getRange(1, 1, 100, 1).setValues(Array.from({ length: 100 }, (_, i) => [i + 1]));
    const fast = b.state.clock.now() - t1;
    expect(slow).toBeGreaterThan(50 * fast);
  });

  test('spreadsheet work counts toward the execution limit: a write loop is killed at 6 minutes', () => {
    const { sheet } = makeEnv();
    let writes = 0;
    expect(() => {
      for (;;) {
        sheet.getRange(1 + (writes % 1000), 1).setValue(writes);
        writes++;
      }
    }).toThrow('Exceeded maximum execution time');
    // 6 minutes of ~125 ms per getRange + setValue
    expect(writes).toBeGreaterThan(2000);
    expect(writes).toBeLessThan(4000);
  });
});
