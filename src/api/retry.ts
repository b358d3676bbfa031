/**
 * The retry policy, as a pure function: given the attempt that just failed, its problem and the
 * time left, how long to wait before the next attempt, or give up. No clock, no sleeping, no
 * randomness of its own (the caller passes a number in [0, 1) for the jitter), so it is testable.
 */
import { isRetryable, type Problem } from './problems';

export interface RetryPolicy {
  /** Attempts in all (the first one included). */
  maxAttempts: number;
  /** Backoff before the 2nd attempt; doubles each time. */
  baseDelayMs: number;
  /** Upper bound of one backoff wait. */
  maxDelayMs: number;
  /** Time an attempt needs at least (round trip); a retry that cannot finish in time is not started. */
  attemptReserveMs: number;
  /** False for a call that must not be repeated once it may have reached the service (the upload: a time-out may mean it was stored). */
  retryTimeouts?: boolean;
}

/** For formulas (30 s) and menu actions alike; the time budget is what differs. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 6,
  baseDelayMs: 1000,
  maxDelayMs: 16000,
  attemptReserveMs: 3000,
};

export type RetryDecision = { retry: true; waitMs: number } | { retry: false; reason: 'not-retryable' | 'attempts' | 'time' };

export interface RetryInput {
  /** 1 for the first attempt, which just failed. */
  attempt: number;
  problem: Problem;
  /** Milliseconds until the caller's deadline. */
  timeLeftMs: number;
  /** Uniform in [0, 1): the jitter. */
  random: number;
  policy?: RetryPolicy;
}

/**
 * 429 with Retry-After: wait exactly that long (plus up to 10% jitter, so parallel callers do not
 * come back at the same instant). 429 without it, 5xx, time-outs and unreachable: exponential
 * backoff with "equal jitter" (half fixed, half random). Give up when the wait plus one attempt
 * does not fit in the time left.
 */
export function decideRetry(input: RetryInput): RetryDecision {
  const policy = input.policy ?? DEFAULT_RETRY_POLICY;
  const { problem, attempt } = input;
  if (!isRetryable(problem) || (problem.kind === 'timeout' && policy.retryTimeouts === false))
    return { retry: false, reason: 'not-retryable' };
  if (attempt >= policy.maxAttempts) return { retry: false, reason: 'attempts' };
  const r = Math.min(Math.max(input.random, 0), 0.999999);
  let waitMs: number;
  if (problem.kind === 'rate-limited' && problem.retryAfterMs !== undefined) {
    waitMs = problem.retryAfterMs + Math.floor(problem.retryAfterMs * 0.1 * r);
  } else {
    const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * Math.pow(2, attempt - 1));
    waitMs = Math.floor(exp / 2 + (exp / 2) * r);
  }
  if (waitMs + policy.attemptReserveMs > input.timeLeftMs) return { retry: false, reason: 'time' };
  return { retry: true, waitMs };
}
