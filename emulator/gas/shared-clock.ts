/**
 * A runtime clock that also publishes its time into shared memory, so a local Scan Service running
 * in a worker thread (emulator/service/worker) can read the same virtual time: its rate limits then
 * count in the time the add-on's pacing counts in (a service on real time would see a paced minute
 * pass in milliseconds).
 */
import { VirtualClock } from './execution';

export class SharedClock extends VirtualClock {
  readonly buffer = new SharedArrayBuffer(8);
  private readonly view = new Float64Array(this.buffer);
  constructor(start: number) {
    super(start);
    this.view[0] = start;
  }
  advance(ms: number): void {
    super.advance(ms);
    this.view[0] = this.now();
  }
  rewindTo(t: number): void {
    super.rewindTo(t);
    this.view[0] = this.now();
  }
}
