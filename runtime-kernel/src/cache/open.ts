/** `openCache`: the backend `CACHE_TYPE` names. */
import { isAbsolute, resolve } from 'node:path';
import type { Logger } from '../core/errors.js';
import type { Cache, CacheKind } from './cache.js';
import { FileCache } from './file.js';
import { MemoryCache } from './memory.js';
import { RedisCache } from './redis.js';

/** The config keys `openCache` reads. */
export interface CacheConfig {
  /** The backend: `memory` (this process), `file` (a folder shared by the processes of one host) or `redis`. */
  CACHE_TYPE: CacheKind;
  /** The folder of the `file` backend; a relative path is resolved against the app root. */
  CACHE_DIR: string;
  /** The `redis://` or `rediss://` URL of the `redis` backend (required for it). */
  CACHE_REDIS_URL?: string | undefined;
  /** Seconds a Redis command may take (default 2). */
  REDIS_TIMEOUT?: number | undefined;
}

/** Opens the backend `CACHE_TYPE` names; `CACHE_DIR` is relative to `root`. */
export function openCache(config: CacheConfig, options: { root: string; logger: Logger }): Cache {
  switch (config.CACHE_TYPE) {
    case 'memory':
      return new MemoryCache();
    case 'redis':
      return new RedisCache({ url: config.CACHE_REDIS_URL, logger: options.logger, root: options.root, timeoutMs: (config.REDIS_TIMEOUT ?? 2) * 1000 });
    case 'file':
      return new FileCache(isAbsolute(config.CACHE_DIR) ? config.CACHE_DIR : resolve(options.root, config.CACHE_DIR));
    default:
      throw new TypeError(`CACHE_TYPE: expected memory, file or redis, got ${JSON.stringify(config.CACHE_TYPE)}`);
  }
}
