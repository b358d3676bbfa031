/**
 * Fuzzing over the API description: for every operation of contract/openapi, malformed requests
 * (bad path ids, junk query strings, bodies near the schema but wrong, broken JSON, broken or
 * mismatched multipart forms, unknown content types, missing or junk keys) sent over real HTTP.
 * A client's mistake must never answer 5xx: every answer is a 2xx-4xx with a JSON `{message}` on
 * errors. Deterministic (fixed seed), so a failure names a request that can be sent again.
 */
import http from 'node:http';
import { loadApiDocument } from '../../contract/openapi';
import { KEY_A, KEY_B, start } from './helpers';
import type { RunningService } from '../../emulator/service/server';

const SEED = 0x5ca9;
const PER_OPERATION = 90;

/** mulberry32: small, deterministic. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
  return { next, int, pick, chance: (p: number) => next() < p };
}
type Rng = ReturnType<typeof prng>;

const STRINGS = [
  '',
  ' ',
  'US',
  'us',
  'ZZ',
  '1',
  '-1',
  '0',
  '1e309',
  'NaN',
  'null',
  'true',
  '[]',
  '{}',
  'B00TEST0001',
  ' B00TEST0001 ',
  'B0',
  'https://hooks.example.com/x',
  'https://[2002:7f00:1::]/x',
  'http://127.0.0.1/',
  'scan.complete',
  'products',
  'errors',
  '-price',
  'a'.repeat(300),
  'é漢字🙂',
  '\u0000',
  "=cmd|' /C calc'!A0",
  '%00',
  '../../etc/passwd',
  "'; DROP TABLE scans; --",
  '\ud800',
];
const NUMBERS = [0, -1, 1, 2, 1.5, -0.5, 1e21, 2 ** 53, -(2 ** 53), 10001, 99999999999, Number.MAX_SAFE_INTEGER];

function junk(r: Rng, depth = 0): unknown {
  switch (r.int(depth > 2 ? 5 : 8)) {
    case 0:
      return null;
    case 1:
      return r.chance(0.5);
    case 2:
      return r.pick(NUMBERS);
    case 3:
      return r.pick(STRINGS);
    case 4:
      return r.chance(0.5) ? 'x'.repeat(r.int(70000)) : r.pick(STRINGS);
    case 5:
      return Array.from({ length: r.int(4) }, () => junk(r, depth + 1));
    case 6:
      return Object.fromEntries(
        Array.from({ length: r.int(4) }, () => [
          r.pick(['a', 'marketplace_id', 'asin', '__proto__', 'constructor', 'id', 'page']),
          junk(r, depth + 1),
        ]),
      );
    default:
      return { [r.pick(['filter', 'sort', 'per_page', 'tableType'])]: junk(r, depth + 1) };
  }
}

/** A value near `schema`: mostly its shape, often with one wrong member. */
function near(r: Rng, schema: any, doc: any, depth = 0): unknown {
  if (!schema || depth > 6 || r.chance(0.12)) return junk(r, depth);
  if (schema.$ref) return near(r, resolve(doc, schema.$ref), doc, depth);
  const alts = schema.oneOf ?? schema.anyOf;
  if (alts) return near(r, r.pick(alts), doc, depth);
  if (schema.allOf)
    return Object.assign(
      {},
      ...schema.allOf.map((s: any) => near(r, s, doc, depth + 1)).filter((v: unknown) => v && typeof v === 'object'),
    );
  if (schema.enum) return r.chance(0.8) ? r.pick(schema.enum) : junk(r, depth);
  const type = Array.isArray(schema.type) ? r.pick(schema.type) : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, s] of Object.entries<any>(schema.properties ?? {})) if (r.chance(0.8)) out[k] = near(r, s, doc, depth + 1);
      if (r.chance(0.1)) out[r.pick(['extra', 'secret', 'id'])] = junk(r);
      return out;
    }
    case 'array':
      return Array.from({ length: r.int(r.chance(0.05) ? 200 : 5) }, () => near(r, schema.items, doc, depth + 1));
    case 'integer':
    case 'number':
      return r.chance(0.7) ? r.pick(NUMBERS) : r.pick(STRINGS);
    case 'boolean':
      return r.chance(0.7) ? r.chance(0.5) : r.pick(['true', 1, null]);
    case 'string':
      return r.chance(0.85) ? r.pick(STRINGS) : r.pick(NUMBERS);
    default:
      return junk(r, depth);
  }
}

