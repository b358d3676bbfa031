/**
 * Named ranges in .xlsx files: written into and read from workbook.xml by the runtime itself, because
 * exceljs keeps a defined name as one object per cell (an open name such as A2:A is 1,048,576 of
 * them, about a second to save or load). What is written and loaded stays what exceljs wrote and loaded.
 */
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { Workbook } from '../../../emulator/gas/spreadsheet';
import { definedNamesIn } from '../../../emulator/gas/spreadsheet/xlsx';
import { makeEnv } from './env';

/** Open named ranges on three sheets: a column from row 2 (A2:A), whole columns (B:D), whole rows (2:3). */
function openNames(): Workbook {
  const { wb, ss, sheet } = makeEnv();
  sheet.getRange('A1:B2').setValues([
    ['SKU', 'Cost'],
    ['B000000001', 2.5],
  ]);
  ss.setNamedRange('Skus', sheet.getRange('A2:A'));
  const tags = ss.insertSheet("Tags & it's <notes>");
  tags.getRange('A1').setValue('tag');
  ss.setNamedRange('TagColumns', tags.getRange('B:D'));
  const rows = ss.insertSheet('Rows');
  ss.setNamedRange('HeaderRows', rows.getRange('2:3'));
  ss.setNamedRange('One', rows.getRange('C4'));
  return wb;
}

const namedOf = (wb: Workbook) =>
  makeEnv({ wb })
    .ss.getNamedRanges()
    .map((n) => [n.getName(), n.getRange().getSheet().getName(), n.getRange().getA1Notation()]);

/** Counts the cells exceljs's per-cell matrix of defined names is asked to make or find. */
async function matrixCellsDuring(fn: () => Promise<void>): Promise<number> {
  const proto = require('exceljs/lib/utils/cell-matrix').prototype as Record<string, (...a: unknown[]) => unknown>;
  const originals = { getCellAt: proto.getCellAt, findCellEx: proto.findCellEx };
  let calls = 0;
  for (const [k, f] of Object.entries(originals))
    proto[k] = function (this: unknown, ...a: unknown[]) {
      calls++;
      return f.apply(this, a);
    };
  try {
    await fn();
  } finally {
    Object.assign(proto, originals);
  }
  return calls;
}

describe('named ranges in .xlsx files', () => {
  test('open named ranges on several sheets save and load without exceljs making a cell per named cell', async () => {
    const wb = openNames();
    let back: Workbook | null = null;
    const cells = await matrixCellsDuring(async () => {
      back = await Workbook.fromXlsx(await wb.toXlsx());
      back = await Workbook.fromXlsx(await back.toXlsx());
    });
    expect(cells).toBe(0);
    // Issue 20 choices kept: an open end stays open; a range starting at row 1 or column A reads back from there.
    expect(namedOf(back!)).toEqual([
      ['Skus', 'Sheet1', 'A2:A'],
      ['TagColumns', "Tags & it's <notes>", 'B1:D'],
      ['HeaderRows', 'Rows', 'A2:3'],
      ['One', 'Rows', 'C4'],
    ]);
  });

  test("the file holds the names as exceljs wrote them: Excel's whole-column and whole-row extents, XML-escaped, after <sheets> and before <calcPr>", async () => {
    const zip = await JSZip.loadAsync(await openNames().toXlsx());
    const xml = await zip.file('xl/workbook.xml')!.async('string');
    const block = /<\/sheets>(<definedNames>.*<\/definedNames>)<calcPr\b/.exec(xml);
    expect(block?.[1]).toBe(
      '<definedNames>' +
        '<definedName name="Skus">Sheet1!$A$2:$A$1048576</definedName>' +
        '<definedName name="TagColumns">&apos;Tags &amp; it&apos;&apos;s &lt;notes&gt;&apos;!$B$1:$D$1048576</definedName>' +
        '<definedName name="HeaderRows">Rows!$A$2:$XFD$3</definedName>' +
        '<definedName name="One">Rows!$C$4</definedName>' +
        '</definedNames>',
    );
    expect(xml.match(/<definedNames>/g)).toHaveLength(1);
  });

  test('a workbook without named ranges, or whose only name lost its sheet, has no <definedNames>', async () => {
    const { wb, ss } = makeEnv();
    const gone = ss.insertSheet('Gone');
    ss.setNamedRange('Costs', gone.getRange('A1:A2'));
    ss.deleteSheet(gone);
    const xml = await (await JSZip.loadAsync(await wb.toXlsx())).file('xl/workbook.xml')!.async('string');
    expect(xml).not.toContain('definedName');
  });

  /** Names other programs write, small enough for exceljs's own reading to be quick. */
  const FOREIGN =
    '<definedNames>' +
    '<definedName name="_xlnm._FilterDatabase" localSheetId="0" hidden="1">Prices!$A$1:$C$3</definedName>' +
    '<definedName name="_xlnm.Print_Area" localSheetId="0">Prices!$A$1:$C$9</definedName>' +
    '<definedName name="_xlnm.Print_Titles" localSheetId="0">Prices!$1:$1</definedName>' +
    '<definedName name="Joined">Prices!$A$1:$A$2,Prices!$A$3:$A$4</definedName>' +
    '<definedName name="LShape">Prices!$A$1:$B$2,Prices!$A$3</definedName>' +
    '<definedName name="TwoSheets">Prices!$A$1,&apos;Q&amp;A, notes&apos;!$A$1</definedName>' +
    '<definedName name="Quoted" comment="a &gt; b">&apos;Q&amp;A, notes&apos;!$B$2:$C$3</definedName>' +
    '<definedName name="WholeColumn">Prices!$A:$A</definedName>' +
    '<definedName name="Relative">Prices!A1:B2</definedName>' +
    '<definedName name="Lost">#REF!</definedName>' +
    '<definedName name="Rate">0.07</definedName>' +
    '<definedName name="Local" localSheetId="1">Prices!$C$1</definedName>' +
    '<definedName name="Local" localSheetId="0">Prices!$D$1:$D$2</definedName>' +
    '</definedNames>';

  async function foreignFile(): Promise<Buffer> {
    const x = new ExcelJS.Workbook();
    x.addWorksheet('Prices');
    x.addWorksheet('Q&A, notes');
    const zip = await JSZip.loadAsync(await x.xlsx.writeBuffer());
    const xml = await zip.file('xl/workbook.xml')!.async('string');
    zip.file('xl/workbook.xml', xml.replace('<calcPr', FOREIGN + '<calcPr'));
    return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
  }

  test("names written by other programs are read as exceljs reads them (print setup left out, other _xlnm names and a sheet's own names kept)", async () => {
    const bytes = await foreignFile();
    const x = new ExcelJS.Workbook();
    await x.xlsx.load(bytes as unknown as ArrayBuffer);
    const exceljsRead = (x.definedNames as unknown as { model: Array<{ name: string; ranges: string[] }> }).model.map((d) => ({
      name: d.name,
      range: d.ranges.length === 1 ? d.ranges[0] : null,
    }));
    expect(definedNamesIn(FOREIGN)).toEqual(exceljsRead);
    // Several separate ranges are not a named range of Sheets: left out, as before; the last "Local" wins, as in exceljs.
    expect(namedOf(await Workbook.fromXlsx(bytes))).toEqual([
      ['_xlnm._FilterDatabase', 'Prices', 'A1:C3'],
      ['Joined', 'Prices', 'A1:A4'],
      ['Quoted', 'Q&A, notes', 'B2:C3'],
      ['Local', 'Prices', 'D1:D2'],
    ]);
  });
});
