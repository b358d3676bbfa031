/**
 * Issue 36: IMAGE, SPARKLINE and in-cell images in the local runtime, read back as Google gives
 * them, and through an .xlsx save and load.
 * - IMAGE / SPARKLINE: a cell drawing a picture holds no value: getValue and getDisplayValue are ''
 *   and getFormula is the formula (support.google.com/docs/answer/3093333 and /3093289 describe
 *   the drawing only; Google's API gives such cells the empty value).
 * - In-cell images: developers.google.com/apps-script/reference/spreadsheet/cell-image-builder and
 *   .../cell-image (setSourceUrl, alt text, build; Range.setValue(cellImage); getValue gives a
 *   CellImage; getUrl is the source URL); a built image has no content URL yet (gas-fakes
 *   test/testsheetsvui.js, "CellImage and CellImageBuilder methods", recorded on Google).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime } from '../../../emulator/gas';
import { Workbook } from '../../../emulator/gas/spreadsheet';
import { makeEnv, thrown } from './env';

const LINK = 'https://images.scan-service.invalid/I/B000000001-0.png';

test('=IMAGE and =SPARKLINE compute to an empty value, keep their formula, and show no error', () => {
  const { sheet } = makeEnv();
  sheet.getRange('A1:D1').setValues([[3, 5, 4, 8]]);
  sheet.getRange('A2').setFormula(`=IMAGE("${LINK}")`);
  sheet.getRange('B2').setFormula(`=IMAGE("${LINK}", 4, 50, 50)`);
  sheet.getRange('C2').setFormula('=SPARKLINE(A1:D1)');
  sheet.getRange('D2').setFormula('=SPARKLINE(A1:D1, {"charttype","column";"color","green"})');
  const r = sheet.getRange('A2:D2');
  expect(r.getValues()).toEqual([['', '', '', '']]);
  expect(r.getDisplayValues()).toEqual([['', '', '', '']]);
  expect(r.getFormulas()[0][2]).toBe('=SPARKLINE(A1:D1)');
  expect(sheet.getRange('A2').getFormula()).toBe(`=IMAGE("${LINK}")`);
});

test('IMAGE refuses a mode other than 1 to 4, and mode 4 without its size', () => {
  const { sheet } = makeEnv();
  sheet.getRange('A1').setFormula(`=IMAGE("${LINK}", 7)`);
  sheet.getRange('A2').setFormula(`=IMAGE("${LINK}", 4)`);
  expect(sheet.getRange('A1:A2').getValues()).toEqual([['#VALUE!'], ['#VALUE!']]);
});

test('an in-cell image: built, put with setValue, read back as a CellImage; no value text, no formula', () => {
  const { app, sheet } = makeEnv();
  const built = app.newCellImage().setSourceUrl(LINK).setAltTextTitle('B000000001').setAltTextDescription('Acme bowls').build();
  expect(String(built)).toBe('CellImage');
  expect(thrown(() => built.getContentUrl())).toMatch(/content URL/);
  sheet.getRange('B2').setValue(built);
  const got = sheet.getRange('B2').getValue() as GoogleAppsScript.Spreadsheet.CellImage;
  expect(String(got)).toBe('CellImage');
  expect([got.getUrl(), got.getContentUrl(), got.getAltTextTitle(), got.getAltTextDescription()]).toEqual([
    LINK,
    LINK,
    'B000000001',
    'Acme bowls',
  ]);
  expect(sheet.getRange('B2').getDisplayValue()).toBe('');
  expect(sheet.getRange('B2').getFormula()).toBe('');
  expect(sheet.getRange('B2').isBlank()).toBe(false);
  // A value written over it replaces it.
  sheet.getRange('B2').setValue('text');
  expect(sheet.getRange('B2').getValue()).toBe('text');
});

test('setValues takes in-cell images among other values', () => {
  const { app, sheet } = makeEnv();
  const img = app.newCellImage().setSourceUrl(LINK).build();
  sheet.getRange('A1:B1').setValues([[img, 'Acme bowls']]);
  expect(String(sheet.getRange('A1').getValue())).toBe('CellImage');
  expect(sheet.getRange('B1').getValue()).toBe('Acme bowls');
});

test('.xlsx: IMAGE and SPARKLINE stay formulas; an in-cell image is saved as =IMAGE of its source URL', async () => {
  const { app, wb, sheet } = makeEnv();
  sheet.getRange('A1:C1').setValues([[1, 3, 2]]);
  sheet.getRange('A2').setFormula('=SPARKLINE(A1:C1, {"charttype","bar"})');
  sheet.getRange('B2').setFormula(`=IMAGE("${LINK}")`);
  sheet.getRange('C2').setValue(app.newCellImage().setSourceUrl(LINK).setAltTextTitle('t').build());
  const back = await Workbook.fromXlsx(await wb.toXlsx());
  const name = sheet.getName();
  expect(back.cell(name, 'A2').formula).toBe('=SPARKLINE(A1:C1, {"charttype","bar"})');
  expect(back.cell(name, 'B2').formula).toBe(`=IMAGE("${LINK}")`);
  expect(back.cell(name, 'C2').formula).toBe(`=IMAGE("${LINK}")`);
  for (const a1 of ['A2', 'B2', 'C2']) expect([back.cell(name, a1).value, back.cell(name, a1).display]).toEqual(['', '']);
});

test('a colour-scale conditional format: its points read back, and a saved workbook keeps it', async () => {
  // developers.google.com/apps-script/reference/spreadsheet/conditional-format-rule-builder
  // (setGradientMinpoint, setGradientMidpointWithValue, setGradientMaxpoint) and .../gradient-condition.
  const { app, wb, sheet } = makeEnv();
  sheet.getRange('A1:A3').setValues([[10], [20], [30]]);
  const rule = app
    .newConditionalFormatRule()
    .setGradientMinpoint('#ffffff')
    .setGradientMidpointWithValue('#ffd666', app.InterpolationType.PERCENTILE, '50')
    .setGradientMaxpoint('#57bb8a')
    .setRanges([sheet.getRange('A1:A3')])
    .build();
  sheet.setConditionalFormatRules([rule]);
  const read = (s: GoogleAppsScript.Spreadsheet.Sheet) => {
    const g = s.getConditionalFormatRules()[0].getGradientCondition()!;
    return [g.getMinType(), g.getMinColor(), g.getMidType(), g.getMidValue(), g.getMidColor(), g.getMaxType(), g.getMaxColor()];
  };
  const want = ['MIN', '#ffffff', 'PERCENTILE', '50', '#ffd666', 'MAX', '#57bb8a'];
  expect(read(sheet)).toEqual(want);
  expect(sheet.getConditionalFormatRules()[0].getBooleanCondition()).toBeNull();
  const back = await Workbook.fromXlsx(await wb.toXlsx());
  const { ss } = makeEnv({ wb: back });
  expect(read(ss.getSheets()[0])).toEqual(want);
  expect(
    ss
      .getSheets()[0]
      .getConditionalFormatRules()[0]
      .getRanges()
      .map((r) => r.getA1Notation()),
  ).toEqual(['A1:A3']);
  expect(thrown(() => app.newConditionalFormatRule().setGradientMaxpoint('#57bb8a').build())).toMatch(/minpoint/);
});

test('a script in the runtime puts an in-cell image and reads it back across the vm boundary', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cell-image-'));
  try {
    const file = join(dir, 'Code.js');
    writeFileSync(
      file,
      `function put(link) {
        var cell = SpreadsheetApp.getActiveSheet().getRange('A1');
        cell.setValue(SpreadsheetApp.newCellImage().setSourceUrl(link).setAltTextTitle('pic').build());
        var got = cell.getValue();
        return [String(got), got.getUrl(), got.getAltTextTitle(), cell.getDisplayValue(), cell.getFormula()];
      }`,
    );
    const rt = createRuntime({ scriptPath: file });
    expect(Array.from(rt.run('put', [LINK]) as unknown[])).toEqual(['CellImage', LINK, 'pic', '', '']);
    await rt.stop();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
