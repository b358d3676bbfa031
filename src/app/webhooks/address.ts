/**
 * Where a webhook may point, checked before anything is sent: the service's rule (document 4.3
 * rule 1; the local service's `webhooks/urlPolicy.ts` and the `x-decision` of webhooks.yaml): HTTPS
 * only, never a private, loopback, link-local or otherwise internal address, written as a literal
 * address (every form a URL parser reads as one: `127.1`, `2130706433`, `0x7f.0.0.1`, `[::ffff:7f00:1]`)
 * or as an internal name (`localhost`, `*.local`, `*.internal`, single-label names).
 *
 * Apps Script has no URL class, so the address is parsed here by hand, and refused when it has
 * anything a browser-style parser would rewrite into something else (percent signs or backslashes
 * in the host, spaces, control characters, user:password@). The service resolves names again at
 * every delivery; a public name that resolves to an internal address is refused there, and the
 * service's message is then shown as it is.
 *
 * This is the contract's rule, for every service address: a local Scan Service started with its
 * development flag (loopback receivers) accepts more, but the add-on does not guess its flags, so
 * what the add-on accepts and what its hint says are what any Scan Service accepts.
 */

import { INTERNAL_HOST_NAME, INTERNAL_IPV4 } from '../../../contract/webhook-addresses';

export type WebhookAddressCheck = { ok: true; url: string } | { ok: false; message: string };

/** Longest address accepted (far above any real receiver's). */
export const MAX_WEBHOOK_URL_LENGTH = 2000;

// Built on first use: nothing runs when the bundle loads.
let internalV4: Array<[number, number]> | undefined;

function dotted(s: string): number {
  return s.split('.').reduce((a, p) => a * 256 + Number(p), 0);
}

function inV4(ip: number, net: number, bits: number): boolean {
  return (ip ^ net) >>> (32 - bits) === 0;
}

/** IPv4 (as a 32-bit number) that is not public. */
export function isInternalV4(ip: number): boolean {
  internalV4 ??= INTERNAL_IPV4.map(([net, bits]): [number, number] => [dotted(net), bits]);
  return internalV4.some(([net, bits]) => inV4(ip, net, bits));
}

/** One part of an IPv4 host as WHATWG URL parsing reads it: 0x hex, leading-0 octal, or decimal. */
function v4Number(part: string): number | undefined {
  if (/^0x[0-9a-f]*$/i.test(part)) return part.length === 2 ? 0 : parseInt(part.slice(2), 16);
  if (/^0[0-7]+$/.test(part)) return parseInt(part.slice(1), 8);
  if (/^(0|[1-9][0-9]*)$/.test(part)) return Number(part);
  return undefined;
}

/** Whether a host name "ends in a number" (WHATWG): then it is an IPv4 address or invalid. */
function endsInNumber(host: string): boolean {
  const parts = host.split('.');
  const last = parts[parts.length - 1];
  return last !== '' && (/^[0-9]+$/.test(last) || /^0x[0-9a-f]*$/i.test(last));
}

/** A host that ends in a number, read as IPv4 the way browsers and the service's parser do; undefined when invalid. */
export function parseIpv4Host(host: string): number | undefined {
  const parts = host.split('.');
  if (parts.length > 4 || parts.some((p) => p === '')) return undefined;
  const nums = parts.map(v4Number);
  if (nums.some((n) => n === undefined)) return undefined;
  const n = nums as number[];
  const last = n[n.length - 1];
  if (n.slice(0, -1).some((x) => x > 255) || last >= Math.pow(256, 5 - n.length)) return undefined;
  let ip = last;
  for (let i = 0; i < n.length - 1; i++) ip += n[i] * Math.pow(256, 3 - i);
  return ip;
}

