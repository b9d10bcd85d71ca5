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
 * - Health probes (`HEALTH_LIVE_PATH`, `HEALTH_READY_PATH`) are neither logged nor given an id;
 *   in debug, neither are live reload's script and event stream (`/fluid/dev/*`), which every
 *   page view of `npm run dev` fetches and leaves ("aborted").
 *
 * Why not pino-http: it needs a pino instance (an app may give its own `Logger`), its default
 * serializers log every header (cookies and `Authorization` included) unless told otherwise,
 * and what fw needs is these few lines on Node's `finish` event.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { isIP } from 'node:net';
// The module's binding, not the global: the global `performance` is a lazy accessor on globalThis.
import { performance } from 'node:perf_hooks';
import { trustFunction } from '../core/client-address.js';
import type { ArrivalHook } from '../core/fluid.js';
import type { Logger } from '../core/errors.js';

declare module '../core/context.js' {
  interface FluidContextExtensions {
    /** This request's id (`X-Request-Id`), with the request log on (`FW_LOG_REQUESTS`). */
    requestId?: string;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Live reload's endpoints (frontend/live-reload.ts), served in debug only. */
const LIVE_RELOAD_PATHS = '/fluid/dev/';

/** The config keys the request log reads. */
export interface RequestLogConfig {
  /** Development mode: live reload's requests (`/fluid/dev/*`) are not logged. */
  DEBUG: boolean;
  /** With `PROXY_TRUSTED_HOSTS`: keep the `X-Request-Id` a trusted proxy sent instead of making one. */
  PROXY_FIX: boolean;
  /** The proxies (addresses, CIDR ranges) whose `X-Request-Id` is kept. */
  PROXY_TRUSTED_HOSTS: string[];
  /** Whether the health routes exist; when they do, their probes are not logged. */
  HEALTH_ENABLED: boolean;
  /** Path of the liveness route (not logged). */
  HEALTH_LIVE_PATH: string;
  /** Path of the readiness route (not logged). */
  HEALTH_READY_PATH: string;
}

/** What a response carries until its line is written. */
interface Pending {
  readonly started: number;
  readonly id: string;
  readonly method: string;
  readonly path: string;
}

const PENDING: unique symbol = Symbol('fw.requestLog');
type LoggedResponse = ServerResponse & { [PENDING]?: Pending };

/**
 * The request log as an arrival hook (`fluid.onRequest`): it sees every request, static files
 * included (health probes it skips), and costs none a middleware level.
 */
export function requestLog(config: RequestLogConfig, logger: Logger): ArrivalHook {
  const trust = config.PROXY_FIX && config.PROXY_TRUSTED_HOSTS.length > 0 ? trustFunction(config.PROXY_TRUSTED_HOSTS) : undefined;
  // One listener for every response (it finds its request on the response): a request allocates
  // no closure for it. A response emits `close` once: right after `finish` when it was sent, or
  // when the client went away first (then it never finished).
  function closed(this: LoggedResponse): void {
    const pending = this[PENDING];
    if (!pending) return;
    const ms = Math.round((performance.now() - pending.started) * 100) / 100;
    const status = this.writableFinished ? this.statusCode : 'aborted';
    const line = `${pending.method} ${pending.path} ${status}`;
    if (typeof status === 'number' && status >= 500) logger.warn(line, { requestId: pending.id, ms });
    else logger.info(line, { requestId: pending.id, ms });
  }
  // Probes come every few seconds and say nothing a log reader wants: `@fw/kernel/docs/logging.md`.
  const probes = config.HEALTH_ENABLED ? new Set([config.HEALTH_LIVE_PATH, config.HEALTH_READY_PATH]) : undefined;
  const debug = config.DEBUG;
  return (ctx) => {
    if (probes?.has(ctx.path) || (debug && ctx.path.startsWith(LIVE_RELOAD_PATHS))) return;
    const started = performance.now();
    const given = trust ? ctx.get('X-Request-Id') : '';
    const peer = given ? ctx.req.socket.remoteAddress : undefined;
    const id = given && REQUEST_ID.test(given) && peer && isIP(peer) && trust!(peer, 0) ? given : randomUUID();
    ctx.requestId = id;
    const res = ctx.res as LoggedResponse;
    res.setHeader('x-request-id', id); // lowercase: see HeaderPolicy.http
    res[PENDING] = { started, id, method: ctx.method, path: ctx.path };
    res.on('close', closed);
  };
}
