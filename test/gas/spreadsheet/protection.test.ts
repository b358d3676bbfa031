/**
 * Range and sheet protection: Google documents that a new protection mirrors the spreadsheet's
 * permissions until the script changes its editors; afterwards a user who is not an editor gets
 * Google's message on any write into it. The owner may always edit.
 */
import { Env, makeEnv, thrown } from './env';

const PROTECTED =
  'You are trying to edit a protected cell or object. Please contact the spreadsheet owner to remove protection if you need to edit.';

/** Runs fn as another user of the spreadsheet (an editor of the file). */
function asUser<T>(env: Env, user: string, fn: () => T): T {
  const cur = env.state.current!;
  const prev = cur.user;
  cur.user = user;
  try {
    return fn();
  } finally {
    cur.user = prev;
  }
}

describe('protection', () => {
  test('a new range protection restricts nobody; once editors are changed, an editor outside the list cannot write there', () => {
    const env = makeEnv();
    const { app, ss, sheet } = env;
    const p = sheet.getRange('A1:D1').protect().setDescription('Header');
    asUser(env, 'editor@example.com', () => sheet.getRange('A1').setValue('before'));
    expect(sheet.getRange('A1').getValue()).toBe('before');
    p.removeEditors(p.getEditors());
    expect(p.getEditors().map((u) => u.getEmail())).toEqual(['owner@example.com']);
    expect(asUser(env, 'editor@example.com', () => thrown(() => sheet.getRange('B1:C1').setValues([['x', 'y']])))).toBe(PROTECTED);
    expect(asUser(env, 'editor@example.com', () => thrown(() => sheet.getRange('A1:A5').clearContent()))).toBe(PROTECTED);
    expect(asUser(env, 'editor@example.com', () => thrown(() => sheet.deleteRow(1)))).toBe(PROTECTED);
    expect(asUser(env, 'editor@example.com', () => p.canEdit())).toBe(false);
    // Nothing was written; cells outside stay editable; the owner may write.
    expect(sheet.getRange('A1:C1').getValues()).toEqual([['before', '', '']]);
    asUser(env, 'editor@example.com', () => sheet.getRange('A2').setValue('free'));
    sheet.getRange('B1').setValue('owner');
    expect(sheet.getRange('A2:B2').getValues()[0][0]).toBe('free');
    expect(sheet.getRange('B1').getValue()).toBe('owner');
    // Listed editors may write; warning-only protections let everyone through.
    p.addEditor('editor@example.com');
    asUser(env, 'editor@example.com', () => sheet.getRange('C1').setValue('listed'));
    expect(ss.getProtections(app.ProtectionType.RANGE).map((x) => [x.getDescription(), x.getRange().getA1Notation()])).toEqual([
      ['Header', 'A1:D1'],
    ]);
    p.removeEditor('editor@example.com').setWarningOnly(true);
    asUser(env, 'editor@example.com', () => sheet.getRange('D1').setValue('warned'));
    p.remove();
    expect(ss.getProtections(app.ProtectionType.RANGE)).toEqual([]);
  });

  test('a sheet protection covers rows appended later, except its unprotected ranges; range protections move with rows', () => {
    const env = makeEnv();
    const { app, sheet } = env;
    const p = sheet.protect();
    p.removeEditors(['editor@example.com']);
    p.setUnprotectedRanges([sheet.getRange('E:E')]);
    expect(p.getProtectionType()).toBe(app.ProtectionType.SHEET);
    expect(asUser(env, 'editor@example.com', () => thrown(() => sheet.appendRow(['new'])))).toBe(PROTECTED);
    asUser(env, 'editor@example.com', () => sheet.getRange('E5').setValue('allowed'));
    expect(sheet.getRange('E5').getValue()).toBe('allowed');
    p.remove();
    const r = sheet.getRange('B2').protect();
    r.removeEditors(['x@example.com']);
    sheet.insertRowsBefore(1, 3);
    expect(r.getRange().getA1Notation()).toBe('B5');
    expect(asUser(env, 'editor@example.com', () => thrown(() => sheet.getRange('B5').setValue(1)))).toBe(PROTECTED);
    expect(thrown(() => r.setUnprotectedRanges([]))).toBe('Unprotected ranges can only be set on a sheet protection.');
  });
});
