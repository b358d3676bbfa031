#!/usr/bin/env node
/**
 * A receiver for the Scan Service's `scan.complete` webhook (scan-service-api.md section 6), with
 * Node's built-ins only. It checks every delivery before believing it:
 *
 * 1. `X-Service-Signature: sha256=<hex>` must be the HMAC-SHA256 of the RAW body bytes keyed with
 *    one of the configured secrets, compared in constant time (crypto.timingSafeEqual). The body is
 *    never parsed and re-serialised before the check: another JSON writer could change a byte.
 * 2. The event (header `X-Service-Event` and the body's `event`) must be `scan.complete`.
 * 3. The payload's `timestamp` (signed, set at each attempt) must be within the tolerance of this
 *    computer's clock, so a recorded delivery cannot be replayed later.
 * 4. A scan completion already handled (a retry whose first answer was lost) is acknowledged and
 *    not handled again.
 *
 * Then it logs the scan's counts and a link, appends a CSV row when WEBHOOK_CSV is set, and
 * answers 200. Anything slow you add (a chat message, another API) belongs in `afterAnswer`, which
 * runs once the 200 is sent: the service waits at most 10 s and retries what is not a 2xx.
 *
 * Run: WEBHOOK_SECRET=<secret> node server.js   (all settings: README.md)
 */
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');

/** The only event the service sends (document section 6). */
const EVENT = 'scan.complete';
/** Deliveries are small JSON objects; anything larger is not one. */
const MAX_BODY_BYTES = 64 * 1024;
/** Handled completions remembered for de-duplication (oldest forgotten first). */
const MAX_REMEMBERED = 10000;
const CSV_COLUMNS = [
  'received_at',
  'scan_id',
  'name',
  'status',
  'marketplace_id',
  'lines',
  'products',
  'errors',
  'speed',
  'created_at',
  'completed_at',
  'link',
];

/**
 * @typedef {object} ReceiverConfig
 * @property {string[]} secrets Signing secrets; a delivery signed with any of them is accepted.
 * @property {string} path The path deliveries are POSTed to.
 * @property {number} toleranceSeconds Largest accepted difference between the payload's timestamp and now.
 * @property {string | undefined} csvPath File a row per handled scan is appended to.
 * @property {string} linkTemplate Link to a scan; `{id}` is replaced by the scan id.
 * @property {(line: string) => void} log
 * @property {(line: string) => void} warn
 * @property {() => number} now Milliseconds since the epoch.
 * @property {(scan: ScanInfo) => (void | Promise<void>)} [afterAnswer] Slow work, run after the 200 is sent.
 */

/**
 * @typedef {object} ScanInfo
 * @property {number} id
 * @property {string} name
 * @property {string} status
 * @property {number} marketplace_id
 * @property {number} products
 * @property {number} errors
 * @property {number} speed
 * @property {number} lines
 * @property {string} created_at
 * @property {string} completed_at
 */

/**
 * Which secret signed `body` (its index), or -1. Every secret is tried in constant time per
 * comparison; a malformed header matches none.
 * @param {Buffer} body the raw request body
 * @param {string | undefined} header the X-Service-Signature value
 * @param {string[]} secrets
 * @returns {number}
 */
function signedBy(body, header, secrets) {
  const m = /^sha256=([0-9a-f]{64})$/i.exec(String(header || '').trim());
  if (!m) return -1;
  const given = Buffer.from(m[1], 'hex');
  let found = -1;
  for (let i = 0; i < secrets.length; i++) {
    const expected = crypto.createHmac('sha256', secrets[i]).update(body).digest();
    if (crypto.timingSafeEqual(given, expected) && found < 0) found = i;
  }
  return found;
}

/**
 * One CSV field (RFC 4180). Text that a spreadsheet would read as a formula (starting with one of
 * `=`, `+`, `-`, the at sign, a tab or a CR) gets a leading apostrophe: a scan name is the user's text, not a formula.
 * @param {unknown} value
 * @returns {string}
 */
