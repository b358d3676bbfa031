/**
 * Issue 36: every boolean condition a conditional format rule can hold survives an .xlsx save and
 * load (the Verdict column's colours are "text is exactly" rules), written as Excel's own rule for
 * the same condition so other spreadsheet programs show it too.
 * - Google: developers.google.com/apps-script/reference/spreadsheet/conditional-format-rule-builder
 *   (whenTextEqualTo, whenTextContains, whenTextDoesNotContain, whenTextStartsWith, whenTextEndsWith,
 *   whenNumberBetween ... whenFormulaSatisfied, whenCellEmpty/NotEmpty) and .../boolean-criteria.
 * - Excel: ECMA-376 Part 1, 18.3.1.10 cfRule; 18.18.12 ST_CfType; 18.18.15 ST_ConditionalFormattingOperator.
 */
import JSZip from 'jszip';
import { Workbook } from '../../../emulator/gas/spreadsheet';
import { makeEnv } from './env';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** One rule of every boolean kind, each with its own colours, on A1:A3 or B2:C4. */
function everyKind(): { wb: Workbook; sheet: Sheet } {
  const { app, wb, sheet } = makeEnv();
  const rule = () => app.newConditionalFormatRule();
  const a = [sheet.getRange('A1:A3')];
  const b = [sheet.getRange('B2:C4')];
  sheet.setConditionalFormatRules(
    [
      rule().whenTextEqualTo('Buy').setBackground('#d9ead3').setRanges(a),
      rule().whenTextEqualTo('Say "no", then <stop> & go').setFontColor('#cc0000').setRanges(a),
      rule().whenTextContains('hazmat').setBackground('#f4cccc').setBold(true).setRanges(a),
      rule().whenTextDoesNotContain('ok').setBackground('#fff2cc').setRanges(b),
      rule().whenTextStartsWith("Can't").setBackground('#fce5cd').setRanges(b),
      rule().whenTextEndsWith('(FBA)').setFontColor('#0000ff').setRanges(b),
      rule().whenNumberBetween(1, 2.5).setBackground('#cfe2f3').setRanges(b),
      rule().whenNumberNotBetween(-1, 1).setBackground('#d9d2e9').setRanges(b),
      rule().whenNumberEqualTo(3).setBackground('#ead1dc').setRanges(b),
      rule().whenNumberNotEqualTo(0).setBackground('#d0e0e3').setRanges(b),
      rule().whenNumberGreaterThan(10).setBackground('#b6d7a8').setRanges(b),
      rule().whenNumberGreaterThanOrEqualTo(10).setBackground('#a2c4c9').setRanges(b),
      rule().whenNumberLessThan(0).setBackground('#ea9999').setRanges(b),
      rule().whenNumberLessThanOrEqualTo(0).setBackground('#f9cb9c').setRanges(b),
      rule().whenCellEmpty().setBackground('#eeeeee').setRanges(a),
      rule().whenCellNotEmpty().setBold(true).setRanges(a),
      rule().whenFormulaSatisfied('=$B2>$C2').setBackground('#ffe599').setRanges(b),
    ].map((r) => r.build()),
  );
  return { wb, sheet };
}

function read(sheet: Sheet): unknown[] {
  return sheet.getConditionalFormatRules().map((rule) => {
    const c = rule.getBooleanCondition()!;
    return [
      String(c.getCriteriaType()),
      c.getCriteriaValues(),
      c.getBackground(),
      c.getFontColor(),
      c.getBold(),
      rule.getRanges().map((g) => g.getA1Notation()),
    ];
  });
}

async function reloaded(wb: Workbook): Promise<{ wb: Workbook; sheet: Sheet }> {
  const back = await Workbook.fromXlsx(await wb.toXlsx());
  const { ss } = makeEnv({ wb: back });
  return { wb: back, sheet: ss.getSheets()[0] };
}

test('every boolean condition (text is exactly, contains, starts, ends, number comparisons, empty, formula) comes back from a saved workbook', async () => {
  const { wb, sheet } = everyKind();
  const want = read(sheet);
  expect(want).toHaveLength(17);
  expect(want[0]).toEqual(['TEXT_EQUAL_TO', ['Buy'], '#d9ead3', null, null, ['A1:A3']]);
  const once = await reloaded(wb);
  expect(read(once.sheet)).toEqual(want);
  expect(read((await reloaded(once.wb)).sheet)).toEqual(want);
});

test("the file holds Excel's own rule for each condition: the type and operator Excel knows, the text in its formula", async () => {
  const { wb } = everyKind();
  const zip = await JSZip.loadAsync(await wb.toXlsx());
  const xml = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
  const text = (s: string) =>
    s.replace(/&(quot|apos|lt|gt|amp);/g, (_m, e: string) => ({ quot: '"', apos: "'", lt: '<', gt: '>', amp: '&' })[e as 'amp']);
  const rules = [...xml.matchAll(/<cfRule\b([^>]*)>([\s\S]*?)<\/cfRule>/g)].map((m) => {
    const at = (n: string) => new RegExp(`\\s${n}="([^"]*)"`).exec(m[1])?.[1];
    const formulae = [...m[2].matchAll(/<formula>([\s\S]*?)<\/formula>/g)].map((f) => text(f[1]));
    return [at('type'), at('operator') ?? null, at('text') === undefined ? null : text(at('text')!), formulae];
  });
  expect(rules).toEqual([
    ['cellIs', 'equal', null, ['"Buy"']],
    ['cellIs', 'equal', null, ['"Say ""no"", then <stop> & go"']],
    ['containsText', 'containsText', 'hazmat', ['NOT(ISERROR(SEARCH("hazmat",A1)))']],
    ['notContainsText', 'notContains', 'ok', ['ISERROR(SEARCH("ok",B2))']],
    ['beginsWith', 'beginsWith', "Can't", ['LEFT(B2,LEN("Can\'t"))="Can\'t"']],
    ['endsWith', 'endsWith', '(FBA)', ['RIGHT(B2,LEN("(FBA)"))="(FBA)"']],
    ['cellIs', 'between', null, ['1', '2.5']],
    ['cellIs', 'notBetween', null, ['-1', '1']],
    ['cellIs', 'equal', null, ['3']],
    ['cellIs', 'notEqual', null, ['0']],
    ['cellIs', 'greaterThan', null, ['10']],
    ['cellIs', 'greaterThanOrEqual', null, ['10']],
    ['cellIs', 'lessThan', null, ['0']],
    ['cellIs', 'lessThanOrEqual', null, ['0']],
    ['containsBlanks', null, null, ['LEN(TRIM(A1))=0']],
    ['notContainsBlanks', null, null, ['LEN(TRIM(A1))>0']],
    ['expression', null, null, ['$B2>$C2']],
  ]);
});
