/**
 * A proxy for the tests that makes the local Scan Service (argv[2]) lie (issue 26), run as a CHILD
 * process (the local Apps Script runtime blocks the test's thread during a fetch). It forwards
 * everything and rewrites what rules say; without rules it changes nothing.
 *
 * Control (plain HTTP on the same port, never forwarded):
 *   POST /__lies  [rule, ...] replaces the rules. The first rule matching a request applies, `times`
 *                 requests long (absent: always). A rule:
 *     {method?, path (RegExp source, matched against the path without query), times?,
 *      when?: {member: value}     only requests whose JSON body has these members (e.g. tableType),
 *      pageToOne?: true           the request's JSON `page` is sent as 1 (a service ignoring `page`),
 *      countFactor?: number       the answer's `count` times this, rounded (a count that lies),
 *      set?: {member: value}      members of the answer's top level replaced (e.g. a scan's name),
 *      rows?: {first?: n, set: {member: value}}  members of the answer's rows (its `data`, or the
 *                                 answer itself when it is a list) replaced (the first n rows, or all),
 *      status?, headers?, body?   the answer itself, not forwarded (e.g. a 429 with Retry-After)}
 *     A string value `"<repeat:N:text>"` stands for text repeated to N UTF-16 units (60,000-character cells).
 *   GET  /__seen  [{method, path, page, rewritten}]
 *   POST /__reset clears rules and the log.
 * Prints "PORT <n>" when listening.
 */
const http = require('node:http');
const { buffer: readAll } = require('node:stream/consumers');

const target = new URL(process.argv[2]);
let rules = [];
let seen = [];

function expand(v) {
  if (typeof v === 'string') {
    const m = /^<repeat:(\d+):([\s\S]*)>$/.exec(v);
    if (m) return m[2].repeat(Math.ceil(Number(m[1]) / m[2].length)).slice(0, Number(m[1]));
    return v;
  }
  if (Array.isArray(v)) return v.map(expand);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expand(x)]));
  return v;
}

function rewriteRows(rule, rows) {
  const n = rule.rows.first === undefined ? rows.length : rule.rows.first;
  const set = expand(rule.rows.set);
  return rows.map((row, i) => (i < n && row && typeof row === 'object' ? { ...row, ...set } : row));
}

function rewriteAnswer(rule, body) {
  if (Array.isArray(body)) return rule.rows ? rewriteRows(rule, body) : body;
  if (!body || typeof body !== 'object') return body;
  const out = { ...body };
  if (typeof rule.countFactor === 'number' && typeof out.count === 'number') out.count = Math.round(out.count * rule.countFactor);
  if (rule.set) Object.assign(out, expand(rule.set));
  if (rule.rows && Array.isArray(out.data)) out.data = rewriteRows(rule, out.data);
  return out;
}

const server = http.createServer(async (req, res) => {
  let body = await readAll(req);
  if (req.url === '/__lies' && req.method === 'POST') {
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
  let json = null;
  try {
    json = body.length ? JSON.parse(body.toString('utf8')) : null;
  } catch (_e) {
    json = null;
  }
  const asked = (r) => !r.when || (json && Object.entries(r.when).every(([k, v]) => json[k] === v));
  const rule = rules.find(
    (r) => (r.times === undefined || r.times > 0) && (!r.method || r.method === req.method) && new RegExp(r.path).test(path) && asked(r),
  );
  if (rule && rule.times !== undefined) rule.times--;
  const entry = { method: req.method, path: req.url, page: json && json.page, rewritten: !!rule };
  seen.push(entry);
  if (rule && rule.status) {
    res
      .writeHead(rule.status, { 'content-type': 'application/json', ...(rule.headers || {}) })
      .end(rule.body !== undefined ? rule.body : JSON.stringify({ message: 'lying proxy ' + rule.status }));
    return;
  }
  if (rule && rule.pageToOne && json && typeof json.page === 'number') body = Buffer.from(JSON.stringify({ ...json, page: 1 }), 'utf8');
  const headers = { ...req.headers, host: target.host, 'content-length': body.length };
  const up = http.request({ hostname: target.hostname, port: target.port, path: req.url, method: req.method, headers }, async (ur) => {
    let answer = await readAll(ur);
    const out = { ...ur.headers };
    const rewrites = rule && (rule.countFactor !== undefined || rule.set || rule.rows);
    if (rewrites && ur.statusCode >= 200 && ur.statusCode < 300 && /json/.test(ur.headers['content-type'] || '') && answer.length) {
      answer = Buffer.from(JSON.stringify(rewriteAnswer(rule, JSON.parse(answer.toString('utf8')))), 'utf8');
      delete out['transfer-encoding'];
      out['content-length'] = answer.length;
    }
    res.writeHead(ur.statusCode, out).end(answer);
  });
  up.on('error', (e) => res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'proxy: ' + e.message })));
  up.end(body);
});
// The test process talks to this proxy over kept-alive connections and may block for seconds on a
// synchronous run: with Node's 5 s default the proxy could close a connection the test is about to
// reuse ("other side closed"). Idle connections are kept as long as the test runs.
server.keepAliveTimeout = 10 * 60 * 1000;
server.listen(0, '127.0.0.1', () => process.stdout.write('PORT ' + server.address().port + '\n'));
process.on('SIGTERM', () => process.exit(0));
