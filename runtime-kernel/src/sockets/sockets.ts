/**
 * `Sockets`: the app's websocket plugin (`fluid.sockets`). It owns the `ws` server (with
 * `maxPayload` = `WS_MAX_PAYLOAD`), the app-wide upgrade hooks, and the events socket
 * (`fluid.sockets.events`, a `SocketManager` served at `/ws/events`, route `fluid.events`).
 */
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type Koa from 'koa';
import { WebSocketServer } from 'ws';
import { FrameworkException, type Logger } from '../errors/index.js';
import type { FluidContext, FluidContextExtensions, FluidState } from '../context.js';
import type { Events } from '../events/index.js';
import { SocketManager } from './manager.js';
import type { WsMatch, WsRouter } from './router.js';
import { acceptUpgrade, type UpgradeHook } from './upgrade.js';

/** What the plugin needs from the app. */
export interface SocketsApp {
  readonly logger: Logger;
  readonly config: { readonly WS_MAX_PAYLOAD: number; readonly WS_MAX_BUFFERED_BYTES: number };
  readonly koa: Koa<FluidState, FluidContextExtensions>;
  readonly ws: WsRouter;
  readonly events: Events;
}

/** The websocket plugin of an app. */
export class Sockets {
  /** The events socket at `/ws/events`: register queries with `fluid.sockets.events.query(...)`. */
  readonly events: SocketManager;
  readonly #app: SocketsApp;
  readonly #hooks: UpgradeHook[] = [];
  #wss: WebSocketServer | undefined;
  #pending = new Set<Promise<void>>();

  constructor(app: SocketsApp) {
    this.#app = app;
    this.events = new SocketManager(app, app.events);
    app.ws.route('fluid.events', '/events', (socket, ctx) => void this.events.serve(socket, ctx));
  }

  /**
   * Adds a hook run on every websocket upgrade request (every route, the app's and the
   * Additives'), before the route's guards, inside the connection's context. Auth uses it to put
   * the signed-in user on `ctx.state.user` from the upgrade's cookies; throwing an `HttpError`
   * refuses the upgrade with its status.
   */
  onUpgrade(hook: UpgradeHook): this {
    if (typeof hook !== 'function') throw new FrameworkException('fluid.sockets.onUpgrade(): the hook is not a function');
    this.#hooks.push(hook);
    return this;
  }

  /** The `ws` server every socket is accepted on (made on first use). */
  get server(): WebSocketServer {
    this.#wss ??= new WebSocketServer({ noServer: true, maxPayload: this.#app.config.WS_MAX_PAYLOAD });
    return this.#wss;
  }

  /** Accepts an upgrade for a matched route: hooks, guards, then the route handler. */
  accept(req: IncomingMessage, socket: Duplex, head: Buffer, match: WsMatch): void {
    const ctx = this.#app.koa.createContext(req, new ServerResponse(req)) as unknown as FluidContext;
    ctx.params = match.params;
    ctx._matchedRouteName = match.name;
    const accepting = acceptUpgrade({ wss: this.server, req, socket, head, match, ctx, hooks: this.#hooks, logger: this.#app.logger });
    this.#pending.add(accepting);
    void accepting.finally(() => this.#pending.delete(accepting));
  }

  /** Closes every socket with 1001 (terminating those still open after 2 s), then the server. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#pending]);
    const wss = this.#wss;
    if (!wss) return;
    const clients = [...wss.clients];
    await Promise.all(
      clients.map(
        (client) =>
          new Promise<void>((resolve) => {
            if (client.readyState === client.CLOSED) return resolve();
            const timer = setTimeout(() => client.terminate(), 2_000);
            timer.unref();
            client.once('close', () => {
              clearTimeout(timer);
              resolve();
            });
            client.close(1001, 'Server shutting down');
          }),
      ),
    );
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  }
}
