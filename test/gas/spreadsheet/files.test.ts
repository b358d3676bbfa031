import ExcelJS from 'exceljs';
import { promises as fs } from 'fs';
import os from 'os';
import path from 'path';
import { Workbook } from '../../../emulator/gas/spreadsheet';
import { makeEnv } from './env';

async function roundTrip(wb: Workbook): Promise<Workbook> {
  return Workbook.fromXlsx(await wb.toXlsx());
}

describe('XLSX and CSV', () => {
  test('a cell stored as text in XLSX loads as text, a number as a number', async () => {
    const x = new ExcelJS.Workbook();
    const ws = x.addWorksheet('Supplier');
    ws.getCell('A1').value = '0012345678905';
    ws.getCell('B1').value = 12345678905;
    ws.getCell('C1').value = 'TRUE';
    ws.getCell('D1').value = true;
    const wb = await Workbook.fromXlsx(Buffer.from(await x.xlsx.writeBuffer()));
    expect(wb.values('Supplier')).toEqual([['0012345678905', 12345678905, 'TRUE', true]]);
  });

  test('values, formulas, number formats, notes, bold, backgrounds and links survive save and load', async () => {
    const { wb, app, sheet } = makeEnv();
    sheet.getRange('A1:D1').setValues([['UPC', '$2.99', '2024-01-15', "'007"]]);
    sheet.getRange('A1').setFontWeight('bold').setBackground('#ffff00').setNote('header');
    sheet.getRange('E1').setFormula('=SUM(B1:B2)');
    sheet.getRange('F1').setNumberFormat('0.00%').setValue(0.25);
    sheet.getRange('G1').setRichTextValue(app.newRichTextValue().setText('B00X').setLinkUrl('https://www.amazon.com/dp/B00X').build());
    const back = await roundTrip(wb);
    expect(back.values('Sheet1')[0].slice(0, 2)).toEqual(['UPC', 2.99]);
    expect(back.cell('Sheet1', 'B1').format).toBe('"$"#,##0.00');
    expect((back.cell('Sheet1', 'C1').value as Date).toISOString()).toBe('2024-01-15T00:00:00.000Z');
    expect(back.cell('Sheet1', 'C1').display).toBe('2024-01-15');
    expect(back.cell('Sheet1', 'D1').value).toBe('007');
    expect(back.cell('Sheet1', 'A1')).toMatchObject({ bold: true, background: '#ffff00', note: 'header' });
    expect(back.cell('Sheet1', 'E1').formula).toBe('=SUM(B1:B2)');
    expect(back.cell('Sheet1', 'F1')).toMatchObject({ value: 0.25, display: '25.00%' });
    expect(back.cell('Sheet1', 'G1').links).toEqual([{ start: 0, end: 4, url: 'https://www.amazon.com/dp/B00X' }]);
  });

  test("a tab's filter, its conditional colours and its TRUE/FALSE cells are written so other spreadsheet programs show them", async () => {
    const { wb, app, sheet } = makeEnv();
    sheet.getRange('A1:C3').setValues([
      ['Profit', 'ROI', 'Hazmat'],
      [-2, 0.1, true],
      [5, 0.6, false],
    ]);
    sheet.getRange('A1:C3').createFilter();
    const red = app
      .newConditionalFormatRule()
      .whenNumberLessThan(0)
      .setBackground('#f4cccc')
      .setRanges([sheet.getRange('A2:A3')])
      .build();
    const green = app
      .newConditionalFormatRule()
      .whenNumberGreaterThanOrEqualTo(0.5)
      .setBackground('#d9ead3')
      .setRanges([sheet.getRange('B2:B3')])
      .build();
    sheet.setConditionalFormatRules([red, green]);
    const x = new ExcelJS.Workbook();
    await x.xlsx.load((await wb.toXlsx()) as unknown as ArrayBuffer);
    const ws = x.getWorksheet('Sheet1')!;
    expect(ws.autoFilter).toBe('A1:C3');
    const cf = (
      ws as unknown as {
        conditionalFormattings: Array<{ ref: string; rules: Array<{ type: string; operator: string; formulae: unknown[]; style: any }> }>;
      }
    ).conditionalFormattings;
    expect(
      cf.map((c) => [c.ref, c.rules[0].type, c.rules[0].operator, c.rules[0].formulae.map(String), c.rules[0].style.fill.bgColor.argb]),
    ).toEqual([
      ['A2:A3', 'cellIs', 'lessThan', ['0'], 'FFF4CCCC'],
      ['B2:B3', 'cellIs', 'greaterThanOrEqual', ['0.5'], 'FFD9EAD3'],
    ]);
    // Booleans stay booleans, with the format LibreOffice needs to print TRUE/FALSE rather than 1/0.
    expect([ws.getCell('C2').value, ws.getCell('C3').value]).toEqual([true, false]);
    expect(ws.getCell('C2').numFmt).toBe('"TRUE";"TRUE";"FALSE"');
    expect(ws.getCell('A2').numFmt).toBeUndefined();
    // And loading it back keeps the values (and no format) as they were.
    const back = await roundTrip(wb);
    expect(back.cell('Sheet1', 'C2')).toMatchObject({ value: true, display: 'TRUE' });
    expect(back.cell('Sheet1', 'C2').format).toBe(wb.cell('Sheet1', 'C2').format);
    expect(back.values('Sheet1')).toEqual([
      ['Profit', 'ROI', 'Hazmat'],
      [-2, 0.1, true],
      [5, 0.6, false],
    ]);
  });

  test('named ranges, frozen rows, hidden sheets and column widths survive save and load', async () => {
    const { wb, ss, sheet } = makeEnv();
    sheet.setFrozenRows(1);
    sheet.setColumnWidth(2, 240);
    const tech = ss.insertSheet('Tech data');
    tech.getRange('A1').setValue('x');
    tech.hideSheet();
    ss.setNamedRange('Keys', tech.getRange('A1:A20'));
    ss.setNamedRange('Header', sheet.getRange('A1'));
    const back = await roundTrip(wb);
    const env = makeEnv({ wb: back });
    expect(env.ss.getSheets().map((s) => [s.getName(), s.isSheetHidden()])).toEqual([
      ['Sheet1', false],
      ['Tech data', true],
    ]);
    expect(env.ss.getSheetByName('Sheet1')!.getFrozenRows()).toBe(1);
    expect(env.ss.getSheetByName('Sheet1')!.getColumnWidth(2)).toBe(240);
    expect(env.ss.getSheetByName('Sheet1')!.getColumnWidth(1)).toBe(100);
    expect(env.ss.getRangeByName('Keys')!.getA1Notation()).toBe('A1:A20');
    expect(env.ss.getRangeByName('Keys')!.getSheet().getName()).toBe('Tech data');
    expect(env.ss.getRangeByName('Header')!.getA1Notation()).toBe('A1');
  });

  test('row heights and hidden rows and columns survive save and load, empty rows included', async () => {
    const { wb, sheet } = makeEnv();
    sheet.getRange('A1:A3').setValues([['a'], ['b'], ['c']]);
    sheet.setRowHeight(2, 40);
    sheet.hideRows(3);
    sheet.hideRows(50, 2);
    sheet.setRowHeight(60, 35);
    sheet.hideColumns(4);
    const s = makeEnv({ wb: await roundTrip(wb) }).ss.getSheetByName('Sheet1')!;
    expect([1, 2, 60].map((r) => s.getRowHeight(r))).toEqual([21, 40, 35]);
    expect([2, 3, 49, 50, 51, 52].map((r) => s.isRowHiddenByUser(r))).toEqual([false, true, false, true, true, false]);
    expect([3, 4, 5].map((c) => s.isColumnHiddenByUser(c))).toEqual([false, true, false]);
  });

  test('a spilled custom-function result is saved as an array formula and re-spills on recalculate after reopening', async () => {
    const fns = { TABLE: (n: number) => Array.from({ length: n }, (_, i) => [i + 1, i * 10]) };
    const { wb, sheet } = makeEnv({ fns });
    sheet.getRange('A1').setValue('=TABLE(3)');
    const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'wb-')), 'out.xlsx');
    await wb.saveXlsx(file);
    const back = await Workbook.fromXlsx(file);
    expect(back.values('Sheet1')).toEqual([
      [1, 0],
      [2, 10],
      [3, 20],
    ]);
    const env = makeEnv({ wb: back, fns });
    back.recalculate();
    expect(env.calls.length).toBe(1);
    expect(back.values('Sheet1')).toEqual([
      [1, 0],
      [2, 10],
      [3, 20],
    ]);
    expect(back.cell('Sheet1', 'A1').error).toBeNull();
    expect(back.cell('Sheet1', 'A2').formula).toBe('');
  });

  test('a custom formula loaded from a file recalculates when its argument changes, before any recalculate()', async () => {
    const x = new ExcelJS.Workbook();
    const ws = x.addWorksheet('S');
    ws.getCell('A1').value = 5;
    ws.getCell('B1').value = { formula: 'DOUBLE(A1)', result: 10 } as ExcelJS.CellFormulaValue;
    ws.getCell('C1').value = { formula: 'SUM(A1)', result: 5 } as ExcelJS.CellFormulaValue;
    const wb = await Workbook.fromXlsx(Buffer.from(await x.xlsx.writeBuffer()));
    const { sheet, calls } = makeEnv({ wb, fns: { DOUBLE: (v: number) => v * 2 } });
    expect(sheet.getRange('B1:C1').getValues()).toEqual([[10, 5]]); // cached results until something changes
    sheet.getRange('A1').setValue(7);
    expect(sheet.getRange('B1').getValue()).toBe(14);
    expect(calls).toEqual([{ name: 'DOUBLE', args: [7] }]);
  });

  test('CSV import parses cells like typed input: a UPC with a leading zero loses it, as in Sheets', () => {
    const wb = Workbook.fromCsv('UPC,Price,Title\n012345678905,$2.99,"Widget, large"\n', 'Import');
    expect(wb.values('Import')).toEqual([
      ['UPC', 'Price', 'Title'],
      [12345678905, 2.99, 'Widget, large'],
    ]);
    expect(wb.sheetNames()).toEqual(['Import']);
  });

  test('toCsv writes display values with RFC 4180 quoting (CRLF line ends, chosen)', () => {
    const wb = Workbook.fromCsv('a,b\n"x ""q""",$5\n', 'S');
    expect(wb.toCsv('S')).toBe('a,b\r\n"x ""q""",$5.00');
  });
});
