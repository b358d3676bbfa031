/**
 * google.script.run in a real page (emulator/gas/client): Google's rules applied in the page before
 * a call leaves it, handlers, user objects, chaining and asynchrony. The server is the local runtime
 * running the runtime's fixture script (test/gas/fixtures/services.js), or a canned one.
 */
import type { Page } from 'playwright-core';
import { runtimeServer } from '../../emulator/gas/client';
import type { Runtime } from '../../emulator/gas';
import { fixtureRuntime } from '../gas/helpers';
import { canned, closeAll, openSidebar, until, type Sidebar } from './harness';

jest.setTimeout(30_000);

const PAGE = `<!doctype html><html><body>
<form id="f"><input name="a" value="1"><input type="checkbox" name="c" value="yes" checked><input type="checkbox" name="d" value="no">
<select name="s" multiple><option selected>x</option><option selected>y</option></select><input type="submit" name="go" value="Go"></form>
</body></html>`;

let rt: Runtime;
let sb: Sidebar;

beforeAll(async () => {
  rt = fixtureRuntime();
  const { server, functions } = runtimeServer(rt);
  sb = await openSidebar(server, { html: PAGE, functions });
});
afterAll(() => closeAll(sb, rt));
beforeEach(() => {
  sb.calls.length = 0;
  sb.errors.length = 0;
});

interface Outcome {
  ok?: unknown;
  fail?: { isError: boolean; name: string; message: string };
  user?: unknown;
  /** Whether a handler ran before the call statement returned. */
  sync?: boolean;
}

/**
 * Runs `call` in the page (a statement using `run`, a runner with handlers that settle the outcome;
 * `userObject` is set with withUserObject when given) and returns what the handlers received.
 */
function outcome(page: Page, call: string, userObject?: string): Promise<Outcome> {
  return page.evaluate(`new Promise((resolve) => {
    let returned = false;
    const ok = (v, u) => resolve({ ok: v === undefined ? '<undefined>' : v, user: u, sync: !returned });
    const fail = (e, u) => resolve({ fail: { isError: e instanceof Error, name: e.name, message: e.message }, user: u, sync: !returned });
    let run = google.script.run.withSuccessHandler(ok).withFailureHandler(fail);
    ${userObject ? `run = run.withUserObject(${userObject});` : ''}
    ${call};
    returned = true;
  })`) as Promise<Outcome>;
}

test('plain arguments reach the server function and its result reaches the success handler, asynchronously', async () => {
  const r = await outcome(sb.page, "run.echoArgs(1, 'two', true, null, { a: [1, { b: 'c' }] }, -0.5)");
  expect(r).toEqual({ ok: [1, 'two', true, null, { a: [1, { b: 'c' }] }, -0.5], sync: false });
  expect(sb.calls).toEqual([
    {
      fn: 'echoArgs',
      args: [1, 'two', true, null, { a: [1, { b: 'c' }] }, -0.5],
      result: [1, 'two', true, null, { a: [1, { b: 'c' }] }, -0.5],
    },
  ]);
  expect(rt.executions.at(-1)).toMatchObject({ functionName: 'echoArgs', kind: 'sidebar-call' });
});

test('a Date argument fails the call in the page: the failure handler gets Google-like words and nothing reaches the server', async () => {
  await expect(outcome(sb.page, 'run.echoArgs(new Date(0))')).resolves.toEqual({
    fail: { isError: true, name: 'Error', message: 'Failed due to illegal value in property: 0' },
    sync: false,
  });
  await expect(outcome(sb.page, "run.echoArgs('ok', { when: new Date(0) })")).resolves.toMatchObject({
    fail: { message: 'Failed due to illegal value in property: 1.when' },
  });
  expect(sb.calls).toEqual([]);
});

test('a function argument, anywhere inside, fails the call', async () => {
  await expect(outcome(sb.page, 'run.echoArgs(() => 1)')).resolves.toMatchObject({
    fail: { message: 'Failed due to illegal value in property: 0' },
  });
  await expect(outcome(sb.page, 'run.echoArgs({ list: [1, { f() {} }] })')).resolves.toMatchObject({
    fail: { message: 'Failed due to illegal value in property: 0.list.1.f' },
  });
  expect(sb.calls).toEqual([]);
});

test('a DOM node, a class instance, a Map or a circular object fails the call', async () => {
  await expect(outcome(sb.page, 'run.echoArgs({ el: document.body })')).resolves.toMatchObject({
    fail: { message: 'Failed due to illegal value in property: 0.el' },
  });
  await expect(outcome(sb.page, 'class P { constructor() { this.x = 1; } }; run.echoArgs(1, [new P()])')).resolves.toMatchObject({
    fail: { message: 'Failed due to illegal value in property: 1.0' },
  });
  await expect(outcome(sb.page, 'run.echoArgs(new Map())')).resolves.toMatchObject({
    fail: { message: 'Failed due to illegal value in property: 0' },
  });
  await expect(outcome(sb.page, 'const o = { a: 1 }; o.self = o; run.echoArgs(o)')).resolves.toMatchObject({
    fail: { message: 'Failed due to illegal value in property: 0.self' },
  });
  expect(sb.calls).toEqual([]);
});

test('undefined inside an array arrives as null; an undefined property is dropped', async () => {
  const r = await outcome(sb.page, "run.echoArgs([1, undefined, 'x'], { a: undefined, b: 2 })");
  expect(r.ok).toEqual([[1, null, 'x'], { b: 2 }]);
  expect(sb.calls[0].args).toEqual([[1, null, 'x'], { b: 2 }]);
});

