// Worker thread of UrlFetchApp: performs HTTP requests in parallel for a main thread that blocks on
// Atomics.wait until the results are posted (so UrlFetchApp.fetch is synchronous to the script).
// Plain CommonJS JavaScript so it runs untranspiled under jest and tsx alike.
'use strict';
const { workerData } = require('node:worker_threads');
const http = require('node:http');
const https = require('node:https');

const { signal, port } = workerData;
const MAX_REDIRECTS = 10;

function classify(err) {
  const code = err && err.code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'dns';
  if (code === 'ECONNREFUSED' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'EADDRNOTAVAIL') return 'unavailable';
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ERR_STREAM_PREMATURE_CLOSE') return 'reset';
  if (typeof code === 'string' && (code.startsWith('ERR_TLS') || code.includes('CERT') || code.startsWith('ERR_SSL'))) return 'ssl';
  return 'other';
}

function once(spec, url, method, body, deadline) {
  return new Promise((resolve) => {
    const u = new URL(url);
    const mod = u.protocol === 'https:' ? https : http;
    const headers = Object.assign({}, spec.headers);
    if (body) headers['Content-Length'] = String(body.length);
    let settled = false;
    const done = (v) => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        resolve(v);
      }
    };
    const req = mod.request(u, { method, headers, rejectUnauthorized: spec.rejectUnauthorized, agent: false }, (res) => {
      const chunks = [];
      let size = 0;
      res.on('data', (c) => {
        size += c.length;
        if (size > spec.maxResponseBytes) {
          req.destroy();
          done({ error: { kind: 'too-large', message: 'response too large' } });
          return;
        }
        chunks.push(c);
      });
      res.on('end', () => {
        const buf = Buffer.concat(chunks);
        done({ status: res.statusCode, rawHeaders: res.rawHeaders, body: new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength) });
      });
      res.on('error', (e) => done({ error: { kind: classify(e), message: String(e && e.message) } }));
    });
    const timer = setTimeout(
      () => {
        req.destroy();
        done({ error: { kind: 'timeout', message: 'timeout' } });
      },
      Math.max(0, deadline - Date.now()),
    );
    req.on('error', (e) => done({ error: { kind: classify(e), message: String(e && e.message) } }));
    if (body) req.end(Buffer.from(body));
    else req.end();
  });
}

async function perform(spec, timeoutMs) {
  const start = process.hrtime.bigint();
  const deadline = Date.now() + timeoutMs;
  let url = spec.url;
  let method = spec.method;
  let body = spec.body;
  let result;
  for (let hop = 0; ; hop++) {
    result = await once(spec, url, method, body, deadline);
    if (result.error || !spec.followRedirects || ![301, 302, 303, 307, 308].includes(result.status) || hop >= MAX_REDIRECTS) break;
    const loc = headerValue(result.rawHeaders, 'location');
    if (!loc) break;
    url = new URL(loc, url).toString();
    // 301/302/303 turn into a GET without body, as browsers and Java's HttpURLConnection do. (chosen)
    if (result.status !== 307 && result.status !== 308) {
      method = 'GET';
      body = null;
      spec = Object.assign({}, spec, { headers: withoutBodyHeaders(spec.headers) });
    }
  }
  result.elapsedMs = Number(process.hrtime.bigint() - start) / 1e6;
  result.finalUrl = url;
  return result;
}

function headerValue(raw, name) {
  for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() === name) return raw[i + 1];
  return undefined;
}

function withoutBodyHeaders(h) {
  const out = {};
  for (const k of Object.keys(h)) if (!/^content-(type|length)$/i.test(k)) out[k] = h[k];
  return out;
}

port.on('message', async (msg) => {
  let payload;
  try {
    const results = await Promise.all(msg.requests.map((r) => perform(r, msg.timeoutMs)));
    payload = { id: msg.id, results };
  } catch (e) {
    payload = { id: msg.id, failure: String((e && e.stack) || e) };
  }
  port.postMessage(payload);
  // A count of answers, not a flag: the caller waits for it to move past what it read before
  // looking at the port (see HttpWorker.run), so a notify that comes late wakes it only to look again.
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
});
