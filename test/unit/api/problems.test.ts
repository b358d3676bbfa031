import {
  busyMessage,
  classifyException,
  classifyResponse,
  isRetryable,
  parseRetryAfter,
  redact,
  waitText,
} from '../../../src/api/problems';

const KEY = 'sk_live_ABCDEF1234567890';
const ctx = { apiKey: KEY, nowMs: Date.parse('2026-11-21T00:00:00Z'), subject: 'marketplace DE' };

describe('classifyResponse', () => {
  test('2xx is not a problem', () => {
    expect(classifyResponse(200, {}, '{}', ctx)).toBeUndefined();
    expect(classifyResponse(204, {}, '', ctx)).toBeUndefined();
  });

  test('401 says the key was refused and asks to open Settings', () => {
    const p = classifyResponse(401, {}, '{"message":"Unauthenticated."}', ctx)!;
    expect(p.kind).toBe('auth');
    expect(p.openSettings).toBe(true);
    expect(p.message).toMatch(/^The API key was refused/);
    expect(p.message).toMatch(/Settings/);
  });

  test('403 names what there is no access to', () => {
    const p = classifyResponse(403, {}, '{"message":"This action is unauthorized."}', ctx)!;
    expect(p.kind).toBe('forbidden');
    expect(p.message).toContain('marketplace DE');
    expect(p.message).toContain('This action is unauthorized.');
  });

  test('404', () => {
    expect(classifyResponse(404, {}, '{"message":"Scan not found."}', { ...ctx, subject: 'scan 12' })!.message).toContain('scan 12');
  });

  test('422 shows the service message and its rows', () => {
    const body = {
      message: 'The given data was invalid.',
      errors: [{ index: 2, field: 'asin', message: 'The asin must be 10 to 25 characters.' }],
    };
    const p = classifyResponse(422, {}, JSON.stringify(body), ctx)!;
    expect(p.kind).toBe('validation');
    expect(p.rows).toEqual([{ index: 2, field: 'asin', message: 'The asin must be 10 to 25 characters.' }]);
    expect(p.message).toContain('The given data was invalid.');
    expect(p.message).toContain('row 3 asin: The asin must be 10 to 25 characters.');
  });

  test('422 on an upload names the refused attribute, not a row', () => {
    const body = {
      message: 'The scan attributes are invalid.',
      errors: [{ index: 0, field: 'attributes.mapping.cost', message: 'Column 7 is beyond the file.' }],
    };
    const p = classifyResponse(422, {}, JSON.stringify(body), ctx)!;
    expect(p.message).toContain('attributes.mapping.cost: Column 7 is beyond the file.');
    expect(p.message).not.toContain('row 1');
  });

  test('422 with Laravel-style errors map is read too', () => {
    const p = classifyResponse(422, {}, JSON.stringify({ message: 'Invalid', errors: { 'ids.4': ['The ids.4 field is invalid.'] } }), ctx)!;
    expect(p.rows).toEqual([{ index: 4, field: 'ids.4', message: 'The ids.4 field is invalid.' }]);
  });

  test('429 reads Retry-After in seconds, case-insensitively', () => {
    const p = classifyResponse(429, { 'retry-after': '7' }, '{"message":"Too Many Attempts."}', ctx)!;
    expect(p.kind).toBe('rate-limited');
    expect(p.retryAfterMs).toBe(7000);
    expect(classifyResponse(429, { 'Retry-After': '2' }, '', ctx)!.retryAfterMs).toBe(2000);
    expect(classifyResponse(429, {}, '', ctx)!.retryAfterMs).toBeUndefined();
  });

  test('5xx, 3xx and others', () => {
    expect(classifyResponse(503, {}, '<html>down</html>', ctx)!).toMatchObject({ kind: 'server', status: 503 });
    const r = classifyResponse(301, { Location: 'https://other.example.com/api/v3/convert?x=1' }, '', ctx)!;
    expect(r.kind).toBe('redirect');
    expect(r.message).toContain('https://other.example.com');
    expect(classifyResponse(418, {}, '', ctx)!.kind).toBe('bad-response');
  });

  test('the key never appears in a message, even when the service echoes it', () => {
    const echo = `{"message":"Invalid token ${KEY} (Authorization: Bearer ${KEY})","errors":[{"index":0,"field":"${KEY}","message":"bad ${KEY}"}]}`;
    for (const status of [400, 401, 403, 404, 422, 429, 500, 502]) {
      const p = classifyResponse(status, {}, echo, ctx)!;
      expect(JSON.stringify(p)).not.toContain(KEY);
    }
  });
});

