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
    /** The app's cache (`CACHE_TYPE`), opened on first use (`@fw/kernel/docs/cache.md`). */
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
    backends: (fluid) => [
      {
        name: 'cache',
        kind: fluid.config.CACHE_TYPE,
        scope: fluid.config.CACHE_TYPE === 'redis' ? 'shared' : fluid.config.CACHE_TYPE === 'file' ? 'host' : 'process',
        breaks: 'cached values, and with auth the sessions and JWT signing keys, differ between them (users are signed out at random, tokens fail)',
        fix: 'CACHE_TYPE=redis with CACHE_REDIS_URL pointing at one Redis for all',
      },
    ],
  };
}
