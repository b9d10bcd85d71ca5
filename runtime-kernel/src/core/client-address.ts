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
