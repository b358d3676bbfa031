/**
 * Issue 33, "The runtime, held to Google's own suites": services other than the spreadsheet, as
 * recorded on real Google by brucemcpherson/gas-fakes' tests or stated on Google's reference pages
 * (each test names its source).
 */
import { evalIn, fixtureInUse, fixtureRuntime, thrown } from './helpers';

describe('UrlFetchApp.getRequest headers', () => {
  const rt = fixtureRuntime();
  afterAll(() => rt.stop());

  test('a bare request shows headers {}, and a request shows exactly the headers the script gave, not the platform\'s User-Agent (gas-fakes test/testfetch.js "urlfetchapp getRequest": t.deepEqual(req1.headers, {}), t.deepEqual(req2.headers, {"X-Custom": "test"}))', () => {
    const url = 'https://api.github.com/users/brucemcpherson';
    const bare = evalIn(rt, 'return UrlFetchApp.getRequest(args);', url);
    expect([bare.url, bare.method, bare.headers]).toEqual([url, 'get', {}]);
    const post = evalIn(
      rt,
      "return UrlFetchApp.getRequest(args, { method: 'POST', contentType: 'application/json', payload: JSON.stringify({ hello: 'world' }), headers: { 'X-Custom': 'test' } });",
      url,
    );
    expect([post.method, post.contentType, post.payload, post.headers]).toEqual([
      'post',
      'application/json',
      '{"hello":"world"}',
      { 'X-Custom': 'test' },
    ]);
    expect(evalIn(rt, "return UrlFetchApp.getRequest(args, { method: 'post' }).contentType;", url)).toBe(
      'application/x-www-form-urlencoded',
    );
  });
});

describe('Utilities JSON helpers', () => {
  const rt = fixtureRuntime();
  afterAll(() => rt.stop());

  test("Utilities.jsonStringify / jsonParse exist (deprecated methods on Google's Utilities reference page, listed in @types/google-apps-script) and do what JSON does, in the script's realm", () => {
    expect(evalIn(rt, "return Utilities.jsonStringify({ a: [1, 'x', null], b: true });")).toBe('{"a":[1,"x",null],"b":true}');
    expect(
      evalIn(rt, 'var o = Utilities.jsonParse(\'{"a":[1,2],"b":{"c":"d"}}\'); return [o.a instanceof Array, o.a.length, o.b.c];'),
    ).toEqual([true, 2, 'd']);
    expect(thrown(() => evalIn(rt, "Utilities.jsonParse('{nope')"))).toMatch(/JSON/);
  });
});

describe('Utilities gzip', () => {
  const rt = fixtureRuntime();
  afterAll(() => rt.stop());

  test('gzip names its archive "archive.gz" (or the name given) as application/x-gzip; ungzip gives the bytes back, named without ".gz", with no content type (gas-fakes test/testutilities.js "utilities gzipping")', () => {
    expect(
      evalIn(
        rt,
        "var b = Utilities.newBlob('hello hello hello', 'text/plain', 'h.txt'); var gz = Utilities.gzip(b); var u = Utilities.ungzip(gz); var n = Utilities.ungzip(Utilities.gzip(b, 'named')); return [gz.getName(), gz.getContentType(), u.getDataAsString(), u.getName(), u.getContentType(), n.getName()];",
      ),
    ).toEqual(['archive.gz', 'application/x-gzip', 'hello hello hello', 'archive', null, 'named']);
  });
});

describe('DriveApp.createFile arguments', () => {
  const rt = fixtureRuntime();
  afterAll(() => rt.stop());

  test("wrong arguments get Google's messages; a blob needs a name; a file reads as its name (gas-fakes test/testdrive.js, createFile section and rootFolder.toString())", () => {
    const msg = (src: string) => thrown(() => evalIn(rt, src));
    expect(msg('DriveApp.createFile()')).toBe("The parameters () don't match the method signature for DriveApp.createFile.");
    expect(msg("DriveApp.createFile('')")).toBe("The parameters (String) don't match the method signature for DriveApp.createFile.");
    expect(msg("DriveApp.createFile(null, '')")).toBe('Invalid argument: name');
    expect(msg("DriveApp.createFile(Utilities.newBlob('x', 'text/plain', 'x.txt'), '')")).toBe(
      "The parameters (Blob,String) don't match the method signature for DriveApp.createFile.",
    );
    expect(msg("DriveApp.createFile(Utilities.newBlob(''))")).toBe('Blob object must have non-null name for this operation.');
    expect(evalIn(rt, "return String(DriveApp.createFile('notes.txt', 'hi'));")).toBe('notes.txt');
  });
});

describe('services a custom function may call', () => {
  test('HTML is allowed ("Can generate HTML, but can\'t display it"); Mail, Drive, ScriptApp, ContentService are refused with the guide\'s "You do not have permission to call X service." (guides/sheets/functions, supported services table)', async () => {
    const rt = fixtureInUse();
    const asCustom = (src: string) => rt.run('evaluate', [src, null], { kind: 'custom-function' });
    expect(asCustom("return HtmlService.createHtmlOutput('<b>x</b>').getContent();")).toBe('<b>x</b>');
    for (const [service, call] of [
      ['MailApp', "MailApp.sendEmail('a@example.com', 's', 'b')"],
      ['DriveApp', "DriveApp.createFile('x', 'y')"],
      ['ScriptApp', 'ScriptApp.getProjectTriggers()'],
      ['ContentService', "ContentService.createTextOutput('x')"],
    ])
      expect([service, thrown(() => asCustom(call))]).toEqual([service, `You do not have permission to call ${service} service.`]);
    await rt.stop();
  });
});

describe('cache eviction and limits', () => {
  test('past 1,000 items a cache keeps the 900 items farthest from expiration, whatever order they were written in (Cache reference, put: "the cache stores the 900 items farthest from expiration")', async () => {
    const rt = fixtureRuntime();
    // 500 long-lived items written first, then 501 short-lived ones: the short-lived are the ones to go.
    evalIn(
      rt,
      "var c = CacheService.getScriptCache(); var o = {}; for (var i = 0; i < 500; i++) o['long' + i] = 'v'; c.putAll(o, 21600); var s = {}; for (var j = 0; j < 500; j++) s['short' + j] = 'v'; c.putAll(s, 60); c.put('last', 'v', 30);",
    );
    const keys = rt.caches.script.keys();
    expect(keys.length).toBe(900);
    expect(keys.filter((k) => k.startsWith('long')).length).toBe(500);
    expect(keys).not.toContain('last');
    await rt.stop();
  });
});
