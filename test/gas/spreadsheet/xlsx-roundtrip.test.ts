/**
 * Issue 20: a workbook saved as .xlsx and loaded again holds what Sheets carries through an .xlsx
 * download and upload — every kind of cell and sheet the add-on writes — and saving refuses a sheet
 * name an .xlsx file cannot hold instead of cutting it.
 */
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { Workbook } from '../../../emulator/gas/spreadsheet';
import { makeEnv, thrown } from './env';

async function roundTrip(wb: Workbook): Promise<Workbook> {
  return Workbook.fromXlsx(await wb.toXlsx());
}

/** Everything the runtime can tell about every used cell of every sheet, and about the sheets. */
function snapshot(wb: Workbook): unknown {
  const { app } = makeEnv({ wb });
  const ss = app.getActiveSpreadsheet();
  return {
    sheets: ss.getSheets().map((s) => {
      const lr = Math.max(1, s.getLastRow());
      const lc = Math.max(1, s.getLastColumn());
      const cells: unknown[] = [];
      for (let r = 1; r <= lr; r++)
        for (let c = 1; c <= lc; c++) {
          const a1 = wb.a1(r, c);
          const snap = wb.cell(s.getName(), a1);
          const v = snap.value instanceof Date ? snap.value.toISOString() : snap.value;
          const dv = s.getRange(r, c).getDataValidation();
          cells.push([
            a1,
            v,
            snap.display,
            snap.formula,
            snap.format,
            snap.note,
            snap.background,
            snap.bold,
            snap.links,
            snap.quotePrefix,
            dv ? [dv.getCriteriaType(), JSON.stringify(dv.getCriteriaValues()), dv.getAllowInvalid(), dv.getHelpText()] : null,
          ]);
        }
      const filter = s.getFilter();
      return {
        name: s.getName(),
        hidden: s.isSheetHidden(),
        frozen: [s.getFrozenRows(), s.getFrozenColumns()],
        filter: filter ? filter.getRange().getA1Notation() : null,
        rules: s.getConditionalFormatRules().map((rule) => {
          const b = rule.getBooleanCondition()!;
          return [b.getCriteriaType(), b.getCriteriaValues(), b.getBackground(), rule.getRanges().map((g) => g.getA1Notation())];
        }),
        cells,
      };
    }),
    named: ss.getNamedRanges().map((n) => [n.getName(), n.getRange().getSheet().getName(), n.getRange().getA1Notation()]),
  };
}

/** A workbook with every kind of cell and sheet the add-on writes, written through SpreadsheetApp as the add-on does. */
function addonWorkbook(): Workbook {
  const { wb, app, ss, sheet } = makeEnv();
  sheet.setName('Scan 2026-11-26');
  // guarded text (identifiers, formula-like supplier text), numbers, booleans, money, percent, dates and times
  sheet.getRange('A1:H1').setValues([['Identifier', 'ASIN', 'Profit', 'ROI', 'Hazmat', 'Checked at', 'Note', 'Time']]);
  sheet.getRange('A1:H1').setFontWeight('bold').setBackground('#d9ead3');
  sheet.getRange('A2:H3').setValues([
    ["'036000291452", "'B000000006", 0.9829461476765573, 0.25, true, new Date('2026-11-26T10:15:30Z'), '\'=HYPERLINK("x")', "'#N/A"],
    ["'007", 'plain words', -12345678.123456789, 1 / 3, false, new Date('2024-02-29T00:00:00Z'), "'TRUE", "'1/2"],
  ]);
  sheet.getRange('C2:C3').setNumberFormat('"$"#,##0.00');
  sheet.getRange('D2:D3').setNumberFormat('0.00%');
  sheet.getRange('H4').setValue('13:45');
  sheet.getRange('I1').setFormula('=SUM(C2:C3)');
  sheet.getRange('I2').setFormula('=A2&"-"&B2');
  sheet.getRange('I3').setFormula('=C2>0');
  sheet.getRange('A2').setNote('from the supplier');
  sheet.getRange('B4').setRichTextValue(app.newRichTextValue().setText('B00X').setLinkUrl('https://www.amazon.com/dp/B00X').build());
  sheet.setFrozenRows(1);
  sheet.getRange('A1:I3').createFilter();
  sheet.setConditionalFormatRules([
    app
      .newConditionalFormatRule()
      .whenNumberLessThan(0)
      .setBackground('#f4cccc')
      .setRanges([sheet.getRange('C2:C3')])
      .build(),
    app
      .newConditionalFormatRule()
      .whenNumberGreaterThan(0)
      .setBackground('#d9ead3')
      .setRanges([sheet.getRange('C2:C3')])
      .build(),
  ]);
  sheet.getRange('J2:J3').insertCheckboxes();
  sheet.getRange('J2').check();
  sheet.getRange('K2').setDataValidation(app.newDataValidation().requireValueInList(['US', 'DE', 'UK']).setAllowInvalid(false).build());
  // a list table with an open named range and a hidden base tab
  const tags = ss.insertSheet('Scan tags');
  tags.getRange('A1:C2').setValues([
    ['Marketplace', 'ASIN', 'Tags'],
    ['US', "'B000000001", 'a, b'],
  ]);
  ss.setNamedRange('SCAN_TAGS', tags.getRange('A1:C2'));
  ss.setNamedRange('OPEN_COLUMN', tags.getRange('A2:A'));
  const base = ss.insertSheet('_scan_base_mpack_3fab3bc419d0');
  base.getRange('A1').setValue('[["US\\tB000000007","6"]]');
  base.hideSheet();
  const staging = ss.insertSheet('~import 12 errors');
  staging.hideSheet();
  return wb;
}

