/**
 * The local Scan Service in a WORKER THREAD of the test process, on the add-on's VIRTUAL clock:
 * the runtime publishes its clock into a SharedArrayBuffer (lists-helpers.ts SharedClock) and the
 * service reads it as its `now`, so its 30-requests-a-minute limit counts in the same time as the
 * add-on's pacing (a child process on real time would see a paced minute pass in milliseconds).
 * A worker answers while the test thread is blocked in a synchronous UrlFetch.
 */
const { workerData, parentPort } = require('node:worker_threads');
require('tsx/cjs/api').register();
const { startService } = require('../../emulator/service/server.ts');

const clock = new Float64Array(workerData.clock);
const empty = { byIdentifier: () => [], byAsin: () => undefined, size: () => 0 };
startService({ port: 0, dbPath: ':memory:', apiKeys: workerData.apiKeys, bulkRateLimitPerMinute: 30 }, { catalog: empty, now: () => new Date(clock[0]) }).then(
  (svc) => {
    parentPort.postMessage({ url: svc.url });
    parentPort.on('message', async (m) => {
      if (m === 'stop') {
        await svc.close();
        parentPort.postMessage({ stopped: true });
      }
    });
  },
  (e) => parentPort.postMessage({ error: String(e && e.stack ? e.stack : e) }),
);