test('a form element as the only argument arrives as its fields; beside other arguments it fails', async () => {
  await expect(outcome(sb.page, "run.echoArgs(document.getElementById('f'))")).resolves.toMatchObject({
    ok: [{ a: '1', c: 'yes', s: ['x', 'y'] }],
  });
  await expect(outcome(sb.page, "run.echoArgs(1, document.getElementById('f'))")).resolves.toMatchObject({
    fail: { message: 'Failed due to illegal value in property: 1' },
  });
});

test('withUserObject: the object (not a copy, never sent) is the second argument of the success and of the failure handler', async () => {
  const page = sb.page;
  const r = await page.evaluate(`new Promise((resolve) => {
    const mine = { row: 7, el: document.body, when: new Date(0) };
    const seen = [];
    const done = () => seen.length === 2 && resolve(seen);
    const run = google.script.run.withUserObject(mine)
      .withSuccessHandler((v, u) => { seen.push({ handler: 'success', value: v, same: u === mine }); done(); })
      .withFailureHandler((e, u) => { seen.push({ handler: 'failure', message: e.message, same: u === mine }); done(); });
    run.hello('Ann');
    run.failingTick();
  })`);
  expect(r).toEqual(
    expect.arrayContaining([
      { handler: 'success', value: 'Hello, Ann', same: true },
      { handler: 'failure', message: 'tick failed', same: true },
    ]),
  );
  // The user object (with a Date and a DOM node in it) is not an argument: the server got only 'Ann'.
  expect(sb.calls.find((c) => c.fn === 'hello')!.args).toEqual(['Ann']);
});

test('chaining: each with* returns a new runner and leaves the one it was called on unchanged', async () => {
  const r = await sb.page.evaluate(`new Promise((resolve) => {
    const got = [];
    const base = google.script.run.withFailureHandler((e) => got.push('base-failure'));
    const a = base.withSuccessHandler((v) => got.push('a:' + v));
    const b = base.withSuccessHandler((v) => got.push('b:' + v));
    const c = a.withUserObject('U').withSuccessHandler((v, u) => got.push('c:' + v + ':' + u));
    a.hello('A'); b.hello('B'); c.hello('C'); base.failingTick();
    const distinct = new Set([google.script.run, base, a, b, c]).size;
    // Until the four calls have answered (bounded), not for a guessed time.
    const end = Date.now() + 10000;
    const settle = () =>
      got.length >= 4 || Date.now() > end
        ? resolve({ got: got.sort(), distinct, plainHasHandler: typeof google.script.run.withSuccessHandler })
        : setTimeout(settle, 10);
    settle();
  })`);
  expect(r).toEqual({ got: ['a:Hello, A', 'b:Hello, B', 'base-failure', 'c:Hello, C:U'], distinct: 5, plainHasHandler: 'function' });
});

test("a server exception reaches the failure handler as an Error whose message is the exception's", async () => {
  await expect(outcome(sb.page, 'run.failingTick()')).resolves.toEqual({
    fail: { isError: true, name: 'ScriptError', message: 'tick failed' },
    sync: false,
  });
  expect(sb.calls).toEqual([{ fn: 'failingTick', args: [], error: 'tick failed' }]);
});

test("a Date in the server's result fails the call", async () => {
  await expect(outcome(sb.page, 'run.getDate()')).resolves.toMatchObject({
    fail: { isError: true, message: 'Failed due to illegal value in property: result' },
  });
});

test("handler errors: a failure without a failure handler is thrown uncaught in the page; an exception in a success handler is the page's, not the failure handler's", async () => {
  await sb.page.evaluate('google.script.run.failingTick(); google.script.run.echoArgs(new Date(0))');
  await until(() => sb.errors.slice().sort(), ['Error: Failed due to illegal value in property: 0', 'ScriptError: tick failed']);
  sb.errors.length = 0;
  const r = await sb.page.evaluate(`new Promise((resolve) => {
    let failed = false;
    window.addEventListener('error', (ev) => resolve({ uncaught: ev.message, failed }), { once: true });
    google.script.run.withFailureHandler(() => { failed = true; }).withSuccessHandler(() => { throw new Error('handler broke'); }).hello('x');
  })`);
  expect(r).toEqual({ uncaught: 'Uncaught Error: handler broke', failed: false });
});

test('only the server\'s public functions exist on the runner ("_" names and unknown names are not there)', async () => {
  const r = await sb.page.evaluate(
    '[typeof google.script.run.hello, typeof google.script.run.privateThing_, typeof google.script.run.nope, typeof google.script.run.hello("x")]',
  );
  // A call returns nothing (its result goes to the success handler).
  expect(r).toEqual(['function', 'undefined', 'undefined', 'undefined']);
});

test('a canned server goes through the same page rules, and a canned Date result fails like the real one', async () => {
  const page = await openSidebar(canned({ echo: (...a: unknown[]) => a, when: () => new Date(0) }), {
    html: PAGE,
    functions: ['echo', 'when'],
  });
  await expect(outcome(page.page, 'run.echo([undefined], new Date(0))')).resolves.toMatchObject({
    fail: { message: 'Failed due to illegal value in property: 1' },
  });
  await expect(outcome(page.page, 'run.echo([undefined])')).resolves.toMatchObject({ ok: [[null]] });
  await expect(outcome(page.page, 'run.when()')).resolves.toMatchObject({
    fail: { message: 'Failed due to illegal value in property: result' },
  });
  await page.close();
});
