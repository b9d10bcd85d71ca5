/**
 * Whether a request came over HTTPS, and the request's own origin.
 *
 * `X-Forwarded-Proto` is believed under the same rule as `clientAddress`: only with `PROXY_FIX`
 * on and the TCP peer inside `PROXY_TRUSTED_HOSTS`. Any other peer's header is ignored.
 */
import type { TLSSocket } from 'node:tls';
import type { FluidContext } from '../core/context.js';
import { normaliseAddress, trustFunction, type ProxyConfig } from '../core/client-address.js';

/** True when the request reached us (or the trusted proxy in front of us) over HTTPS. */
export function isHttps(ctx: FluidContext, config: ProxyConfig): boolean {
  const socket = ctx.req.socket as Partial<TLSSocket>;
  if (socket.encrypted) return true;
  if (!config.PROXY_FIX || config.PROXY_TRUSTED_HOSTS.length === 0) return false;
  const peer = ctx.req.socket.remoteAddress;
  if (!peer || !trustFunction(config.PROXY_TRUSTED_HOSTS)(normaliseAddress(peer), 0)) return false;
  const proto = ctx.get('X-Forwarded-Proto').split(',')[0]?.trim().toLowerCase();
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
