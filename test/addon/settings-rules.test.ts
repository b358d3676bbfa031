/** Pure rules of src/app/settings/rules.ts: address validation, masking, applying input, connection messages. */
import { applySettingsInput, checkServiceUrl, connectionResult, maskKey } from '../../src/app/settings/rules';

const DEFAULT = 'https://app.example.com';

test('checkServiceUrl: accepted and normalised', () => {
  const ok = (s: string) => {
    const r = checkServiceUrl(s);
    if (!r.ok) throw new Error(r.message);
    return r.url;
  };
  expect(ok(' https://App.Example.com/ ')).toBe('https://app.example.com');
  expect(ok('https://app.example.com/api')).toBe('https://app.example.com');
  expect(ok('https://app.example.com/base/API/V3//')).toBe('https://app.example.com/base');
  expect(ok('http://127.0.0.1:8787')).toBe('http://127.0.0.1:8787');
  expect(ok('http://LOCALHOST')).toBe('http://localhost');
});

test('checkServiceUrl: refused, each with its reason', () => {
  const why = (s: string) => {
    const r = checkServiceUrl(s);
    return r.ok ? 'accepted' : r.message;
  };
  expect(why('')).toBe('Enter the service address, e.g. https://app.example.com.');
  expect(why('app.example.com')).toMatch(/is not a web address: it must start with https:\/\/$/);
  expect(why('http://10.0.0.5')).toMatch(/must use https:\/\//);
  expect(why('http://127.0.0.1.evil.com')).toMatch(/must use https:\/\//);
  expect(why('https://intranet')).toMatch(/has no valid host name/);
  expect(why('https://a.example.com:99999')).toMatch(/has no valid host name/);
  expect(why('https://a.example.com/x y')).toMatch(/not allowed in an address/);
  expect(why('https://a.example.com#frag')).toMatch(/query \(\?\.\.\.\) or fragment/);
  expect(why('javascript://a.example.com')).toMatch(/must start with https:\/\//);
});

test('maskKey: 8 bullets, plus the last 4 characters only for keys of 12 or more', () => {
  expect(maskKey('')).toBe('');
  expect(maskKey('abcdefghijk')).toBe('••••••••');
  expect(maskKey('abcdefghijkl')).toBe('••••••••ijkl');
});

test('applySettingsInput: every problem at once; nothing applied', () => {
  const current = { apiKey: 'old-key-123456789', serviceUrl: DEFAULT, marketplace: 'US' };
  expect(() =>
    applySettingsInput(current, { apiKey: 'short', serviceUrl: 'http://x.example.com', defaultMarketplace: 'ZZ' }, DEFAULT),
  ).toThrow(
    /^That does not look like an API key .* The service address "http:\/\/x\.example\.com" must use https:\/\/ .* Unknown marketplace "ZZ"\.$/,
  );
  expect(current).toEqual({ apiKey: 'old-key-123456789', serviceUrl: DEFAULT, marketplace: 'US' });
  expect(applySettingsInput(current, { defaultMarketplace: 'uk' }, DEFAULT)).toEqual({
    next: { ...current, marketplace: 'UK' },
    keyChanged: true,
  });
  expect(applySettingsInput(current, {}, DEFAULT)).toEqual({ next: current, keyChanged: false });
});

test('connectionResult: every problem kind has a plain message and a code', () => {
  const s = { apiKey: 'k', serviceUrl: DEFAULT, marketplace: 'DE' };
  expect(
    connectionResult({ kind: 'redirect', status: 301, message: 'The service address redirects to https://b.example.com.' }, s),
  ).toEqual({
    ok: false,
    problem: 'bad-address',
    message: 'https://app.example.com does not answer like the Scan Service (301). The service address redirects to https://b.example.com.',
  });
  expect(connectionResult({ kind: 'rate-limited', status: 429, message: '' }, s).problem).toBe('busy');
  expect(connectionResult({ kind: 'server', status: 503, message: '' }, s).message).toBe(
    'The Scan Service at https://app.example.com had a problem (error 503). Try again later.',
  );
  expect(connectionResult({ kind: 'timeout', message: '' }, s)).toEqual({
    ok: false,
    problem: 'unreachable',
    message:
      'The Scan Service at https://app.example.com is not answering (no answer in time): it may be down for a moment. Test again in a few minutes.',
  });
  // Only a host that does not exist is blamed on the address (issue 32 item 10).
  expect(
    connectionResult({ kind: 'unreachable', noSuchHost: true, serviceMessage: 'DNS error: https://app.example.com', message: '' }, s),
  ).toEqual({
    ok: false,
    problem: 'unreachable',
    message: 'Could not find https://app.example.com (DNS error: https://app.example.com). Check the service address.',
  });
  expect(connectionResult({ kind: 'forbidden', status: 403, message: '' }, s).message).toMatch(
    /default marketplace Germany \(DE\) \(403\)/,
  );
});
