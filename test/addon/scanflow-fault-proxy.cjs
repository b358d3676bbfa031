/**
 * A tiny fault-injecting HTTP proxy for the scan-flow tests, run as a CHILD process (the local
 * Apps Script runtime blocks the test's thread during a fetch). Forwards everything to the target
 * given as argv[2], except requests matched by an injected fault, and remembers what it saw.
 *
 * Control (plain HTTP on the same port, never forwarded):
 *   POST /__faults  [{method?, path (RegExp source), status, times, headers?, body?, delayMs?}]
 *                   replaces the rules; a rule answers `times` matching requests itself, then stops.
 *                   `delayMs` waits before answering (for time-outs).
 *   GET  /__seen    [{method, path, status, injected, contentType, body (text, POSTs only)}]
 *   POST /__reset   clears rules and the log.
 * Prints "PORT <n>" when listening.
 */
const http = require('node:http');

const target = new URL(process.argv[2]);
let rules = [];
let seen = [];

function readAll(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

const server = http.createServer(async (req, res) => {
  const body = await readAll(req);
  if (req.url === '/__faults' && req.method === 'POST') {
    rules = JSON.parse(body.toString('utf8'));
    res.writeHead(204).end();
    return;
  }
  if (req.url === '/__seen') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(seen));
    return;
  }
  if (req.url === '/__reset' && req.method === 'POST') {
    rules = [];
    seen = [];
    res.writeHead(204).end();
    return;
  }
  const path = req.url.split('?')[0];
  const entry = {
    method: req.method,
    path: req.url,
    status: 0,
    injected: false,
    contentType: req.headers['content-type'] || '',
    authorization: req.headers.authorization || '',
    body: req.method === 'POST' ? body.toString('utf8') : '',
  };
  seen.push(entry);
  const rule = rules.find((r) => r.times > 0 && (!r.method || r.method === req.method) && new RegExp(r.path).test(path));
  if (rule) {
    rule.times--;
    entry.injected = true;
    entry.status = rule.status;
    setTimeout(() => {
      if (res.destroyed) return;
      res
        .writeHead(rule.status, { 'content-type': 'application/json', ...(rule.headers || {}) })
        .end(rule.body !== undefined ? rule.body : JSON.stringify({ message: 'injected ' + rule.status }));
    }, rule.delayMs || 0);
    return;
  }
  const headers = { ...req.headers, host: target.host };
  delete headers['content-length'];
  const up = http.request(
    {
      hostname: target.hostname,
      port: target.port,
      path: req.url,
      method: req.method,
      headers: { ...headers, 'content-length': body.length },
    },
    (ur) => {
      entry.status = ur.statusCode;
      res.writeHead(ur.statusCode, ur.headers);
      ur.pipe(res);
    },
  );
  up.on('error', (e) => {
    entry.status = 502;
    res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'proxy: ' + e.message }));
  });
  up.end(body);
});
// The test process talks to this proxy over kept-alive connections and may block for seconds on a
// synchronous run: with Node's 5 s default the proxy could close a connection the test is about to
// reuse ("other side closed"). Idle connections are kept as long as the test runs.
server.keepAliveTimeout = 10 * 60 * 1000;
server.listen(0, '127.0.0.1', () => process.stdout.write('PORT ' + server.address().port + '\n'));
process.on('SIGTERM', () => process.exit(0));
