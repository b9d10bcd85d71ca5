/**
 * `@fw/kernel/events`: `createSignal`, `event` (function or decorator), `trigger`, `hasEvent`,
 * bounded per-listener queues, Redis fan-out across processes, and the plugin that gives the app
 * `fluid.events`. See `@fw/kernel/docs/events.md`.
 */
export { events, createEvents } from './create.js';
export type { EventsConfig } from './create.js';
export { Events, EVENT_NAME } from './events.js';
export type { Signal, EventDecorator, EventsOptions } from './events.js';
export type { EventListener } from './listener.js';
export { BoundedQueue } from './queue.js';
export { RedisBus } from './bus.js';
export type { RedisBusOptions, RemoteEventHandler } from './bus.js';
