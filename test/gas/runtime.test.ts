import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evalIn, fixtureRuntime, thrown } from './helpers';
import { createRuntime, declaredFunctions } from '../../emulator/gas';

describe('runtime: executions', () => {
  const rt = fixtureRuntime();
  afterAll(() => rt.stop());

  test('run() calls a top-level function of the loaded script and returns its result', () => {
    expect(rt.run('hello', ['Ada'])).toBe('Hello, Ada');
  });

  test("run() of a function the script lacks fails with Google's message", () => {
    expect(thrown(() => rt.run('noSuchFunction'))).toBe('Script function not found: noSuchFunction');
  });

  test("the script's own error propagates out of run()", () => {
    expect(thrown(() => evalIn(rt, "throw new Error('boom')"))).toBe('boom');
  });

  test('every execution gets a fresh context: globals set by an earlier execution are gone (as in Apps Script)', () => {
    expect(rt.run('setGlobal')).toBe('string');
    expect(rt.run('readGlobal')).toBe('undefined');
  });

  test('a script file rewritten between executions is what the next execution runs (the compiled copy is per file version)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gas-rebuilt-'));
    const file = join(dir, 'Code.js');
    try {
      writeFileSync(file, 'var LOADS = (LOADS || 0) + 1; function version() { return "first " + LOADS; }');
      const own = createRuntime({ scriptPath: file });
      expect(own.run('version')).toBe('first 1');
      expect(own.run('version')).toBe('first 1');
      writeFileSync(file, 'function version() { return "second, rebuilt"; }');
      expect(own.run('version')).toBe('second, rebuilt');
      await own.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("arguments arrive as the script's own Arrays and Dates (instanceof works inside)", () => {
    expect(Array.from(rt.run('argTypes', [[1, 2], new Date(0)]) as boolean[])).toEqual([true, true, true]);
  });

  test("service errors are the script's own Error objects named Exception", () => {
    const r = evalIn(rt, "try { Utilities.base64Decode('%%%'); } catch (e) { return [e instanceof Error, e.name, String(e)]; }");
    expect(Array.from(r)).toEqual([true, 'Exception', 'Exception: Could not decode string.']);
  });

  test('executions run as the owner by default, or as the given user', () => {
    expect(rt.run('whoAmI')).toBe('owner@example.com');
    expect(rt.run('whoAmI', [], { user: 'editor@example.com' })).toBe('editor@example.com');
  });

  test('each execution is recorded with its kind, user and modelled duration (start-up cost included)', () => {
    const before = rt.executions.length;
    rt.run('hello', ['x']);
    const rec = rt.executions[before];
    expect(rec).toMatchObject({ functionName: 'hello', kind: 'normal', authMode: 'FULL', ok: true });
    expect(rec.durationMs).toBe(rt.state.cost.executionStartMs);
  });

  test('state.current is set during an execution and cleared after', () => {
    expect(evalIn(rt, 'return 1')).toBe(1);
    expect(rt.state.current).toBeNull();
  });
});

describe('runtime: the 6-minute limit', () => {
  test('an execution passing 6 minutes throws "Exceeded maximum execution time" at the next service call', async () => {
    const rt = fixtureRuntime();
    const msg = thrown(() => evalIn(rt, 'Utilities.sleep(300000); Utilities.sleep(60000); return "finished";'));
    expect(msg).toBe('Exceeded maximum execution time');
    await rt.stop();
  });

  test('just under the limit the execution completes', async () => {
    const rt = fixtureRuntime();
    expect(evalIn(rt, 'Utilities.sleep(300000); Utilities.sleep(59000); return "finished";')).toBe('finished');
    await rt.stop();
  });

  test('a script that catches the time-limit error still ends with it, like Google kills it', async () => {
    const rt = fixtureRuntime();
    expect(thrown(() => rt.run('catchTimeLimit'))).toBe('Exceeded maximum execution time');
    expect(rt.executions.at(-1)).toMatchObject({ ok: false, error: 'Exceeded maximum execution time' });
    await rt.stop();
  });
});

describe('runtime: simple triggers', () => {
  test('open() fires onOpen as a simple trigger: AuthMode NONE while the add-on is not yet used in the document, LIMITED once a menu item has run', async () => {
    const rt = fixtureRuntime();
    rt.properties.document!.set('k', 'v');
    expect(rt.open()).toEqual({ authMode: 'NONE', props: 'ERR: You do not have permission to call PropertiesService service.' });
    expect(rt.executions.at(-1)).toMatchObject({ functionName: 'onOpen', kind: 'simple-trigger', authMode: 'NONE' });
    // onOpen added the add-on menu even in NONE; its item is clicked.
    rt.run('menuStart');
    expect(rt.open()).toEqual({ authMode: 'LIMITED', props: 'v' });
    expect(rt.executions.at(-1)).toMatchObject({ functionName: 'onOpen', kind: 'simple-trigger', authMode: 'LIMITED' });
    expect(rt.logs).toEqual(expect.arrayContaining(['onOpen authMode=NONE', 'onOpen authMode=LIMITED']));
    await rt.stop();
  });

  test('open({authMode: NONE}): onOpen cannot read properties (no services that need authorisation)', async () => {
    const rt = fixtureRuntime();
    expect(rt.open({ authMode: 'NONE' })).toEqual({
      authMode: 'NONE',
      props: 'ERR: You do not have permission to call PropertiesService service.',
    });
    await rt.stop();
  });

  test('install() fires onInstall in AuthMode FULL', async () => {
    const rt = fixtureRuntime();
    expect(rt.install()).toBe('installed FULL');
    await rt.stop();
  });

  test('simple triggers have the 30-second limit', async () => {
    const rt = fixtureRuntime();
    expect(thrown(() => rt.run('evaluate', ['Utilities.sleep(31000)', null], { kind: 'simple-trigger', authMode: 'LIMITED' }))).toBe(
      'Exceeded maximum execution time',
    );
    await rt.stop();
  });
});

describe('runtime: declared functions', () => {
  test('only column-0 `function NAME(` declarations count (what the build emits)', () => {
    expect(declaredFunctions('function a() {}\n  function nested() {}\nvar b = function () {};\nfunction c_(x) {}\n')).toEqual(['a', 'c_']);
  });
});