function csvField(value) {
  let s = value === undefined || value === null ? '' : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = "'" + s;
  return /[",\r\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

/** @param {unknown[]} values */
function csvLine(values) {
  return values.map(csvField).join(',') + '\r\n';
}

/**
 * The scan member when the payload has the documented shape, else a reason.
 * @param {any} payload
 * @returns {{ scan: ScanInfo } | { problem: string }}
 */
function readScan(payload) {
  const s = payload && typeof payload === 'object' ? payload.scan : undefined;
  if (!s || typeof s !== 'object') return { problem: 'payload has no scan object' };
  if (!Number.isInteger(s.id) || s.id < 1) return { problem: 'scan.id is not a positive whole number' };
  for (const k of ['products', 'errors', 'lines']) if (typeof s[k] !== 'number') return { problem: `scan.${k} is not a number` };
  return { scan: /** @type {ScanInfo} */ (s) };
}

/**
 * Control characters out of text that goes into a log line (a name cannot forge lines).
 * @param {unknown} text
 */
function printable(text) {
  return String(text).replace(/[\u0000-\u001f\u007f]/g, ' ');
}

/**
 * Appends rows to the CSV file at `file` (none: nothing is written), its header first when the file
 * is empty; rows are written one after another, never interleaved.
 * @param {string | null | undefined} file
 * @returns {(row: unknown[]) => Promise<void>}
 */
function csvAppender(file) {
  let csvQueue = Promise.resolve();
  let csvHeaderChecked = false;
  return (row) => {
    if (!file) return Promise.resolve();
    const next = csvQueue.then(async () => {
      if (!csvHeaderChecked) {
        const size = await fs.promises.stat(file).then(
          (st) => st.size,
          () => 0,
        );
        if (size === 0) await fs.promises.appendFile(file, csvLine(CSV_COLUMNS));
        csvHeaderChecked = true;
      }
      await fs.promises.appendFile(file, csvLine(row));
    });
    csvQueue = next.catch(() => undefined);
    return next;
  };
}

/**
 * One handled scan's CSV row (CSV_COLUMNS).
 * @param {ScanInfo} scan
 * @param {number} receivedAt
 * @param {string} url
 */
function csvRow(scan, receivedAt, url) {
  return [
    new Date(receivedAt).toISOString(),
    scan.id,
    scan.name,
    scan.status,
    scan.marketplace_id,
    scan.lines,
    scan.products,
    scan.errors,
    scan.speed,
    scan.created_at,
    scan.completed_at,
    url,
  ];
}

/**
 * Why a signed payload's envelope is refused (an event other than scan.complete, a timestamp not
 * readable or too far from `now`), or undefined.
 * @param {any} payload
 * @param {http.IncomingHttpHeaders} headers
 * @param {number} now
 * @param {number} toleranceSeconds
 * @returns {[number, string] | undefined}
 */
function envelopeProblem(payload, headers, now, toleranceSeconds) {
  const event = payload && typeof payload === 'object' ? payload.event : undefined;
  const headerEvent = headers['x-service-event'];
  if (event !== EVENT || (headerEvent !== undefined && headerEvent !== EVENT)) {
    return [
      400,
      `unknown event ${JSON.stringify(printable(String(headerEvent !== undefined && headerEvent !== EVENT ? headerEvent : event)))}`,
    ];
  }
  const sent = typeof payload.timestamp === 'string' ? Date.parse(payload.timestamp) : NaN;
  if (isNaN(sent)) return [400, 'payload has no readable timestamp'];
  if (Math.abs(now - sent) > toleranceSeconds * 1000)
    return [401, `timestamp ${printable(payload.timestamp)} is more than ${toleranceSeconds} s from now (replayed?)`];
  return undefined;
}

/**
 * The request handler and its state, without a listening server (tests and embedding).
 * @param {ReceiverConfig} config
 */
function createReceiver(config) {
  if (!config.secrets.length || config.secrets.some((s) => !s)) throw new Error('at least one non-empty secret is needed');
  /** completion key -> time it was first handled */
  const handled = new Map();

  /** @param {ScanInfo} scan */
  function link(scan) {
    return config.linkTemplate.split('{id}').join(encodeURIComponent(String(scan.id)));
  }

  const appendCsv = csvAppender(config.csvPath);

  function remember(/** @type {string} */ key) {
    handled.set(key, config.now());
    if (handled.size > MAX_REMEMBERED) handled.delete(handled.keys().next().value);
  }

  /**
   * Handles one verified, fresh, new completion. Resolves when the CSV row is written; the answer
   * waits for it, so a failed write answers 500 and the service delivers again.
   * @param {ScanInfo} scan
   * @param {number} receivedAt
   */
  async function handle(scan, receivedAt) {
    const url = link(scan);
    config.log(
      `scan ${scan.id} ${JSON.stringify(printable(scan.name))} ${printable(scan.status)}: ${scan.lines} lines, ${scan.products} products, ${scan.errors} errors` +
        ` (${scan.speed} products/min) ${url}`,
    );
    await appendCsv(csvRow(scan, receivedAt, url));
  }

  /**
   * Decides what a delivery gets: [status, reason, the scan when it was handled now].
   * @param {Buffer} body
   * @param {http.IncomingHttpHeaders} headers
   * @returns {Promise<[number, string, ScanInfo?]>}
   */
  async function decide(body, headers) {
    const header = headers['x-service-signature'];
    if (header === undefined) return [401, 'missing X-Service-Signature'];
    const which = signedBy(body, Array.isArray(header) ? header[0] : header, config.secrets);
    if (which < 0) return [401, 'signature does not match'];
    /** @type {any} */
    let payload;
    try {
      payload = JSON.parse(body.toString('utf8'));
    } catch (_e) {
      return [400, 'body is not JSON'];
    }
    const now = config.now();
    const stale = envelopeProblem(payload, headers, now, config.toleranceSeconds);
    if (stale) return stale;
    const read = readScan(payload);
    if ('problem' in read) return [400, read.problem];
    // One completion of one scan: retries carry a new timestamp, so the body differs, but the scan
    // and its completion time do not (whichever of the secrets signed it: rotation is one webhook).
    const key = `${read.scan.id}|${read.scan.completed_at}`;
    if (handled.has(key)) return [200, 'duplicate'];
    remember(key);
    try {
      await handle(read.scan, now);
    } catch (e) {
      handled.delete(key);
      config.warn(`scan ${read.scan.id}: could not be recorded: ${printable(e instanceof Error ? e.message : String(e))}`);
      return [500, 'could not record the scan'];
    }
    return [200, 'ok', read.scan];
  }

  /** @type {http.RequestListener} */
  function listener(req, res) {
    const started = process.hrtime.bigint();
    const reply = (/** @type {number} */ status, /** @type {string} */ reason) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(status < 300 ? { ok: true, note: reason } : { error: reason }));
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (status >= 300) config.warn(`refused ${req.method} ${printable(req.url || '')}: ${status} ${reason} (${ms.toFixed(2)} ms)`);
      else if (reason === 'duplicate') config.log(`duplicate delivery acknowledged (${ms.toFixed(2)} ms)`);
    };
    const path = (req.url || '/').split('?')[0];
    if (req.method === 'GET' && (path === '/health' || path === config.path)) {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('webhook receiver is running\n');
      return;
    }
    if (path !== config.path) return reply(404, 'not found');
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return reply(405, 'only POST');
    }
    /** @type {Buffer[]} */
    const chunks = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (/** @type {Buffer} */ c) => {
      if (tooLarge) return;
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        tooLarge = true;
        res.setHeader('Connection', 'close');
        reply(413, `body larger than ${MAX_BODY_BYTES} bytes`);
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (tooLarge) return;
      decide(Buffer.concat(chunks), req.headers).then(
        ([status, reason, scan]) => {
          reply(status, reason);
          const after = config.afterAnswer;
          if (scan && after) {
            setImmediate(() => {
              Promise.resolve()
                .then(() => after(scan))
                .catch((e) => config.warn(`scan ${scan.id}: afterAnswer failed: ${printable(e instanceof Error ? e.message : String(e))}`));
            });
          }
        },
        (e) => reply(500, printable(e instanceof Error ? e.message : String(e))),
      );
    });
    req.on('error', () => undefined);
  }

  return { listener, handled };
}

