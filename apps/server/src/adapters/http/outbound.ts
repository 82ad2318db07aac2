import dns, { type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Addresses no server on the public internet has: unspecified, private, carrier-grade NAT,
 * loopback, link-local, documentation, benchmarking, multicast and reserved ranges, IPv6
 * unique-local and NAT64. IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) match the IPv4 rules.
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address (v4 or v6, without brackets) is one the public internet routes to. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !NOT_PUBLIC.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

function notPublic(host: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${host} is not a public internet address`), { code: 'EADDRNOTPUBLIC' });
}

/**
 * A DNS lookup for sockets that refuses a name when any address it resolves to is not public. The
 * socket connects to the addresses checked here: there is no second lookup that a rebinding DNS
 * server could answer differently.
 */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    if (addresses.length === 0 || addresses.some((a) => !isPublicAddress(a.address))) {
      return callback(notPublic(hostname), '', 0);
    }
    if (options.all) return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};

/**
 * Whether a URL's host may be on the public internet: not a loopback name, and not a literal
 * address that is not public. (A name is only known when connecting: see publicOnlyLookup.)
 */
export function mayBePublicHost(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return false;
  return isIP(host) === 0 || isPublicAddress(host);
}

/**
 * An HTTPS agent that connects only to public internet addresses, for clients that take an agent
 * rather than going through postOnce (web-push). Literal addresses are not looked up: check them
 * with mayBePublicHost first.
 */
export const publicOnlyHttpsAgent = new https.Agent({ lookup: publicOnlyLookup, keepAlive: false });

export interface OutboundPost {
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Connect only to public internet addresses (addresses users give us, in production). */
  publicOnly: boolean;
}

/**
 * One POST to an address a user registered; redirects are not followed. Resolves with the status
 * once the answer has been read (and thrown away); rejects on a network error, a refused address
 * (code `EADDRNOTPUBLIC`) or the time limit.
 */
export function postOnce(rawUrl: string, post: OutboundPost): Promise<{ status: number }> {
  const url = new URL(rawUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // A literal address is never looked up, so it is checked here.
  if (post.publicOnly && isIP(host) && !isPublicAddress(host)) return Promise.reject(notPublic(host));
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(
      url,
      {
        method: 'POST',
        headers: { ...post.headers, 'content-length': Buffer.byteLength(post.body) },
        signal: AbortSignal.timeout(post.timeoutMs),
        ...(post.publicOnly ? { lookup: publicOnlyLookup } : {}),
      },
      (response) => {
        response.on('error', reject);
        response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
        response.resume();
      },
    );
    request.on('error', reject);
    request.end(post.body);
  });
}
