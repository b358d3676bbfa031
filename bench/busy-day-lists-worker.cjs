/**
 * busy-day.ts's front door, in a worker thread: the local Scan Service's LIST areas (tags, notes,
 * blocklists, listing matches, multipack corrections) on the add-on's VIRTUAL clock (a
 * SharedArrayBuffer the runtime's clock writes), so their 30-requests-a-minute limit counts in
 * modelled time as the add-on's pacing does; every other path goes to the day's service in its
 * child process (scans, conversions). Counts the requests to the list areas.
 * (A worker, not the bench's own thread: the runtime's URL Fetch blocks that thread while it waits.)
 */
const { workerData, parentPort } = require('node:worker_threads');
const http = require('node:http');
require('tsx/cjs/api').register();
const { startService } = require('../emulator/service/server.ts');

const LISTS = /^\/api\/v3\/(brand-blocklist|asin-blocklist|listing-matches|multipack-corrections|public\/tags|public\/notes)(\/|\?|$)/;
const clock = new Float64Array(workerData.clock);
const empty = { byIdentifier: () => [], byAsin: () => undefined, size: () => 0 };
let listRequests = 0;

startService({ port: 0, dbPath: ':memory:', apiKeys: workerData.apiKeys, bulkRateLimitPerMinute: 30 }, { catalog: empty, now: () => new Date(clock[0]) }).then(
  (svc) => {
    const server = http.createServer((req, res) => {
      const lists = LISTS.test(req.url);
      if (lists) listRequests++;
      const target = new URL(req.url, lists ? svc.url : workerData.scansUrl);
      const out = http.request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
        res.writeHead(answer.statusCode, answer.headers);
        answer.pipe(res);
      });
      out.on('error', (e) => {
        res.writeHead(502);
        res.end(String(e));
      });
      req.pipe(out);
    });
    server.listen(0, '127.0.0.1', () => parentPort.postMessage({ url: `http://127.0.0.1:${server.address().port}` }));
    parentPort.on('message', async (m) => {
      if (m === 'count') parentPort.postMessage({ listRequests });
      if (m === 'stop') {
        server.close();
        await svc.close();
        parentPort.postMessage({ stopped: true });
      }
    });
  },
  (e) => parentPort.postMessage({ error: String(e && e.stack ? e.stack : e) }),
);