/**
 * Settings from the environment (README.md lists them); throws with a clear message.
 * @param {NodeJS.ProcessEnv} env
 * @returns {ReceiverConfig & { port: number, host: string }}
 */
function configFromEnv(env) {
  const list = (env.WEBHOOK_SECRETS || env.WEBHOOK_SECRET || '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (list.length === 0)
    throw new Error(
      'Set WEBHOOK_SECRET to the secret the add-on showed when you created the webhook (or WEBHOOK_SECRETS=a,b for several).',
    );
  const port = env.PORT === undefined || env.PORT === '' ? 8080 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  const tolerance = env.WEBHOOK_TOLERANCE_SECONDS ? Number(env.WEBHOOK_TOLERANCE_SECONDS) : 300;
  if (!(tolerance > 0)) throw new Error(`WEBHOOK_TOLERANCE_SECONDS must be a positive number, got "${env.WEBHOOK_TOLERANCE_SECONDS}"`);
  const path = env.WEBHOOK_PATH || '/scan-complete';
  if (!path.startsWith('/')) throw new Error(`WEBHOOK_PATH must start with /, got "${path}"`);
  return {
    secrets: list,
    port,
    host: env.HOST || '127.0.0.1',
    path,
    toleranceSeconds: tolerance,
    csvPath: env.WEBHOOK_CSV || undefined,
    linkTemplate: env.SCAN_LINK_TEMPLATE || 'https://app.rocketsource.io/scans/{id}',
    log: (line) => console.log(new Date().toISOString() + ' ' + line),
    warn: (line) => console.error(new Date().toISOString() + ' ' + line),
    now: () => Date.now(),
  };
}

function main() {
  let config;
  try {
    config = configFromEnv(process.env);
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(2);
    return;
  }
  const receiver = createReceiver({
    ...config,
    // Slow work goes here: the delivery is already acknowledged. For example, a chat message:
    // afterAnswer: (scan) => fetch(process.env.CHAT_WEBHOOK_URL, { method: 'POST', body: JSON.stringify({ text: `Scan ${scan.name} finished` }) }),
    afterAnswer: undefined,
  });
  const server = http.createServer(receiver.listener);
  // Deliveries are small and the service waits at most 10 s: a slow sender is dropped.
  server.requestTimeout = 15000;
  server.headersTimeout = 10000;
  server.listen(config.port, config.host, () => {
    const a = /** @type {import('node:net').AddressInfo} */ (server.address());
    const host = a.family === 'IPv6' ? `[${a.address}]` : a.address;
    const n = config.secrets.length;
    console.log(
      `webhook receiver: ${n} secret${n === 1 ? '' : 's'}, deliveries to ${config.path}` +
        (config.csvPath ? `, rows appended to ${config.csvPath}` : '') +
        `; listening on http://${host}:${a.port}${config.path}`,
    );
  });
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

module.exports = { createReceiver, configFromEnv, signedBy, csvField, CSV_COLUMNS };

if (require.main === module) main();
