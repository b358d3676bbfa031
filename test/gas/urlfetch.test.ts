import * as net from 'node:net';
import { evalIn, fixtureRuntime, startServer, thrown, type TestServer } from './helpers';
import type { Runtime } from '../../emulator/gas';

let server: TestServer;
let rt: Runtime;
beforeAll(async () => {
  server = await startServer();
  rt = fixtureRuntime({ urlFetchTimeoutMs: 2000 });
});
afterAll(async () => {
  await rt.stop();
  await server.stop();
});

/** Fetches `path` on the test server from inside the script; returns what `then` computes from `r`. */
function fetchJs(path: string, params: string, then: string): any {
  return evalIn(rt, `var r = UrlFetchApp.fetch(args.base + ${JSON.stringify(path)}, ${params}); ${then}`, { base: server.base });
}
const echo = (params: string) => JSON.parse(fetchJs('/echo', params, 'return r.getContentText();'));
const b64 = (s: string) => Buffer.from(s, 'base64');

describe('UrlFetchApp.fetch: requests', () => {
  test('real HTTP, synchronous to the script: GET by default', () => {
    const r = echo('{}');
    expect(r.method).toBe('GET');
    expect(r.url).toBe('/echo');
  });

  test('a string payload is sent as is, with contentType application/x-www-form-urlencoded by default', () => {
    const r = echo("{ method: 'post', payload: 'a=1&b=2' }");
    expect(b64(r.body).toString()).toBe('a=1&b=2');
    expect(r.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  test('JSON needs contentType application/json and a string payload', () => {
    const r = echo("{ method: 'post', contentType: 'application/json', payload: JSON.stringify({ x: [1, 2] }) }");
    expect(JSON.parse(b64(r.body).toString())).toEqual({ x: [1, 2] });
    expect(r.headers['content-type']).toBe('application/json');
  });

  test('an object payload is sent as form fields (urlencoded)', () => {
    const r = echo("{ method: 'post', payload: { name: 'a b', q: 'x&y=z', n: 3 } }");
    expect(b64(r.body).toString()).toBe('name=a+b&q=x%26y%3Dz&n=3');
    expect(r.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  test('an object payload with a Blob value becomes multipart/form-data with a platform-chosen boundary', () => {
    const r = echo("{ method: 'post', payload: { note: 'hi', file: Utilities.newBlob('col1,col2', 'text/csv', 'list.csv') } }");
    const ct: string = r.headers['content-type'];
    expect(ct).toMatch(/^multipart\/form-data; boundary=(.+)$/);
    const boundary = /boundary=(.+)$/.exec(ct)![1];
    const body = b64(r.body).toString();
    expect(body).toContain(`--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhi\r\n`);
    expect(body).toContain(
      'Content-Disposition: form-data; name="file"; filename="list.csv"\r\nContent-Type: text/csv\r\n\r\ncol1,col2\r\n',
    );
    expect(body.endsWith(`--${boundary}--\r\n`)).toBe(true);
  });

  test('a byte-array payload (signed bytes) is sent as those bytes', () => {
    const r = echo("{ method: 'put', contentType: 'application/octet-stream', payload: [0, 1, -1, -128, 127] }");
    expect([...b64(r.body)]).toEqual([0, 1, 255, 128, 127]);
    expect(r.method).toBe('PUT');
  });

  test("a Blob payload is sent with the blob's content type when none is given (chosen)", () => {
    const r = echo("{ method: 'post', payload: Utilities.newBlob('<x/>', 'application/xml') }");
    expect(b64(r.body).toString()).toBe('<x/>');
    expect(r.headers['content-type']).toBe('application/xml');
  });

  test('headers are sent; methods delete and patch work', () => {
    const r = echo("{ method: 'patch', headers: { 'X-Api-Key': 'k1', Authorization: 'Bearer t' }, payload: 'p' }");
    expect(r.method).toBe('PATCH');
    expect(r.headers['x-api-key']).toBe('k1');
    expect(r.headers.authorization).toBe('Bearer t');
    expect(echo("{ method: 'delete' }").method).toBe('DELETE');
  });

  test('a payload on a GET is not sent (chosen)', () => {
    const r = echo("{ payload: 'ignored' }");
    expect(r.method).toBe('GET');
    expect(r.body).toBe('');
  });

  test('an unknown method is refused', () => {
    expect(thrown(() => echo("{ method: 'head' }"))).toBe('Invalid argument: method');
  });

  test("a User-Agent like Google's fetcher is sent", () => {
    expect(echo('{}').headers['user-agent']).toMatch(/Google-Apps-Script/);
  });
});

describe('UrlFetchApp.fetch: responses', () => {
  test('HTTPResponse: getResponseCode, getContentText, getHeaders, getAllHeaders (repeated headers as arrays)', () => {
    const r = fetchJs(
      '/headers',
      '{}',
      'return { code: r.getResponseCode(), text: r.getContentText(), h: r.getHeaders(), all: r.getAllHeaders() };',
    );
    expect(r.code).toBe(200);
    expect(r.text).toBe('h');
    expect(r.h['X-Single']).toBe('one');
    expect(r.h['Set-Cookie']).toBe('a=1');
    expect(Array.from(r.all['Set-Cookie'])).toEqual(['a=1', 'b=2']);
    expect(r.all['X-Single']).toBe('one');
  });

  test('getContent() returns Java-style signed bytes; getBlob() carries bytes and content type', () => {
    const r = fetchJs(
      '/bytes',
      '{}',
      'var b = r.getBlob(); return { bytes: r.getContent(), blobBytes: b.getBytes(), type: b.getContentType(), isArray: r.getContent() instanceof Array };',
    );
    expect(Array.from(r.bytes)).toEqual([0, 1, 127, -128, -56, -1]);
    expect(Array.from(r.blobBytes)).toEqual([0, 1, 127, -128, -56, -1]);
    expect(r.type).toBe('application/octet-stream');
    expect(r.isArray).toBe(true);
  });

  test('getContentText uses the charset the server declared, or the one given', () => {
    expect(fetchJs('/latin1', '{}', 'return r.getContentText();')).toBe('café');
    expect(fetchJs('/latin1', '{}', "return r.getContentText('UTF-8');")).toBe('caf\uFFFD');
  });

  test("status >= 400 throws Google's message with scheme and host only, truncated body (chosen: 100 chars)", () => {
    const msg = thrown(() => fetchJs('/status/502?secret=1', '{}', 'return 1;'));
    expect(msg).toBe(
      `Request failed for ${server.base} returned code 502. Truncated server response: ${'x'.repeat(100)}... (use muteHttpExceptions option to examine full response)`,
    );
    expect(msg).not.toContain('secret');
  });

  test('a short error body is shown whole', () => {
    expect(thrown(() => fetchJs('/status/404?body=nope', '{}', 'return 1;'))).toBe(
      `Request failed for ${server.base} returned code 404. Truncated server response: nope (use muteHttpExceptions option to examine full response)`,
    );
  });

  test('muteHttpExceptions: the error response is returned instead', () => {
    expect(
      fetchJs('/status/429?body=slow%20down', '{ muteHttpExceptions: true }', 'return [r.getResponseCode(), r.getContentText()];'),
    ).toEqual([429, 'slow down']);
  });

  test('redirects are followed by default; 302 after a POST continues as GET (chosen)', () => {
    const r = JSON.parse(fetchJs('/redirect?to=/echo', "{ method: 'post', payload: 'x' }", 'return r.getContentText();'));
    expect(r.method).toBe('GET');
    expect(r.url).toBe('/echo');
  });

  test('307 keeps the method and body', () => {
    const r = JSON.parse(fetchJs('/redirect?code=307&to=/echo', "{ method: 'post', payload: 'keep' }", 'return r.getContentText();'));
    expect(r.method).toBe('POST');
    expect(b64(r.body).toString()).toBe('keep');
  });

  test('followRedirects: false returns the 3xx response itself', () => {
    expect(
      fetchJs('/redirect?to=/echo', '{ followRedirects: false }', "return [r.getResponseCode(), r.getHeaders()['Location']];"),
    ).toEqual([302, '/echo']);
  });

  test('validateHttpsCertificates is accepted', () => {
    expect(fetchJs('/echo', '{ validateHttpsCertificates: false }', 'return r.getResponseCode();')).toBe(200);
  });
});

describe('UrlFetchApp: fetchAll and getRequest', () => {
  test('fetchAll sends the requests in parallel and returns responses in order', () => {
    const r = evalIn(
      rt,
      "var rs = UrlFetchApp.fetchAll([args.base + '/concurrent?ms=300', { url: args.base + '/concurrent?ms=300' }, { url: args.base + '/echo', method: 'post', payload: 'third' }]); return rs.map(function (x) { return x.getContentText(); });",
      { base: server.base },
    );
    const seen = [JSON.parse(r[0]).inFlight, JSON.parse(r[1]).inFlight];
    expect(Math.max(...seen)).toBeGreaterThanOrEqual(2);
    expect(Buffer.from(JSON.parse(r[2]).body, 'base64').toString()).toBe('third');
  });

  test('fetchAll charges like one round (the slowest request) plus a small per-request overhead', () => {
    const before = rt.state.clock.now();
    const fetchesBefore = rt.state.totals.urlFetchCalls;
    const requestsBefore = rt.state.totals.urlFetchRequests;
    evalIn(rt, "UrlFetchApp.fetchAll([1, 2, 3].map(function () { return args.base + '/slow?ms=200'; }));", { base: server.base });
    const spent = rt.state.clock.now() - before - rt.state.cost.executionStartMs;
    expect(spent).toBeGreaterThanOrEqual(200 + rt.state.cost.urlFetchCallMs + 2 * rt.state.cost.urlFetchAllPerRequestMs);
    expect(spent).toBeLessThan(3 * 200 + rt.state.cost.urlFetchCallMs + 2 * rt.state.cost.urlFetchAllPerRequestMs);
    expect(rt.state.totals.urlFetchCalls - fetchesBefore).toBe(1);
    expect(rt.state.totals.urlFetchRequests - requestsBefore).toBe(3);
  });

  test('fetchAll throws for an error status unless that request mutes it', () => {
    expect(
      thrown(() => evalIn(rt, "UrlFetchApp.fetchAll([args.base + '/echo', args.base + '/status/500?body=bad'])", { base: server.base })),
    ).toMatch(/^Request failed for .* returned code 500/);
    expect(
      evalIn(
        rt,
        "return UrlFetchApp.fetchAll([{ url: args.base + '/status/500?body=bad', muteHttpExceptions: true }])[0].getResponseCode()",
        { base: server.base },
      ),
    ).toBe(500);
  });

  test('getRequest shows what would be sent, without sending', () => {
    const r = evalIn(
      rt,
      "return UrlFetchApp.getRequest('https://api.example.com/x', { method: 'post', payload: { a: 'b c' }, headers: { 'X-K': 'v' } });",
    );
    expect(r).toMatchObject({
      url: 'https://api.example.com/x',
      method: 'post',
      payload: 'a=b+c',
      contentType: 'application/x-www-form-urlencoded',
      followRedirects: true,
      validateHttpsCertificates: true,
    });
    expect(r.headers['X-K']).toBe('v');
  });
});

describe('UrlFetchApp: limits and failures', () => {
  test('a URL longer than 2,082 characters is refused', () => {
    expect(thrown(() => evalIn(rt, "UrlFetchApp.fetch('https://a.example.com/' + new Array(2100).join('a'))"))).toBe(
      'Limit Exceeded: URLFetch URL Length.',
    );
  });

  test('a payload over 50 MB is refused before sending', () => {
    expect(
      thrown(() =>
        evalIn(
          rt,
          "UrlFetchApp.getRequest('https://a.example.com/', { method: 'post', payload: new Array(50 * 1024 * 1024 + 2).join('a') })",
        ),
      ),
    ).toBe('Limit Exceeded: URLFetch POST Size.');
  });

  test('unescaped characters in the URL are refused (scripts must encode them)', () => {
    expect(thrown(() => evalIn(rt, "UrlFetchApp.fetch('https://a.example.com/a b')"))).toBe('Invalid argument: https://a.example.com/a b');
  });

  test('an unreachable host fails with Google\'s "Address unavailable" message', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    expect(thrown(() => evalIn(rt, `UrlFetchApp.fetch('http://127.0.0.1:${port}/x')`))).toBe(
      `Address unavailable: http://127.0.0.1:${port}/x`,
    );
  });

  test('a host that does not resolve fails with Google\'s "DNS error" message', async () => {
    const quick = fixtureRuntime({ urlFetchTimeoutMs: 10000 });
    try {
      expect(thrown(() => evalIn(quick, "UrlFetchApp.fetch('http://nonexistent.invalid/x')"))).toBe(
        'DNS error: http://nonexistent.invalid/x',
      );
    } finally {
      await quick.stop();
    }
  });

  test('a request slower than the fetch timeout fails with Google\'s "Timeout: <url>" (Google ~60 s, shortened here)', async () => {
    const quick = fixtureRuntime({ urlFetchTimeoutMs: 300 });
    try {
      expect(thrown(() => evalIn(quick, 'UrlFetchApp.fetch(args.base + "/slow?ms=3000")', { base: server.base }))).toBe(
        `Timeout: ${server.base}/slow?ms=3000`,
      );
    } finally {
      await quick.stop();
    }
  });

  test('a fetch still running when the execution reaches its limit ends the execution', async () => {
    const r2 = fixtureRuntime({ urlFetchTimeoutMs: 60000 });
    try {
      // 30-s custom-function budget: after 29.5 s of sleep only ~200 ms remain for a 3-s request.
      const t0 = Date.now();
      expect(
        thrown(() =>
          r2.run('evaluate', ['Utilities.sleep(29500); UrlFetchApp.fetch(args.base + "/slow?ms=3000");', { base: server.base }], {
            kind: 'custom-function',
          }),
        ),
      ).toBe('Exceeded maximum execution time');
      expect(Date.now() - t0).toBeLessThan(2500);
    } finally {
      await r2.stop();
    }
  });

  test('the urlFetchWhitelist from appsscript.json is enforced when asked for (message as public reports quote Google: diegomanuel/binance-to-google-sheets#82)', async () => {
    const wl = fixtureRuntime({ urlFetchWhitelist: 'manifest' });
    try {
      expect(thrown(() => evalIn(wl, 'UrlFetchApp.fetch(args.base + "/echo")', { base: server.base }))).toBe(
        `Request to ${server.base}/echo failed because the URL has not been whitelisted in the script manifest.`,
      );
      // A whitelisted prefix passes the check (and then fails to connect: nothing listens on port 1).
      expect(thrown(() => evalIn(wl, 'UrlFetchApp.fetch("http://127.0.0.1:1/allowed/x")'))).toBe(
        'Address unavailable: http://127.0.0.1:1/allowed/x',
      );
    } finally {
      await wl.stop();
    }
  });

  test('each fetch charges the call cost plus size plus the real time, and counts calls', () => {
    const t0 = rt.state.clock.now();
    const calls = rt.state.totals.urlFetchCalls;
    evalIn(rt, 'UrlFetchApp.fetch(args.base + "/slow?ms=150")', { base: server.base });
    const spent = rt.state.clock.now() - t0 - rt.state.cost.executionStartMs;
    expect(spent).toBeGreaterThanOrEqual(rt.state.cost.urlFetchCallMs + 150);
    expect(rt.state.totals.urlFetchCalls).toBe(calls + 1);
  });
});
