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
import type { KoaContext, KoaMiddleware } from '../core/context.js';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { addressNetwork, clientAddress, trustFunction, type ProxyConfig } from '../core/client-address.js';
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
  /**
   * Prefix length (1-128, default 64) of the IPv6 network one client is counted as: a client
   * rotating addresses inside its /64 still meets one counter. IPv4 clients count per address.
   */
  RATELIMIT_IPV6_PREFIX?: number;
}

/** What `createRateLimiter` returns. */
export interface RateLimiter {
  /** App-wide middleware; install it before the routers. */
  readonly middleware: KoaMiddleware;
  /** Which store counts requests. */
  readonly store: 'memory' | 'redis';
  /** Close the store's connection (idempotent); call from the app's shutdown. */
  close(): Promise<void>;
}

/** Options of `limit()`. */
export interface LimitOptions {
  /**
   * Who is counted; default the client's address, an IPv6 client by its network
   * (`addressNetwork(clientAddress(ctx, config), RATELIMIT_IPV6_PREFIX)`). The route identity is always added.
   */
  key?: (ctx: KoaContext) => string;
}

/** How a middleware takes part in rate limiting: it sets its own limit, or opts out. */
export type RateLimitMark = 'limit' | 'exempt';

const MARK = Symbol.for('fw.rateLimit');
type Marked = KoaMiddleware & { [MARK]?: RateLimitMark };

interface Runtime {
  readonly config: RateLimitConfig;
  readonly ipv6Prefix: number;
  readonly enabled: boolean;
  readonly defaults: Policy | undefined;
  readonly store: LimitStore;
}

/**
 * A set of limits as defined (`limit('10/minute;100/hour')`, `RATELIMIT_DEFAULT`), with what a
 * request needs precomputed: the `RateLimit-Policy` header and, per store, the limiters.
 */
interface Policy {
  readonly limits: readonly RateLimit[];
  readonly header: string;
  /** The store `limiters` belong to (an app has one; a policy shared by two apps re-resolves). */
  store: LimitStore | undefined;
  limiters: RateLimiterAbstract[];
}

function policyOf(limits: readonly RateLimit[]): Policy {
  return { limits, header: limits.map((l) => `${l.points};w=${l.seconds}`).join(', '), store: undefined, limiters: [] };
}

function limitersOf(policy: Policy, store: LimitStore): RateLimiterAbstract[] {
  if (policy.store !== store) {
    policy.limiters = policy.limits.map((l) => store.limiter(l));
    policy.store = store;
  }
  return policy.limiters;
}

// Per-request state lives on the context itself (no per-request allocation): the app's runtime,
// put there by the limiter's middleware, and whether a limit() or exempt() has decided.
const RUNTIME = Symbol('fw.rateLimit.runtime');
const DECIDED = Symbol('fw.rateLimit.decided');
type WithLimits = KoaContext & { [RUNTIME]?: Runtime; [DECIDED]?: boolean };

/**
 * Build the app's rate limiter from config. Throws a `FrameworkException` naming the key when
 * `RATELIMIT_DEFAULT`, `RATELIMIT_IPV6_PREFIX`, `PROXY_TRUSTED_HOSTS` or `CACHE_REDIS_URL` is malformed.
 */
