/**
 * Where a webhook may point (document 4.3 rule 1): HTTPS, and never a private, loopback,
 * link-local or otherwise internal address. Checked at creation/update on the URL as written
 * (literal addresses, names like localhost / *.local / *.internal) and again at delivery on every
 * address the name resolves to. `allowLoopback` (local development) admits loopback only, with
 * http or https.
 */
import { BlockList, isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { INTERNAL_HOST_NAME, INTERNAL_IPV4, LOOPBACK_HOST_NAME } from '../../../contract/webhook-addresses';

const blocked = new BlockList();
for (const [net, bits] of INTERNAL_IPV4) blocked.addSubnet(net, bits, 'ipv4');
// IPv6: unspecified, loopback, unique local, link-local, site-local, multicast, documentation,
// discard-only, and NAT64 local-use (64:ff9b:1::/48: a network's own translator, whose prefix
// length and so the place of the IPv4 address is its operator's choice).
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
  ['64:ff9b:1::', 48],
] as const)
  blocked.addSubnet(net, bits, 'ipv6');

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

const v4At = (b: number[], i: number, xor = 0) => [b[i] ^ xor, b[i + 1] ^ xor, b[i + 2] ^ xor, b[i + 3] ^ xor].join('.');
const zero = (b: number[], from: number, to: number) => b.slice(from, to).every((x) => x === 0);

/**
 * Every IPv4 address an IPv6 address carries, by its form: IPv4-mapped ::ffff:a.b.c.d,
 * IPv4-translated ::ffff:0:a.b.c.d, IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::/96 (and
 * 64:ff9b:1::/48 read as /96), 6to4 2002:AABB:CCDD::/48, Teredo 2001:0::/32 (server address,
 * and the client address stored inverted). A packet to any of these can end at that IPv4 address,
 * so the IPv4 rule applies to each.
 */
export function embeddedIPv4(addr: string): string[] {
  let b: number[];
  try {
    b = ipaddr.IPv6.parse(addr).toByteArray();
  } catch {
    return [];
  }
  const out: string[] = [];
  if (zero(b, 0, 10) && b[10] === 0xff && b[11] === 0xff) out.push(v4At(b, 12)); // mapped
  if (zero(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && zero(b, 10, 12)) out.push(v4At(b, 12)); // translated
  if (zero(b, 0, 12)) out.push(v4At(b, 12)); // compatible (:: and ::1 read as 0.0.0.0 and 0.0.0.1, both internal)
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && (zero(b, 4, 12) || (b[4] === 0 && b[5] === 1)))
    out.push(v4At(b, 12)); // NAT64
  if (b[0] === 0x20 && b[1] === 0x02) out.push(v4At(b, 2)); // 6to4
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0 && b[3] === 0) out.push(v4At(b, 4), v4At(b, 12, 0xff)); // Teredo: server, client
  return out;
}

export function isLoopbackAddress(addr: string): boolean {
  const kind = isIP(addr);
  if (kind === 4) return loopback.check(addr, 'ipv4');
  if (kind !== 6) return false;
  if (loopback.check(addr, 'ipv6')) return true;
  // Loopback as the local stack reaches it: the mapped and compatible forms of 127.0.0.0/8.
  let b: number[];
  try {
    b = ipaddr.IPv6.parse(addr).toByteArray();
  } catch {
    return false;
  }
  return zero(b, 0, 10) && ((b[10] === 0xff && b[11] === 0xff) || (b[10] === 0 && b[11] === 0)) && b[12] === 127;
}

/** True when a literal IP address is not a public one (an IPv6 address also when any IPv4 it carries is not). */
export function isInternalAddress(addr: string): boolean {
  const kind = isIP(addr);
  if (kind === 4) return blocked.check(addr, 'ipv4');
  if (kind === 6) {
    if (blocked.check(addr, 'ipv6')) return true;
    return embeddedIPv4(addr).some((v4) => blocked.check(v4, 'ipv4'));
  }
  return true;
}

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
  const isLoop = literal ? isLoopbackAddress(host) : LOOPBACK_HOST_NAME.test(host);
  if (allowLoopback && isLoop) {
    return u.protocol === 'https:' || u.protocol === 'http:' ? undefined : 'url must use https (or http to loopback)';
  }
  if (u.protocol !== 'https:') return 'url must use HTTPS';
  if (u.username || u.password) return 'url must not contain a user name or password';
  if (literal)
    return isInternalAddress(host) ? `url must not point to a private, loopback, link-local or internal address (${host})` : undefined;
  if (!host.includes('.') || INTERNAL_HOST_NAME.test(host)) return `url must not point to an internal host name (${host})`;
  return undefined;
}

/** At delivery: may a resolved address be connected to? */
export function addressAllowed(addr: string, allowLoopback: boolean): boolean {
  if (allowLoopback && isLoopbackAddress(addr)) return true;
  return !isInternalAddress(addr);
}
