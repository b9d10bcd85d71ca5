/**
 * Rate limiting (the reference's `fluid.limit`), on rate-limiter-flexible.
 *
 * Three pieces cooperate:
 * - `createRateLimiter(...).middleware`, installed once on the app before the routers, opens
 *   the per-request rate-limit state (store, config, "has this route decided yet?");
 * - `limit('10/minute')` and `exempt()` sit in a route's handler list; `limit` counts the
 *   request, `exempt` opts the route out of `RATELIMIT_DEFAULT`; both are marked so the route
 *   can be recognised at definition time;
 * - `withDefaultLimit(handlers)` (called by the kernel's routers when a route is defined)
 *   prepends `applyDefaultLimit` to a route that has neither, so `RATELIMIT_DEFAULT` is
 *   checked only once routing has chosen the route and before its handlers run.
 */
import type Koa from 'koa';
import type { RateLimiterRes } from 'rate-limiter-flexible';
import { clientAddress, trustFunction, type ProxyConfig } from '../core/client-address.js';
import { FrameworkException, HttpError, type Logger } from '../core/errors.js';
import { parseLimits, type RateLimit } from './spec.js';
import { openStore, type LimitStore } from './store.js';

/** The config keys the rate limiter reads. */
export interface RateLimitConfig extends ProxyConfig {
  /** `redis` selects the Redis store; anything else the in-process memory store. */
  CACHE_TYPE: string;
  /** Redis URL used when `CACHE_TYPE` is `redis`, e.g. `redis://127.0.0.1:6379/0`. */
  CACHE_REDIS_URL?: string;
  /** Limit for every route without its own `limit()` or `exempt()`, e.g. `100/minute`. */
  RATELIMIT_DEFAULT?: string;
  /** Master switch; `false` turns every limit off. Default true. */
  RATELIMIT_ENABLED?: boolean;
  /** Seconds a Redis command may take (default 2). */
  REDIS_TIMEOUT?: number;
}

/** What `createRateLimiter` returns. */
export interface RateLimiter {
  /** App-wide middleware; install it before the routers. */
  readonly middleware: Koa.Middleware;
  /** Which store counts requests. */
  readonly store: 'memory' | 'redis';
  /** Close the store's connection (idempotent); call from the app's shutdown. */
  close(): Promise<void>;
}

/** Options of `limit()`. */
export interface LimitOptions {
  /** Who is counted; default `clientAddress(ctx, config)`. The route identity is always added. */
  key?: (ctx: Koa.Context) => string;
}

/** How a middleware takes part in rate limiting: it sets its own limit, or opts out. */
export type RateLimitMark = 'limit' | 'exempt';

const MARK = Symbol.for('fw.rateLimit');
type Marked = Koa.Middleware & { [MARK]?: RateLimitMark };

interface Runtime {
  readonly config: RateLimitConfig;
  readonly enabled: boolean;
  readonly defaults: RateLimit[] | undefined;
  readonly store: LimitStore;
}

interface RequestLimits {
  readonly runtime: Runtime;
  /** Set once a `limit()` or `exempt()` has run for this request. */
  decided: boolean;
}

const requests = new WeakMap<Koa.Context, RequestLimits>();

/**
 * Build the app's rate limiter from config. Throws a `FrameworkException` naming the key when
 * `RATELIMIT_DEFAULT`, `PROXY_TRUSTED_HOSTS` or `CACHE_REDIS_URL` is malformed.
 */
export function createRateLimiter(opts: { config: RateLimitConfig; logger: Logger; root?: string }): RateLimiter {
  const { config, logger } = opts;
  const defaults = config.RATELIMIT_DEFAULT ? parseLimits(config.RATELIMIT_DEFAULT, 'RATELIMIT_DEFAULT') : undefined;
  if (config.PROXY_FIX) trustFunction(config.PROXY_TRUSTED_HOSTS);
  const store = openStore(config, logger, opts.root);
  const runtime: Runtime = { config, enabled: config.RATELIMIT_ENABLED !== false, defaults, store };
  const middleware: Koa.Middleware = (ctx, next) => {
    requests.set(ctx, { runtime, decided: false });
    return next();
  };
  return { middleware, store: store.kind, close: () => store.close() };
}

/**
 * A per-route limit: `router.post('/login', limit('5/minute'), handler)`.
 * `spec` is `'<count>/<period>'` or `'<count> per [<n>] <period>'` (period second, minute,
 * hour or day), several joined by `;` (`'10/minute;100/hour'`). A malformed spec throws here,
 * at definition time. Requests are counted per client (see `LimitOptions.key`) per route.
 */
export function limit(spec: string, options: LimitOptions = {}): Koa.Middleware {
  const limits = parseLimits(spec, `limit("${spec}")`);
  const key = options.key;
  const middleware: Marked = async (ctx, next) => {
    const state = requestLimits(ctx, 'limit()');
    state.decided = true;
    if (state.runtime.enabled) await enforce(ctx, state.runtime, limits, 'route', key);
    return next();
  };
  middleware[MARK] = 'limit';
  return middleware;
}

/** Exempt a route from `RATELIMIT_DEFAULT`: `router.get('/health', exempt(), handler)`. */
export function exempt(): Koa.Middleware {
  const middleware: Marked = (ctx, next) => {
    requestLimits(ctx, 'exempt()').decided = true;
    return next();
  };
  middleware[MARK] = 'exempt';
  return middleware;
}

