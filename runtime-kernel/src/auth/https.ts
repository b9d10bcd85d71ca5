/**
 * Whether a request came over HTTPS, and the request's own origin.
 *
 * `X-Forwarded-Proto` is believed under the same rule as `clientAddress`: only with `PROXY_FIX`
 * on and the TCP peer inside `PROXY_TRUSTED_HOSTS`. Any other peer's header is ignored.
 */
import type { TLSSocket } from 'node:tls';
import proxyaddr from 'proxy-addr';
import type { FluidContext } from '../core/context.js';
import { normaliseAddress, trustFunction, type ProxyConfig } from '../core/client-address.js';

/**
 * True when the request reached us (or the outermost trusted proxy in front of us) over HTTPS.
 *
 * A proxy that appends to `X-Forwarded-Proto` (a second header line, or `, http` after what the
 * client sent) leaves the client's own value on the left, so the value read is the one the
 * outermost trusted proxy added: with `n` trusted proxies on the way (counted by the
 * `X-Forwarded-For` walk of `clientAddress`), the `n`-th value from the right (the first when
 * there are fewer values: proxies that replace the header).
 */
export function isHttps(ctx: FluidContext, config: ProxyConfig): boolean {
  const socket = ctx.req.socket as Partial<TLSSocket>;
  if (socket.encrypted) return true;
  if (!config.PROXY_FIX || config.PROXY_TRUSTED_HOSTS.length === 0) return false;
  const peer = ctx.req.socket.remoteAddress;
  const trust = trustFunction(config.PROXY_TRUSTED_HOSTS);
  if (!peer || !trust(normaliseAddress(peer), 0)) return false;
  const header = ctx.get('X-Forwarded-Proto');
  if (!header) return false;
  const values = header.split(',');
  let proxies = 0;
  if (values.length > 1) {
    const hops = proxyaddr.all(ctx.req, trust);
    while (proxies < hops.length && trust(hops[proxies]!, proxies)) proxies++;
  }
  const proto = values[Math.max(0, values.length - Math.max(proxies, 1))]!.trim().toLowerCase();
  return proto === 'https';
}

/** The origin the client addressed: `http(s)://<Host header>`, normalised (`:80`/`:443` dropped). */
export function requestOrigin(ctx: FluidContext, config: ProxyConfig): string {
  const raw = `${isHttps(ctx, config) ? 'https' : 'http'}://${ctx.get('Host').toLowerCase()}`;
  try {
    return new URL(raw).origin;
  } catch {
    return raw; // a malformed Host matches no Origin a browser sends
  }
}
