/**
 * `@fw/kernel/cache`: cache backends behind one interface, selected by `CACHE_TYPE`: `memory`,
 * `file` (the default, under `CACHE_DIR`) and `redis` (at `CACHE_REDIS_URL`), and the plugin that
 * gives the app `fluid.cache`. See `@fw/kernel/docs/cache.md`.
 */
export { cache } from './plugin.js';
export { openCache, type CacheConfig } from './open.js';
export type { Cache, CacheKind, JsonValue } from './cache.js';
export { checkEntry } from './cache.js';
export { MemoryCache } from './memory.js';
export { FileCache } from './file.js';
export { RedisCache } from './redis.js';
export type { RedisCacheOptions } from './redis.js';
export { redisUrl, redactRedisUrl } from './redis-url.js';
