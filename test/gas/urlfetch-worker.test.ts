/**
 * The hand-over between UrlFetchApp (blocked on Atomics.wait) and its HTTP worker thread. A fetch
 * must get the answers to its own requests whatever the order of wake-ups and answers: on a loaded
 * machine the worker can be paused between posting an answer and waking the caller, and an answer
 * can come after its fetch gave up. Here a stand-in worker (fixtures/urlfetch-schedule-worker.js)
 * makes those schedules certain; it answers each request with its own URL.
 */
import * as path from 'node:path';
import { HttpWorker } from '../../emulator/gas/urlfetch';

const SCRIPT = path.join(__dirname, 'fixtures', 'urlfetch-schedule-worker.js');

function request(url: string) {
  return { url, method: 'GET', headers: {}, body: null, followRedirects: true, rejectUnauthorized: true, maxResponseBytes: 1024 };
}

/** The bodies the worker answered a run with (each request's own URL when paired right). */
function bodies(worker: HttpWorker, urls: string[], timeoutMs = 5000): string[] {
  return worker.run(urls.map(request), timeoutMs).map((r) => Buffer.from(r.body!).toString());
}

describe('UrlFetchApp worker hand-over: each fetch gets the answers to its own requests', () => {
  let worker: HttpWorker;
  afterEach(() => worker?.stop());

  test('a wake-up that belongs to an earlier answer does not end the wait (the next fetch is not handed that answer either)', () => {
    worker = new HttpWorker({ script: SCRIPT });
    expect(bodies(worker, ['http://a.test/scans/1', 'http://a.test/scans/1/results'])).toEqual([
      'http://a.test/scans/1',
      'http://a.test/scans/1/results',
    ]);
    expect(bodies(worker, ['http://a.test/late-wake/2'])).toEqual(['http://a.test/late-wake/2']);
    expect(bodies(worker, ['http://a.test/scans/3', 'http://a.test/scans/3/results'])).toEqual([
      'http://a.test/scans/3',
      'http://a.test/scans/3/results',
    ]);
  });

  test('an answer that comes after its fetch gave up is dropped, never taken for the next fetch', () => {
    worker = new HttpWorker({ script: SCRIPT, answerMarginMs: 50 });
    expect(() => bodies(worker, ['http://a.test/hold/1'], 1)).toThrow('UrlFetchApp worker did not answer');
    expect(bodies(worker, ['http://a.test/scans/2'])).toEqual(['http://a.test/scans/2']);
    expect(bodies(worker, ['http://a.test/scans/3'])).toEqual(['http://a.test/scans/3']);
  });
});
