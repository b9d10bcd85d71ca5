/**
 * The request log (`FW_LOG_REQUESTS`, on by default): one line per request through the app's
 * logger (pino JSON lines in production) and a request id on every response.
 *
 * - The line is written when the response has closed (sent, or the client went away): level
 *   `info`, `warn` for a 5xx; message `GET /path 200`; fields `requestId`, `ms` (time to the
 *   last byte). The path is logged without its query string, which may carry tokens.
 * - `ctx.requestId` is the id, answered as `X-Request-Id`. An incoming `X-Request-Id` (1-128
 *   characters of letters, digits and `._:-`) is kept only from a trusted proxy (`PROXY_FIX`
 *   and a peer in `PROXY_TRUSTED_HOSTS`, as for the client address); otherwise a fresh UUID.
 *
 * Why not pino-http: it needs a pino instance (an app may give its own `Logger`), its default
 * serializers log every header (cookies and `Authorization` included) unless told otherwise,
 * and what fw needs is these few lines on Node's `finish` event.
 */
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { trustFunction } from '../core/client-address.js';
import type { FluidMiddleware } from '../core/context.js';
import type { Logger } from '../core/errors.js';

declare module '../core/context.js' {
  interface FluidContextExtensions {
    /** This request's id (`X-Request-Id`), with the request log on (`FW_LOG_REQUESTS`). */
    requestId?: string;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The config keys the request log reads. */
export interface RequestLogConfig {
  PROXY_FIX: boolean;
  PROXY_TRUSTED_HOSTS: string[];
}

/** The request-log middleware (for the `first` stage: it sees every request, static files included). */
export function requestLog(config: RequestLogConfig, logger: Logger): FluidMiddleware {
  const trust = config.PROXY_FIX && config.PROXY_TRUSTED_HOSTS.length > 0 ? trustFunction(config.PROXY_TRUSTED_HOSTS) : undefined;
  return (ctx, next) => {
    const started = process.hrtime.bigint();
    const given = trust ? ctx.get('X-Request-Id') : '';
    const peer = ctx.req.socket.remoteAddress;
    const id = given && REQUEST_ID.test(given) && peer && isIP(peer) && trust!(peer, 0) ? given : randomUUID();
    ctx.requestId = id;
    ctx.set('X-Request-Id', id);
    const { method } = ctx;
    const path = ctx.path;
    const res = ctx.res;
    // A response emits `close` once: right after `finish` when it was sent, or when the client
    // went away first (then it never finished). One listener sees both.
    res.once('close', () => {
      const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;
      const status = res.writableFinished ? res.statusCode : 'aborted';
      const line = `${method} ${path} ${status}`;
      if (typeof status === 'number' && status >= 500) logger.warn(line, { requestId: id, ms });
      else logger.info(line, { requestId: id, ms });
    });
    return next();
  };
}
