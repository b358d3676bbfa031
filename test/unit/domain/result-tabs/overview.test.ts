/**
 * The overview's formulas (src/domain/result-tabs/overview.ts) computed by the local runtime's engine
 * (HyperFormula) over a small result tab, the way Sheets would compute them after the import writes them.
 */
import { overviewCells, overviewTabName, quoteSheetName } from '../../../../src/domain/result-tabs/overview';
import { resultTabOf } from '../../../../src/domain/result-tabs/read';
import { makeEnv } from '../../../gas/spreadsheet/env';

const HEADER = ['ASIN', 'Title', 'Profit', 'ROI', 'Your profit/mo', 'Hazmat', 'Meltable', 'Adult'];
const ROWS = [
  ['B000000001', 'Kettle', 12.5, 0.62, 300, false, false, false],
  ['B000000002', 'Candle', 3.1, 0.2, 45.5, true, true, false],
  ['B000000003', 'Lamp', -1.2, -0.1, -20, false, false, false],
  ['B000000004', 'Mug', 6, 0.35, 120, true, false, false],
];

function overviewOf(tabName: string) {
  const env = makeEnv();
  const result = env.ss.insertSheet(tabName);
  result.getRange(1, 1, 1 + ROWS.length, HEADER.length).setValues([HEADER, ...ROWS]);
  const cells = overviewCells(tabName, resultTabOf(HEADER, tabName).columns);
  const width = Math.max(...cells.map((r) => r.length));
  const grid = cells.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? ''));
  const ov = env.ss.insertSheet(overviewTabName(tabName));
  ov.getRange(1, 1, grid.length, width).setValues(grid);
  const values = ov.getRange(1, 1, grid.length, width).getValues();
  const row = (label: string) => values.find((r) => r[0] === label) as unknown[];
  return { env, result, values, row, cells };
}

describe('overview of a result tab, computed', () => {
  test('a name with a quote is quoted with the quote doubled', () => {
    expect(quoteSheetName("Bob's scan")).toBe("'Bob''s scan'");
  });

  test('counts, bands, expected profit, flag shares and the top list', () => {
    const { row, values } = overviewOf("Bob's scan");
    expect(row('Products')[1]).toBe(4);
    expect(row('Expected profit a month')[1]).toBeCloseTo(445.5, 6);
    expect(row('Loss (below $0)')[1]).toBe(1);
    expect(row('$2 to $5')[1]).toBe(1);
    expect(row('$5 to $10')[1]).toBe(1);
    expect(row('$10 or more')[1]).toBe(1);
    expect(row('$0 to $2')[1]).toBe(0);
    expect(row('50% or more')[1]).toBe(1);
    expect(row('30% to 50%')[1]).toBe(1);
    expect(row('15% to 30%')[1]).toBe(1);
    expect(row('Below 0%')[1]).toBe(1);
    expect(row('Hazmat')[1]).toBe(0.5);
    expect(row('Meltable')[1]).toBe(0.25);
    expect(row('Adult')[1]).toBe(0);
    const top = values.filter((r) => typeof r[0] === 'number');
    expect(top.slice(0, 4).map((r) => [r[1], r[2], r[3]])).toEqual([
      [300, 'B000000001', 'Kettle'],
      [120, 'B000000004', 'Mug'],
      [45.5, 'B000000002', 'Candle'],
      [-20, 'B000000003', 'Lamp'],
    ]);
    expect(top).toHaveLength(20);
    expect(top[4].slice(1, 4)).toEqual(['', '', '']);
    // No cell computes to an error.
    expect(values.flat().filter((v) => typeof v === 'string' && v.startsWith('#'))).toEqual([]);
  });

  test("the overview follows the seller's edits to the result tab", () => {
    const { result, env } = overviewOf('Scan 1');
    result.getRange('E3').setValue(500);
    const ov = env.ss.getSheetByName(overviewTabName('Scan 1'))!;
    const values = ov.getDataRange().getValues();
    expect(values.find((r) => r[0] === 'Expected profit a month')![1]).toBeCloseTo(900, 6);
    expect(values.find((r) => r[0] === 1)!.slice(1, 4)).toEqual([500, 'B000000002', 'Candle']);
  });
});
