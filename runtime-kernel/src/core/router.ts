/**
 * `HttpRouter`: named routes on @koa/router, whose handlers may return the body.
 *
 * The app has two (`app` at `/`, `api` at `/api`); each Additive has its own pair, at `/<name>` and
 * `/api/<name>`, whose routes run the Additive's `beforeRequest`/`afterRequest` hooks.
 */
import Router, { type RouterMiddleware } from '@koa/router';
import { FrameworkException } from './errors.js';
import { setBody } from './body.js';
import type { FluidContext, FluidContextExtensions, FluidMiddleware, FluidState, Handler, Next } from './context.js';
import type { RouteEntry, RouteTable } from './url.js';

/** Runs before a route's handlers; returning a value other than `undefined` answers with it. */
export type BeforeRequestHook = (ctx: FluidContext) => unknown;

/**
 * An Additive's after-request hook: gets what the handler returned (object, model, string, …) and
 * may return a replacement (`undefined` keeps the value).
 */
export type AfterValueHook = (value: unknown, ctx: FluidContext) => unknown;

/** Hooks wrapped around every route of a router (an Additive's `api` and `app`). */
export interface RouteHooks {
  /** Run in order before a route's handlers; the first to return a value other than `undefined` answers with it. */
  readonly before: readonly BeforeRequestHook[];
  /** Run in order on what the handler returned; each may replace it. */
  readonly after: readonly AfterValueHook[];
}

/** How a router is mounted. */
export interface HttpRouterOptions {
  /** URL prefix, e.g. `/api` or `/blog` (`''` for the root). */
  prefix: string;
  /** Label used in messages and the route table: `app`, `api`, `blog.app`, … */
  mount: string;
  /** Prepended to every route name (Additives: `<name>.`). */
  namePrefix?: string;
  /** Hooks run around every route (Additives). */
  hooks?: RouteHooks;
}

const RETURNED: unique symbol = Symbol('fw.returned');
type WithReturned = { [RETURNED]?: unknown };

/** A router of named HTTP routes. */
export class HttpRouter {
  /** URL prefix of every route. */
  readonly prefix: string;
  /** Where the router is mounted (`app`, `api`, `<additive>.app`, `<additive>.api`). */
  readonly mount: string;
  /** The underlying `@koa/router` instance. */
  readonly router: Router<FluidState, FluidContextExtensions>;
  readonly #namePrefix: string;
  readonly #hooks: RouteHooks | undefined;
  readonly #entries: RouteEntry[] = [];
  readonly #tables = new Set<RouteTable>();
  #frozen = false;

  constructor(options: HttpRouterOptions) {
    this.prefix = options.prefix;
    this.mount = options.mount;
    this.#namePrefix = options.namePrefix ?? '';
    this.#hooks = options.hooks;
    this.router = new Router<FluidState, FluidContextExtensions>(options.prefix ? { prefix: options.prefix } : {});
  }

  /** Adds a GET (and HEAD) route. */
  get(name: string, path: string, ...handlers: Handler[]): this {
    return this.#add('get', name, path, handlers);
  }
  /** Adds a POST route. */
  post(name: string, path: string, ...handlers: Handler[]): this {
    return this.#add('post', name, path, handlers);
  }
  /** Adds a PUT route. */
  put(name: string, path: string, ...handlers: Handler[]): this {
    return this.#add('put', name, path, handlers);
  }
  /** Adds a PATCH route. */
  patch(name: string, path: string, ...handlers: Handler[]): this {
    return this.#add('patch', name, path, handlers);
  }
  /** Adds a DELETE route. */
  delete(name: string, path: string, ...handlers: Handler[]): this {
    return this.#add('delete', name, path, handlers);
  }
  /** Adds a route answering every method. */
  all(name: string, path: string, ...handlers: Handler[]): this {
    return this.#add('all', name, path, handlers);
  }