function resolve(doc: any, ref: string): any {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((o, k) => o?.[k], doc);
}

interface Op {
  method: string;
  path: string;
  operationId: string;
  params: any[];
  body?: { type: string; schema: any };
}

function operations(doc: any): Op[] {
  const ops: Op[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!op?.operationId) continue;
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: any) => (p.$ref ? resolve(doc, p.$ref) : p));
      const [type, content] = Object.entries<any>(op.requestBody?.content ?? {})[0] ?? [];
      ops.push({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId,
        params,
        body: type ? { type, schema: content.schema } : undefined,
      });
    }
  }
  return ops;
}

const PATH_IDS = [
  '1',
  '2',
  '0',
  '-1',
  'abc',
  '1.5',
  '1e3',
  '99999999999999999999999',
  '%00',
  '%F0%9F%99%82',
  'null',
  '%201',
  '0x10',
  'a'.repeat(500),
];

interface Raw {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Send fewer body bytes than Content-Length says, then end the request. */
  cut?: number;
}

function multipartBody(r: Rng, boundary: string): Buffer {
  const parts: string[] = [];
  const names = ['file', 'attributes', 'file', 'other', ''];
  for (let i = 0, n = 1 + r.int(3); i < n; i++) {
    const name = r.pick(names);
    const file = name === 'file' || r.chance(0.2);
    const content = file
      ? r.pick([
          'UPC,Cost\n036000291452,3.5\n',
          'PK\u0003\u0004garbage',
          '',
          '"never closed\n',
          '\u0000\u0001\u0002',
          '\n\n\n',
          'a;b\tc,d\r\n1,2',
        ])
      : JSON.stringify(
          r.chance(0.6)
            ? {
                mapping: { id: r.pick([0, 1, 5, -1, 'a']), cost: 1 },
                options: { marketplace_id: r.pick(['US', 'XX', 1]), name: 'fuzz', header: r.chance(0.5) },
              }
            : junk(r),
        );
    parts.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file ? '; filename="list.csv"' : ''}\r\n${file ? 'Content-Type: text/csv\r\n' : ''}\r\n${content}\r\n`,
    );
  }
  return Buffer.from(parts.join('') + (r.chance(0.8) ? `--${boundary}--\r\n` : ''));
}

/** Percent-encoding of any string (a lone surrogate becomes U+FFFD, as a browser would send it). */
const enc = (s: string) =>
  encodeURIComponent(s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));

function request(r: Rng, op: Op, doc: any): Raw {
  let path = op.path.replace(/\{[^}]+\}/g, () => (r.chance(0.3) ? '1' : r.pick(PATH_IDS)));
  const query: string[] = [];
  for (const p of op.params.filter((p) => p.in === 'query')) {
    if (r.chance(0.5)) continue;
    const v = r.chance(0.5) ? near(r, p.schema, doc) : junk(r);
    query.push(`${encodeURIComponent(p.name)}=${enc(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))}`);
    if (r.chance(0.1)) query.push(`${encodeURIComponent(p.name)}=2`); // a repeated parameter
  }
  if (r.chance(0.1)) query.push(`${r.pick(['page', 'x', '__proto__[a]'])}=${r.pick(['1', '-5', '%zz', ''])}`);
  if (query.length) path += `?${query.join('&')}`;
  const headers: Record<string, string> = {};
  const auth = r.next();
  if (auth < 0.88) headers.authorization = `Bearer ${r.chance(0.85) ? KEY_A : KEY_B}`;
  else if (auth < 0.94)
    headers.authorization = r.pick(['Bearer', 'Basic abc', 'Bearer \u00e9', `bearer ${KEY_A}`, 'Bearer ' + 'k'.repeat(5000)]);
  let body: Buffer | undefined;
  let cut: number | undefined;
  switch (r.int(op.body ? 9 : 4)) {
    case 0: // no body at all
      break;
    case 1: // an empty body declared as JSON (what common clients send)
      headers['content-type'] = 'application/json';
      body = Buffer.alloc(0);
      break;
    case 2: // text that is not JSON
      headers['content-type'] = r.pick([
        'application/json',
        'application/json; charset=utf-8',
        'application/json; charset=latin1',
        'APPLICATION/JSON',
      ]);
      body = Buffer.from(
        r.pick([
          '{',
          '{"a":',
          '[1,2',
          'nul',
          '{"__proto__":{"x":1}}',
          '{"constructor":{"prototype":{}}}',
          '\u00ff\u00fe',
          '"just a string"',
          '1e999',
        ]),
      );
      break;
    case 3: // another content type
      headers['content-type'] = r.pick([
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/xml',
        'multipart/form-data',
        'image/png',
        ';;;',
        'application/json+x',
      ]);
      body = Buffer.from(r.pick(['a=1&b=2', '<x/>', '{}', '\u0000\u0001']));
      break;
    case 4: // broken multipart: no boundary, another boundary, cut short
    case 5: {
      const boundary = `fz${r.int(1e6)}`;
      const kind = r.int(4);
      headers['content-type'] = kind === 0 ? 'multipart/form-data' : `multipart/form-data; boundary=${kind === 1 ? 'other' : boundary}`;
      body = multipartBody(r, boundary);
      if (kind === 3) cut = r.int(body.length);
      break;
    }
    default: {
      // near the schema, as JSON or (for the upload) as a form
      if (op.body!.type === 'multipart/form-data') {
        const boundary = `fz${r.int(1e6)}`;
        headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
        body = multipartBody(r, boundary);
      } else {
        headers['content-type'] = 'application/json';
        body = Buffer.from(JSON.stringify(near(r, op.body!.schema, doc)) ?? 'null');
      }
    }
  }
  return { method: r.chance(0.02) ? r.pick(['PUT', 'PATCH', 'OPTIONS']) : op.method, path, headers, body, cut };
}

function send(base: string, req: Raw): Promise<{ status: number; text: string; type: string }> {
  const u = new URL(base);
  return new Promise((resolveSend, reject) => {
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.body) headers['content-length'] = req.body.length;
    const cutShort = req.cut !== undefined && req.body;
    const r = http.request({ host: u.hostname, port: u.port, method: req.method, path: req.path, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolveSend({ status: res.statusCode ?? 0, text, type: String(res.headers['content-type'] ?? '') }));
    });
    r.on('error', (e) => (cutShort ? resolveSend({ status: 0, text: e.message, type: '' }) : reject(Object.assign(e, { request: req }))));
    if (cutShort) {
      // Fewer bytes than announced, then the client gives up on the request.
      r.write(req.body!.subarray(0, req.cut));
      setTimeout(() => r.destroy(), 30);
    } else r.end(req.body);
  });
}

function hasMessage(text: string): boolean {
  try {
    return typeof JSON.parse(text).message === 'string';
  } catch {
    return false;
  }
}

let svc: RunningService;
beforeAll(async () => {
  svc = await start({ bulkRateLimitPerMinute: 1_000_000, scanSpeedPerMinute: 1_000_000 });
});
afterAll(async () => {
  await svc.stop();
});

test('no malformed request to any operation of the description answers 5xx', async () => {
  const doc = loadApiDocument();
  const ops = operations(doc);
  expect(ops.length).toBeGreaterThan(30);
  const r = prng(SEED);
  const serverErrors: string[] = [];
  const statuses = new Map<number, number>();
  let sent = 0;
  for (const op of ops) {
    for (let i = 0; i < PER_OPERATION; i++) {
      const req = request(r, op, doc);
      const res = await send(svc.url, req).catch((e) => {
        throw new Error(
          `${op.operationId}: ${req.method} ${req.path.slice(0, 200)} [${req.headers['content-type'] ?? '-'}] ${req.body?.length} bytes: ${e.message}`,
        );
      });
      sent++;
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 0) continue; // a request the client itself cut short gets no answer to judge
      if (res.status >= 500 || (res.status >= 400 && !hasMessage(res.text))) {
        serverErrors.push(
          `${op.operationId}: ${req.method} ${req.path.slice(0, 200)} [${req.headers['content-type'] ?? '-'}${req.cut !== undefined ? `, cut at ${req.cut}` : ''}] ` +
            `${(req.body ?? Buffer.alloc(0)).toString('utf8').slice(0, 160)} -> ${res.status} ${res.text.slice(0, 200)}`,
        );
      }
    }
  }
  expect(serverErrors).toEqual([]);
  expect(sent).toBe(ops.length * PER_OPERATION);
  // The fuzzer reaches past the key check and validation, not only 401s.
  const ok = [...statuses].filter(([s]) => s >= 200 && s < 300).reduce((n, [, c]) => n + c, 0);
  expect(ok).toBeGreaterThan(50);
}, 60_000);
