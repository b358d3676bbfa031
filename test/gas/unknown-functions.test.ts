/** A formula calling a function nobody defines shows #NAME? as in Sheets (issue 8), never an empty cell. */
import { fixtureInUse, fixtureRuntime } from './helpers';

const NAME = (fn: string) => `Unknown function: '${fn}'.`;

describe('unknown functions show #NAME?', () => {
  test('a typo of a built-in function, a typo of a custom function, a name ending in "_": #NAME? as value and display', async () => {
    const rt = fixtureInUse();
    const wb = rt.workbook;
    wb.type('Sheet1', 'A1', 5);
    wb.type('Sheet1', 'B1', '=SUMM(A1)');
    wb.type('Sheet1', 'B2', '=DUBLE(A1)');
    wb.type('Sheet1', 'B3', '=privateThing_()');
    wb.type('Sheet1', 'B4', '=DOUBLE(A1)');
    for (const [a1, fn] of [
      ['B1', 'SUMM'],
      ['B2', 'DUBLE'],
      ['B3', 'PRIVATETHING_'],
    ]) {
      expect(wb.cell('Sheet1', a1).value).toBe('#NAME?');
      expect(wb.cell('Sheet1', a1).display).toBe('#NAME?');
      expect(wb.cell('Sheet1', a1).error).toBe(NAME(fn));
    }
    expect(wb.cell('Sheet1', 'B4').value).toBe(10);
    // getValues in the script gives the string "#NAME?", getFormulas the formula.
    const read = rt.run('evaluate', [
      "var r = SpreadsheetApp.getActiveSheet().getRange('B1:B4'); return [r.getValues(), r.getFormulas()];",
    ]);
    expect(JSON.parse(JSON.stringify(read))).toEqual([
      [['#NAME?'], ['#NAME?'], ['#NAME?'], [10]],
      [['=SUMM(A1)'], ['=DUBLE(A1)'], ['=privateThing_()'], ['=DOUBLE(A1)']],
    ]);
    // A formula reading the error gets it too.
    wb.type('Sheet1', 'C1', '=B1*2');
    expect(wb.cell('Sheet1', 'C1').value).toBe('#NAME?');
    await rt.stop();
  });

  test('a custom function of the add-on before it is used in the document: #NAME? (activation), then its value', async () => {
    const rt = fixtureRuntime();
    rt.workbook.type('Sheet1', 'A1', 4);
    rt.workbook.type('Sheet1', 'B1', '=DOUBLE(A1)');
    expect(rt.workbook.cell('Sheet1', 'B1').value).toBe('#NAME?');
    expect(rt.workbook.cell('Sheet1', 'B1').error).toBe(NAME('DOUBLE'));
    rt.open();
    rt.run('menuStart');
    rt.recalculate();
    expect(rt.workbook.cell('Sheet1', 'B1').value).toBe(8);
    await rt.stop();
  });

  test('a Google Sheets function the local engine lacks says so with #ERROR!, not a #NAME? Sheets would not show', async () => {
    const rt = fixtureInUse();
    rt.workbook.type('Sheet1', 'A1', '=REGEXMATCH("B0012345","^B0")');
    expect(rt.workbook.cell('Sheet1', 'A1').value).toBe('#ERROR!');
    expect(rt.workbook.cell('Sheet1', 'A1').error).toBe('REGEXMATCH is a Google Sheets function the local runtime does not compute.');
    await rt.stop();
  });
});
