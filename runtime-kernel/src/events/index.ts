/**
 * Events: `createSignal`, `event` (function or decorator), `trigger`, `hasEvent`, bounded
 * per-listener queues, and Redis fan-out across processes. See docs/events.md.
 */
export { Events, EVENT_NAME } from './events.js';
export type { Signal, EventDecorator, EventsOptions } from './events.js';
export type { EventListener } from './listener.js';
export { BoundedQueue } from './queue.js';
export { RedisBus } from './bus.js';
export type { RedisBusOptions, RemoteEventHandler } from './bus.js';
export { createEvents } from './create.js';
export type { EventsConfig } from './create.js';
