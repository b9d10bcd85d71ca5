/**
 * Accepting a websocket upgrade: the app's upgrade hooks, then the route's guards, run on the
 * upgrade request (inside its context); a refusal answers over HTTP (401, 403, ...) before any
 * socket exists. An accepted socket always has an `error` listener, so a broken or oversized
 * frame or a dropped connection is logged, never an unhandled error.
 */
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import { HttpError, type Logger } from '../core/errors.js';
import { socketAnswer } from '../core/http-server.js';
import type { FluidContext } from '../core/context.js';
import { runWithContext } from './context.js';
import type { WsMatch } from '../core/ws-router.js';

/**
 * Runs on every upgrade request before the route's guards (e.g. auth resolving the signed-in user
 * into `ctx.state.user` from the upgrade's cookies). Throwing an `HttpError` refuses the upgrade.
 */
export type UpgradeHook = (ctx: FluidContext) => unknown;

/** What `acceptUpgrade` works with. */
export interface AcceptOptions {
  /** The `ws` server that completes the handshake. */
  wss: WebSocketServer;
  /** The upgrade request. */
  req: IncomingMessage;
  /** The request's network socket. */
  socket: Duplex;
  /** The first bytes of the upgraded stream (Node's `upgrade` event gives them). */
  head: Buffer;
  /** The socket route the request matched, with its guards. */
  match: WsMatch;
  /** The Koa context made for the upgrade request; hooks, guards and the handler run in it. */
  ctx: FluidContext;
  /** The app's upgrade hooks, run before the guards. */
  hooks: readonly UpgradeHook[];
  /** Where failed upgrades, socket errors and failing handlers are logged. */
  logger: Logger;
  /**
   * Writes a refusal on the request's socket and closes it (`fluid.answerSocket`, which adds the
   * app's `clientErrorHeaders`); default: the answer without them.
   */
  refuse?: (status: number, answer: { headers: Readonly<Record<string, string>>; json: { error: string; code?: string } }) => void;
}

/** Checks hooks and guards, then accepts the socket and runs the route handler, all in `ctx`'s context. */
export function acceptUpgrade(options: AcceptOptions): Promise<void> {
  const { wss, req, socket, head, match, ctx, hooks, logger } = options;
  const answer = options.refuse ?? ((status, rest) => void (socket.destroyed || socket.end(socketAnswer(status, rest))));
  const ignore = (): void => undefined;
  socket.on('error', ignore); // a client that goes away while the guards run
  return runWithContext(ctx, async () => {
    try {
      for (const hook of hooks) await hook(ctx);
      for (const guard of match.guards) {
        if ((await guard(ctx)) === false) throw new HttpError(403);
      }
    } catch (err) {
      refuse(socket, err, match.name, logger, answer);
      return;
    }
    if (socket.destroyed) return;
    wss.handleUpgrade(req, socket, head, (ws) => {
      socket.off('error', ignore);
      ws.on('error', (error) => logger.warn('websocket error', { route: match.name, error }));
      Promise.resolve()
        .then(() => match.handler(ws, ctx))
        .catch((error: unknown) => {
          logger.error('websocket handler failed', { route: match.name, error });
          ws.close(1011, 'Internal error');
        });
    });
  });
}

/** Answers a refused upgrade with an HTTP status and a JSON `{ error, code? }` body, then closes. */
function refuse(socket: Duplex, err: unknown, route: string, logger: Logger, answer: NonNullable<AcceptOptions['refuse']>): void {
  let status = 500;
  let message = 'Internal Server Error';
  let headers: Record<string, string> = {};
  if (err instanceof HttpError) {
    status = err.status;
    message = err.expose ? err.message : (STATUS_CODES[status] ?? 'Error');
    headers = err.headers;
    if (status >= 500) logger.error('websocket upgrade failed', { route, error: err });
  } else {
    logger.error('websocket upgrade hook or guard failed', { route, error: err });
  }
  if (socket.destroyed) return;
  answer(status, { headers, json: { error: message, ...(err instanceof HttpError && err.code ? { code: err.code } : {}) } });
}
