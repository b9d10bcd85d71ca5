/**
 * `@fw/kernel/limits`: per-route rate limits (`limit()`, `exempt()`, `RATELIMIT_DEFAULT`) on the
 * real client address, and the plugin that installs them. See `@fw/kernel/docs/rate-limits.md`.
 */
export { rateLimits } from './plugin.js';
export {
  applyDefaultLimit,
  createRateLimiter,
  exempt,
  limit,
  rateLimitMark,
  withDefaultLimit,
  type LimitOptions,
  type RateLimitConfig,
  type RateLimitMark,
  type RateLimiter,
} from './limiter.js';
export { parseLimits, type RateLimit } from './spec.js';
export { addressNetwork, clientAddress, normaliseAddress, trustFunction, type ProxyConfig } from '../core/client-address.js';
