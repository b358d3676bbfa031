/**
 * UNIQUE and SORT in the local runtime (emulator/gas/spreadsheet/array-functions.ts), computed inside
 * another function (the runtime does not spill an array into the cells below), as Google's pages say:
 * UNIQUE (support.google.com/docs/answer/10522653) keeps the first appearance of each row, in order;
 * SORT (support.google.com/docs/answer/3093150) sorts by a column of the range or by a range beside it.
 */
import { makeEnv } from './env';

test('UNIQUE: each value once in the order first met, text case-sensitive; exactly_once; the empty cell is one value', () => {
  const { sheet } = makeEnv();
  sheet.getRange('A1:A7').setValues([['Home'], ['Kitchen'], ['Home'], [''], ['home'], ['Toys'], ['Kitchen']]);
  sheet
    .getRange('B1:F1')
    .setValues([
      [
        '=INDEX(UNIQUE(A1:A7),1)',
        '=INDEX(UNIQUE(A1:A7),3)',
        '=ROWS(UNIQUE(A1:A7))',
        '=ROWS(UNIQUE(A1:A7,FALSE,TRUE))',
        '=INDEX(UNIQUE(A1:A7),4)',
      ],
    ]);
  expect(sheet.getRange('B1:F1').getValues()).toEqual([['Home', '', 5, 3, 'home']]);
});

test('SORT: by a column of the range or a range beside it, descending, a second key for ties; blanks last', () => {
  const { sheet } = makeEnv();
  sheet.getRange('A1:B5').setValues([
    ['pear', 2],
    ['Apple', 5],
    ['fig', 2],
    ['', 9],
    ['banana', 1],
  ]);
  sheet.getRange('C1:C5').setValues([[5], [4], [3], [2], [1]]);
  sheet
    .getRange('D1:H1')
    .setValues([
      [
        '=INDEX(SORT(A1:B5,1,TRUE),1,1)',
        '=INDEX(SORT(A1:B5,1,TRUE),5,2)',
        '=INDEX(SORT(A1:A5,B1:B5,FALSE),2)',
        '=INDEX(SORT(A1:A5,B1:B5,FALSE,C1:C5,TRUE),3)',
        '=INDEX(SORT(A1:B5,3,TRUE),1)',
      ],
    ]);
  expect(sheet.getRange('D1:H1').getValues()).toEqual([['Apple', 9, 'Apple', 'fig', '#VALUE!']]);
});
