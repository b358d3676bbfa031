import { evalIn, fixtureInUse, fixtureRuntime, thrown } from './helpers';
import type { Runtime } from '../../emulator/gas';

const TOO_MANY = 'There are too many scripts running simultaneously for this Google user account.';

/** Numbers 1..n in A1:An, and =DOUBLE(Ai) in B1:Bn, each typed on its own (n separate recalculations). */
function perCellSheet(rt: Runtime, n: number): void {
  for (let i = 1; i <= n; i++) rt.workbook.type('Sheet1', 'A' + i, i);
  for (let i = 1; i <= n; i++) rt.workbook.type('Sheet1', 'B' + i, `=DOUBLE(A${i})`);
}

/** Rows of column col 1..n that show the "too many scripts" error; the others must hold 2 x row. */
function tooMany(rt: Runtime, col: string, n: number, factor = 2): number[] {
  const failed: number[] = [];
  for (let i = 1; i <= n; i++) {
    const c = rt.workbook.cell('Sheet1', col + i);
    if (c.error === TOO_MANY) {
      expect(c.value).toBe('#ERROR!');
      failed.push(i);
    } else expect(c.value).toBe(factor * i);
  }
  return failed;
}

const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_x, i) => a + i);

describe('custom functions', () => {
  test('isCustomFunction: declared top-level functions not ending in "_", matched case-insensitively', async () => {
    const rt = fixtureRuntime();
    expect(rt.customFunctionName('DOUBLE')).toBe('DOUBLE');
    expect(rt.customFunctionName('double')).toBe('DOUBLE');
    expect(rt.customFunctionName('hello')).toBe('hello');
    expect(rt.customFunctionName('privateThing_')).toBeNull();
    expect(rt.customFunctionName('nothing')).toBeNull();
    await rt.stop();
  });

  test('callCustomFunction runs it as its own execution: kind custom-function, AuthMode CUSTOM_FUNCTION', async () => {
    const rt = fixtureInUse();
    expect(rt.callCustomFunction('DOUBLE', [21])).toBe(42);
    expect(rt.executions.at(-1)).toMatchObject({ functionName: 'DOUBLE', kind: 'custom-function', authMode: 'CUSTOM_FUNCTION', ok: true });
    await rt.stop();
  });

  test("a formula in the workbook calls the script's custom function", async () => {
    const rt = fixtureInUse();
    rt.workbook.type('Sheet1', 'A1', '=DOUBLE(4)');
    expect(rt.workbook.cell('Sheet1', 'A1').value).toBe(8);
    await rt.stop();
  });

  test('the 30-second limit: the error is "Exceeded maximum execution time (line 0)."', async () => {
    const rt = fixtureInUse();
    expect(thrown(() => rt.callCustomFunction('SLOWFN', []))).toBe('Exceeded maximum execution time (line 0).');
    rt.workbook.type('Sheet1', 'B1', '=SLOWFN()');
    expect(rt.workbook.cell('Sheet1', 'B1').error).toBe('Exceeded maximum execution time (line 0).');
    await rt.stop();
  });

  test("services that need authorisation are refused with Google's wording; Cache, Lock, Properties, Utilities, HTML work", async () => {
    const rt = fixtureInUse();
    const call = (s: string) => rt.callCustomFunction('TRYSERVICE', [s]);
    expect(call('DriveApp')).toBe('error: You do not have permission to call DriveApp service.');
    expect(call('ScriptApp')).toBe('error: You do not have permission to call ScriptApp service.');
    // HTML is in the guide's table of services custom functions may call (guides/sheets/functions).
    for (const ok of ['CacheService', 'LockService', 'Utilities', 'PropertiesService', 'HtmlService']) expect(call(ok)).toBe('ok');
    expect(call('Session')).toBe('email=');
    await rt.stop();
  });

  test('UrlFetchApp is allowed (it fails here only because nothing listens)', async () => {
    const rt = fixtureInUse();
    expect(thrown(() => rt.run('evaluate', ["UrlFetchApp.fetch('http://127.0.0.1:1/x')", null], { kind: 'custom-function' }))).toBe(
      'Address unavailable: http://127.0.0.1:1/x',
    );
    await rt.stop();
  });

  test("getUserProperties() inside a custom function is the OWNER's store, even when an editor recalculates", async () => {
    const rt = fixtureInUse();
    rt.properties.user('owner@example.com').set('apiKey', 'owner-key');
    rt.properties.user('editor@example.com').set('apiKey', 'editor-key');
    rt.activeUser = 'editor@example.com';
    expect(rt.callCustomFunction('OWNERKEY', [])).toBe('owner-key');
    await rt.stop();
  });

  test('an editor cannot set user properties in a custom function (message chosen); the owner can', async () => {
    const rt = fixtureInUse();
    rt.activeUser = 'editor@example.com';
    expect(thrown(() => rt.callCustomFunction('SETKEY', ['x']))).toBe(
      'You do not have permission to set user properties in a custom function.',
    );
    expect(rt.properties.user('owner@example.com').get('apiKey')).toBeNull();
    rt.activeUser = 'owner@example.com';
    expect(rt.callCustomFunction('SETKEY', ['y'])).toBe('set');
    await rt.stop();
  });

  test('a custom function recalculated during another execution runs beside it: its time is not charged to the caller', async () => {
    const rt = fixtureInUse();
    const from = rt.executions.length;
    const t0 = rt.state.clock.now();
    evalIn(rt, "SpreadsheetApp.getActiveSheet().getRange('C1').setValue('=SLOWFN()');");
    const spent = rt.state.clock.now() - t0;
    expect(spent).toBeLessThan(5000);
    expect(rt.workbook.cell('Sheet1', 'C1').error).toBe('Exceeded maximum execution time (line 0).');
    expect(rt.executions.slice(from).map((e) => e.kind)).toEqual(['custom-function', 'normal']);
    await rt.stop();
  });

  describe('concurrency: at most 30 simultaneous executions per user in one recalculation', () => {
    test('cells typed one at a time are separate recalculations: all 40 compute', async () => {
      const rt = fixtureInUse();
      perCellSheet(rt, 40);
      expect(tooMany(rt, 'B', 40)).toEqual([]);
      await rt.stop();
    });

    test('recalculate() starts 40 one-cell formulas at once: 30 run, the other 10 show #ERROR! "There are too many scripts running simultaneously..." (chosen: the first 30 in row order win, the refused start no execution)', async () => {
      const rt = fixtureInUse();
      perCellSheet(rt, 40);
      const from = rt.executions.length;
      rt.recalculate();
      expect(tooMany(rt, 'B', 40)).toEqual(range(31, 40));
      // No execution starts for the refused cells (chosen: they are not recorded as executions).
      expect(rt.executions.slice(from).map((e) => e.functionName)).toEqual(new Array(30).fill('DOUBLE'));
      await rt.stop();
    });

    test("a script's one write of 40 formulas: the writing execution is one of the user's 30, so 29 run and 11 fail (chosen)", async () => {
      const rt = fixtureInUse();
      for (let i = 1; i <= 40; i++) rt.workbook.type('Sheet1', 'A' + i, i);
      evalIn(
        rt,
        "SpreadsheetApp.getActiveSheet().getRange('B1:B40').setFormulas(args)",
        range(1, 40).map((i) => [`=DOUBLE(A${i})`]),
      );
      expect(tooMany(rt, 'B', 40)).toEqual(range(30, 40));
      await rt.stop();
    });

    test('one edit that 31 formulas read recalculates them together: the 31st fails', async () => {
      const rt = fixtureInUse();
      rt.workbook.type('Sheet1', 'A1', 1);
      for (let i = 1; i <= 31; i++) rt.workbook.type('Sheet1', 'B' + i, '=DOUBLE(A1)');
      rt.workbook.type('Sheet1', 'A1', 5);
      for (let i = 1; i <= 30; i++) expect(rt.workbook.cell('Sheet1', 'B' + i).value).toBe(10);
      expect(rt.workbook.cell('Sheet1', 'B31').error).toBe(TOO_MANY);
      await rt.stop();
    });

    test('a single range formula over the same 40 cells is one execution and never fails', async () => {
      const rt = fixtureInUse();
      for (let i = 1; i <= 40; i++) rt.workbook.type('Sheet1', 'A' + i, i);
      rt.workbook.type('Sheet1', 'B1', '=DOUBLEALL(A1:A40)');
      const from = rt.executions.length;
      rt.recalculate();
      expect(tooMany(rt, 'B', 40)).toEqual([]);
      expect(rt.executions.slice(from)).toHaveLength(1);
      await rt.stop();
    });

    test('formulas fed by other formulas wait for them (a later wave, chosen): 30 in B and 30 in C reading B all compute', async () => {
      const rt = fixtureInUse();
      perCellSheet(rt, 30);
      for (let i = 1; i <= 30; i++) rt.workbook.type('Sheet1', 'C' + i, `=DOUBLE(B${i})`);
      const from = rt.executions.length;
      rt.recalculate();
      expect(tooMany(rt, 'B', 30)).toEqual([]);
      expect(tooMany(rt, 'C', 30, 4)).toEqual([]);
      // Each ran once: B first (wave 1), then C with B's new results (wave 2).
      expect(rt.executions.slice(from)).toHaveLength(60);
      await rt.stop();
    });

    test('modelled time: the executions of one wave run side by side, the clock moves by the slowest, not the sum (chosen)', async () => {
      const rt = fixtureInUse();
      perCellSheet(rt, 30);
      const from = rt.executions.length;
      const t0 = rt.state.clock.now();
      rt.recalculate();
      const runs = rt.executions.slice(from);
      expect(runs).toHaveLength(30);
      const slowest = Math.max(...runs.map((e) => e.durationMs));
      expect(slowest).toBeGreaterThan(0);
      expect(rt.state.clock.now() - t0).toBe(slowest);
      expect(new Set(runs.map((e) => e.startedAt))).toEqual(new Set([t0]));
      await rt.stop();
    });
  });

  describe('Editor add-on activation: custom functions are unknown until a menu item of the add-on has run in the document', () => {
    test('before: a formula shows #NAME? (Unknown function) and no execution runs; open() runs onOpen in AuthMode NONE', async () => {
      const rt = fixtureRuntime();
      rt.workbook.type('Sheet1', 'A1', '=double(4)');
      expect(rt.workbook.cell('Sheet1', 'A1').value).toBe('#NAME?');
      expect(rt.workbook.cell('Sheet1', 'A1').error).toBe("Unknown function: 'DOUBLE'.");
      expect(rt.executions).toEqual([]);
      expect(thrown(() => rt.callCustomFunction('DOUBLE', [2]))).toBe("Unknown function: 'DOUBLE'.");
      expect(rt.open()).toMatchObject({ authMode: 'NONE' });
      expect(rt.addOnUsed).toBe(false);
      await rt.stop();
    });

    test('running other functions (not menu items), a sidebar call or onInstall does not enable it', async () => {
      const rt = fixtureRuntime();
      rt.open();
      rt.run('hello', ['x']);
      rt.scriptRun('hello', ['y']);
      rt.install();
      expect(rt.addOnUsed).toBe(false);
      rt.workbook.type('Sheet1', 'A1', '=DOUBLE(4)');
      expect(rt.workbook.cell('Sheet1', 'A1').value).toBe('#NAME?');
      await rt.stop();
    });

    test('a menu item is not a menu item before a menu offering it was added (the user cannot click it)', async () => {
      const rt = fixtureRuntime();
      rt.run('menuStart');
      expect(rt.addOnUsed).toBe(false);
      await rt.stop();
    });

    test('after any user runs a menu item: formulas work for everyone, onOpen runs in LIMITED; an earlier #NAME? cell stays until it recalculates (chosen)', async () => {
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
      await rt.stop();
    });

    test('the rule can be off (requireMenuRun: false, or not an add-on) or the document already in use (usedInDocument)', async () => {
      for (const opts of [{ requireMenuRun: false }, { addOn: false }, { usedInDocument: true }]) {
        const rt = fixtureRuntime(opts);
        rt.workbook.type('Sheet1', 'A1', '=DOUBLE(4)');
        expect(rt.workbook.cell('Sheet1', 'A1').value).toBe(8);
        expect(rt.open()).toMatchObject({ authMode: 'LIMITED' });
        await rt.stop();
      }
    });
  });
});