describe('classifyException (what UrlFetchApp throws)', () => {
  test('time-outs', () => {
    expect(classifyException(new Error('Timeout: https://api.example.com')).kind).toBe('timeout');
  });
  test('a host name that does not exist is the address: check it in Settings', () => {
    const p = classifyException(new Error('DNS error: https://nope.example'));
    expect(p).toMatchObject({ kind: 'unreachable', noSuchHost: true });
    expect(p.message).toMatch(/could not be reached: its address was not found .*Check the service address in Extensions > Settings\./);
  });
  test('nothing answering is an outage, not the address: try again later, Settings not blamed (issue 32 item 10)', () => {
    for (const m of ['Address unavailable: https://api.example.com', 'Exception: Connection refused']) {
      const p = classifyException(new Error(m));
      expect(p.kind).toBe('unreachable');
      expect(p.noSuchHost).toBeUndefined();
      expect(p.message).toMatch(
        /could not be reached: nothing answered .*The service may be down for a moment; try again in a few minutes\./,
      );
      // Google's own words in brackets aside, neither the address nor Settings is blamed.
      expect(p.message.replace(/\(.*\)/, '')).not.toMatch(/address|Settings/i);
    }
  });
  test('redacts the key', () => {
    expect(JSON.stringify(classifyException(new Error('Bad request for https://x/?key=' + KEY), KEY))).not.toContain(KEY);
  });
  test("Google's urlFetchWhitelist refusal (public reports: diegomanuel/binance-to-google-sheets#82): blocked, never retried, says the add-on may not call the address", () => {
    const p = classifyException(
      new Error(
        'Exception: Request to https://other.example.com/api/v3/scans?page=1 failed because the URL has not been whitelisted in the script manifest.',
      ),
    );
    expect(p).toMatchObject({ kind: 'unreachable', blocked: true });
    expect(isRetryable(p)).toBe(false);
    expect(p.message).toBe(
      "The add-on is not allowed to call https://other.example.com: Google lets it reach only the Scan Service addresses it was published with. Open Settings and set the service address to your Scan Service's address.",
    );
    expect(isRetryable(classifyException(new Error('Address unavailable: https://api.example.com')))).toBe(true);
  });
});

describe('parseRetryAfter', () => {
  test('seconds and HTTP dates', () => {
    expect(parseRetryAfter('120', 0)).toBe(120000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 00:00:30 GMT', ctx.nowMs)).toBe(30000);
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
    expect(parseRetryAfter(undefined, 0)).toBeUndefined();
  });
});

test('redact masks the key and any bearer token', () => {
  expect(redact(`a ${KEY} b`, KEY)).toBe('a ••• b');
  expect(redact('Authorization: Bearer xyz123', undefined)).toBe('Authorization: Bearer •••');
});

describe('429 messages state the wait the service asked for (issue 26 item 9, issue 27 item 11)', () => {
  test('seconds, minutes, hours, days; never shorter than asked', () => {
    expect(waitText(25_000)).toBe('25 seconds');
    expect(waitText(1_000)).toBe('1 second');
    expect(waitText(150_000)).toBe('3 minutes');
    expect(waitText(36_000_000)).toBe('10 hours');
    expect(waitText(5 * 86_400_000)).toBe('5 days');
    expect(waitText(1e15)).toBe('more than 30 days');
  });
  test('the message names the wait (and, from an hour, the time it ends); without Retry-After it says none was given', () => {
    const now = Date.UTC(2026, 10, 20, 23, 30);
    expect(classifyResponse(429, { 'retry-after': '36000' }, '', { nowMs: now })!.message).toBe(
      'The Scan Service is busy (too many requests) and asked to wait 10 hours (until about 09:30 UTC) before the next request. Try again after that.',
    );
    expect(busyMessage(25_000, now)).toBe(
      'The Scan Service is busy (too many requests) and asked to wait 25 seconds before the next request. Try again after that.',
    );
    expect(busyMessage(undefined, now)).toBe(
      'The Scan Service is busy (too many requests) and did not say for how long. Try again in a few minutes.',
    );
  });
});
