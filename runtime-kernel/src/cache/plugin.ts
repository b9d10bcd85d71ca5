/**
 * The cache plugin: `fluid.cache`, the backend `CACHE_TYPE` selects (`memory`, `file` under
 * `CACHE_DIR`, or `redis` at `CACHE_REDIS_URL`), opened on first use and closed with the app.
 * Sessions and JWT signing keys live there (the auth plugin uses it).
 */
import type { Plugin } from '../core/plugin.js';
import type { Cache } from './cache.js';
import { openCache } from './open.js';

declare module '../core/fluid.js' {
  interface FluidCore {
    /** The app's cache (`CACHE_TYPE`), opened on first use (docs/cache.md). */
    readonly cache: Cache;
  }
}

/** The cache plugin (the `Fluid` of `@fw/kernel` has it; the auth plugin registers it when absent). */
export function cache(): Plugin {
  let opened: Cache | undefined;
  return {
    name: 'cache',
    register(fluid) {
      Object.defineProperty(fluid, 'cache', {
        enumerable: true,
        get: () => (opened ??= openCache(fluid.config, { root: fluid.root, logger: fluid.logger })),
      });
    },
    close: () => opened?.close(),
  };
}
