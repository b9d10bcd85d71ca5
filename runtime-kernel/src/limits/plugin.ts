/**
 * The rate-limits plugin. When the app starts it looks at every route: with `RATELIMIT_DEFAULT`
 * set (and `RATELIMIT_ENABLED`), routes without their own `limit()` or `exempt()` get the default
 * check; when a default or any `limit()`/`exempt()` is in use, the limiter's middleware joins the
 * `first` stage. Otherwise it adds nothing, so an app without limits pays nothing per request.
 */
import type { Plugin } from '../core/plugin.js';
import { applyDefaultLimit, createRateLimiter, rateLimitMark, type RateLimiter } from './limiter.js';

/** The rate-limits plugin (the `Fluid` of `@fw/kernel` has it). */
export function rateLimits(): Plugin {
  let limiter: RateLimiter | undefined;
  return {
    name: 'limits',
    build(fluid) {
      const { config } = fluid;
      const layers = fluid.routers.flatMap((r) => r.router.stack.filter((layer) => layer.methods.length > 0));
      const marked = (layer: (typeof layers)[number]) => layer.stack.some((fn) => rateLimitMark(fn) !== undefined);
      const defaultLimit = Boolean(config.RATELIMIT_DEFAULT) && config.RATELIMIT_ENABLED;
      if (!defaultLimit && !layers.some(marked)) return;
      // RATELIMIT_DEFAULT goes in front of each route without its own limit() or exempt().
      if (defaultLimit) for (const layer of layers) if (!marked(layer)) layer.stack.unshift(applyDefaultLimit);
      limiter = createRateLimiter({ config, logger: fluid.logger, root: fluid.root });
      fluid.use(limiter.middleware, 'first');
    },
    close: () => limiter?.close(),
    backends: () =>
      limiter
        ? [
            {
              name: 'rate limits',
              kind: limiter.store,
              scope: limiter.store === 'redis' ? 'shared' : 'process',
              breaks: 'each process counts its own requests, so N processes let N times the limit through',
              fix: 'CACHE_TYPE=redis with CACHE_REDIS_URL, so one Redis counts for all',
            },
          ]
        : [],
  };
}
