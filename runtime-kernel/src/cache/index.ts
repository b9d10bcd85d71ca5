/**
 * Cache backends behind one interface, selected by `CACHE_TYPE`: `memory`, `file` (the
 * default, under `CACHE_DIR`) and `redis` (at `CACHE_REDIS_URL`).
 */
import { isAbsolute, resolve } from 'node:path';
import type { Logger } from '../errors/index.js';
import type { Cache, CacheKind } from './cache.js';
import { FileCache } from './file.js';
import { MemoryCache } from './memory.js';
import { RedisCache } from './redis.js';

export type { Cache, CacheKind, JsonValue } from './cache.js';
export { checkEntry } from './cache.js';
export { MemoryCache } from './memory.js';
export { FileCache } from './file.js';
export { RedisCache } from './redis.js';
export type { RedisCacheOptions } from './redis.js';
export { redisUrl, redactRedisUrl } from './redis-url.js';

/** The config keys `openCache` reads. */
export interface CacheConfig {
  CACHE_TYPE: CacheKind;
  CACHE_DIR: string;
  CACHE_REDIS_URL?: string | undefined;
}

/** Opens the backend `CACHE_TYPE` names; `CACHE_DIR` is relative to `root`. */
export function openCache(config: CacheConfig, options: { root: string; logger: Logger }): Cache {
  switch (config.CACHE_TYPE) {
    case 'memory':
      return new MemoryCache();
    case 'redis':
      return new RedisCache({ url: config.CACHE_REDIS_URL, logger: options.logger });
    case 'file':
      return new FileCache(isAbsolute(config.CACHE_DIR) ? config.CACHE_DIR : resolve(options.root, config.CACHE_DIR));
    default:
      throw new TypeError(`CACHE_TYPE: expected memory, file or redis, got ${JSON.stringify(config.CACHE_TYPE)}`);
  }
}
