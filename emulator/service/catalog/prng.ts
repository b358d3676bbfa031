/** A small seeded PRNG (sfc32 seeded by cyrb128) so generators give byte-identical output on every run. */
export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string) {
    let h1 = 1779033703,
      h2 = 3144134277,
      h3 = 1013904242,
      h4 = 2773480762;
    for (let i = 0; i < seed.length; i++) {
      const k = seed.charCodeAt(i);
      h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
      h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
      h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
      h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
    }
    h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
    h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
    h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
    h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
    this.a = (h1 ^ h2 ^ h3 ^ h4) >>> 0;
    this.b = (h2 ^ h1) >>> 0;
    this.c = (h3 ^ h1) >>> 0;
    this.d = (h4 ^ h1) >>> 0;
    for (let i = 0; i < 15; i++) this.next();
  }

  /** Uniform 32-bit unsigned integer. */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + (this.next() % (max - min + 1));
  }

  /** True with probability p (0..1), decided on a 1/1,000,000 grid. */
  chance(p: number): boolean {
    return this.next() % 1_000_000 < Math.round(p * 1_000_000);
  }

  pick<T>(list: readonly T[]): T {
    return list[this.next() % list.length];
  }

  /** Item chosen with integer weights. */
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T {
    const total = items.reduce((s, [, w]) => s + w, 0);
    let r = this.next() % total;
    for (const [v, w] of items) {
      if (r < w) return v;
      r -= w;
    }
    return items[items.length - 1][0];
  }

  /** Integer spread evenly on a log scale between min and max (ranks, prices). */
  logInt(min: number, max: number): number {
    const steps = 1_000_000;
    const u = this.next() % steps;
    // integer-only: min * (max/min)^(u/steps) via exp/log is float; round keeps it stable across runs on one engine
    return Math.round(Math.exp(Math.log(min) + ((Math.log(max) - Math.log(min)) * u) / steps));
  }

  digits(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += String(this.next() % 10);
    return s;
  }

  chars(n: number, alphabet: string): string {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[this.next() % alphabet.length];
    return s;
  }
}
