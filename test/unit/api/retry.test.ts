import { decideRetry, DEFAULT_RETRY_POLICY } from '../../../src/api/retry';
import type { Problem } from '../../../src/api/problems';

const p = (kind: Problem['kind'], extra: Partial<Problem> = {}): Problem => ({ kind, message: kind, ...extra });

describe('decideRetry (pure retry policy)', () => {
  test('429 with Retry-After waits at least that long (jitter at most +10%)', () => {
    const low = decideRetry({ attempt: 1, problem: p('rate-limited', { retryAfterMs: 5000 }), timeLeftMs: 60000, random: 0 });
    const high = decideRetry({ attempt: 1, problem: p('rate-limited', { retryAfterMs: 5000 }), timeLeftMs: 60000, random: 0.999 });
    expect(low).toEqual({ retry: true, waitMs: 5000 });
    expect(high.retry && high.waitMs).toBeGreaterThanOrEqual(5000);
    expect(high.retry && high.waitMs).toBeLessThanOrEqual(5500);
  });

  test('5xx backs off exponentially with jitter between half and all of the step', () => {
    const waits = [1, 2, 3, 4].map((attempt) => {
      const lo = decideRetry({ attempt, problem: p('server', { status: 503 }), timeLeftMs: 1e6, random: 0 });
      const hi = decideRetry({ attempt, problem: p('server', { status: 503 }), timeLeftMs: 1e6, random: 0.999999 });
      return [lo.retry ? lo.waitMs : -1, hi.retry ? hi.waitMs : -1];
    });
    expect(waits).toEqual([
      [500, 999],
      [1000, 1999],
      [2000, 3999],
      [4000, 7999],
    ]);
  });

  test('the step is capped at maxDelayMs', () => {
    const d = decideRetry({
      attempt: 5,
      problem: p('timeout'),
      timeLeftMs: 1e6,
      random: 0.999999,
      policy: { ...DEFAULT_RETRY_POLICY, maxAttempts: 20 },
    });
    expect(d.retry && d.waitMs).toBeLessThanOrEqual(DEFAULT_RETRY_POLICY.maxDelayMs);
  });

  test('gives up when the wait plus one attempt does not fit in the time left', () => {
    expect(decideRetry({ attempt: 1, problem: p('rate-limited', { retryAfterMs: 20000 }), timeLeftMs: 22000, random: 0 })).toEqual({
      retry: false,
      reason: 'time',
    });
    expect(decideRetry({ attempt: 1, problem: p('rate-limited', { retryAfterMs: 20000 }), timeLeftMs: 23001, random: 0 })).toEqual({
      retry: true,
      waitMs: 20000,
    });
  });

  test('gives up after maxAttempts', () => {
    expect(decideRetry({ attempt: DEFAULT_RETRY_POLICY.maxAttempts, problem: p('server'), timeLeftMs: 1e9, random: 0 })).toEqual({
      retry: false,
      reason: 'attempts',
    });
  });

  test.each(['auth', 'forbidden', 'not-found', 'validation', 'bad-response', 'redirect'] as const)('%s is not retried', (kind) => {
    expect(decideRetry({ attempt: 1, problem: p(kind), timeLeftMs: 1e9, random: 0 })).toEqual({ retry: false, reason: 'not-retryable' });
  });

  test('unreachable and time-outs are retried', () => {
    expect(decideRetry({ attempt: 1, problem: p('unreachable'), timeLeftMs: 1e9, random: 0 }).retry).toBe(true);
    expect(decideRetry({ attempt: 1, problem: p('timeout'), timeLeftMs: 1e9, random: 0 }).retry).toBe(true);
  });
});
