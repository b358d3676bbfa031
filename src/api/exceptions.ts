/**
 * The one place where src/api turns a failure into an exception: for callers that cannot go on
 * without the answer (menu actions, sidebar calls, the lists' sync). Everywhere else src/api answers
 * a failure as a Problem in a CallResult. Code outside src/api neither builds these errors nor tests
 * for their classes: it uses the functions here (test/build/api-exceptions.test.ts holds that).
 */
import { send, type ApiCall, type ApiContext, type CallResult, type SendOptions } from './client';
import { PACED_OUT_OF_TIME, type Problem } from './problems';

/** Error carrying a Problem; its message is the problem's plain-language one (never the key). */
export class ApiProblemError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.message);
    this.name = 'ApiProblemError';
  }
}

/** The exception of a problem, for code that adds to a problem's words before throwing it. */
export function problemError(problem: Problem): Error {
  return new ApiProblemError(problem);
}

/** Thrown by `pacedBodies` when a paced run's time ran out before the work was done: the caller checkpoints. */
export class OutOfTimeError extends Error {
  constructor(message = PACED_OUT_OF_TIME.message) {
    super(message);
    this.name = 'OutOfTimeError';
  }
}

/** The problem an exception from here carries; undefined for any other exception (OutOfTimeError included). */
export function problemOf(e: unknown): Problem | undefined {
  return e instanceof ApiProblemError ? e.problem : undefined;
}

/** Whether `e` says a paced run's time ran out (`pacedBodies`). */
export function ranOutOfTime(e: unknown): boolean {
  return e instanceof OutOfTimeError;
}

/** The body of a successful answer, or the exception of a failed one. */
export function okBody(r: CallResult): unknown {
  if (!r.ok) throw new ApiProblemError(r.problem);
  return r.body;
}

/**
 * The bodies of a paced run, in order; or the exception of the failure that ended it (every call it
 * could not settle carries that failure): OutOfTimeError when its time ran out.
 */
export function pacedBodies(results: readonly CallResult[]): unknown[] {
  return results.map((r) => {
    if (!r.ok && r.problem.kind === 'out-of-time') throw new OutOfTimeError();
    return okBody(r);
  });
}

/**
 * One call for code that prefers exceptions (menu actions, sidebar server functions): the body of a
 * 2xx answer, or the exception whose message is the plain-language one (never the key).
 */
export function requestJson(ctx: ApiContext, call: ApiCall, opts?: SendOptions): unknown {
  return okBody(send(ctx, call, opts));
}