export function createRateLimiter(opts: { config: RateLimitConfig; logger: Logger; root?: string }): RateLimiter {
  const { config, logger } = opts;
  const defaults = config.RATELIMIT_DEFAULT ? policyOf(parseLimits(config.RATELIMIT_DEFAULT, 'RATELIMIT_DEFAULT')) : undefined;
  const ipv6Prefix = config.RATELIMIT_IPV6_PREFIX ?? 64;
  if (!Number.isInteger(ipv6Prefix) || ipv6Prefix < 1 || ipv6Prefix > 128) {
    throw new FrameworkException(`RATELIMIT_IPV6_PREFIX: got ${String(ipv6Prefix)}; expected a prefix length, a whole number 1-128`);
  }
  if (config.PROXY_FIX) trustFunction(config.PROXY_TRUSTED_HOSTS);
  const store = openStore(config, logger, opts.root);
  const runtime: Runtime = { config, ipv6Prefix, enabled: config.RATELIMIT_ENABLED !== false, defaults, store };
  const middleware: KoaMiddleware = (ctx, next) => {
    (ctx as WithLimits)[RUNTIME] = runtime;
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
export function limit(spec: string, options: LimitOptions = {}): KoaMiddleware {
  const policy = policyOf(parseLimits(spec, `limit("${spec}")`));
  const key = options.key;
  const middleware: Marked = async (ctx, next) => {
    const runtime = runtimeOf(ctx, 'limit()');
    (ctx as WithLimits)[DECIDED] = true;
    if (runtime.enabled) await enforce(ctx, runtime, policy, 'route', key);
    return next();
  };
  middleware[MARK] = 'limit';
  return middleware;
}

/** Exempt a route from `RATELIMIT_DEFAULT`: `router.get('/health', exempt(), handler)`. */
export function exempt(): KoaMiddleware {
  const middleware: Marked = (ctx, next) => {
    runtimeOf(ctx, 'exempt()');
    (ctx as WithLimits)[DECIDED] = true;
    return next();
  };
  middleware[MARK] = 'exempt';
  return middleware;
}

/**
 * Route-level middleware applying `RATELIMIT_DEFAULT` unless a `limit()` or `exempt()` already
 * ran for this request. `withDefaultLimit` puts it in front of unmarked routes.
 */
export const applyDefaultLimit: KoaMiddleware = (ctx, next) => {
  const runtime = runtimeOf(ctx, 'applyDefaultLimit');
  const defaults = runtime.defaults;
  // Synchronous when there is nothing to count: this sits in front of most routes.
  if ((ctx as WithLimits)[DECIDED] === true || !runtime.enabled || !defaults) return next();
  (ctx as WithLimits)[DECIDED] = true;
  return enforce(ctx, runtime, defaults, 'default', undefined).then(next);
};

/** How `handler` takes part in rate limiting, if it was made by `limit()` or `exempt()`. */
export function rateLimitMark(handler: unknown): RateLimitMark | undefined {
  return typeof handler === 'function' ? (handler as Marked)[MARK] : undefined;
}

/**
 * The handler list of a route being defined, with `applyDefaultLimit` in front when none of
 * the handlers is a `limit()` or `exempt()`. The kernel's routers call this for every route.
 */
export function withDefaultLimit<H>(handlers: readonly H[]): Array<H | KoaMiddleware> {
  return handlers.some((h) => rateLimitMark(h) !== undefined) ? [...handlers] : [applyDefaultLimit, ...handlers];
}

function runtimeOf(ctx: KoaContext, who: string): Runtime {
  const state = (ctx as WithLimits)[RUNTIME];
  if (!state) {
    throw new FrameworkException(
      `${who}: the rate limiter is not installed; app.use(createRateLimiter({ config, logger }).middleware) ` +
        'must run before the routers',
    );
  }
  return state;
}

/** `GET /users/:id` — the matched route pattern (HEAD counted with GET), or `*` outside a router. */
function routeIdentity(ctx: KoaContext): string {
  const route = (ctx as KoaContext & { _matchedRoute?: string | RegExp })._matchedRoute;
  const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
  return route === undefined ? '*' : `${method} ${String(route)}`;
}

/** A limit's outcome for one request. */
interface Outcome {
  readonly limit: RateLimit;
  readonly res: RateLimiterRes;
  readonly allowed: boolean;
}

async function enforce(ctx: KoaContext, runtime: Runtime, policy: Policy, scope: 'route' | 'default', key: LimitOptions['key']): Promise<void> {
  const who = key ? key(ctx) : addressNetwork(clientAddress(ctx, runtime.config), runtime.ipv6Prefix);
  const id = `${scope}:${routeIdentity(ctx)}:${who}`;
  const store = runtime.store;
  const limiters = limitersOf(policy, store);
  if (limiters.length === 1) {
    // The common case, one limit: no arrays, one await.
    let res: RateLimiterRes;
    try {
      res = await limiters[0]!.consume(id);
    } catch (reason) {
      if (!store.refused(reason)) throw unavailable(store, reason);
      store.succeeded();
      return refuse(ctx, policy, [{ limit: policy.limits[0]!, res: reason, allowed: false }]);
    }
    store.succeeded();
    setHeaders(ctx, policy, policy.limits[0]!, res);
    return;
  }
  const settled = await Promise.allSettled(limiters.map((l) => l.consume(id)));
  const outcomes: Outcome[] = [];
  for (const [i, outcome] of settled.entries()) {
    const lim = policy.limits[i]!;
    if (outcome.status === 'fulfilled') outcomes.push({ limit: lim, res: outcome.value, allowed: true });
    else if (store.refused(outcome.reason)) outcomes.push({ limit: lim, res: outcome.reason, allowed: false });
    else throw unavailable(store, outcome.reason);
  }
  store.succeeded();
  if (outcomes.some((o) => !o.allowed)) {
    // A refused request counts only against the limits that refused it.
    await Promise.allSettled(outcomes.filter((o) => o.allowed).map((o) => limiters[policy.limits.indexOf(o.limit)]!.reward(id, 1)));
    return refuse(ctx, policy, outcomes);
  }
  const binding = bindingOf(outcomes);
  setHeaders(ctx, policy, binding.limit, binding.res);
}

function unavailable(store: LimitStore, reason: unknown): HttpError {
  store.failed(reason);
  return new HttpError(503, 'Rate limiting is unavailable: its store is not answering. Try again shortly.', {
    headers: { 'Retry-After': '1' },
    cause: reason,
    expose: true,
  });
}

/** Throws the 429 for `outcomes` (some refused), with the headers of the most restrictive limit. */
function refuse(ctx: KoaContext, policy: Policy, outcomes: readonly Outcome[]): never {
  const refused = outcomes.filter((o) => !o.allowed);
  const wait = Math.max(...refused.map((o) => seconds(o.res.msBeforeNext)));
  const worst = refused.find((o) => seconds(o.res.msBeforeNext) === wait) ?? refused[0]!;
  const binding = bindingOf(outcomes);
  throw new HttpError(429, `Too Many Requests: limit of ${worst.limit.text} exceeded; retry in ${wait} s`, {
    headers: { ...headersOf(policy, binding.limit, binding.res), 'Retry-After': String(wait) },
  });
}

/** The most restrictive outcome: a refusal first, then the fewest remaining, then the longest wait. */
function bindingOf(outcomes: readonly Outcome[]): Outcome {
  let binding = outcomes[0]!;
  for (const o of outcomes) {
    const tighter =
      o.allowed !== binding.allowed
        ? !o.allowed
        : o.res.remainingPoints < binding.res.remainingPoints ||
          (o.res.remainingPoints === binding.res.remainingPoints && o.res.msBeforeNext > binding.res.msBeforeNext);
    if (tighter) binding = o;
  }
  return binding;
}

/** IETF RateLimit headers for the binding limit. */
function headersOf(policy: Policy, limit: RateLimit, res: RateLimiterRes): Record<string, string> {
  return {
    'RateLimit-Limit': String(limit.points),
    'RateLimit-Remaining': String(res.remainingPoints),
    'RateLimit-Reset': String(seconds(res.msBeforeNext)),
    'RateLimit-Policy': policy.header,
  };
}

function setHeaders(ctx: KoaContext, policy: Policy, limit: RateLimit, res: RateLimiterRes): void {
  const out = ctx.res;
  out.setHeader('RateLimit-Limit', String(limit.points));
  out.setHeader('RateLimit-Remaining', String(res.remainingPoints));
  out.setHeader('RateLimit-Reset', String(seconds(res.msBeforeNext)));
  out.setHeader('RateLimit-Policy', policy.header);
}

/** Milliseconds → whole seconds, rounded up, at least 1. */
function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
