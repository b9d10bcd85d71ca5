/**
 * The sockets plugin (`fluid.sockets`): it serves the app's websocket routes (`fluid.ws` and every
 * Additive's `ws`) on one `ws` server (with `maxPayload` = `WS_MAX_PAYLOAD`), runs the app-wide
 * upgrade hooks, and carries the events socket (`fluid.sockets.events`, a `SocketManager` served
 * at `/ws/events`, route `fluid.events`). It needs the events plugin and registers it when absent.
 *
 * Heartbeat: every `WS_PING_INTERVAL` seconds (30; 0 turns it off) each socket is pinged, and a
 * socket that has not answered the previous ping is terminated, so half-open connections (a
 * peer that vanished without closing: a dead host, a dropped network) do not pile up. One line
 * is logged per round that dropped any.
 */
import { ServerResponse, type IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { Duplex } from 'node:stream';
import type { WebSocketServer, WebSocket } from 'ws';
import type { FluidContext } from '../core/context.js';
import { FrameworkException, HttpError } from '../core/errors.js';
import { requestOrigin } from '../auth/https.js';
import type { FluidCore } from '../core/fluid.js';
import type { Plugin } from '../core/plugin.js';
import type { WsMatch } from '../core/ws-router.js';
import { events } from '../events/index.js';
import { SocketManager } from './manager.js';
import { acceptUpgrade, type AcceptOptions, type UpgradeHook } from './upgrade.js';

declare module '../core/fluid.js' {
  interface FluidCore {
    /** Websockets: upgrade hooks and the events socket at `/ws/events` (`@fw/kernel/docs/sockets.md`). */
    readonly sockets: Sockets;
  }
}

// `ws` loads with the first socket (an upgrade, or `fluid.sockets.server`), not at every app's boot.
const require = createRequire(import.meta.url);
const loadWs = (): typeof import('ws') => require('ws') as typeof import('ws');

/** The websocket server of an app. */
export class Sockets {
  /** The events socket at `/ws/events`: register queries with `fluid.sockets.events.query(...)`. */
  readonly events: SocketManager;
  readonly #fluid: FluidCore;
  readonly #hooks: UpgradeHook[] = [];
  #wss: WebSocketServer | undefined;
  #pending = new Set<Promise<void>>();
  #heartbeat: NodeJS.Timeout | undefined;
  /** Whether each socket answered the last ping (absent: not pinged yet). */
  readonly #answered = new WeakMap<WebSocket, boolean>();

  constructor(fluid: FluidCore) {
    this.#fluid = fluid;
    this.events = new SocketManager(fluid, fluid.events);
    fluid.ws.route('fluid.events', '/events', (socket, ctx) => void this.events.serve(socket, ctx));
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

  /** The `ws` server every socket is accepted on (made, and `ws` loaded, on first use). */
  get server(): WebSocketServer {
    if (!this.#wss) {
      this.#wss = new (loadWs().WebSocketServer)({ noServer: true, maxPayload: this.#fluid.config.WS_MAX_PAYLOAD });
      const interval = this.#fluid.config.WS_PING_INTERVAL;
      if (interval > 0) {
        this.#heartbeat = setInterval(() => this.#beat(), interval * 1000);
        this.#heartbeat.unref();
      }
    }
    return this.#wss;
  }

  /** One heartbeat round: drop the sockets that did not answer the last ping, ping the others. */
  #beat(): void {
    let dropped = 0;
    for (const client of this.#wss?.clients ?? []) {
      if (client.readyState !== client.OPEN) continue;
      const answered = this.#answered.get(client);
      if (answered === false) {
        client.terminate();
        dropped++;
        continue;
      }
      if (answered === undefined) client.on('pong', () => this.#answered.set(client, true));
      this.#answered.set(client, false);
      client.ping();
    }
    if (dropped > 0) this.#fluid.logger.info(`websockets: dropped ${dropped} that did not answer a ping within ${this.#fluid.config.WS_PING_INTERVAL} s`);
  }

  /**
   * Takes an upgrade whose path is a socket route of the app or an Additive (others: `false`).
   * While the app closes it answers 503; otherwise the app mixes first, then `accept` runs.
   */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const fluid = this.#fluid;
    const pathname = (req.url ?? '/').split('?')[0] ?? '/';
    let match = fluid.ws.match(pathname);
    for (const a of fluid.additives.values()) match ??= a.ws.match(pathname);
    if (!match) return false;
    if (fluid.closing) {
      fluid.answerSocket(socket, 503);
      return true;
    }
    const found = match;
    fluid.mix().then(
      () => this.accept(req, socket, head, found),
      () => socket.destroy(),
    );
    return true;
  }

  /** Accepts an upgrade for a matched route: hooks, guards, then the route handler. */
  accept(req: IncomingMessage, socket: Duplex, head: Buffer, match: WsMatch): void {
    const ctx = this.#fluid.koa.createContext(req, new ServerResponse(req)) as unknown as FluidContext;
    ctx.params = match.params;
    ctx._matchedRouteName = match.name;
    const hooks = [checkUpgradeOrigin, ...this.#hooks];
    const fluid = this.#fluid;
    const refuse: AcceptOptions['refuse'] = (status, answer) => fluid.answerSocket(socket, status, answer);
    const accepting = acceptUpgrade({ wss: this.server, req, socket, head, match, ctx, hooks, logger: fluid.logger, refuse });
    this.#pending.add(accepting);
    void accepting.finally(() => this.#pending.delete(accepting));
  }

  /** Closes every socket with 1001 (terminating those still open after 2 s), then the server. */
  async close(): Promise<void> {
    clearInterval(this.#heartbeat);
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

/**
 * Refuses (403 `FORBIDDEN_ORIGIN`) an upgrade whose `Origin` is neither on the request's own host
 * (`Host`, http or https), BASE_URL's origin, nor one of `WS_ALLOWED_ORIGINS` (`*`: any). Browsers send `Origin` on every
 * websocket handshake and no CORS applies to it, so without this check a page on another origin
 * (another port of the same host, a sibling subdomain: same-site, so the SameSite=Lax session
 * cookie goes along) could open `/ws/events` as the signed-in user and run their queries. A
 * client without `Origin` is not a browser page and is let through, as the CSRF check does.
 */
function checkUpgradeOrigin(ctx: FluidContext): void {
  const origin = ctx.get('Origin');
  if (!origin) return;
  const config = ctx.fluid.config;
  const allowed = config.WS_ALLOWED_ORIGINS;
  if (allowed.includes('*')) return;
  const given = origin.toLowerCase();
  // The page's host against the Host the request addressed, whatever the scheme: behind a proxy
  // that ends TLS without PROXY_FIX the app sees http while the page is https on the same host.
  if (hostOf(given) !== undefined && hostOf(given) === hostOf(requestOrigin(ctx, config))) return;
  if (config.BASE_URL && given === new URL(config.BASE_URL).origin) return;
  if (allowed.some((entry) => entry.toLowerCase() === given)) return;
  throw new HttpError(403, 'Cross-origin websocket upgrade refused (WS_ALLOWED_ORIGINS)', { code: 'FORBIDDEN_ORIGIN' });
}

/** `host[:port]` of an http(s) origin (default ports dropped), or undefined for anything else. */
function hostOf(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The sockets plugin: `fluid.sockets`, the websocket routes served, sockets closed with 1001
 * when the app closes. Registers the events plugin first when the app has none.
 */
export function sockets(): Plugin {
  return {
    name: 'sockets',
    register(fluid) {
      if (!fluid.plugins.has('events')) fluid.plugin(events());
      Object.defineProperty(fluid, 'sockets', { value: new Sockets(fluid), enumerable: true });
    },
    upgrade: (fluid, req, socket, head) => fluid.sockets.upgrade(req, socket, head),
    stop: (fluid) => fluid.sockets.close(),
  };
}