  /**
   * Adds middleware that runs for every route of this router that matches a request (never for
   * unmatched paths). Register it before the routes it should precede.
   */
  use(...middleware: Handler[]): this {
    if (this.#frozen) throw new FrameworkException(`${this.mount}.use(): the app has started; add middleware before`);
    if (middleware.length === 0) throw new FrameworkException(`${this.mount}.use() needs at least one middleware`);
    this.router.use(...middleware.map(toBody));
    return this;
  }

  /** The named routes of this router. */
  get routes(): readonly RouteEntry[] {
    return this.#entries;
  }

  /** Records this router's routes (present and future) in a route table. */
  attach(table: RouteTable): void {
    if (this.#tables.has(table)) return;
    for (const e of this.#entries) table.add(e);
    this.#tables.add(table);
  }

  /**
   * Freezes the routes and returns the Koa middleware dispatching to them, or `undefined` when the
   * router has no routes (it then costs nothing per request). A route added after this throws.
   */
  dispatcher(): FluidMiddleware | undefined {
    this.#frozen = true;
    if (this.router.stack.length === 0) return undefined;
    return Object.assign(this.router.routes() as FluidMiddleware, { inside: this.#inside() });
  }

  /**
   * A test for "may a route here match this path": the prefix followed by `/` or the end,
   * case-insensitive like the routes (`undefined`: the root router, every path).
   */
  #inside(): RegExp | undefined {
    if (!this.prefix) return undefined;
    return new RegExp(`^${this.prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:/|$)`, 'i');
  }

  /** The methods routes of this router answer for `path` (empty when no route has that path). */
  allowedMethods(path: string): string[] {
    const methods = new Set<string>();
    for (const layer of this.router.match(path, 'GET').path) for (const m of layer.methods) methods.add(m);
    return [...methods];
  }

  #add(method: 'get' | 'post' | 'put' | 'patch' | 'delete' | 'all', name: string, path: string, handlers: Handler[]): this {
    const where = `${this.mount}.${method}()`;
    if (this.#frozen) {
      throw new FrameworkException(`${where} '${name}': the app has started; define routes before (at import, in beforeEnable or in a startup hook)`);
    }
    if (typeof name !== 'string' || !name) throw new FrameworkException(`${where}: a route needs a non-empty name`);
    if (typeof path !== 'string' || !path.startsWith('/')) {
      throw new FrameworkException(`${where} '${name}': path must be a string starting with '/', got ${JSON.stringify(path)}`);
    }
    if (handlers.length === 0) throw new FrameworkException(`${where} '${name}': no handler given`);
    handlers.forEach((h, i) => {
      if (typeof h !== 'function') throw new FrameworkException(`${where} '${name}': handler ${i + 1} is not a function`);
    });
    const fullName = this.#namePrefix + name;
    const existing = this.#entries.find((e) => e.name === fullName);
    if (existing) {
      throw new FrameworkException(`${where}: route name '${fullName}' is already used by ${existing.path}`);
    }
    for (const table of this.#tables) table.check(fullName, this.prefix + path, this.mount);
    const stack: Handler[] = this.#hooks ? [hookRunner(this.#hooks), ...handlers.map(capture)] : handlers.map(toBody);
    this.router[method](fullName, path, ...(stack as RouterMiddleware<FluidState, FluidContextExtensions>[]));
    const layer = this.router.route(fullName);
    if (!layer) throw new FrameworkException(`${where}: route '${fullName}' was not registered`);
    const entry: RouteEntry = {
      name: fullName,
      path: String(layer.path),
      methods: method === 'all' ? ['*'] : layer.methods,
      mount: this.mount,
      layer,
    };
    for (const table of this.#tables) table.add(entry);
    this.#entries.push(entry);
    return this;
  }
}

/** Wraps a handler so that its return value (when not `undefined`) becomes the body. */
function toBody(h: Handler): Handler {
  // Not async: a synchronous handler costs no extra promise.
  const wrapped: Handler = (ctx, next) => {
    const value = h(ctx, next);
    if (value instanceof Promise) {
      return value.then((resolved: unknown) => {
        if (resolved !== undefined) setBody(ctx, resolved);
      });
    }
    if (value !== undefined) setBody(ctx, value);
    return undefined;
  };
  return Object.assign(wrapped, h); // keep markers plugins read (e.g. the rate limits' limit() and exempt())
}

/** Wraps an Additive handler: its return value is kept for the after-request hooks. */
function capture(h: Handler): Handler {
  const wrapped: Handler = async (ctx, next) => {
    const value = await h(ctx, next);
    if (value !== undefined) (ctx as WithReturned)[RETURNED] = value;
  };
  return Object.assign(wrapped, h);
}

/** Runs an Additive's before hooks, the route, then its after hooks on the returned value. */
function hookRunner(hooks: RouteHooks): Handler {
  return async (ctx: FluidContext, next: Next) => {
    for (const before of hooks.before) {
      const early = await before(ctx);
      if (early !== undefined) {
        setBody(ctx, early);
        return;
      }
    }
    await next();
    const slot = ctx as WithReturned;
    let value = RETURNED in slot ? slot[RETURNED] : ctx.body;
    delete slot[RETURNED];
    for (const after of hooks.after) {
      const replaced = await after(value, ctx);
      if (replaced !== undefined) value = replaced;
    }
    if (value !== undefined && value !== ctx.body) setBody(ctx, value);
  };
}

/**
 * One middleware dispatching to `routers` in order, as if each were its own middleware, except
 * that a router whose prefix the path is outside of is skipped without a call: an Additive's
 * routers cost a request elsewhere nothing but one lookup of the path's first segment (and a
 * prefix test for the routers that share it), not a middleware level. `undefined` when no router
 * has routes.
 */
export function dispatchRouters(routers: readonly HttpRouter[]): FluidMiddleware | undefined {
  const list = routers.flatMap((r) => {
    const dispatch = r.dispatcher() as (FluidMiddleware & { inside?: RegExp }) | undefined;
    return dispatch ? [{ dispatch, inside: dispatch.inside, segment: firstSegment(r.prefix) }] : [];
  });
  if (list.length === 0) return undefined;
  // The routers a path can reach, by its first segment (lowercase: routes match case-insensitively),
  // in dispatch order: those whose prefix starts with that segment, and the root routers.
  const roots = list.filter((e) => e.segment === undefined);
  const bySegment = new Map<string, typeof list>();
  for (const { segment } of list) {
    if (segment !== undefined && !bySegment.has(segment)) bySegment.set(segment, list.filter((e) => e.segment === undefined || e.segment === segment));
  }
  const dispatcher: FluidMiddleware = (ctx, next) => {
    const path = ctx.path;
    const candidates = bySegment.size === 0 ? roots : (bySegment.get(firstSegment(path) ?? '') ?? roots);
    if (candidates.length === 1) {
      // The usual case outside /api and the Additives: the app's router alone, called directly.
      const { dispatch, inside } = candidates[0]!;
      return inside === undefined || inside.test(path) ? dispatch(ctx, next) : next();
    }
    let i = 0;
    const step = (): Promise<unknown> => {
      while (i < candidates.length) {
        const { dispatch, inside } = candidates[i++]!;
        if (inside === undefined || inside.test(path)) return Promise.resolve(dispatch(ctx, step));
      }
      return next();
    };
    return step();
  };
  return Object.assign(dispatcher, { routers: routers.map((r) => r.router) }); // which routers it serves
}

/** The first segment of a path or prefix, lowercase (`/API/blog/x` → `api`); `undefined` for `''` and `/`. */
function firstSegment(path: string): string | undefined {
  const end = path.indexOf('/', 1);
  const segment = end === -1 ? path.slice(1) : path.slice(1, end);
  return segment === '' ? undefined : segment.toLowerCase();
}

/**
 * The innermost middleware: reached only when no route answered. For a path some router knows
 * under other methods it answers 405 with `Allow` (OPTIONS: 204 with `Allow`).
 */
export function methodNotAllowed(routers: () => readonly HttpRouter[]): FluidMiddleware {
  return (ctx) => {
    const allowed = new Set<string>();
    for (const r of routers()) for (const m of r.allowedMethods(ctx.path)) allowed.add(m);
    if (allowed.size === 0) return;
    const allow = [...allowed].join(', ');
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      ctx.set('Allow', allow);
    } else if (!allowed.has(ctx.method)) {
      ctx.status = 405;
      ctx.set('Allow', allow);
    }
  };
}
