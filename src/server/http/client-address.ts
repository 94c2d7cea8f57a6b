import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

/** The network client of a request, as the per-client limits count it (docs/server.md, "Overload"). */
export type ClientAddressOf = (req: IncomingMessage) => string;

/** The forwarding headers a client name is read from (with trusted proxies only). */
export interface ForwardingHeaders {
  forwarded?: string | undefined;
  xForwardedFor?: string | undefined;
}

/**
 * Names a network client from the address its connection came from (the socket's, or what the
 * host says it was; undefined when unknown) and its forwarding headers: see
 * {@link createClientAddressOf}.
 */
export type NameClient = (remoteAddress: string | undefined, headers: ForwardingHeaders) => string | undefined;

/**
 * Creates the function that names a request's network client. Without `trustProxy` it is the
 * socket's remote address, whatever the request says. With it (the addresses or CIDR subnets of
 * your own load balancers or proxies, e.g. `['10.0.0.0/8']`) the forwarded chain is walked from
 * the right, `Forwarded: for=` when present, else `X-Forwarded-For`: while the hop that handed
 * the request over is a trusted proxy, the address it names is taken, so the client is the
 * rightmost address no trusted proxy vouches past; whatever a client writes further left is never
 * believed. IPv4-mapped IPv6 addresses count as their IPv4 address, and an IPv6 client as its
 * `/64`, since one subscriber usually gets a whole `/64`. Throws at creation for an entry that is
 * not an address or a subnet.
 */
export function createClientAddressOf(trustProxy: readonly string[] = []): ClientAddressOf {
  const nameClient = createNameClient(trustProxy);
  return (req) => {
    const header = req.headers['x-forwarded-for'];
    return (
      nameClient(req.socket.remoteAddress, {
        forwarded: req.headers.forwarded,
        xForwardedFor: Array.isArray(header) ? header.join(',') : header,
      }) ?? 'unknown'
    );
  };
}

/**
 * The runtime-neutral core of {@link createClientAddressOf}: the same walk of the forwarded chain
 * from `remoteAddress`, undefined when neither that address nor a trusted hop names anyone.
 */
export function createNameClient(trustProxy: readonly string[] = []): NameClient {
  const trusted = new BlockList();
  for (const entry of trustProxy) addTrusted(trusted, entry);
  const isTrusted = (address: string): boolean => {
    const family = isIP(address);
    return family !== 0 && trusted.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };
  return (remoteAddress, headers) => {
    let address = normalize(remoteAddress ?? '');
    if (trustProxy.length > 0) {
      const hops = forwardedHops(headers);
      while (isTrusted(address) && hops.length > 0) {
        const next = normalize(hops.pop() as string);
        if (isIP(next) === 0) break;
        address = next;
      }
    }
    return isIP(address) === 6 ? prefix64(address) : address === '' ? undefined : address;
  };
}

/**
 * Whether `address` (a socket's remote address, as `remoteAddress` gives it) is this host's own:
 * `127.0.0.0/8`, `::1`, or `::ffff:127.x.y.z`. An unknown or malformed address is not.
 */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const plain = normalize(address);
  const family = isIP(plain);
  if (family === 4) return plain.startsWith('127.');
  return family === 6 && LOOPBACK_V6.check(plain, 'ipv6');
}

const LOOPBACK_V6 = new BlockList();
LOOPBACK_V6.addAddress('::1', 'ipv6');
LOOPBACK_V6.addSubnet('::ffff:7f00:0', 104, 'ipv6'); // `::ffff:127.0.0.0/104` written in hex

function addTrusted(list: BlockList, entry: string): void {
  const [address = '', bits] = entry.split('/');
  const family = isIP(address);
  const prefix = bits === undefined ? undefined : Number(bits);
  const maxBits = family === 6 ? 128 : 32;
  if (family === 0 || (prefix !== undefined && !(Number.isInteger(prefix) && prefix >= 0 && prefix <= maxBits))) {
    throw new TypeError(
      `createAgentHandler: trustProxy lists the addresses or subnets of your proxies ("10.0.0.7", "10.0.0.0/8"), got ${JSON.stringify(entry)}.`,
    );
  }
  const type = family === 6 ? 'ipv6' : 'ipv4';
  if (prefix === undefined) list.addAddress(address, type);
  else list.addSubnet(address, prefix, type);
}

/** The addresses of the forwarded chain, left (the original client) to right (the last proxy). */
function forwardedHops(headers: ForwardingHeaders): string[] {
  const forwarded = headers.forwarded;
  if (forwarded !== undefined) {
    return forwarded
      .split(',')
      .map((element) => /(?:^|;)\s*for=("[^"]*"|[^;,\s]*)/i.exec(element)?.[1] ?? '')
      .map((value) => value.replace(/^"|"$/g, ''));
  }
  const value = headers.xForwardedFor ?? '';
  return value === '' ? [] : value.split(',').map((hop) => hop.trim());
}

/** Strips what is not the address: brackets, a port, a zone, the IPv4-mapped prefix. */
function normalize(raw: string): string {
  let address = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed !== null) address = bracketed[1] as string;
  else if (/^[\d.]+:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(':'));
  address = address.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped === null ? address : (mapped[1] as string);
}

/** The `/64` an IPv6 address belongs to, e.g. `2001:db8:0:1::/64`. */
function prefix64(address: string): string {
  const [head = '', tail] = address.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = [...left, ...Array.from({ length: Math.max(0, 8 - left.length - right.length) }, () => '0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
