/**
 * The local Scan Service in a worker thread, its `now` read from shared memory (a SharedClock's
 * buffer). A worker, not the caller's thread: the local runtime's URL Fetch blocks that thread while
 * it waits for the answer. With `forwardTo`, a front door: the list areas (every kind of
 * contract/lists.ts: tags, notes, blocklists, listing matches, multipack corrections) are answered here on the shared clock and counted; every
 * other path is passed on to the service at `forwardTo` (scans and conversions of a real-time one).
 */
const { workerData, parentPort } = require('node:worker_threads');
const http = require('node:http');
require('tsx/cjs/api').register();
const { startService } = require('../server.ts');
const { closeServer } = require('../../stand-in.ts');
const { listAreaPattern } = require('../areas.ts');
const { loadApiDocument } = require('../../../contract/openapi/index.ts');

/** The list areas' requests, from the one table of list kinds (contract/lists.ts) and the description: a kind is never left out. */
const LISTS = listAreaPattern(loadApiDocument());
const clock = new Float64Array(workerData.clock);
const empty = { byIdentifier: () => [], byAsin: () => undefined, size: () => 0 };
let listRequests = 0;

function frontDoor(svc) {
  return new Promise((resolve) => {
    const server = http.createServer((req, res) => {
      const lists = LISTS.test(req.url);
      if (lists) listRequests++;
      const target = new URL(req.url, lists ? svc.url : workerData.forwardTo);
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
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}`, server }));
  });
}

startService(
  { port: 0, dbPath: ':memory:', apiKeys: workerData.apiKeys, bulkRateLimitPerMinute: 30 },
  { catalog: empty, now: () => new Date(clock[0]) },
).then(
  async (svc) => {
    const door = workerData.forwardTo ? await frontDoor(svc) : null;
    parentPort.postMessage({ url: door ? door.url : svc.url });
    parentPort.on('message', async (m) => {
      if (m === 'count') parentPort.postMessage({ listRequests });
      if (m === 'stop') {
        if (door) await closeServer(door.server);
        await svc.stop();
        parentPort.postMessage({ stopped: true });
      }
    });
  },
  (e) => parentPort.postMessage({ error: String(e && e.stack ? e.stack : e) }),
);
