/**
 * Limits: the real client address and per-route rate limits.
 */
export { clientAddress, normaliseAddress, trustFunction, type ProxyConfig } from './client-address.js';
export { parseLimits, type RateLimit } from './spec.js';
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
