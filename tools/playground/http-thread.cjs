/*
 * The playground's HTTP server, in its own thread. The main thread runs the local Apps Script
 * runtime, which blocks its thread during an execution (UrlFetch, and a dialog waiting for its
 * answer): serving here lets the page keep polling for the dialog and answer it while the main
 * thread waits. Plain CommonJS so it runs as it is under tsx and jest.
 *
 * workerData: {port, assets: {path: {type, body}}, answer: SharedArrayBuffer}
 *  - GET of an asset path: the asset;
 *  - GET /api/question: the dialog the running execution waits on (or null); with ?wait=1 held
 *    until there is one (or LONG_POLL_MS passed), so a page that waits for dialogs costs nothing
 *    while none comes;
 *  - POST /api/answer {button, text}: writes the answer into `answer` and wakes the main thread;
 *  - any other /api/ path: handed to the main thread ({id, method, path, body}); its reply
 *    ({id, status, type, body}) is the response. Calls queue there: one execution at a time.
 */
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');

const HOST = '127.0.0.1';
const MAX_BODY = 64 * 1024 * 1024;
/** A held GET /api/question?wait=1 is answered {question: null} after this long (chosen: well below any idle timeout). */
const LONG_POLL_MS = 25_000;
const pending = new Map();
/** Held GET /api/question?wait=1 responses, each with its timer. */
const waiting = new Map();
let nextId = 1;
let question = null;
const answer = workerData.answer;
const flag = new Int32Array(answer, 0, 2);
const bytes = new Uint8Array(answer, 8);

function sendQuestion(res) {
  clearTimeout(waiting.get(res));
  waiting.delete(res);
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ question }));
}

parentPort.on('message', (m) => {
  if (m.question !== undefined) {
    question = m.question;
    if (question) for (const res of [...waiting.keys()]) sendQuestion(res);
    return;
  }
  if (m.stop) {
    for (const timer of waiting.values()) clearTimeout(timer);
    waiting.clear();
    server.close(() => parentPort.postMessage({ stopped: true }));
    server.closeAllConnections();
    return;
  }
  const res = pending.get(m.id);
  if (!res) return;
  pending.delete(m.id);
  res.writeHead(m.status, { 'content-type': m.type, 'cache-control': 'no-store', ...(m.headers || {}) });
  res.end(m.body);
});

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const server = http.createServer(async (req, res) => {
  const path = (req.url || '/').split('?')[0];
  try {
    // Only this machine's pages may call: a page from elsewhere cannot drive the runtime (its
    // requests carry another Origin).
    // The Host check keeps out pages that rebind a name of theirs to 127.0.0.1.
    const origin = req.headers.origin;
    const host = req.headers.host || '';
    const own = [`127.0.0.1:${port}`, `localhost:${port}`];
    if (!own.includes(host) || (origin && origin !== `http://${host}`)) {
      res.writeHead(403, { 'content-type': 'text/plain' });
      return res.end('Only the playground page itself may call it.');
    }
    const asset = req.method === 'GET' && workerData.assets[path];
    if (asset) {
      res.writeHead(200, { 'content-type': asset.type, 'cache-control': 'no-store' });
      return res.end(asset.body);
    }
    if (path === '/api/question' && req.method === 'GET') {
      if (question || !/[?&]wait=1(&|$)/.test(req.url || '')) return sendQuestion(res);
      waiting.set(
        res,
        setTimeout(() => sendQuestion(res), LONG_POLL_MS),
      );
      res.on('close', () => {
        clearTimeout(waiting.get(res));
        waiting.delete(res);
      });
      return;
    }
    if (path === '/api/answer' && req.method === 'POST') {
      const a = JSON.parse((await readBody(req)).toString('utf8') || '{}');
      if (!question) {
        res.writeHead(409, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: 'No dialog is waiting for an answer.' }));
      }
      const text = Buffer.from(JSON.stringify({ button: String(a.button || 'CLOSE'), text: String(a.text || '') }), 'utf8');
      bytes.set(text.subarray(0, bytes.length));
      question = null;
      Atomics.store(flag, 1, Math.min(text.length, bytes.length));
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{}');
    }
    if (path.startsWith('/api/')) {
      const body = req.method === 'POST' ? await readBody(req) : Buffer.alloc(0);
      const id = nextId++;
      pending.set(id, res);
      res.on('close', () => pending.delete(id));
      parentPort.postMessage({ id, method: req.method, path, url: req.url, body });
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('Not found');
  } catch (e) {
    res.writeHead(400, { 'content-type': 'text/plain' });
    res.end(String((e && e.message) || e));
  }
});

server.on('error', (e) => parentPort.postMessage({ error: String(e.message || e) }));
let port = 0;
server.listen(workerData.port, HOST, () => {
  port = server.address().port;
  parentPort.postMessage({ listening: port });
});
