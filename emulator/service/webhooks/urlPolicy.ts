/**
 * Where a webhook may point (document 4.3 rule 1): HTTPS, and never a private, loopback,
 * link-local or otherwise internal address. Checked at creation/update on the URL as written
 * (literal addresses, names like localhost / *.local / *.internal) and again at delivery on every
 * address the name resolves to. `allowLoopback` (local development) admits loopback only, with
 * http or https.
 */
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
// IPv4: "this" network, private, CGNAT, loopback, link-local, IETF protocol, test nets,
// benchmarking, multicast, reserved, broadcast.
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, bits, 'ipv4');
// IPv6: unspecified, loopback, IPv4-mapped/translated (checked as IPv4 below), unique local,
// link-local, site-local, multicast, documentation.
for (const [net, bits] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8], ['2001:db8::', 32], ['64:ff9b::', 96], ['100::', 64],
] as const) blocked.addSubnet(net, bits, 'ipv6');

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** IPv4 inside an IPv6 form (::ffff:a.b.c.d, ::a.b.c.d), if any. */
function embeddedV4(addr: string): string | undefined {
  const m = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(addr);
  if (m) return m[1];
  // The hex forms too: URL parsing writes [::127.0.0.1] as [::7f00:1] and [::ffff:10.0.0.1] as [::ffff:a00:1].
  const h = /^::(?:ffff:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(addr);
  if (h) {
    const a = parseInt(h[1], 16);
    const b = parseInt(h[2], 16);
    return `${a >> 8}.${a & 255}.${b >> 8}.${b & 255}`;
  }
  return undefined;
}

export function isLoopbackAddress(addr: string): boolean {
  const v4 = isIP(addr) === 6 ? embeddedV4(addr) : addr;
  if (v4 && isIP(v4) === 4) return loopback.check(v4, 'ipv4');
  return isIP(addr) === 6 && loopback.check(addr, 'ipv6');
}

/** True when a literal IP address is not a public one. */
export function isInternalAddress(addr: string): boolean {
  const kind = isIP(addr);
  if (kind === 4) return blocked.check(addr, 'ipv4');
  if (kind === 6) {
    const v4 = embeddedV4(addr);
    if (v4) return blocked.check(v4, 'ipv4');
    return blocked.check(addr, 'ipv6');
  }
  return true;
}

const INTERNAL_NAME = /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa|localdomain|corp|private)$/i;
const LOOPBACK_NAME = /(^|\.)localhost$/i;

/** Why the URL is refused, or undefined when it is acceptable (before name resolution). */
export function urlProblem(raw: string, allowLoopback: boolean): string | undefined {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'url must be an absolute URL, e.g. https://example.com/hooks/scan';
  }
  const host = u.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  const literal = isIP(host) !== 0;
  const isLoop = literal ? isLoopbackAddress(host) : LOOPBACK_NAME.test(host);
  if (allowLoopback && isLoop) {
    return u.protocol === 'https:' || u.protocol === 'http:' ? undefined : 'url must use https (or http to loopback)';
  }
  if (u.protocol !== 'https:') return 'url must use HTTPS';
  if (u.username || u.password) return 'url must not contain a user name or password';
  if (literal) return isInternalAddress(host) ? `url must not point to a private, loopback, link-local or internal address (${host})` : undefined;
  if (!host.includes('.') || INTERNAL_NAME.test(host)) return `url must not point to an internal host name (${host})`;
  return undefined;
}

/** At delivery: may a resolved address be connected to? */
export function addressAllowed(addr: string, allowLoopback: boolean): boolean {
  if (allowLoopback && isLoopbackAddress(addr)) return true;
  return !isInternalAddress(addr);
}
