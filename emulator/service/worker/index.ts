/**
 * Starts the local Scan Service in a worker thread on a shared virtual clock (see thread.cjs). Used by
 * the tests and benches that run the add-on's paced list calls against the service's real rate limit.
 */
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { type StandIn, stopOnce } from '../../stand-in';

export interface WorkerService extends StandIn {
  /** Requests the front door answered from the list areas (0 without `forwardTo`). */
  listRequests(): Promise<number>;
}

export interface WorkerServiceOptions {
  /** A SharedClock's buffer: the service's `now`. */
  clock: SharedArrayBuffer;
  apiKeys: string[];
  /** Pass every path but the list areas on to this service (a front door). */
  forwardTo?: string;
}

export function startServiceInWorker(opts: WorkerServiceOptions): Promise<WorkerService> {
  const worker = new Worker(join(__dirname, 'thread.cjs'), {
    workerData: { clock: opts.clock, apiKeys: opts.apiKeys, forwardTo: opts.forwardTo },
  });
  const ask = <T>(m: string) =>
    new Promise<T>((resolve) => {
      worker.once('message', resolve);
      worker.postMessage(m);
    });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (m: { url?: string; error?: string }) => {
      if (!m.url) return reject(new Error(m.error));
      resolve({
        url: m.url,
        listRequests: async () => (await ask<{ listRequests: number }>('count')).listRequests,
        stop: stopOnce(async () => {
          await ask('stop');
          await worker.terminate();
        }),
      });
    });
  });
}
