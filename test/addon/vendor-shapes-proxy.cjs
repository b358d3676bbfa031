/**
 * An HTTP proxy for the tests, run as a CHILD process (the local Apps Script runtime blocks the
 * test's thread during a fetch), that forwards everything to the local Scan Service (argv[2]) and
 * rewrites the scans API's JSON answers into the shapes of the vendor's public TypeScript client
 * (service-silent-parts.md, "Answer shapes in the vendor's public TypeScript client"):
 * - status words `InProgress` (queued and in_progress alike: the client has no queued state),
 *   `Success`, `Error`, `Cancelled`;
 * - a scan record with only the client's members: no lines_done, marketplace_id, mapping,
 *   completed_at or filename; `source_id` null; `speed` null while 0;
 * - the list body `{data, total, pagination: {page, per_page}}`;
 * - results `{count, data, meta, options}` (no page/per_page), product rows with the client's extra
 *   members (historical, monthly_sold, favorited, tag_ids, note, listing_match), some null, and
 *   `images` as `[{marketplace_id, image: [{link, height, width, variant}]}]` (one entry per marketplace).
 * GET /__seen answers `[{method, path, status}]` of what was forwarded. Prints "PORT <n>" when listening.
 */
const http = require('node:http');
// The whole body of a request or an answer.
const { buffer: readAll } = require('node:stream/consumers');

const target = new URL(process.argv[2]);
const seen = [];

const WORDS = { queued: 'InProgress', in_progress: 'InProgress', success: 'Success', error: 'Error', cancelled: 'Cancelled' };
const word = (s) => WORDS[s] || s;

function record(r) {
  if (!r || typeof r !== 'object') return r;
  return {
    id: r.id,
    user_id: r.user_id,
    account_id: r.account_id,
    marketplace: r.marketplace,
    status: word(r.status),
    source_type: r.source_type,
    source_id: null,
    name: r.name,
    products: r.products,
    errors: r.errors,
    speed: r.speed || null,
    lines: r.lines,
    options: r.options,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

const history = { d30: -1, d60: null, d90: -1, d180: -1 };
// The vendor's images: per marketplace, its pictures with their size (75 px: the local service's).
function images(list) {
  if (!Array.isArray(list) || list.length === 0) return list;
  const image = list.map((i, n) => ({ link: i.url, height: 75, width: 75, variant: n === 0 ? 'MAIN' : 'PT0' + n }));
  return [{ marketplace_id: String(list[0].marketplace_id), image }];
}
function product(p) {
  return {
    ...p,
    images: images(p.images),
    historical: { bsr: history, price: history, amazon_in_stock_rate: history, sales_rank_drops: history },
    monthly_sold: null,
    favorited: false,
    tag_ids: [],
    note: null,
    listing_match: null,
  };
}

/** The vendor's shape of an answer of the local service, or the answer unchanged. */
function rewrite(method, path, body) {
  if (path === '/api/v3/scans' && method === 'GET')
    return { data: body.data.map(record), total: body.total, pagination: { page: body.page, per_page: body.per_page } };
  if (path === '/api/v3/scans' && method === 'POST') return record(body);
  if (/^\/api\/v3\/scans\/\d+(\/cancel)?$/.test(path) && method === 'GET') return record(body);
  if (/^\/api\/v3\/scans\/\d+$/.test(path) && method === 'POST' && Array.isArray(body.data)) {
    const rows = body.data.map((row) => ('asin' in row ? product(row) : row));
    return { count: body.count, data: rows, meta: { ...body.meta, status: word(body.meta && body.meta.status) }, options: body.options };
  }
  return body;
}

const server = http.createServer(async (req, res) => {
  const body = await readAll(req);
  if (req.url === '/__seen') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(seen));
    return;
  }
  const path = req.url.split('?')[0];
  const headers = { ...req.headers, host: target.host, 'content-length': body.length };
  const up = http.request({ hostname: target.hostname, port: target.port, path: req.url, method: req.method, headers }, async (ur) => {
    let answer = await readAll(ur);
    seen.push({ method: req.method, path: req.url, status: ur.statusCode });
    const out = { ...ur.headers };
    if (ur.statusCode >= 200 && ur.statusCode < 300 && /json/.test(ur.headers['content-type'] || '') && answer.length) {
      answer = Buffer.from(JSON.stringify(rewrite(req.method, path, JSON.parse(answer.toString('utf8')))), 'utf8');
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
