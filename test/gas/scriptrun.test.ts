import { fixtureRuntime, thrown } from './helpers';

describe('google.script.run (runtime.scriptRun)', () => {
  const rt = fixtureRuntime();
  afterAll(() => rt.stop());

  test('calls a top-level server function with plain arguments and returns its result', () => {
    expect(rt.scriptRun('echoArgs', [1, 'two', true, null, { a: [1, { b: 'c' }] }])).toEqual([
      1,
      'two',
      true,
      null,
      { a: [1, { b: 'c' }] },
    ]);
    expect(rt.executions.at(-1)).toMatchObject({ functionName: 'echoArgs', kind: 'sidebar-call', authMode: 'FULL' });
  });

  test('a function whose name ends in "_" cannot be called', () => {
    expect(thrown(() => rt.scriptRun('privateThing_'))).toBe('Script function not found: privateThing_');
  });

  test("a Date argument makes the call fail (chosen wording after the client's message)", () => {
    expect(thrown(() => rt.scriptRun('echoArgs', ['ok', { when: new Date() }]))).toBe('Failed due to illegal value in property: 1.when');
  });

  test('a function or class-instance argument makes the call fail', () => {
    expect(thrown(() => rt.scriptRun('echoArgs', [() => 1]))).toBe('Failed due to illegal value in property: 0');
    class Point {
      constructor(public x: number) {}
    }
    expect(thrown(() => rt.scriptRun('echoArgs', [[new Point(1)]]))).toBe('Failed due to illegal value in property: 0.0');
  });

  test('a Date in the result makes the call fail, however deep', () => {
    expect(thrown(() => rt.scriptRun('getDate'))).toBe('Failed due to illegal value in property: result');
    expect(thrown(() => rt.scriptRun('getNested', [false]))).toBe('Failed due to illegal value in property: result.when.at');
  });

  test('a class instance in the result makes the call fail', () => {
    expect(thrown(() => rt.scriptRun('getClassInstance'))).toBe('Failed due to illegal value in property: result');
  });

  test('undefined inside arrays becomes null; undefined properties are dropped', () => {
    expect(rt.scriptRun('getNested', [true])).toEqual({ list: [1, null, 'x'], ok: true });
  });

  test('the result is a host copy (plain data, as the page receives it)', () => {
    const r = rt.scriptRun('echoArgs', [[1, 2]]) as unknown[];
    expect(r instanceof Array).toBe(true);
  });

  test('each call is its own execution with the 6-minute limit', () => {
    expect(thrown(() => rt.scriptRun('catchTimeLimit'))).toBe('Exceeded maximum execution time');
  });

  test('scriptRunFunctions: what google.script.run offers a page (top-level functions, none ending in "_")', () => {
    const names = rt.scriptRunFunctions();
    expect(names).toEqual(expect.arrayContaining(['hello', 'echoArgs', 'whoAmI']));
    expect(names).not.toContain('privateThing_');
  });

  test('calls run as the given user', () => {
    expect(rt.scriptRun('whoAmI', [], { user: 'ed@example.com' })).toBe('ed@example.com');
  });
});
