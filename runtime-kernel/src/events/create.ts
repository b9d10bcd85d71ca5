/**
 * `createEvents` and the events plugin: the app's `Events` (`fluid.events`) from its config.
 * Redis carries events between processes when `EVENTS_REDIS_URL` is set, or else when
 * `CACHE_TYPE` is `redis` (on `CACHE_REDIS_URL`).
 */
import type { Logger } from '../core/errors.js';
import type { Plugin } from '../core/plugin.js';
import { RedisBus } from './bus.js';
import { Events } from './events.js';

declare module '../core/fluid.js' {
  interface FluidCore {
    /** Events: `createSignal`, `event`, `trigger`, `hasEvent` (across processes with Redis; `@fw/kernel/docs/events.md`). */
    readonly events: Events;
  }
}

/** The config keys the events read. */
export interface EventsConfig {
  /** Size of each listener's queue of pending events. */
  EVENTS_EVENT_QUEUE_SIZE: number;
  /** Redis URL of the bus that carries events to every process of the app; wins over the cache's Redis. */
  EVENTS_REDIS_URL?: string | undefined;
  /** `redis`: without `EVENTS_REDIS_URL`, the events use the cache's Redis (`CACHE_REDIS_URL`). */
  CACHE_TYPE: string;
  /** The Redis URL used when `CACHE_TYPE` is `redis` and `EVENTS_REDIS_URL` is unset. */
  CACHE_REDIS_URL?: string | undefined;
  /** Seconds a Redis command may take (default 2). */
  REDIS_TIMEOUT?: number | undefined;
}

/**
 * Makes the app's `Events`; `app` names the Redis channel (`fw:events:<app>`), `root` is where
 * ioredis is loaded from when Redis is configured.
 */
export function createEvents(config: EventsConfig, logger: Logger, app: string, root?: string): Events {
  const channel = `fw:events:${app}`;
  let bus: RedisBus | undefined;
  const timeoutMs = (config.REDIS_TIMEOUT ?? 2) * 1000;
  if (config.EVENTS_REDIS_URL) bus = new RedisBus({ url: config.EVENTS_REDIS_URL, key: 'EVENTS_REDIS_URL', channel, logger, root, timeoutMs });
  else if (config.CACHE_TYPE === 'redis') bus = new RedisBus({ url: config.CACHE_REDIS_URL ?? '', key: 'CACHE_REDIS_URL', channel, logger, root, timeoutMs });
  return new Events({ logger, queueSize: config.EVENTS_EVENT_QUEUE_SIZE, bus });
}

/**
 * The events plugin: `fluid.events`, started before the Additives and the startup hooks (so they
 * may trigger events) and closed after the shutdown hooks.
 */
export function events(): Plugin {
  return {
    name: 'events',
    register(fluid) {
      Object.defineProperty(fluid, 'events', { value: createEvents(fluid.config, fluid.logger, fluid.name, fluid.root), enumerable: true });
    },
    start: (fluid) => fluid.events.start(),
    close: (fluid) => fluid.events.close(),
    backends: (fluid) =>
      fluid.events.size === 0
        ? []
        : [
            {
              name: 'events',
              kind: fluid.events.bus ? 'redis bus' : 'in-process',
              scope: fluid.events.bus ? 'shared' : 'process',
              breaks: 'an event triggered in one process reaches only the listeners and /ws/events subscribers of that process',
              fix: 'CACHE_TYPE=redis (or EVENTS_REDIS_URL) so a Redis bus carries events to every process',
            },
          ],
  };
}
