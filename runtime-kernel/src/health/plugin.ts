/**
 * The health plugin (`fluid.health`, on by default): `/healthz`, `/readyz`, readiness checks for
 * fw's own backends, the drain delay, a warning for a short `SECRET_KEY` outside debug, and the
 * `SECRET_KEY` fingerprint check when the cache is shared. See health.ts and `@fw/kernel/docs/deployment.md`.
 */
import type { Plugin } from '../core/plugin.js';
import type {} from '../cache/plugin.js';
import type {} from '../events/create.js';
import { Health } from './health.js';
import { secretBeacon, type SecretBeacon } from './secret.js';

declare module '../core/fluid.js' {
  interface FluidCore {
    /** Liveness, readiness checks and the drain (`@fw/kernel/docs/deployment.md`). */
    readonly health: Health;
  }
}

/** The shortest `SECRET_KEY` a production start accepts without a warning. */
const MIN_SECRET_LENGTH = 32;

/** The health plugin (the `Fluid` of `@fw/kernel` has it). */
export function health(): Plugin {
  let beacon: SecretBeacon | undefined;
  return {
    name: 'health',
    register(fluid) {
      const made = new Health(fluid, fluid.config, fluid.logger);
      Object.defineProperty(fluid, 'health', { value: made, enumerable: true });
      if (fluid.config.HEALTH_ENABLED) fluid.use(made.middleware(), 'first');
    },
    start(fluid) {
      const { config } = fluid;
      // `fw create app` writes 64 hex characters; a short, hand-typed key can be guessed offline
      // from any signed cookie or token.
      if (!config.DEBUG && config.SECRET_KEY && config.SECRET_KEY.length < MIN_SECRET_LENGTH) {
        fluid.logger.warn(
          `SECRET_KEY of ${fluid.name} is ${config.SECRET_KEY.length} characters; use at least ${MIN_SECRET_LENGTH} random ones ` +
            '(`openssl rand -hex 32`): sessions, CSRF tokens and JWTs signed with a short key can be forged by guessing it',
        );
      }
      // fw's own backends. Redis logs its outages itself, so its check does not; the file cache
      // logs nothing of its own, so its check says why it fails (an unwritable CACHE_DIR).
      if (fluid.plugins.has('cache') && config.CACHE_TYPE !== 'memory') {
        fluid.health.check('cache', () => fluid.cache.ping?.(), { log: config.CACHE_TYPE !== 'redis' });
      }
      // The events bus once it has joined Redis: an app without events opens no connection for
      // them (the backends line leaves events out), so there is nothing to check until one is
      // registered.
      const bus = fluid.plugins.has('events') ? fluid.events.bus : undefined;
      bus?.whenStarted(() => fluid.health.check('events', () => bus.ping(), { log: false }));
      // SECRET_KEY signs what auth shares between processes (sessions, CSRF, JWTs), in a cache auth opens anyway.
      if (fluid.plugins.has('auth') && fluid.plugins.has('cache') && config.CACHE_TYPE === 'redis' && config.SECRET_KEY) {
        beacon = secretBeacon({ cache: fluid.cache, secret: config.SECRET_KEY, app: fluid.name, logger: fluid.logger });
      }
    },
    drain: (fluid) => fluid.health.drain(),
    // While the cache is still open (`close` comes after the cache's own).
    stop: () => beacon?.stop(),
  };
}
