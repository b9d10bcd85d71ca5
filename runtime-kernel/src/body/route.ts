/**
 * Which routes a request will reach, known before the routers run: the body parser reads the
 * route's markers (`rawBody`, `bodyLimit()`) and leaves a request bound for 405 unread, and the
 * CSRF check answers 405 before it judges a token. Matched once per request (unsafe methods only
 * ask), kept on the context.
 */
import type { FluidContext, Handler } from '../core/context.js';

/** A route layer as far as markers go: its methods and its middleware stack. */
interface MarkedLayer {
  readonly methods: readonly string[];
  readonly stack: readonly unknown[];
}

/** What the routers know about a request's path. */
export interface RouteMatch {
  /** The methods some route answers for the path (empty: no route knows the path). */
  readonly allowed: ReadonlySet<string>;
  /** The layers (routes and router middleware) that will run for the path and method. */
  readonly layers: readonly MarkedLayer[];
}

const MATCH: unique symbol = Symbol('fw.routeMatch');
type WithMatch = { [MATCH]?: RouteMatch };

/** The routes the request's path and method reach (computed once per request). */
export function routeMatch(ctx: FluidContext): RouteMatch {
  const slot = ctx as WithMatch;
  const known = slot[MATCH];
  if (known) return known;
  const allowed = new Set<string>();
  const layers: MarkedLayer[] = [];
  for (const r of ctx.fluid.routers) {
    const found = r.router.match(ctx.path, ctx.method);
    for (const layer of found.path) for (const m of layer.methods) allowed.add(m);
    layers.push(...found.pathAndMethod);
  }
  const match: RouteMatch = { allowed, layers };
  slot[MATCH] = match;
  return match;
}

/**
 * The methods the routes take for the request's path when they know the path but not the
 * request's method (the request is bound for 405 with this `Allow`); otherwise `undefined`.
 */
export function methodNotRouted(ctx: FluidContext): ReadonlySet<string> | undefined {
  const { allowed } = routeMatch(ctx);
  return allowed.size > 0 && !allowed.has(ctx.method) ? allowed : undefined;
}

/** The value a marker put on one of the request's layers (the first found), if any. */
export function routeMark<T>(ctx: FluidContext, mark: symbol): T | undefined {
  for (const layer of routeMatch(ctx).layers) {
    for (const fn of layer.stack) {
      const value = (fn as Record<symbol, unknown>)[mark];
      if (value !== undefined) return value as T;
    }
  }
  return undefined;
}

/** A pass-through handler carrying `value` under `mark` (read back with `routeMark`). */
export function marker<T>(mark: symbol, value: T): Handler {
  const handler: Handler = (_ctx, next) => next();
  return Object.assign(handler, { [mark]: value });
}
