/**
 * How often the local runtime's formula engine computes: one write is one recalculation, in which
 * every built-in formula it touches is computed once (issue 36: an overview of 20 chained category
 * formulas written by one setValues took 25 s, each formula computed again for every formula cell
 * of the write). Counted, not timed: the engine's MATCH calls and engine builds.
 */
import { HyperFormula } from 'hyperformula';
import { makeEnv } from './env';

afterEach(() => jest.restoreAllMocks());

/** Counts the engine's MATCH evaluations (its function plugin's method, as the engine calls it). */
function countMatch(): jest.SpyInstance {
  const plugin = HyperFormula.getFunctionPlugin('MATCH') as unknown as { prototype: { match: () => unknown } };
  return jest.spyOn(plugin.prototype, 'match');
}

test('one setValues of 20 chained formulas computes each of them once, with the right values', () => {
  const { sheet } = makeEnv();
  sheet.getRange('C1:C2').setValues([[1], [2]]);
  sheet.getRange('E1').setFormula('=C1+C2'); // the engine is running before the write
  // A1 finds 1 in C1:C2 (1); every next row finds the row above's result (1 again): a chain A1 -> A2 -> ... -> A20.
  const formulas = [['=MATCH(1,C$1:C$2,0)'], ...Array.from({ length: 19 }, (_, i) => [`=MATCH(A${i + 1},C$1:C$2,0)`])];
  const match = countMatch();
  sheet.getRange('A1:A20').setValues(formulas);
  expect(match).toHaveBeenCalledTimes(20);
  expect(sheet.getRange('A1:A20').getValues()).toEqual(formulas.map(() => [1]));
  // An edit the chain reads computes each again, once.
  match.mockClear();
  sheet.getRange('C1:C2').setValues([[2], [1]]);
  expect(match).toHaveBeenCalledTimes(20);
  expect(sheet.getRange('A1:A20').getValues()).toEqual(formulas.map((_, i) => [i % 2 === 0 ? 2 : 1]));
});

test('a write of 200,000 cells keeps the engine: it is not built again from the whole workbook', () => {
  const { sheet } = makeEnv();
  sheet.insertRowsAfter(1000, 4001);
  sheet.insertColumnsAfter(26, 14);
  const build = jest.spyOn(HyperFormula, 'buildFromSheets');
  sheet.getRange('A1').setFormula('=SUM(AN2:AN5001)');
  expect(build).toHaveBeenCalledTimes(1);
  const rows = Array.from({ length: 5000 }, (_, i) => [...Array.from({ length: 39 }, (_, c) => `text ${c}`), i + 1]);
  sheet.getRange(2, 1, 5000, 40).setValues(rows);
  expect(build).toHaveBeenCalledTimes(1);
  expect(sheet.getRange('A1').getValue()).toBe(12502500);
});

test('a row inserted in a tab, or a tab renamed, reads back only the formulas whose text can change: on that tab or naming it', () => {
  const { ss, sheet } = makeEnv();
  sheet.setName('Data');
  sheet.getRange('A1:B3').setValues([
    [1, '=A3*2'],
    [2, ''],
    [3, ''],
  ]);
  ss.insertSheet('Summary').getRange('A1').setFormula('=SUM(Data!A1:A3)');
  // 30 overview-like tabs of formulas over their own cells, naming no other tab.
  for (let t = 0; t < 30; t++)
    ss.insertSheet(`Other ${t}`)
      .getRange('A1:A10')
      .setFormulas(Array.from({ length: 10 }, () => ['=SUM(C1:C5)']));
  const read = jest.spyOn(HyperFormula.prototype, 'getCellFormula');
  sheet.insertRowBefore(1);
  expect(read).toHaveBeenCalledTimes(2);
  expect([sheet.getRange('B2').getFormula(), ss.getSheetByName('Summary')!.getRange('A1').getFormula()]).toEqual([
    '=A4*2',
    '=SUM(Data!A2:A4)',
  ]);
  read.mockClear();
  sheet.setName("Data's 2");
  expect(read).toHaveBeenCalledTimes(1);
  expect(ss.getSheetByName('Summary')!.getRange('A1').getFormula()).toBe("=SUM('Data''s 2'!A2:A4)");
  expect(ss.getSheetByName('Other 29')!.getRange('A10').getFormula()).toBe('=SUM(C1:C5)');
});