describe('xlsx round trip (issue 20)', () => {
  test('every kind of cell and sheet the add-on writes comes back the same, and a second round trip changes nothing', async () => {
    const wb = addonWorkbook();
    const before = snapshot(wb);
    const once = await roundTrip(wb);
    expect(snapshot(once)).toEqual(before);
    expect(snapshot(await roundTrip(once))).toEqual(before);
  });

  test('quote-prefixed text: the value has no apostrophe, the file holds quotePrefix="1" on the style, as a Sheets .xlsx download does', async () => {
    const wb = addonWorkbook();
    expect(wb.cell('Scan 2026-11-26', 'B2')).toMatchObject({ value: 'B000000006', quotePrefix: true });
    expect(wb.cell('Scan 2026-11-26', 'B3')).toMatchObject({ value: 'plain words', quotePrefix: false });
    const bytes = await wb.toXlsx();
    const zip = await JSZip.loadAsync(bytes);
    const styles = await zip.file('xl/styles.xml')!.async('string');
    const xfs = [.../<cellXfs\b[^>]*>([\s\S]*?)<\/cellXfs>/.exec(styles)![1].matchAll(/<xf\b[^>]*\/>|<xf\b[^>]*>[\s\S]*?<\/xf>/g)].map(
      (m) => m[0],
    );
    const sheetXml = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
    const styleOf = (a1: string) => Number(/\ss="(\d+)"/.exec(new RegExp(`<c\\b[^>]*\\sr="${a1}"[^>]*>`).exec(sheetXml)![0])?.[1] ?? 0);
    expect(xfs[styleOf('B2')]).toContain('quotePrefix="1"');
    expect(xfs[styleOf('B3')] ?? '').not.toContain('quotePrefix');
    // exceljs (like other readers) sees the text without any apostrophe
    const x = new ExcelJS.Workbook();
    await x.xlsx.load(bytes as unknown as ArrayBuffer);
    expect(x.getWorksheet('Scan 2026-11-26')!.getCell('B2').value).toBe('B000000006');
  });

  test('numbers keep all their digits through the file (Sheets keeps the double)', async () => {
    const back = await roundTrip(addonWorkbook());
    expect(back.cell('Scan 2026-11-26', 'C2').value).toBe(0.9829461476765573);
    expect(back.cell('Scan 2026-11-26', 'C3').value).toBe(-12345678.123456789);
    expect(back.cell('Scan 2026-11-26', 'D3').value).toBe(1 / 3);
  });

  test('formulas come back with their cached values; hidden tabs stay hidden; an open named range stays open', async () => {
    const back = await roundTrip(addonWorkbook());
    expect(back.cell('Scan 2026-11-26', 'I2')).toMatchObject({ formula: '=A2&"-"&B2', value: '036000291452-B000000006' });
    expect(back.cell('Scan 2026-11-26', 'I3')).toMatchObject({ formula: '=C2>0', value: true });
    expect(back.sheets.filter((s) => s.hidden).map((s) => s.name)).toEqual(['~import 12 errors', '_scan_base_mpack_3fab3bc419d0']);
    const open = back.namedRanges.get('OPEN_COLUMN')!;
    expect(open.area.open).toMatchObject({ r2: true });
    const { ss } = makeEnv({ wb: back });
    const tags = ss.getSheetByName('Scan tags')!;
    tags.insertRowsAfter(tags.getMaxRows(), 10);
    expect(ss.getRangeByName('OPEN_COLUMN')!.getA1Notation()).toBe('A2:A');
    expect(ss.getRangeByName('OPEN_COLUMN')!.getNumRows()).toBe(tags.getMaxRows() - 1);
  });

  test('saving refuses, naming it, a sheet name over 31 characters (an .xlsx sheet name holds 31) and writes nothing', async () => {
    const wb = new Workbook();
    wb.addSheet('_scan_base_multipack_6447b8070e5e');
    await expect(wb.toXlsx()).rejects.toThrow(
      'Sheet name "_scan_base_multipack_6447b8070e5e" has 33 characters; an .xlsx sheet name holds at most 31. Rename it; nothing was saved.',
    );
    const ok = new Workbook();
    ok.addSheet('x'.repeat(31));
    expect((await roundTrip(ok)).sheetNames()).toEqual(['Sheet1', 'x'.repeat(31)]);
  });

  test('a sheet name with a character .xlsx cannot hold is refused, not changed', async () => {
    const { wb, ss } = makeEnv();
    ss.insertSheet('Costs [2026]');
    await expect(wb.toXlsx()).rejects.toThrow(/Sheet name "Costs \[2026\]" has a character an \.xlsx sheet name cannot hold/);
    expect(thrown(() => ss.insertSheet('Costs [2026]'))).toMatch(/already exists/);
  });
});
