import { evalIn, fixtureRuntime, thrown } from './helpers';

describe('custom functions', () => {
  test('isCustomFunction: declared top-level functions not ending in "_", matched case-insensitively', () => {
    const rt = fixtureRuntime();
    expect(rt.customFunctionName('DOUBLE')).toBe('DOUBLE');
    expect(rt.customFunctionName('double')).toBe('DOUBLE');
    expect(rt.customFunctionName('hello')).toBe('hello');
    expect(rt.customFunctionName('privateThing_')).toBeNull();
    expect(rt.customFunctionName('nothing')).toBeNull();
    rt.close();
  });

  test('callCustomFunction runs it as its own execution: kind custom-function, AuthMode CUSTOM_FUNCTION', () => {
    const rt = fixtureRuntime();
    expect(rt.callCustomFunction('DOUBLE', [21])).toBe(42);
    expect(rt.executions.at(-1)).toMatchObject({ functionName: 'DOUBLE', kind: 'custom-function', authMode: 'CUSTOM_FUNCTION', ok: true });
    rt.close();
  });

  test('a formula in the workbook calls the script\'s custom function', () => {
    const rt = fixtureRuntime();
    rt.workbook.type('Sheet1', 'A1', '=DOUBLE(4)');
    expect(rt.workbook.cell('Sheet1', 'A1').value).toBe(8);
    rt.close();
  });

  test('the 30-second limit: the error is "Exceeded maximum execution time (line 0)."', () => {
    const rt = fixtureRuntime();
    expect(thrown(() => rt.callCustomFunction('SLOWFN', []))).toBe('Exceeded maximum execution time (line 0).');
    rt.workbook.type('Sheet1', 'B1', '=SLOWFN()');
    expect(rt.workbook.cell('Sheet1', 'B1').error).toBe('Exceeded maximum execution time (line 0).');
    rt.close();
  });

  test('services that need authorisation are refused with Google\'s wording; Cache, Lock, Properties, Utilities work', () => {
    const rt = fixtureRuntime();
    const call = (s: string) => rt.callCustomFunction('TRYSERVICE', [s]);
    expect(call('DriveApp')).toBe('error: You do not have permission to call DriveApp service.');
    expect(call('ScriptApp')).toBe('error: You do not have permission to call ScriptApp service.');
    expect(call('HtmlService')).toBe('error: You do not have permission to call HtmlService service.');
    for (const ok of ['CacheService', 'LockService', 'Utilities', 'PropertiesService']) expect(call(ok)).toBe('ok');
    expect(call('Session')).toBe('email=');
    rt.close();
  });

  test('UrlFetchApp is allowed (it fails here only because nothing listens)', () => {
    const rt = fixtureRuntime();
    expect(thrown(() => rt.run('evaluate', ["UrlFetchApp.fetch('http://127.0.0.1:1/x')", null], { kind: 'custom-function' }))).toBe('Address unavailable: http://127.0.0.1:1/x');
    rt.close();
  });

  test('getUserProperties() inside a custom function is the OWNER\'s store, even when an editor recalculates', () => {
    const rt = fixtureRuntime();
    rt.properties.user('owner@example.com').set('apiKey', 'owner-key');
    rt.properties.user('editor@example.com').set('apiKey', 'editor-key');
    rt.activeUser = 'editor@example.com';
    expect(rt.callCustomFunction('OWNERKEY', [])).toBe('owner-key');
    rt.close();
  });

  test('an editor cannot set user properties in a custom function (message chosen); the owner can', () => {
    const rt = fixtureRuntime();
    rt.activeUser = 'editor@example.com';
    expect(thrown(() => rt.callCustomFunction('SETKEY', ['x']))).toBe('You do not have permission to set user properties in a custom function.');
    expect(rt.properties.user('owner@example.com').get('apiKey')).toBeNull();
    rt.activeUser = 'owner@example.com';
    expect(rt.callCustomFunction('SETKEY', ['y'])).toBe('set');
    rt.close();
  });

  test('a custom function recalculated during another execution runs beside it: its time is not charged to the caller', () => {
    const rt = fixtureRuntime();
    const t0 = rt.state.clock.now();
    evalIn(rt, "SpreadsheetApp.getActiveSheet().getRange('C1').setValue('=SLOWFN()');");
    const spent = rt.state.clock.now() - t0;
    expect(spent).toBeLessThan(5000);
    expect(rt.workbook.cell('Sheet1', 'C1').error).toBe('Exceeded maximum execution time (line 0).');
    expect(rt.executions.map((e) => e.kind)).toEqual(['custom-function', 'normal']);
    rt.close();
  });
});
