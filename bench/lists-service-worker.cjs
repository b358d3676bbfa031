/**
 * The local Scan Service in a worker thread on the add-on's VIRTUAL clock (a SharedArrayBuffer the
 * bench's runtime clock writes), so its 30-requests-a-minute limit counts in modelled time, as the
 * add-on's pacing does. (The add-on tests have their own copy: bench/ and test/ share no helpers.)
 */
const { workerData, parentPort } = require('node:worker_threads');
require('tsx/cjs/api').register();
const { startService } = require('../emulator/service/server.ts');

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
