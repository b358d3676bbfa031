/**
 * Formula recalculations interleaved with other executions (emulator/gas/interleave.ts): a
 * recalculation runs at a service-call boundary of a running execution, on the same virtual clock,
 * and every execution of the user running at that moment counts against Google's 30 simultaneous
 * executions per user (Google's quotas page,
 * https://developers.google.com/apps-script/guides/services/quotas: "Simultaneous executions per
 * user: 30"; the cell's message is "There are too many scripts running simultaneously for this
 * Google user account.").
 */
import { evalIn, fixtureInUse } from './helpers';
import { interleave } from '../../emulator/gas/interleave';
import type { Runtime } from '../../emulator/gas';

const TOO_MANY = 'There are too many scripts running simultaneously for this Google user account.';
const QUOTAS = "Google's quotas page (guides/services/quotas: 30 simultaneous executions per user)";

/** Numbers 1..n in A1:An and =DOUBLE(Ai) in B1:Bn, each typed on its own (all compute). */
function sheet(rt: Runtime, n: number): void {
  for (let i = 1; i <= n; i++) rt.workbook.type('Sheet1', 'A' + i, i);
  for (let i = 1; i <= n; i++) rt.workbook.type('Sheet1', 'B' + i, `=DOUBLE(A${i})`);
}

/** Rows of B1:Bn showing the message; the others hold 2 x row. */
function refusedRows(rt: Runtime, n: number): number[] {
  const out: number[] = [];
  for (let i = 1; i <= n; i++) {
    const c = rt.workbook.cell('Sheet1', 'B' + i);
    if (c.error === TOO_MANY) {
      expect(c.value).toBe('#ERROR!');
      out.push(i);
    } else expect(c.value).toBe(2 * i);
  }
  return out;
}

/** A sidebar call reading A1:A3 one cell at a time (three service-call boundaries), answering their sum. */
const READS =
  "var s = SpreadsheetApp.getActiveSheet(); return s.getRange('A1').getValue() + s.getRange('A2').getValue() + s.getRange('A3').getValue();";

test(`${QUOTAS}: a recalculation at a boundary of a running sidebar call counts it: of 30 cells 29 run, the 30th shows the message; the call goes on and its time is its own`, async () => {
  const rt = fixtureInUse();
  sheet(rt, 30);
  rt.workbook.type('Sheet1', 'A1', 100); // B1 recalculates to 200 below, read back by the sidebar call
  const recalc = interleave(rt, {
    afterCalls: 2,
    into: (e) => e.kind === 'sidebar-call',
    run: () => {
      // The user edits A1 while the call runs: B1 recalculates with the 29 others (recalculate()).
      rt.workbook.type('Sheet1', 'A1', 1);
      rt.recalculate();
    },
  });
  const from = rt.executions.length;
  const answer = rt.scriptRun('evaluate', [READS]);
  expect(recalc.fired()).toBe(true);
  // The call carried on after the recalculation and read the edited A1.
  expect(answer).toBe(1 + 2 + 3);
  expect(refusedRows(rt, 30)).toEqual([30]);
  const runs = rt.executions.slice(from);
  const call = runs.find((e) => e.kind === 'sidebar-call')!;
  const formulas = runs.filter((e) => e.kind === 'custom-function');
  // B1 once for the edit (its own recalculation), then 29 of recalculate()'s 30.
  expect(formulas).toHaveLength(1 + 29);
  // Same virtual clock: the wave started inside the call's run time, beside it (not charged to it).
  for (const f of formulas) {
    expect(f.startedAt).toBeGreaterThanOrEqual(call.startedAt);
    expect(f.startedAt).toBeLessThanOrEqual(call.startedAt + call.durationMs);
  }
  await rt.stop();
});

test(`${QUOTAS}: a trigger interrupting a sidebar call, and a recalculation at the trigger's boundary: both running executions count, 28 of 30 cells run and 2 show the message (the same recalculation alone runs all 30)`, async () => {
  const rt = fixtureInUse();
  sheet(rt, 30);
  // Inner first: the recalculation cuts into the trigger, the trigger into the sidebar call.
  const recalc = interleave(rt, { afterCalls: 1, into: (e) => e.kind === 'installable-trigger', run: () => rt.recalculate() });
  const trigger = interleave(rt, {
    afterCalls: 1,
    into: (e) => e.kind === 'sidebar-call',
    run: () => evalIn(rt, READS, null, { kind: 'installable-trigger' }),
  });
  expect(rt.scriptRun('evaluate', [READS])).toBe(6);
  expect(trigger.fired()).toBe(true);
  expect(trigger.outcome()).toEqual({ result: 6 });
  expect(recalc.fired()).toBe(true);
  expect(refusedRows(rt, 30)).toEqual([29, 30]);
  // Nothing runs any more: the same 30 cells recalculated now all compute.
  expect(rt.state.running).toEqual([]);
  rt.recalculate();
  expect(refusedRows(rt, 30)).toEqual([]);
  await rt.stop();
});

test(`${QUOTAS}: with 30 executions of the user running, a 31st does not start: it fails with the message and leaves no execution`, async () => {
  const rt = fixtureInUse();
  // 29 sidebar calls each interrupted by the next (one boundary each), the 30th interrupted by a trigger.
  const depth = 30;
  let inner: unknown = null;
  const nest = (level: number): unknown =>
    evalIn(rt, "return SpreadsheetApp.getActiveSheet().getRange('A1').getValue();", null, {
      kind: level === depth ? 'installable-trigger' : 'normal',
    });
  // Armed innermost first: a hook that fires hands the boundary on to those armed before it.
  for (let level = depth + 1; level >= 2; level--) {
    const l = level;
    interleave(rt, {
      afterCalls: 1,
      into: (e) => rt.state.running.length === l - 1 && rt.state.running.at(-1) === e,
      run: () => {
        if (l === depth + 1) {
          try {
            inner = { result: rt.scriptRun('evaluate', ['return 1']) };
          } catch (e) {
            inner = { error: (e as Error).message, running: rt.state.running.length };
          }
          return inner;
        }
        return nest(l);
      },
    });
  }
  const before = rt.executions.length;
  nest(1);
  expect(inner).toEqual({ error: TOO_MANY, running: 30 });
  // 30 executions ran; the refused one left no record.
  expect(rt.executions.length - before).toBe(depth);
  expect(rt.executions.slice(before).every((e) => e.functionName === 'evaluate')).toBe(true);
  await rt.stop();
});
