/** Data validation as the lists sync uses it: TRUE/FALSE checkboxes, value lists; Google's documented semantics. */
import { makeEnv, thrown } from './env';

describe('data validation: checkboxes', () => {
  test('insertCheckboxes(): a CHECKBOX rule on every cell and every value FALSE (Google: "Sets the value of all cells in the range to false")', () => {
    const { app, sheet } = makeEnv();
    sheet.getRange('B2').setValue('old');
    const r = sheet.getRange('B1:B3').insertCheckboxes();
    expect(r.getValues()).toEqual([[false], [false], [false]]);
    const rule = sheet.getRange('B2').getDataValidation()!;
    expect(rule.getCriteriaType()).toBe(app.DataValidationCriteria.CHECKBOX);
    expect(rule.getCriteriaValues()).toEqual([]);
    expect(sheet.getRange('C1').getDataValidation()).toBeNull();
    expect(r.isChecked()).toBe(false);
  });

  test('check/uncheck change only cells holding the checked or unchecked value; isChecked is null when mixed', () => {
    const { sheet } = makeEnv();
    const r = sheet.getRange('A1:A3').insertCheckboxes();
    sheet.getRange('A3').setValue('typed over');
    r.check();
    expect(r.getValues()).toEqual([[true], [true], ['typed over']]);
    expect(sheet.getRange('A1:A2').isChecked()).toBe(true);
    expect(r.isChecked()).toBeNull();
    sheet.getRange('A2').uncheck();
    expect(sheet.getRange('A1:A2').isChecked()).toBeNull();
    expect(sheet.getRange('B1').isChecked()).toBeNull(); // no checkbox there
  });

  test('custom checked/unchecked values, and newDataValidation().requireCheckbox() read back', () => {
    const { app, sheet } = makeEnv();
    sheet.getRange('A1:A2').insertCheckboxes('yes', 'no');
    expect(sheet.getRange('A1:A2').getValues()).toEqual([['no'], ['no']]);
    sheet.getRange('A1').check();
    expect(sheet.getRange('A1').getValue()).toBe('yes');
    const rule = app.newDataValidation().requireCheckbox().setAllowInvalid(false).setHelpText('Tick to sync').build();
    sheet.getRange('C1:C2').setDataValidation(rule);
    const back = sheet.getRange('C2').getDataValidation()!;
    expect([back.getCriteriaType(), back.getAllowInvalid(), back.getHelpText()]).toEqual(['CHECKBOX', false, 'Tick to sync']);
    expect(
      sheet
        .getRange('C1:C2')
        .getDataValidations()
        .map((row) => row.map((v) => v?.getCriteriaType() ?? null)),
    ).toEqual([['CHECKBOX'], ['CHECKBOX']]);
  });

  test('removeCheckboxes clears the rule and the values that were checkbox states; clear() removes rules, clearContent keeps them', () => {
    const { sheet } = makeEnv();
    sheet.getRange('A1:A3').insertCheckboxes();
    sheet.getRange('A1').check();
    sheet.getRange('A3').setValue('note');
    sheet.getRange('A1:A3').removeCheckboxes();
    expect(sheet.getRange('A1:A3').getValues()).toEqual([[''], [''], ['note']]);
    expect(sheet.getRange('A1').getDataValidation()).toBeNull();
    sheet.getRange('B1:B2').insertCheckboxes();
    sheet.getRange('B1:B2').clearContent();
    expect(sheet.getRange('B1').getDataValidation()?.getCriteriaType()).toBe('CHECKBOX');
    sheet.getRange('B1:B2').clear();
    expect(sheet.getRange('B1').getDataValidation()).toBeNull();
  });

  test('rules move with their cells when rows are inserted', () => {
    const { sheet } = makeEnv();
    sheet.getRange('A2').insertCheckboxes();
    sheet.insertRowsBefore(1, 2);
    expect(sheet.getRange('A4').getDataValidation()?.getCriteriaType()).toBe('CHECKBOX');
    expect(sheet.getRange('A2').getDataValidation()).toBeNull();
  });
});

describe('data validation: lists and arguments', () => {
  test('requireValueInList keeps the values and the dropdown flag; a rule without criteria cannot be built (chosen wording)', () => {
    const { app, sheet } = makeEnv();
    sheet.getRange('D1').setDataValidation(app.newDataValidation().requireValueInList(['US', 'DE'], false).build());
    expect(sheet.getRange('D1').getDataValidation()!.getCriteriaValues()).toEqual([['US', 'DE'], false]);
    expect(thrown(() => app.newDataValidation().build())).toBe('The data validation rule has no criteria.');
    sheet.getRange('D1').setDataValidation(null);
    expect(sheet.getRange('D1').getDataValidation()).toBeNull();
  });

  test("setDataValidation with something else: Google's signature message; setDataValidations checks dimensions", () => {
    const { sheet, app } = makeEnv();
    expect(thrown(() => sheet.getRange('A1').setDataValidation('x' as never))).toBe(
      "The parameters (String) don't match the method signature for SpreadsheetApp.Range.setDataValidation.",
    );
    const rule = app.newDataValidation().requireCheckbox().build();
    expect(thrown(() => sheet.getRange('A1:A2').setDataValidations([[rule]]))).toBe(
      'The number of rows in the data does not match the number of rows in the range. The data has 1 but the range has 2.',
    );
  });
});
