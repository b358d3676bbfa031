/**
 * Where a webhook may NOT point (document 4.3 rule 1: "never private, loopback, link-local or
 * otherwise internal"): the one table of internal networks and host names. The local service
 * (emulator/service/webhooks/urlPolicy.ts) applies it at registration and at every delivery; the
 * add-on (src/app/webhooks/address.ts) applies it before sending. Pure data: nothing runs at load.
 */

/** IPv4: "this" network, private, CGNAT, loopback, link-local, IETF protocol assignments, test nets, 6to4 relay, benchmarking, multicast, reserved, broadcast. */
export const INTERNAL_IPV4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

/** Host names that are internal whatever they resolve to (a name without a dot is internal too). */
export const INTERNAL_HOST_NAME = /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa|localdomain|corp|private)$/i;
/** Names of the loopback interface. */
export const LOOPBACK_HOST_NAME = /(^|\.)localhost$/i;
