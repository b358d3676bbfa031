import { evalIn, fixtureInUse, fixtureRuntime, thrown } from './helpers';

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
    const rt = fixtureInUse();
    expect(rt.callCustomFunction('DOUBLE', [21])).toBe(42);
    expect(rt.executions.at(-1)).toMatchObject({ functionName: 'DOUBLE', kind: 'custom-function', authMode: 'CUSTOM_FUNCTION', ok: true });
    rt.close();
  });

  test('a formula in the workbook calls the script\'s custom function', () => {
    const rt = fixtureInUse();
    rt.workbook.type('Sheet1', 'A1', '=DOUBLE(4)');
    expect(rt.workbook.cell('Sheet1', 'A1').value).toBe(8);
    rt.close();
  });

  test('the 30-second limit: the error is "Exceeded maximum execution time (line 0)."', () => {
    const rt = fixtureInUse();
    expect(thrown(() => rt.callCustomFunction('SLOWFN', []))).toBe('Exceeded maximum execution time (line 0).');
    rt.workbook.type('Sheet1', 'B1', '=SLOWFN()');
    expect(rt.workbook.cell('Sheet1', 'B1').error).toBe('Exceeded maximum execution time (line 0).');
    rt.close();
  });

  test('services that need authorisation are refused with Google\'s wording; Cache, Lock, Properties, Utilities work', () => {
    const rt = fixtureInUse();
    const call = (s: string) => rt.callCustomFunction('TRYSERVICE', [s]);
    expect(call('DriveApp')).toBe('error: You do not have permission to call DriveApp service.');
    expect(call('ScriptApp')).toBe('error: You do not have permission to call ScriptApp service.');
    expect(call('HtmlService')).toBe('error: You do not have permission to call HtmlService service.');
    for (const ok of ['CacheService', 'LockService', 'Utilities', 'PropertiesService']) expect(call(ok)).toBe('ok');
    expect(call('Session')).toBe('email=');
    rt.close();
  });

  test('UrlFetchApp is allowed (it fails here only because nothing listens)', () => {
    const rt = fixtureInUse();
    expect(thrown(() => rt.run('evaluate', ["UrlFetchApp.fetch('http://127.0.0.1:1/x')", null], { kind: 'custom-function' }))).toBe('Address unavailable: http://127.0.0.1:1/x');
    rt.close();
  });

  test('getUserProperties() inside a custom function is the OWNER\'s store, even when an editor recalculates', () => {
    const rt = fixtureInUse();
    rt.properties.user('owner@example.com').set('apiKey', 'owner-key');
    rt.properties.user('editor@example.com').set('apiKey', 'editor-key');
    rt.activeUser = 'editor@example.com';
    expect(rt.callCustomFunction('OWNERKEY', [])).toBe('owner-key');
    rt.close();
  });

  test('an editor cannot set user properties in a custom function (message chosen); the owner can', () => {
    const rt = fixtureInUse();
    rt.activeUser = 'editor@example.com';
    expect(thrown(() => rt.callCustomFunction('SETKEY', ['x']))).toBe('You do not have permission to set user properties in a custom function.');
    expect(rt.properties.user('owner@example.com').get('apiKey')).toBeNull();
    rt.activeUser = 'owner@example.com';
    expect(rt.callCustomFunction('SETKEY', ['y'])).toBe('set');
    rt.close();
  });

  test('a custom function recalculated during another execution runs beside it: its time is not charged to the caller', () => {
    const rt = fixtureInUse();
    const from = rt.executions.length;
    const t0 = rt.state.clock.now();
    evalIn(rt, "SpreadsheetApp.getActiveSheet().getRange('C1').setValue('=SLOWFN()');");
    const spent = rt.state.clock.now() - t0;
    expect(spent).toBeLessThan(5000);
    expect(rt.workbook.cell('Sheet1', 'C1').error).toBe('Exceeded maximum execution time (line 0).');
    expect(rt.executions.slice(from).map((e) => e.kind)).toEqual(['custom-function', 'normal']);
    rt.close();
  });

  describe('Editor add-on activation: custom functions are unknown until a menu item of the add-on has run in the document', () => {
    test('before: a formula shows #NAME? (Unknown function) and no execution runs; open() runs onOpen in AuthMode NONE', () => {
      const rt = fixtureRuntime();
      rt.workbook.type('Sheet1', 'A1', '=double(4)');
      expect(rt.workbook.cell('Sheet1', 'A1').value).toBe('#NAME?');
      expect(rt.workbook.cell('Sheet1', 'A1').error).toBe("Unknown function: 'DOUBLE'.");
      expect(rt.executions).toEqual([]);
      expect(thrown(() => rt.callCustomFunction('DOUBLE', [2]))).toBe("Unknown function: 'DOUBLE'.");
      expect(rt.open()).toMatchObject({ authMode: 'NONE' });
      expect(rt.addOnUsed).toBe(false);
      rt.close();
    });

    test('running other functions (not menu items), a sidebar call or onInstall does not enable it', () => {
      const rt = fixtureRuntime();
      rt.open();
      rt.run('hello', ['x']);
      rt.scriptRun('hello', ['y']);
      rt.install();
      expect(rt.addOnUsed).toBe(false);
      rt.workbook.type('Sheet1', 'A1', '=DOUBLE(4)');
      expect(rt.workbook.cell('Sheet1', 'A1').value).toBe('#NAME?');
      rt.close();
    });

    test('a menu item is not a menu item before a menu offering it was added (the user cannot click it)', () => {
      const rt = fixtureRuntime();
      rt.run('menuStart');
      expect(rt.addOnUsed).toBe(false);
      rt.close();
    });

    test('after any user runs a menu item: formulas work for everyone, onOpen runs in LIMITED; an earlier #NAME? cell stays until it recalculates (chosen)', () => {
      const rt = fixtureRuntime();
      rt.workbook.type('Sheet1', 'A1', '=DOUBLE(4)');
      rt.open({ user: 'editor@example.com' });
      expect(rt.run('menuStart', [], { user: 'editor@example.com' })).toBe('started');
      expect(rt.addOnUsed).toBe(true);
      expect(rt.workbook.cell('Sheet1', 'A1').value).toBe('#NAME?');
      rt.workbook.type('Sheet1', 'A2', '=DOUBLE(5)');
      expect(rt.workbook.cell('Sheet1', 'A2').value).toBe(10);
      rt.recalculate();
      expect(rt.workbook.cell('Sheet1', 'A1').value).toBe(8);
      expect(rt.open()).toMatchObject({ authMode: 'LIMITED' });
      rt.close();
    });

    test('the rule can be off (requireMenuRun: false, or not an add-on) or the document already in use (usedInDocument)', () => {
      for (const opts of [{ requireMenuRun: false }, { addOn: false }, { usedInDocument: true }]) {
        const rt = fixtureRuntime(opts);
        rt.workbook.type('Sheet1', 'A1', '=DOUBLE(4)');
        expect(rt.workbook.cell('Sheet1', 'A1').value).toBe(8);
        expect(rt.open()).toMatchObject({ authMode: 'LIMITED' });
        rt.close();
      }
    });
  });
});
