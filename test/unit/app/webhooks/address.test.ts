/**
 * The add-on's webhook address check (parsed by hand: Apps Script has no URL class) gives the
 * local service's verdict (webhooks/urlPolicy.ts, which uses Node's URL parser) on every form of
 * address, and is stricter only where said.
 */
import { checkWebhookUrl, parseIpv4Host, parseIpv6 } from '../../../../src/app/webhooks/address';
import { urlProblem } from '../../../../emulator/service/webhooks/urlPolicy';

const REFUSED = [
  'http://example.com/hook',
  'ftp://example.com/hook',
  'example.com/hook',
  'https://127.0.0.1/hook',
  'https://127.1/',
  'https://2130706433/',
  'https://0x7f000001/',
  'https://0x7f.0.0.1/',
  'https://0177.0.0.1/',
  'https://017700000001/',
  'https://10.1.2.3/',
  'https://192.168.1.1:8443/x',
  'https://172.16.0.1/',
  'https://172.31.255.255/',
  'https://169.254.169.254/latest/meta-data/',
  'https://100.64.0.1/',
  'https://0.0.0.0/',
  'https://224.0.0.1/',
  'https://255.255.255.255/',
  'https://192.0.2.10/',
  'https://[::1]/',
  'https://[::]/',
  'https://[0:0:0:0:0:0:0:1]/',
  'https://[::ffff:127.0.0.1]/',
  'https://[::ffff:7f00:1]/',
  'https://[::127.0.0.1]/',
  'https://[::ffff:10.0.0.1]/',
  'https://[::ffff:a00:1]/',
  'https://[::ffff:169.254.169.254]/',
  'https://[64:ff9b::a00:1]/',
  'https://[fd00::1]/',
  'https://[fc12:3456::1]/',
  'https://[fe80::1]/',
  'https://[ff02::1]/',
  'https://[2001:db8::1]/',
  'https://localhost/',
  'https://LOCALHOST./',
  'https://api.localhost/',
  'https://printer.local/',
  'https://metadata.google.internal/computeMetadata/v1/',
  'https://router.lan/',
  'https://nas.home.arpa/',
  'https://intranet/',
  'https://user:pw@example.com/',
  'https://token@example.com/',
  'https://%6c%6fcalhost/',
  'https://example.com:99999/',
  'https://[::1/',
  'https://1.2.3.4.5/',
  'https://256.1.1.1/',
  'https://example.0x10/',
  'https://exa mple.com/',
  '',
  // IPv6 forms carrying an internal IPv4: the service decodes them too (issue 14).
  'https://[2002:7f00:1::]/', // 6to4 carrying 127.0.0.1
  'https://[2002:a00:1::1]/', // 6to4 carrying 10.0.0.1
  'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', // Teredo carrying 127.0.0.1
];

const ACCEPTED = [
  'https://example.com/hook',
  'https://hooks.zapier.com/hooks/catch/123456/abcdef/',
  'https://hook.eu1.make.com/abcdefghijklmnop',
  'https://example.com:8443/x?token=1#part',
  'https://EXAMPLE.com./hooks',
  'https://8.8.8.8/',
  'https://1.1.1.1:443/',
  'https://134744072/',
  'https://[2606:4700:4700::1111]/',
  'https://[::ffff:8.8.8.8]/',
  'https://my-tunnel.trycloudflare.com/scan-complete',
];

/** Refused by the add-on although the service's parser would accept them: rewritten or disguised forms. */
const STRICTER = [
  'https://example.com\\@127.0.0.1/', // a backslash is a "/" to URL parsers: confusing, refused
  'https://bücher.example/', // a non-Latin name: its xn-- form is asked for
];

test.each(REFUSED)('refused by the add-on and by the service: %s', (url) => {
  const mine = checkWebhookUrl(url);
  expect(mine.ok).toBe(false);
  expect(urlProblem(url, false)).toBeDefined();
});

test.each(ACCEPTED)('accepted by the add-on and by the service: %s', (url) => {
  expect(checkWebhookUrl(url)).toEqual({ ok: true, url: url.trim() });
  expect(urlProblem(url, false)).toBeUndefined();
});

test.each(STRICTER)('refused by the add-on only (stricter on purpose): %s', (url) => {
  expect(checkWebhookUrl(url).ok).toBe(false);
  expect(urlProblem(url, false)).toBeUndefined();
});

test('the messages say what is wrong, in plain words', () => {
  const msg = (url: string) => (checkWebhookUrl(url) as { message: string }).message;
  expect(msg('http://example.com/')).toBe(
    'The webhook address "http://example.com/" must start with https://: the Scan Service delivers only over HTTPS.',
  );
  expect(msg('https://2130706433/')).toMatch(
    /points to a private, loopback or other internal address \(127\.0\.0\.1\)\. The Scan Service delivers only to public internet addresses/,
  );
  expect(msg('https://[::ffff:a00:1]/')).toMatch(/internal address \(IPv6 carrying 10\.0\.0\.1\)/);
  expect(msg('https://printer.local/')).toMatch(/points to an internal host name \(printer\.local\)/);
  expect(msg('https://user:pw@example.com/')).toMatch(/must not contain a user name or password/);
  expect(msg('')).toBe('Enter the address the Scan Service should notify, e.g. https://hooks.example.com/scan-complete.');
  expect(msg('https://example.com/' + 'a'.repeat(2000))).toBe('The webhook address is longer than 2000 characters.');
});

test('loopback receivers are refused, with http or https, as the Scan Service refuses them (document 4.3 rule 1): no exception for a local service', () => {
  for (const url of [
    'http://127.0.0.1:8080/scan-complete',
    'http://localhost:1/',
    'https://[::1]:3/',
    'http://127.1:9/',
    'https://localhost/',
  ]) {
    expect(checkWebhookUrl(url).ok).toBe(false);
    expect(urlProblem(url, false)).toBeDefined();
  }
  expect((checkWebhookUrl('http://localhost:8080/') as { message: string }).message).toMatch(/must start with https:\/\//);
});

test('IPv4 hosts are read as URL parsers read them; IPv6 with every abbreviation', () => {
  expect(parseIpv4Host('127.1')).toBe(0x7f000001);
  expect(parseIpv4Host('0x7f.1')).toBe(0x7f000001);
  expect(parseIpv4Host('0177.0.0.01')).toBe(0x7f000001);
  expect(parseIpv4Host('4294967295')).toBe(0xffffffff);
  expect(parseIpv4Host('4294967296')).toBeUndefined();
  expect(parseIpv4Host('1.2.3.256')).toBeUndefined();
  expect(parseIpv4Host('08.1.1.1')).toBeUndefined();
  expect(parseIpv6('::')).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  expect(parseIpv6('1::')).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
  expect(parseIpv6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
  expect(parseIpv6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  expect(parseIpv6('1:2:3:4:5:6:1.2.3.4')).toEqual([1, 2, 3, 4, 5, 6, 0x0102, 0x0304]);
  for (const bad of ['1:2:3:4:5:6:7', '1::2::3', '12345::', '::ffff:1.2.3', '::ffff:01.2.3.4', '1:2:3:4:5:6:7:8:9', 'g::1'])
    expect(parseIpv6(bad)).toBeUndefined();
});
