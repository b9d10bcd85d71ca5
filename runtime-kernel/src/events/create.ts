/**
 * `createEvents`: the app's `Events` from its config. Redis carries events between processes when
 * `EVENTS_REDIS_URL` is set, or else when `CACHE_TYPE` is `redis` (on `CACHE_REDIS_URL`).
 */
import type { Logger } from '../errors/index.js';
import { RedisBus } from './bus.js';
import { Events } from './events.js';

/** The config keys the events read. */
export interface EventsConfig {
  EVENTS_EVENT_QUEUE_SIZE: number;
  EVENTS_REDIS_URL?: string | undefined;
  CACHE_TYPE: string;
  CACHE_REDIS_URL?: string | undefined;
}

/** Makes the app's `Events`; `app` names the Redis channel (`fw:events:<app>`). */
export function createEvents(config: EventsConfig, logger: Logger, app: string): Events {
  const channel = `fw:events:${app}`;
  let bus: RedisBus | undefined;
  if (config.EVENTS_REDIS_URL) bus = new RedisBus({ url: config.EVENTS_REDIS_URL, key: 'EVENTS_REDIS_URL', channel, logger });
  else if (config.CACHE_TYPE === 'redis') bus = new RedisBus({ url: config.CACHE_REDIS_URL ?? '', key: 'CACHE_REDIS_URL', channel, logger });
  return new Events({ logger, queueSize: config.EVENTS_EVENT_QUEUE_SIZE, bus });
}
