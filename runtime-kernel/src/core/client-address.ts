/**
 * The real client address (the reference's `request.client`).
 *
 * By default it is the TCP peer. `X-Forwarded-For` is believed only when `PROXY_FIX` is on
 * AND the peer is one of `PROXY_TRUSTED_HOSTS`; then proxy-addr walks the header from the
 * right, skipping trusted hops, and stops at the first address it does not trust. Koa's own
 * `ctx.ip`/`ctx.ips` (with `app.proxy`) take the LEFTMOST entry, which any client can write,
 * so they are never used.
 */
import { isIP } from 'node:net';
import type { KoaContext } from './context.js';
import proxyaddr from 'proxy-addr';
import { FrameworkException } from './errors.js';

/** The config keys `clientAddress` reads. */
export interface ProxyConfig {
  /** Turns on trust in `X-Forwarded-For` (together with `PROXY_TRUSTED_HOSTS`). */
  PROXY_FIX: boolean;
  /** Addresses or CIDR ranges of trusted proxies, e.g. `['10.0.0.0/8', '127.0.0.1']`;
   *  proxy-addr's names `loopback`, `linklocal`, `uniquelocal` are accepted too. */
  PROXY_TRUSTED_HOSTS: string[];
}

type Trust = (addr: string, hop: number) => boolean;

// Compiled once per PROXY_TRUSTED_HOSTS list (the config object's array), not per request.
const compiled = new WeakMap<readonly string[], Trust>();

/**
 * Compile `PROXY_TRUSTED_HOSTS` into a proxy-addr trust function (cached per list).
 * Throws a `FrameworkException` naming the bad entry.
 */
export function trustFunction(hosts: readonly string[]): Trust {
  let trust = compiled.get(hosts);
  if (trust) return trust;
  for (const host of hosts) {
    try {
      proxyaddr.compile(host);
    } catch (err) {
      throw new FrameworkException(
        `PROXY_TRUSTED_HOSTS: "${host}" is not an IP address, CIDR range or one of ` +
          `loopback, linklocal, uniquelocal (${(err as Error).message})`,
        { cause: err },
      );
    }
  }
  trust = proxyaddr.compile([...hosts]);
  compiled.set(hosts, trust);
  return trust;
}

/** `::ffff:1.2.3.4` → `1.2.3.4`; anything else unchanged. */
export function normaliseAddress(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/**
 * The client address of a request: the socket peer, or — with `PROXY_FIX` on and the peer
 * inside `PROXY_TRUSTED_HOSTS` — the first untrusted hop of `X-Forwarded-For`.
 * IPv4-mapped IPv6 addresses are returned in dotted IPv4 form. A socket that has already
 * gone away yields `'unknown'`.
 */
export function clientAddress(ctx: KoaContext, config: ProxyConfig): string {
  const peer = ctx.req.socket.remoteAddress;
  if (!peer) return 'unknown';
  if (!config.PROXY_FIX || config.PROXY_TRUSTED_HOSTS.length === 0) return normaliseAddress(peer);
  const found = proxyaddr(ctx.req, trustFunction(config.PROXY_TRUSTED_HOSTS));
  // A trusted proxy that forwards garbage must not create arbitrary keys: keep the peer.
  return normaliseAddress(isIP(found) ? found : peer);
}

/** The 8 groups of an IPv6 address (zone id already removed), or undefined when it is not one. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.toLowerCase();
  // A dotted IPv4 tail (`::ffff:1.2.3.4`, `64:ff9b::1.2.3.4`) is the last two groups.
  const lastColon = text.lastIndexOf(':');
  const dotted = text.slice(lastColon + 1);
  if (isIP(dotted) === 4) {
    const [a, b, c, d] = dotted.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest, ...more] = text.split('::');
  if (more.length > 0 || head === undefined) return undefined;
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const left = parse(head);
  const right = rest === undefined ? [] : parse(rest);
  const missing = 8 - left.length - right.length;
  if (rest === undefined ? missing !== 0 : missing < 1) return undefined;
  const groups = [...left, ...new Array<number>(missing).fill(0), ...right];
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

/** RFC 5952 text of 8 groups: lower-case hex, the longest run of 2+ zero groups as `::`. */
function formatIpv6(groups: readonly number[]): string {
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) [best, bestLength] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLength).join(':')}`;
}

/**
 * The key a per-client rate limit counts `address` under. An IPv4 address (also written as
 * IPv4-mapped IPv6, `::ffff:203.0.113.9`) is its own key; an IPv6 address stands for its
 * `/ipv6Prefix` network (default 64, the least a provider hands one customer), written in
 * RFC 5952 form with the prefix, e.g. `2001:db8:0:1::/64`, so every spelling of that network
 * (`2001:DB8:0:1:0:0:0:7`, zone ids such as `fe80::1%eth0`) shares one counter. Anything else
 * (`'unknown'`) is returned unchanged.
 */
export function addressNetwork(address: string, ipv6Prefix = 64): string {
  const zone = address.indexOf('%');
  const bare = zone < 0 ? address : address.slice(0, zone);
  if (isIP(bare) !== 6) return address;
  const groups = ipv6Groups(bare);
  if (!groups) return address;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `${groups[6]! >> 8}.${groups[6]! & 0xff}.${groups[7]! >> 8}.${groups[7]! & 0xff}`;
  }
  const masked = groups.map((g, i) => {
    const keep = Math.min(16, Math.max(0, ipv6Prefix - i * 16));
    return keep === 0 ? 0 : g & ((0xffff << (16 - keep)) & 0xffff);
  });
  return `${formatIpv6(masked)}/${ipv6Prefix}`;
}