/** The 8 groups of an IPv6 address (without brackets), or undefined when it is not one. */
export function parseIpv6(text: string): number[] | undefined {
  let s = text.toLowerCase();
  let tail: number[] = [];
  const v4 = /^(.*:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(s);
  if (v4) {
    const texts = v4[2].split('.');
    // No leading zeros (they would read as octal elsewhere) and no octet above 255.
    if (texts.some((t) => t.length > 1 && t[0] === '0')) return undefined;
    const octets = texts.map(Number);
    if (octets.some((o) => o > 255)) return undefined;
    tail = [octets[0] * 256 + octets[1], octets[2] * 256 + octets[3]];
    s = v4[1].endsWith('::') ? v4[1] : v4[1].slice(0, -1);
  }
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const groups = (h: string) => (h === '' ? [] : h.split(':'));
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  if ([...head, ...rest].some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return undefined;
  const explicit = head.length + rest.length + tail.length;
  if (halves.length === 1 ? explicit !== 8 : explicit > 7) return undefined;
  const zeros = halves.length === 2 ? 8 - explicit : 0;
  return [...head.map((g) => parseInt(g, 16)), ...Array(zeros).fill(0), ...rest.map((g) => parseInt(g, 16)), ...tail];
}

/** An IPv4 address carried inside an IPv6 one (mapped, compatible, translated, 6to4, Teredo), if any. */
export function embeddedV4(g: number[]): number | undefined {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const at = (hi: number, lo: number) => hi * 65536 + lo;
  if (zeros(0, 5) && g[5] === 0xffff) return at(g[6], g[7]); // ::ffff:a.b.c.d
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return at(g[6], g[7]); // ::ffff:0:a.b.c.d
  if (zeros(0, 6) && (g[6] !== 0 || g[7] > 1)) return at(g[6], g[7]); // ::a.b.c.d (not :: or ::1)
  if (g[0] === 0x2002) return at(g[1], g[2]); // 6to4
  if (g[0] === 0x2001 && g[1] === 0) return at(g[6] ^ 0xffff, g[7] ^ 0xffff); // Teredo client
  return undefined;
}

/** IPv6 that is not public (or carries an IPv4 address that is not). */
export function isInternalV6(g: number[]): boolean {
  const v4 = embeddedV4(g);
  if (v4 !== undefined && isInternalV4(v4)) return true;
  if (g.every((x) => x === 0)) return true; // unspecified
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return true; // loopback
  if (g[0] === 0x64 && g[1] === 0xff9b) return true; // NAT64 (well-known and local-use)
  if ((g[0] & 0xfe00) === 0xfc00) return true; // unique local
  if ((g[0] & 0xffc0) === 0xfe80 || (g[0] & 0xffc0) === 0xfec0) return true; // link-local, site-local
  if ((g[0] & 0xff00) === 0xff00) return true; // multicast
  if (g[0] === 0x2001 && g[1] === 0x0db8) return true; // documentation
  if (g[0] === 0x0100 && g[1] === 0 && g[2] === 0 && g[3] === 0) return true; // discard-only
  return false;
}

export type Host = { kind: 'ipv4'; ip: number } | { kind: 'ipv6'; groups: number[] } | { kind: 'name'; name: string };

/** Reads a URL's host as written (brackets kept for IPv6); a message when it is not a usable host. */
export function readHost(raw: string): Host | { problem: string } {
  if (raw === '') return { problem: 'has no host name.' };
  if (raw[0] === '[') {
    const m = /^\[([0-9a-fA-F:.]+)\]$/.exec(raw);
    const groups = m ? parseIpv6(m[1]) : undefined;
    return groups ? { kind: 'ipv6', groups } : { problem: 'has an invalid IPv6 address.' };
  }
  let host = raw.toLowerCase();
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (/%/.test(host)) return { problem: 'has percent signs in its host name.' };
  if (!/^[a-z0-9._-]+$/.test(host))
    return { problem: 'has characters that are not allowed in a host name (write a non-Latin name in its xn-- form).' };
  if (endsInNumber(host)) {
    const ip = parseIpv4Host(host);
    return ip === undefined ? { problem: 'has an invalid IP address.' } : { kind: 'ipv4', ip };
  }
  if (host.length > 253 || host.split('.').some((l) => l === '' || l.length > 63)) return { problem: 'has no valid host name.' };
  return { kind: 'name', name: host };
}

function v4Text(ip: number): string {
  return [ip >>> 24, (ip >>> 16) & 255, (ip >>> 8) & 255, ip & 255].join('.');
}

/** Why a host is internal, or undefined when it may be public. */
function internalReason(h: Host): string | undefined {
  if (h.kind === 'ipv4') return isInternalV4(h.ip) ? 'a private, loopback or other internal address (' + v4Text(h.ip) + ')' : undefined;
  if (h.kind === 'ipv6') {
    if (!isInternalV6(h.groups)) return undefined;
    const v4 = embeddedV4(h.groups);
    return (
      'a private, loopback or other internal address' + (v4 !== undefined && isInternalV4(v4) ? ' (IPv6 carrying ' + v4Text(v4) + ')' : '')
    );
  }
  if (h.name.indexOf('.') < 0 || INTERNAL_HOST_NAME.test(h.name)) return 'an internal host name (' + h.name + ')';
  return undefined;
}

/** The URL's parts when it is an absolute web address; a message otherwise. */
export function splitUrl(text: string): { scheme: string; host: string; port?: string; rest: string } | { problem: string } {
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)(.*)$/i.exec(text);
  if (!m) return { problem: 'is not a web address: it must start with https://' };
  const authority = m[2];
  if (authority.indexOf('@') >= 0) return { problem: 'must not contain a user name or password.' };
  const hp = /^(\[[^\]]*\]|[^:[\]]*)(?::([0-9]*))?$/.exec(authority);
  if (!hp) return { problem: 'has no valid host name.' };
  if (hp[2] !== undefined && hp[2] !== '' && (Number(hp[2]) < 1 || Number(hp[2]) > 65535))
    return { problem: 'has an invalid port (1 to 65535).' };
  return { scheme: m[1].toLowerCase(), host: hp[1], port: hp[2] || undefined, rest: m[3] };
}

/** Checks an address typed for a webhook (see the module comment). */
export function checkWebhookUrl(input: unknown): WebhookAddressCheck {
  const text = String(input === null || input === undefined ? '' : input).trim();
  const shown = text.length > 100 ? text.slice(0, 99) + '…' : text;
  const bad = (why: string): WebhookAddressCheck => ({ ok: false, message: 'The webhook address "' + shown + '" ' + why });
  if (!text)
    return { ok: false, message: 'Enter the address the Scan Service should notify, e.g. https://hooks.example.com/scan-complete.' };
  if (text.length > MAX_WEBHOOK_URL_LENGTH)
    return { ok: false, message: 'The webhook address is longer than ' + MAX_WEBHOOK_URL_LENGTH + ' characters.' };
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f\\]/.test(text)) return bad('contains spaces, control characters or backslashes.');
  const parts = splitUrl(text);
  if ('problem' in parts) return bad(parts.problem);
  const host = readHost(parts.host);
  if ('problem' in host) return bad(host.problem);
  if (parts.scheme !== 'https') return bad('must start with https://: the Scan Service delivers only over HTTPS.');
  const internal = internalReason(host);
  if (internal)
    return bad(
      'points to ' + internal + '. The Scan Service delivers only to public internet addresses; see "What can receive webhooks" below.',
    );
  return { ok: true, url: text };
}
