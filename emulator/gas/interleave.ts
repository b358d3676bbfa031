/**
 * Executions side by side. Google runs up to 30 executions of a user's script at once, so the hourly
 * trigger, two sidebar calls and formula recalculations can overlap. The runtime is one thread; it
 * interleaves at service-call boundaries: when the running execution reaches the chosen boundary (a
 * Spreadsheet read or write, a service call, a URL fetch, counted per execution), another execution
 * runs there to its end, on the same virtual clock, and the first one then carries on and sees what
 * the other changed. Locks are real between them: a lock the suspended execution holds is held, and
 * the other waits for it on the clock (and fails when it waits in vain), as on Google.
 *
 * Usage (tests): `interleave(rt, { afterCalls: 12, run: () => rt.run('importFinishedScans', [], { kind: 'installable-trigger' }) })`
 * arms one interleaving for the next top-level execution; `fired()` tells whether it ran and what it
 * answered or threw. A formula recalculation runs the same way (`run: () => rt.recalculate()` or a
 * typed edit, `wb.type(...)`): its waves start beside the interrupted execution on the same clock and
 * count every execution of the user then running against the 30 (RuntimeState.running). To nest
 * (a trigger into a sidebar call, a recalculation into the trigger), arm the innermost first.
 */
import type { Runtime } from './index';
import type { Execution } from './execution';

export interface InterleaveOptions {
  /** Run `run` at this boundary of the next execution (1 = before its first service call). */
  afterCalls: number;
  /** Which execution to cut into: default the first top-level one that reaches `afterCalls`. */
  into?: (e: Execution) => boolean;
  /** And only at a boundary where this holds (e.g. `() => rt.locks.isHeld('document')`). */
  when?: () => boolean;
  /** The other execution(s): runtime calls such as rt.scriptRun(...) or rt.run(..., { kind: 'installable-trigger' }). */
  run: () => unknown;
}

export interface Interleaving {
  /** Whether the other execution has run. */
  fired(): boolean;
  /** What it returned, or the error it threw (an overlap refused by a lock throws, as on Google). */
  outcome(): { result?: unknown; error?: unknown } | null;
  /** Disarms it (when the boundary was never reached). */
  cancel(): void;
}

export function interleave(rt: Runtime, opts: InterleaveOptions): Interleaving {
  const state = rt.state;
  const seen = new Map<Execution, number>();
  let outcome: { result?: unknown; error?: unknown } | null = null;
  let running = false;
  const previous = state.onCall;
  const hook = (key: Parameters<NonNullable<typeof state.onCall>>[0]) => {
    previous?.(key);
    const e = state.current;
    if (!e || running || outcome) return;
    if (opts.into && !opts.into(e)) return;
    const n = (seen.get(e) ?? 0) + 1;
    seen.set(e, n);
    if (n < opts.afterCalls || (opts.when && !opts.when())) return;
    running = true;
    state.onCall = previous;
    try {
      outcome = { result: opts.run() };
    } catch (error) {
      outcome = { error };
    } finally {
      running = false;
    }
  };
  state.onCall = hook;
  return {
    fired: () => outcome !== null,
    outcome: () => outcome,
    cancel: () => {
      if (state.onCall === hook) state.onCall = previous;
    },
  };
}
