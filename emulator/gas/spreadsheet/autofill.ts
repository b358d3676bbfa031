/**
 * Range.autoFill / autoFillToNeighbor: the values a line of source cells continues with.
 * Google's AutoFillSeries: DEFAULT_SERIES fills "with increments of the existing values",
 * ALTERNATE_SERIES "with copies of the existing values". As recorded on Google (gas-fakes
 * test/testsheets.js "Range.autoFill and autoFillToNeighbor"): 1,2,3,4 continues 5..10; 10,8,6,4 filled
 * to the left gives 16,14,12; Jan, Feb continues Mar. Chosen where nothing is recorded: a single number
 * or date is copied (two make a step), text ending in a number counts up by one, anything else repeats.
 */
export const AutoFillSeries = { DEFAULT_SERIES: 'DEFAULT_SERIES', ALTERNATE_SERIES: 'ALTERNATE_SERIES' } as const;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** A name of a cyclic series (Jan, January, Mon, Monday), with its case kept. */
function cyclic(v: unknown): { list: string[]; i: number; short: boolean; shape: (s: string) => string } | null {
  if (typeof v !== 'string') return null;
  for (const list of [MONTHS, DAYS]) {
    const i = list.findIndex((n) => n.toLowerCase() === v.toLowerCase() || n.slice(0, 3).toLowerCase() === v.toLowerCase());
    if (i < 0) continue;
    const short = v.length === 3;
    const shape =
      v === v.toUpperCase() ? (s: string) => s.toUpperCase() : v === v.toLowerCase() ? (s: string) => s.toLowerCase() : (s: string) => s;
    return { list, i, short, shape };
  }
  return null;
}

function isDate(v: unknown): v is Date {
  return Object.prototype.toString.call(v) === '[object Date]';
}

/**
 * The `n` values that continue `src` (given in fill order: for a fill up or left, the source is
 * read from its far end, so the series runs backwards).
 */
export function continueLine(src: unknown[], n: number, series: string): unknown[] {
  if (series === 'ALTERNATE_SERIES' || src.length === 0) return Array.from({ length: n }, (_, k) => src[k % src.length]);
  if (src.every((v) => typeof v === 'number') && src.length >= 2) return linear(src as number[], n);
  if (src.every(isDate) && src.length >= 2) {
    const times = linear(
      (src as Date[]).map((d) => d.getTime()),
      n,
    );
    return times.map((t) => new Date(t));
  }
  const names = src.map(cyclic);
  if (names.every((x) => x !== null)) {
    const first = names[0]!;
    const step = names.length >= 2 ? (names[1]!.i - first.i + first.list.length) % first.list.length || 1 : 1;
    const last = names[names.length - 1]!;
    return Array.from({ length: n }, (_, k) => {
      const name = last.list[(((last.i + step * (k + 1)) % last.list.length) + last.list.length) % last.list.length];
      return last.shape(last.short ? name.slice(0, 3) : name);
    });
  }
  const numbered = src.map((v) => (typeof v === 'string' ? /^(.*?)(\d+)$/.exec(v) : null));
  if (numbered.every((m) => m !== null) && new Set(numbered.map((m) => m![1])).size === 1) {
    const nums = numbered.map((m) => Number(m![2]));
    const next = nums.length >= 2 ? linear(nums, n) : Array.from({ length: n }, (_, k) => nums[0] + k + 1);
    return next.map((x) => numbered[0]![1] + String(Math.max(0, Math.round(x))));
  }
  return Array.from({ length: n }, (_, k) => src[k % src.length]);
}

/** Least-squares line through the values (exact for evenly spaced ones), continued n steps. */
function linear(ys: number[], n: number): number[] {
  const m = ys.length;
  const xBar = (m - 1) / 2;
  const yBar = ys.reduce((a, b) => a + b, 0) / m;
  let num = 0;
  let den = 0;
  ys.forEach((y, x) => {
    num += (x - xBar) * (y - yBar);
    den += (x - xBar) ** 2;
  });
  const slope = den === 0 ? 0 : num / den;
  return Array.from({ length: n }, (_, k) => {
    const v = yBar + slope * (m + k - xBar);
    return Math.abs(v - Math.round(v)) < 1e-9 ? Math.round(v) : v;
  });
}
