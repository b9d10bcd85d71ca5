/**
 * `Listener`: one consumer of one event, with its own bounded queue and a drain loop.
 *
 * Deliveries are queued and handed to the consumer one at a time, in order. When the consumer
 * falls behind and its queue is full, the oldest waiting event is dropped and a warning logged
 * (once per overflow, with the count when the queue drains). A consumer that throws or rejects
 * is logged; nothing escapes as an unhandled rejection.
 */
import type { AsyncResource } from 'node:async_hooks';
import type { Logger } from '../core/errors.js';
import { BoundedQueue } from './queue.js';

/** A consumer of an event: gets the payload and the event name; may be async. */
export type EventListener<T = unknown> = (payload: T, event: string) => unknown;

/** One consumer of one event with its bounded queue. */
export class Listener {
  /** The event consumed. */
  readonly event: string;
  /** The consumer. */
  readonly fn: EventListener;
  readonly #queue: BoundedQueue<unknown>;
  readonly #scope: AsyncResource;
  readonly #logger: Logger;
  #running = false;
  #dropped = 0;
  #stopped = false;
  #idle: (() => void)[] = [];

  constructor(event: string, fn: EventListener, options: { queueSize: number; scope: AsyncResource; logger: Logger }) {
    this.event = event;
    this.fn = fn;
    this.#queue = new BoundedQueue(options.queueSize);
    this.#scope = options.scope;
    this.#logger = options.logger;
  }

  /** How many deliveries wait (not counting the one running). */
  get pending(): number {
    return this.#queue.size;
  }

  /** True while deliveries wait or run. */
  get busy(): boolean {
    return this.#running;
  }

  /** Queues a delivery and makes sure the drain loop runs. */
  deliver(payload: unknown): void {
    if (this.#stopped) return;
    if (this.#queue.push(payload)) {
      if (this.#dropped === 0) {
        this.#logger.warn('events: a listener fell behind; dropping its oldest events', {
          event: this.event,
          listener: this.fn.name || '(anonymous)',
          queueSize: this.#queue.capacity,
        });
      }
      this.#dropped++;
    }
    if (!this.#running) {
      this.#running = true;
      // The loop runs in the context captured when the Events were made, never the caller's.
      this.#scope.runInAsyncScope(() => void this.#drain());
    }
  }

  /** Stops taking deliveries and forgets the waiting ones. */
  stop(): void {
    this.#stopped = true;
    this.#queue.clear();
  }

  /** Resolves once nothing waits and nothing runs. */
  idle(): Promise<void> {
    if (!this.#running) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  async #drain(): Promise<void> {
    try {
      await undefined; // deliveries never run inside trigger(): the caller goes on first
      while (this.#queue.size > 0) {
        const payload = this.#queue.shift();
        try {
          await this.fn(payload, this.event);
        } catch (error) {
          this.#logger.error('events: listener failed', { event: this.event, listener: this.fn.name || '(anonymous)', error });
        }
      }
      if (this.#dropped > 0) {
        this.#logger.warn('events: a listener caught up after dropping events', { event: this.event, dropped: this.#dropped });
        this.#dropped = 0;
      }
    } finally {
      this.#running = false;
      for (const resolve of this.#idle.splice(0)) resolve();
    }
  }
}