/**
 * Route-level middleware applying `RATELIMIT_DEFAULT` unless a `limit()` or `exempt()` already
 * ran for this request. `withDefaultLimit` puts it in front of unmarked routes.
 */
export const applyDefaultLimit: Koa.Middleware = (ctx, next) => {
  const state = requestLimits(ctx, 'applyDefaultLimit');
  const defaults = state.runtime.defaults;
  // Synchronous when there is nothing to count: this sits in front of most routes.
  if (state.decided || !state.runtime.enabled || !defaults) return next();
  state.decided = true;
  return enforce(ctx, state.runtime, defaults, 'default', undefined).then(next);
};

/** How `handler` takes part in rate limiting, if it was made by `limit()` or `exempt()`. */
export function rateLimitMark(handler: unknown): RateLimitMark | undefined {
  return typeof handler === 'function' ? (handler as Marked)[MARK] : undefined;
}

/**
 * The handler list of a route being defined, with `applyDefaultLimit` in front when none of
 * the handlers is a `limit()` or `exempt()`. The kernel's routers call this for every route.
 */
export function withDefaultLimit<H>(handlers: readonly H[]): Array<H | Koa.Middleware> {
  return handlers.some((h) => rateLimitMark(h) !== undefined) ? [...handlers] : [applyDefaultLimit, ...handlers];
}

function requestLimits(ctx: Koa.Context, who: string): RequestLimits {
  const state = requests.get(ctx);
  if (!state) {
    throw new FrameworkException(
      `${who}: the rate limiter is not installed; app.use(createRateLimiter({ config, logger }).middleware) ` +
        'must run before the routers',
    );
  }
  return state;
}

/** `GET /users/:id` — the matched route pattern (HEAD counted with GET), or `*` outside a router. */
function routeIdentity(ctx: Koa.Context): string {
  const route = (ctx as Koa.Context & { _matchedRoute?: string | RegExp })._matchedRoute;
  const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
  return route === undefined ? '*' : `${method} ${String(route)}`;
}

async function enforce(
  ctx: Koa.Context,
  runtime: Runtime,
  limits: RateLimit[],
  scope: 'route' | 'default',
  key: LimitOptions['key'],
): Promise<void> {
  const who = key ? key(ctx) : clientAddress(ctx, runtime.config);
  const id = `${scope}:${routeIdentity(ctx)}:${who}`;
  const settled = await Promise.allSettled(limits.map((l) => runtime.store.limiter(l).consume(id)));

  const results: Array<{ limit: RateLimit; res: RateLimiterRes; allowed: boolean }> = [];
  for (const [i, outcome] of settled.entries()) {
    const lim = limits[i] as RateLimit;
    if (outcome.status === 'fulfilled') {
      results.push({ limit: lim, res: outcome.value, allowed: true });
    } else if (runtime.store.refused(outcome.reason)) {
      results.push({ limit: lim, res: outcome.reason, allowed: false });
    } else {
      runtime.store.failed(outcome.reason);
      throw new HttpError(503, 'Rate limiting is unavailable: its store is not answering. Try again shortly.', {
        headers: { 'Retry-After': '1' },
        cause: outcome.reason,
        expose: true,
      });
    }
  }
  runtime.store.succeeded();

  const headers = rateLimitHeaders(results, limits);
  const refused = results.filter((r) => !r.allowed);
  if (refused.length > 0) {
    // A refused request counts only against the limits that refused it.
    await Promise.allSettled(results.filter((r) => r.allowed).map((r) => runtime.store.limiter(r.limit).reward(id, 1)));
    const wait = Math.max(...refused.map((r) => seconds(r.res.msBeforeNext)));
    const worst = refused.find((r) => seconds(r.res.msBeforeNext) === wait) ?? refused[0];
    throw new HttpError(429, `Too Many Requests: limit of ${worst?.limit.text} exceeded; retry in ${wait} s`, {
      headers: { ...headers, 'Retry-After': String(wait) },
    });
  }
  ctx.set(headers);
}

/** IETF RateLimit headers for the most restrictive of the limits. */
function rateLimitHeaders(
  results: Array<{ limit: RateLimit; res: RateLimiterRes; allowed: boolean }>,
  limits: RateLimit[],
): Record<string, string> {
  let binding = results[0];
  for (const r of results) {
    if (!binding) break;
    const tighter =
      r.allowed !== binding.allowed
        ? !r.allowed
        : r.res.remainingPoints < binding.res.remainingPoints ||
          (r.res.remainingPoints === binding.res.remainingPoints && r.res.msBeforeNext > binding.res.msBeforeNext);
    if (tighter) binding = r;
  }
  if (!binding) return {};
  return {
    'RateLimit-Limit': String(binding.limit.points),
    'RateLimit-Remaining': String(binding.res.remainingPoints),
    'RateLimit-Reset': String(seconds(binding.res.msBeforeNext)),
    'RateLimit-Policy': limits.map((l) => `${l.points};w=${l.seconds}`).join(', '),
  };
}

/** Milliseconds → whole seconds, rounded up, at least 1. */
function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
