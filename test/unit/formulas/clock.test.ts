import { waitAwareClock } from '../../../src/formulas/clock';

test('a sleep the wall clock did not see (local runtime: virtual sleeps) still counts', () => {
  const wall = 1_000;
  const slept: number[] = [];
  const c = waitAwareClock(() => wall, (ms) => slept.push(ms));
  expect(c.now()).toBe(1_000);
  c.sleep(5_000);
  c.sleep(2_500);
  expect(slept).toEqual([5_000, 2_500]);
  expect(c.now()).toBe(8_500);
});

test('a sleep that really took its time (Google) is not counted twice', () => {
  let wall = 1_000;
  const c = waitAwareClock(() => wall, (ms) => (wall += ms));
  c.sleep(5_000);
  expect(c.now()).toBe(6_000);
  wall += 300; // other work
  expect(c.now()).toBe(6_300);
  // A sleep that returned early by the wall clock counts its unseen part.
  const d = waitAwareClock(() => wall, (ms) => (wall += ms / 2));
  const before = d.now();
  d.sleep(4_000);
  expect(d.now() - before).toBe(4_000);
});
