/**
 * `WsRouter`: named websocket routes, on the `ws` package. The app's sockets live under `/ws`,
 * an Additive's under `/ws/<name>`. Additive request hooks never apply here; instead a route (or
 * the whole router) may declare guards, checked on the upgrade request before the socket is
 * accepted: a refused upgrade answers 401/403 over HTTP and no socket is made.
 */
import Router from '@koa/router';
import type { WebSocket } from 'ws';
import { FrameworkException } from './errors.js';
import type { FluidContext } from './context.js';
import type { RouteEntry, RouteTable } from './url.js';

/** Handles one accepted websocket connection. `ctx` wraps the upgrade request. */
export type WsHandler = (socket: WebSocket, ctx: FluidContext) => unknown;

/**
 * Checks an upgrade request before its socket is accepted. Returning `false` refuses with 403;
 * throwing an `HttpError` refuses with its status (e.g. 401); anything else lets it through.
 */
export type WsGuard = (ctx: FluidContext) => unknown;

/** Options of `WsRouter#route`. */
export interface WsRouteOptions {
  /** Guards checked, in order and after the router's own, at upgrade. */
  guards?: readonly WsGuard[];
}

/** A matched socket route. */
export interface WsMatch {
  /** The route's full name. */
  readonly name: string;
  /** Runs for each accepted socket. */
  readonly handler: WsHandler;
  /** Path parameters of the matched route. */
  readonly params: Record<string, string>;
  /** The router's guards then the route's, checked at upgrade. */
  readonly guards: readonly WsGuard[];
}

/** How a socket router is mounted. */
export interface WsRouterOptions {
  /** URL prefix of every socket route, e.g. `/ws` or `/ws/<additive>`. */
  prefix: string;
  /** Label used in messages and the route table: `ws`, `<additive>.ws`. */
  mount: string;
  /** Prepended to every route name (an Additive's `<name>.`). */
  namePrefix?: string;
}

interface WsRoute {
  entry: RouteEntry;
  handler: WsHandler;
  guards: readonly WsGuard[];
}

/** A router of named websocket routes. */
export class WsRouter {
  /** URL prefix of every socket route (`/ws`, `/ws/<additive>`). */
  readonly prefix: string;
  /** Where the router is mounted (`ws`, `<additive>.ws`). */
  readonly mount: string;
  readonly #namePrefix: string;
  readonly #routes: WsRoute[] = [];
  readonly #guards: WsGuard[] = [];
  readonly #tables = new Set<RouteTable>();
  /** Used for path matching and URL building only; never mounted as middleware. */
  readonly #paths: Router;

  constructor(options: WsRouterOptions) {
    this.prefix = options.prefix;
    this.mount = options.mount;
    this.#namePrefix = options.namePrefix ?? '';
    this.#paths = new Router({ prefix: options.prefix });
  }

  /**
   * Adds a websocket route: `handler(socket, ctx)` runs for every accepted connection.
   * `options.guards` are checked on the upgrade request first (see `WsGuard`).
   */
  route(name: string, path: string, handler: WsHandler, options: WsRouteOptions = {}): this {
    const where = `${this.mount}.route()`;
    if (typeof name !== 'string' || !name) throw new FrameworkException(`${where}: a route needs a non-empty name`);
    if (typeof path !== 'string' || !path.startsWith('/')) {
      throw new FrameworkException(`${where} '${name}': path must be a string starting with '/', got ${JSON.stringify(path)}`);
    }
    if (typeof handler !== 'function') throw new FrameworkException(`${where} '${name}': handler is not a function`);
    const guards = options.guards ?? [];
    if (!Array.isArray(guards) || guards.some((g) => typeof g !== 'function')) {
      throw new FrameworkException(`${where} '${name}': options.guards must be an array of functions`);
    }
    const fullName = this.#namePrefix + name;
    if (this.#routes.some((r) => r.entry.name === fullName)) {
      throw new FrameworkException(`${where}: route name '${fullName}' is already used`);
    }
    for (const table of this.#tables) table.check(fullName, this.prefix + path, this.mount);
    this.#paths.get(fullName, path, () => undefined);
    const layer = this.#paths.route(fullName);
    if (!layer) throw new FrameworkException(`${where}: route '${fullName}' was not registered`);
    const entry: RouteEntry = { name: fullName, path: String(layer.path), methods: ['WS'], mount: this.mount, layer };
    for (const table of this.#tables) table.add(entry);
    this.#routes.push({ entry, handler, guards: [...guards] });
    return this;
  }

  /** Adds guards checked at upgrade for every route of this router, before each route's own. */
  guard(...guards: WsGuard[]): this {
    for (const g of guards) {
      if (typeof g !== 'function') throw new FrameworkException(`${this.mount}.guard(): a guard must be a function`);
    }
    this.#guards.push(...guards);
    return this;
  }

  /** The named routes of this router. */
  get routes(): readonly RouteEntry[] {
    return this.#routes.map((r) => r.entry);
  }

  /** Records this router's routes (present and future) in a route table. */
  attach(table: RouteTable): void {
    if (this.#tables.has(table)) return;
    for (const r of this.#routes) table.add(r.entry);
    this.#tables.add(table);
  }

  /** The route serving `pathname`, with its decoded params. */
  match(pathname: string): WsMatch | undefined {
    for (const { entry, handler, guards } of this.#routes) {
      if (entry.layer.match(pathname)) {
        const params = entry.layer.params(pathname, entry.layer.captures(pathname), {});
        return { name: entry.name, handler, params, guards: [...this.#guards, ...guards] };
      }
    }
    return undefined;
  }
}
