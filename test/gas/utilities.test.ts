import { createHmac, createHash } from 'node:crypto';
import { evalIn, fixtureRuntime, thrown } from './helpers';

const signed = (buf: Buffer) => [...buf].map((b) => (b > 127 ? b - 256 : b));

describe('Utilities', () => {
  const rt = fixtureRuntime();
  afterAll(() => rt.stop());

  test('sleep advances the virtual clock, not real time', () => {
    const t0 = rt.state.clock.now();
    const real = Date.now();
    evalIn(rt, 'Utilities.sleep(120000)');
    expect(rt.state.clock.now() - t0).toBe(120000 + rt.state.cost.executionStartMs);
    expect(Date.now() - real).toBeLessThan(1000);
  });

  test('sleep over 300000 ms throws (message chosen)', () => {
    expect(thrown(() => evalIn(rt, 'Utilities.sleep(300001)'))).toBe('Argument too large: milliseconds (maximum 300000)');
  });

  test('computeHmacSha256Signature returns Java-style signed bytes, from strings or byte arrays', () => {
    const expected = signed(createHmac('sha256', 'secret').update('message').digest());
    expect(evalIn(rt, "return Utilities.computeHmacSha256Signature('message', 'secret')")).toEqual(expected);
    expect(
      evalIn(
        rt,
        "return Utilities.computeHmacSha256Signature(Utilities.newBlob('message').getBytes(), Utilities.newBlob('secret').getBytes())",
      ),
    ).toEqual(expected);
    const all = evalIn(rt, "return Utilities.computeHmacSha256Signature('m', 'k')") as number[];
    expect(all.every((b) => b >= -128 && b <= 127)).toBe(true);
    expect(all.some((b) => b < 0)).toBe(true);
  });

  test('computeDigest with DigestAlgorithm values and an optional charset', () => {
    expect(evalIn(rt, "return Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, 'abc')")).toEqual(
      signed(createHash('sha256').update('abc').digest()),
    );
    expect(evalIn(rt, "return Utilities.computeDigest(Utilities.DigestAlgorithm.MD5, 'é', Utilities.Charset.UTF_8)")).toEqual(
      signed(createHash('md5').update('é').digest()),
    );
  });

  test('base64Encode/Decode and the web-safe variants', () => {
    expect(evalIn(rt, "return Utilities.base64Encode('hi?>')")).toBe(Buffer.from('hi?>').toString('base64'));
    expect(evalIn(rt, 'return Utilities.base64EncodeWebSafe([-1, -2, -3])')).toBe('__79');
    expect(evalIn(rt, "return Utilities.base64Decode('aGk/Pg==')")).toEqual([104, 105, 63, 62]);
    expect(evalIn(rt, "return Utilities.base64DecodeWebSafe('__79')")).toEqual([-1, -2, -3]);
    expect(evalIn(rt, "return Utilities.newBlob(Utilities.base64Decode(Utilities.base64Encode('ünï'))).getDataAsString()")).toBe('ünï');
    expect(thrown(() => evalIn(rt, "Utilities.base64Decode('not base64!')"))).toBe('Could not decode string.');
  });

  test('newBlob: bytes, strings, content type, name, copyBlob', () => {
    const r = evalIn(
      rt,
      "var b = Utilities.newBlob('abc', 'text/plain', 'a.txt'); var c = b.copyBlob(); c.setDataFromString('xyz').setName('c.txt').setContentType('text/csv'); return [b.getBytes(), b.getDataAsString(), b.getContentType(), b.getName(), c.getDataAsString(), c.getName(), c.getContentType(), Utilities.newBlob([104, 105]).getDataAsString()];",
    );
    expect(r).toEqual([[97, 98, 99], 'abc', 'text/plain', 'a.txt', 'xyz', 'c.txt', 'text/csv', 'hi']);
  });

  test('Blob.getAs: the same type gives a copy; conversions are refused (this runtime converts nothing; message chosen)', () => {
    expect(evalIn(rt, "return Utilities.newBlob('a', 'text/plain').getAs('text/plain').getDataAsString()")).toBe('a');
    expect(thrown(() => evalIn(rt, "Utilities.newBlob('a', 'text/csv').getAs('application/pdf')"))).toBe(
      'Converting from text/csv to application/pdf is not supported.',
    );
    expect(evalIn(rt, "return Utilities.newBlob('a', null, 'list.csv').setContentTypeFromExtension().getContentType()")).toBe('text/csv');
  });

  test('parseCsv: quotes, embedded delimiters, quotes and newlines; custom delimiter', () => {
    expect(evalIn(rt, 'return Utilities.parseCsv(args)', 'a,"b,c","say ""hi"""\n1,"multi\nline",3\r\n')).toEqual([
      ['a', 'b,c', 'say "hi"'],
      ['1', 'multi\nline', '3'],
    ]);
    expect(evalIn(rt, "return Utilities.parseCsv('x;y\\n1;2', ';')")).toEqual([
      ['x', 'y'],
      ['1', '2'],
    ]);
  });

  test('formatDate with SimpleDateFormat patterns in a time zone', () => {
    const d = Date.UTC(2026, 0, 5, 14, 7, 9, 45);
    const f = (tz: string, p: string) => evalIn(rt, 'return Utilities.formatDate(new Date(args[0]), args[1], args[2])', [d, tz, p]);
    expect(f('UTC', "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")).toBe('2026-01-05T14:07:09.045Z');
    expect(f('America/New_York', 'yyyy-MM-dd HH:mm z')).toBe('2026-01-05 09:07 EST');
    expect(f('Asia/Kolkata', 'EEE, d MMM yyyy hh:mm a XXX')).toBe('Mon, 5 Jan 2026 07:37 PM +05:30');
    expect(f('Europe/Berlin', 'EEEE dd MMMM yy, H:mm Z')).toBe('Monday 05 January 26, 15:07 +0100');
    expect(f('GMT+2', "h 'o''clock'")).toBe("4 o'clock");
    expect(f('Not/AZone', 'HH:mm')).toBe('14:07');
  });

  test('formatDate follows Java SimpleDateFormat: YYYY is the week year, w the US week (Sunday first), u/E/a/S', () => {
    const f = (iso: string, p: string) => evalIn(rt, 'return Utilities.formatDate(new Date(args[0]), "UTC", args[1])', [iso, p]);
    // Tuesday 31 Dec 2024 lies in the week of 1 Jan 2025: week 1 of week year 2025.
    expect(f('2024-12-31T14:00:00.045Z', 'yyyy YYYY ww')).toBe('2024 2025 01');
    expect(f('2024-12-31T14:00:00.045Z', 'YY u E EEEE a S SSS')).toBe('25 2 Tue Tuesday PM 45 045');
    // Java's en_US weeks, not ISO: Sunday 1 Jan 2023 is week 1 of 2023 (ISO: week 52 of 2022).
    expect(f('2023-01-01T00:00:00Z', 'YYYY-ww u')).toBe('2023-01 7');
    expect(f('2021-12-26T00:00:00Z', 'yyyy YYYY w')).toBe('2021 2022 1');
    expect(f('2024-06-15T00:00:00Z', 'YYYY w W F D')).toBe('2024 24 3 3 167');
  });

  test('formatDate refuses a bad pattern like Java: "Illegal pattern character", "Unterminated quote"', () => {
    const f = (p: string) => thrown(() => evalIn(rt, 'return Utilities.formatDate(new Date(0), "UTC", args)', p));
    expect(f('yyyy-MM-dd T HH:mm')).toBe("Illegal pattern character 'T'");
    expect(f('dd q')).toBe("Illegal pattern character 'q'");
    expect(f("yyyy 'at HH")).toBe('Unterminated quote');
    expect(f('XXXX')).toBe('invalid ISO 8601 format: length=4');
    // Arguments of the wrong kind: Google's signature message (a date string is not a Date).
    expect(thrown(() => evalIn(rt, 'return Utilities.formatDate("2024-01-01", "UTC", "yyyy")'))).toBe(
      "The parameters (String,String,String) don't match the method signature for Utilities.formatDate.",
    );
    expect(thrown(() => evalIn(rt, 'return Utilities.formatDate(new Date(0), "yyyy")'))).toBe(
      "The parameters (Date,String) don't match the method signature for Utilities.formatDate.",
    );
    // The same letters quoted are text.
    expect(evalIn(rt, 'return Utilities.formatDate(new Date(0), "UTC", args)', "yyyy-MM-dd'T'HH:mm 'q'")).toBe('1970-01-01T00:00 q');
  });

  test('formatString follows printf-style patterns', () => {
    expect(
      evalIn(rt, "return Utilities.formatString('%s has %d items at %.2f (%5s|%-4s|%03d) 100%%', 'cart', 3.9, 2.5, 'ab', 'c', 7)"),
    ).toBe('cart has 3 items at 2.50 (   ab|c   |007) 100%');
  });

  test('getUuid returns a v4 UUID string', () => {
    expect(evalIn(rt, 'return Utilities.getUuid()')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  test('Charset and DigestAlgorithm enums are there', () => {
    expect(evalIn(rt, 'return [Utilities.Charset.UTF_8, Utilities.Charset.US_ASCII, Utilities.DigestAlgorithm.SHA_1]')).toEqual([
      'UTF-8',
      'US-ASCII',
      'SHA_1',
    ]);
  });
});
