/**
 * FORMULATEXT and REGEXEXTRACT in the local runtime (emulator/gas/spreadsheet/text-functions.ts), as
 * Google's pages describe them: FORMULATEXT (support.google.com/docs/answer/9365792) gives what the
 * formula bar shows, of a cell INDEX points at too (INDEX gives a reference in Sheets, as in Excel);
 * REGEXEXTRACT (support.google.com/docs/answer/3098244) gives the first match or its capture group,
 * takes text only, and reads RE2 (no look-around, no back references).
 */
import { makeEnv } from './env';

test('FORMULATEXT of a written reference and of INDEX over a range; #N/A for a cell without a formula; it follows an edited formula', () => {
  const { ss } = makeEnv();
  const t = ss.insertSheet('T a');
  t.getRange('A1:B3').setValues([
    ['=IMAGE("https://a.example/x.png")', 1],
    ['=1+2', 2],
    ['plain', 3],
  ]);
  const o = ss.insertSheet('O');
  o.getRange('A1:D1').setValues([
    [
      "=FORMULATEXT(INDEX('T a'!A:A,MATCH(2,'T a'!B:B,0)))",
      "=FORMULATEXT('T a'!A1)",
      "=FORMULATEXT(INDEX('T a'!A:A,3))",
      "=FORMULATEXT(INDEX('T a'!A1:A3,5))",
    ],
  ]);
  expect(o.getRange('A1:D1').getValues()).toEqual([['=1+2', '=IMAGE("https://a.example/x.png")', '#N/A', '#REF!']]);
  t.getRange('A2').setValue('=IMAGE("https://b.example/y.png")');
  expect(o.getRange('A1').getValue()).toBe('=IMAGE("https://b.example/y.png")');
  t.getRange('A2').setValue('typed over');
  expect(o.getRange('A1').getValue()).toBe('#N/A');
});

test('REGEXEXTRACT: the capture group or the whole match; #N/A without a match; a number or an RE2-refused pattern is an error', () => {
  const { sheet } = makeEnv();
  sheet
    .getRange('A1:F1')
    .setValues([
      [
        '=REGEXEXTRACT("My favorite number is 241, but my friend\'s is 17","\\d+")',
        '=REGEXEXTRACT("https://a.example/x.png","^https://([a-z.]+)/")',
        '=REGEXEXTRACT("abc","x")',
        '=REGEXEXTRACT(12,"1")',
        '=REGEXEXTRACT("abc","a(?=b)")',
        '=REGEXEXTRACT("ABC","(?i)b")',
      ],
    ]);
  expect(sheet.getRange('A1:F1').getValues()).toEqual([['241', 'a.example', '#N/A', '#VALUE!', '#REF!', 'B']]);
});
