/**
 * Pacing for the four bulk areas (listing matches, blocklists, multipack corrections): the service
 * allows 30 requests per sliding minute per account over them together (document section 8). The
 * pacer keeps the times of this account's recent requests (across executions, through a small
 * store) and makes a caller wait until the next requests fit, so a sync never provokes a 429.
 * A request occupies the window from when its answer came back (never earlier than the service
 * counted it) for the window plus a margin, so clocks a little apart cannot set off the limit.
 * Pure apart from the injected clock, sleep and store.
 */
import type { Clock, Sleep } from './services';

export interface PaceStore {
  load(): number[];
  save(times: number[]): void;
}

export interface PacerOptions {
  /** Requests per window (the document's 30). */
  limit: number;
  windowMs: number;
  /** Extra time each request is kept in the window. */
  marginMs: number;
}

export const BULK_RATE: PacerOptions = { limit: 30, windowMs: 60_000, marginMs: 1_000 };

export class BulkPacer {
  private times: number[];
  /** Requests made through this pacer (for figures). */
  sent = 0;
  /** Milliseconds spent waiting for the window. */
  waitedMs = 0;

  constructor(
    private readonly now: Clock,
    private readonly sleep: Sleep,
    private readonly store: PaceStore | null,
    private readonly opts: PacerOptions = BULK_RATE,
  ) {
    this.times = store ? store.load().filter((t) => typeof t === 'number' && isFinite(t)) : [];
  }

  private live(at: number): number[] {
    const span = this.opts.windowMs + this.opts.marginMs;
    this.times = this.times.filter((t) => t > at - span).sort((a, b) => a - b);
    return this.times;
  }

  /** How many requests may go at `at` without waiting. */
  free(at: number = this.now()): number {
    return Math.max(0, this.opts.limit - this.live(at).length);
  }

  /** When at least `k` requests (1..limit) may go. */
  slotsAt(k: number, at: number = this.now()): number {
    const live = this.live(at);
    const need = live.length + Math.min(k, this.opts.limit) - this.opts.limit;
    if (need <= 0) return at;
    return live[need - 1] + this.opts.windowMs + this.opts.marginMs;
  }

  /** When at least one request may go. */
  nextSlotAt(at: number = this.now()): number {
    return this.slotsAt(1, at);
  }

  /**
   * Answers how many of `wanted` requests may go now (at least 1) — those that fit at once; when
   * none does, after sleeping until all of them fit (up to the limit; or, when that is later than
   * `latest`, until some do) — or 0 when even one would start after `latest`. Waiting for the
   * whole wave keeps the waves few: one fetchAll instead of a trickle.
   */
  reserve(wanted: number, latest: number): number {
    let at = this.now();
    const freeNow = this.free(at);
    if (freeNow > 0) return Math.max(1, Math.min(wanted, freeNow));
    let slot = this.slotsAt(Math.max(1, wanted), at);
    if (slot > latest) slot = this.nextSlotAt(at);
    if (slot > latest) return 0;
    if (slot > at) {
      // Utilities.sleep takes at most 5 minutes per call.
      let left = slot - at;
      while (left > 0) {
        const step = Math.min(left, 300_000);
        this.sleep(step);
        this.waitedMs += step;
        left -= step;
      }
      at = this.now();
    }
    return Math.max(1, Math.min(wanted, this.free(at)));
  }

  /** Records `count` requests whose answers came back at `at` (requests refused with 429 are not counted by the service). */
  record(count: number, at: number = this.now()): void {
    for (let i = 0; i < count; i++) this.times.push(at);
    this.sent += count;
    if (this.store) this.store.save(this.live(at));
  }

  /** Holds every request back until `until` (a 429's Retry-After): the window is taken as full. */
  holdUntil(until: number): void {
    const fill = until - this.opts.windowMs - this.opts.marginMs;
    const at = this.now();
    this.live(at);
    while (this.times.length < this.opts.limit) this.times.push(fill);
    this.times = this.times.map((t) => Math.max(t, fill));
    if (this.store) this.store.save(this.times);
  }
}
