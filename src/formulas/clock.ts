/**
 * The time a formula call or a column job has used, measured so that waits count even where the
 * wall clock does not show them.
 *
 * On Google, Date.now() is the execution's real time and Utilities.sleep(ms) really takes ms. In
 * the local runtime (emulator/gas) Date.now() inside the script is the HOST's real time while
 * Utilities.sleep and the modelled service costs advance only the runtime's VIRTUAL clock, which is
 * what its 30-second / 6-minute limits watch. A Retry-After wait would then look free and a
 * formula could retry past its limit. So `now()` adds to Date.now() every part of a sleep that the
 * wall clock did not see: on Google that is ~0 (no change); locally it is the whole sleep.
 */
import type { Clock, Sleep } from '../api/services';

export interface WaitAwareClock {
  now: Clock;
  sleep: Sleep;
}

export function waitAwareClock(wallNow: Clock, rawSleep: Sleep): WaitAwareClock {
  let unseen = 0;
  return {
    now: () => wallNow() + unseen,
    sleep: (ms: number) => {
      const before = wallNow();
      rawSleep(ms);
      const seen = wallNow() - before;
      if (ms > seen) unseen += ms - seen;
    },
  };
}
