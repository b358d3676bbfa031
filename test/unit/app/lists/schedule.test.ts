import {
  afterSync,
  decodeSchedule,
  dueByEdit,
  dueByTime,
  dueLists,
  HOUR_MS,
  LARGE_MIN_HOURS,
  MAX_INTERVAL_HOURS,
} from '../../../../src/app/lists/schedule';

const T = Date.UTC(2026, 10, 23, 6, 0, 0);
const at = (h: number) => T + h * HOUR_MS;

describe("the automatic sync's schedule", () => {
  test("a quiet list's interval doubles up to a day; a change or the user's own sync brings it back to hourly", () => {
    let t = afterSync(undefined, true, 10, 'x', at(0));
    expect(t.i).toBe(1);
    const seen = [];
    for (let k = 0; k < 7; k++) {
      t = afterSync(t, true, 10, 'x', at(k));
      seen.push(t.i);
    }
    expect(seen).toEqual([2, 4, 8, 16, MAX_INTERVAL_HOURS, MAX_INTERVAL_HOURS, MAX_INTERVAL_HOURS]);
    expect(afterSync(t, false, 10, 'x', at(9)).i).toBe(1);
  });

  test("due by time within the hourly trigger's drift; never synced is due", () => {
    expect(dueByTime(undefined, at(0))).toBe(true);
    const t = { i: 4, at: at(0), h: 'x', p: 1 };
    expect(dueByTime(t, at(3.7))).toBe(false);
    expect(dueByTime(t, at(3.76))).toBe(true);
  });

  test('an edited table is due at once, a large list only after its minimum interval', () => {
    const small = { i: 16, at: at(0), h: 'x', p: 3 };
    expect(dueByEdit(small, 'x', at(1))).toBe(false);
    expect(dueByEdit(small, 'y', at(1))).toBe(true);
    const large = { i: 16, at: at(0), h: 'x', p: 31 };
    expect(dueByEdit(large, 'y', at(3))).toBe(false);
    expect(dueByEdit(large, 'y', at(LARGE_MIN_HOURS))).toBe(true);
    // and never more often than that, even after a change
    expect(afterSync(large, false, 31_000, 'y', at(4)).i).toBe(LARGE_MIN_HOURS);
    expect(dueByTime(afterSync(large, false, 31_000, 'y', at(4)), at(6))).toBe(false);
  });

  test('only lists not due by time have their table read', () => {
    const read: string[] = [];
    const schedule = { a: { i: 1, at: at(0), h: 'x', p: 1 }, b: { i: 8, at: at(0), h: 'x', p: 1 }, c: { i: 8, at: at(0), h: 'x', p: 1 } };
    const due = dueLists(['a', 'b', 'c', 'd'], schedule, at(1), (id) => (read.push(id), id === 'c' ? 'changed' : 'x'));
    expect(due).toEqual(['a', 'c', 'd']);
    expect(read).toEqual(['b', 'c']);
  });

  test('an unreadable record is as if none', () => {
    expect(decodeSchedule('{"a":{"i":2,"at":1,"h":"x","p":1},"b":{"i":"2"}}')).toEqual({ a: { i: 2, at: 1, h: 'x', p: 1 } });
    expect(decodeSchedule('not json')).toEqual({});
  });
});
