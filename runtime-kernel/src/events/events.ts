/**
 * `Events`: named events with bounded per-listener queues, local and (with Redis) across processes.
 *
 * ```ts
 * const created = fluid.events.createSignal('user.created');
 * fluid.events.event('user.created', (user) => sendWelcome(user));   // or @fluid.events.event('user.created')
 * created.trigger({ id: 7 });                                           // or fluid.events.trigger('user.created', { id: 7 })
 * ```
 *
 * Registration before `start()` is queued and wired at start; after start it takes effect at once.
 * A registration is checked in full before anything changes, so a failed one leaves nothing
 * behind. Listeners run in the async context captured when the `Events` were made, never in the
 * context of whoever registered or triggered (a request's AsyncLocalStorage does not leak in).
 */
import { AsyncResource } from 'node:async_hooks';
import { FrameworkException, type Logger } from '../core/errors.js';
import { Listener, type EventListener } from './listener.js';
import type { RedisBus } from './bus.js';

/** Event names: 1 to 128 characters of letters, digits and `_ . : -`. */
export const EVENT_NAME = /^[A-Za-z0-9_.:-]{1,128}$/;

/** A registered event, as returned by `createSignal`. */
export interface Signal<T = unknown> {
  /** The event's name. */
  readonly name: string;
  /** Triggers the event with `payload` (see `Events#trigger`). */
  trigger(payload: T): void;
}

/** A function usable as `@decorator` on a method or called on a function: it returns the function unchanged. */
export type EventDecorator = <F extends EventListener<never>>(fn: F, context?: ClassMethodDecoratorContext) => F;

/** Options of `new Events()`. */
export interface EventsOptions {
  /** Where failing listeners and dropped events are logged. */
  logger: Logger;
  /** Size of each listener's queue (`EVENTS_EVENT_QUEUE_SIZE`). */
  queueSize: number;
  /** Carries events to and from other processes (made from the Redis config by `createEvents`). */
  bus?: RedisBus;
}

type State = 'new' | 'started' | 'closed';

/** The event registry of an app (`fluid.events`). */
export class Events {
  /** Size of each listener's queue. */
  readonly queueSize: number;
  /** The cross-process bus, when Redis is configured. */
  readonly bus: RedisBus | undefined;
  readonly #logger: Logger;
  /** Wired events and their listeners. */
  readonly #events = new Map<string, Set<Listener>>();
  /** Registrations made before start, wired by `start()` in order. */
  readonly #pending: { event: string; fn?: EventListener }[] = [];
  readonly #scope: AsyncResource;
  #state: State = 'new';
  #starting: Promise<void> | undefined;

  constructor(options: EventsOptions) {
    if (!Number.isInteger(options.queueSize) || options.queueSize < 1) {
      throw new FrameworkException(`Events: EVENTS_EVENT_QUEUE_SIZE must be a positive integer, got ${String(options.queueSize)}`);
    }
    this.queueSize = options.queueSize;
    this.bus = options.bus;
    this.#logger = options.logger;
    // Captured here, once: every listener runs in this context, whoever registered it.
    this.#scope = new AsyncResource('fw.events');
  }

  /** True once `start()` has wired the queued registrations. */
  get started(): boolean {
    return this.#state === 'started';
  }

  /** Registers the event `name` (idempotent) and returns a handle that triggers it. */
  createSignal<T = unknown>(name: string): Signal<T> {
    this.#checkName('createSignal', name);
    this.#register(name, undefined);
    return { name, trigger: (payload: T) => this.trigger(name, payload) };
  }

  /**
   * Registers `listener` on the event `name`, creating the event when it is new. Without a
   * listener it returns a decorator: `@events.event('user.created')` on a (static) method, or
   * `events.event('user.created')(fn)`.
   */
  event(name: string): EventDecorator;
  event<T>(name: string, listener: EventListener<T>): EventListener<T>;
  event<T>(name: string, listener?: EventListener<T>): EventDecorator | EventListener<T> {
    this.#checkName('event', name);
    if (listener === undefined) {
      return <F extends EventListener<never>>(fn: F): F => {
        this.#register(name, this.#checkListener('event', name, fn));
        return fn;
      };
    }
    this.#register(name, this.#checkListener('event', name, listener));
    return listener;
  }

  /**
   * Adds `listener` to the existing event `name` (after start) and returns a function that removes
   * it. Throws when the event does not exist. Used by the socket layer.
   */
  on<T>(name: string, listener: EventListener<T>): () => void {
    this.#checkName('on', name);
    const fn = this.#checkListener('on', name, listener);
    if (this.#state !== 'started') throw new FrameworkException(`events.on('${name}'): events have not started (or are closed)`);
    const listeners = this.#events.get(name);
    if (!listeners) throw new FrameworkException(`events.on('${name}'): no event named '${name}'; create it with events.createSignal('${name}')`);
    const entry = this.#listener(name, fn);
    listeners.add(entry);
    return () => {
      listeners.delete(entry);
      entry.stop();
    };
  }

  /** The number of events registered (wired or waiting for start). */
  get size(): number {
    return this.#events.size + new Set(this.#pending.map((p) => p.event).filter((e) => !this.#events.has(e))).size;
  }

  /** True when the event `name` is registered and wired. */
  hasEvent(name: string): boolean {
    return this.#events.has(name);
  }

  /** The number of listeners of `name` (0 for an unknown event). */
  listenerCount(name: string): number {
    return this.#events.get(name)?.size ?? 0;
  }

  /**
   * Triggers `name`: every local listener gets `payload` queued, and with Redis every other
   * process's listeners get a JSON copy. Never runs a listener before returning. Throws for an
   * unknown event, before start, and (with Redis) for a payload JSON cannot carry.
   */
  trigger(name: string, payload?: unknown): void {
    const listeners = this.#events.get(name);
    if (this.#state !== 'started') {
      throw new FrameworkException(`events.trigger('${String(name)}'): events have not started; trigger once the app has started (a startup hook or a request)`);
    }
    if (!listeners) throw new FrameworkException(`events.trigger('${String(name)}'): no event named '${String(name)}'`);
    if (this.bus) {
      let json: string | undefined;
      try {
        json = JSON.stringify(payload ?? null);
      } catch (error) {
        throw new FrameworkException(`events.trigger('${name}'): the payload cannot be sent to other processes as JSON`, { cause: error });
      }
      this.bus.publish(name, json);
    }
    for (const listener of listeners) listener.deliver(payload);
  }

  /** Wires the queued registrations and joins the bus. Idempotent. */
  start(): Promise<void> {
    this.#starting ??= this.#doStart();
    return this.#starting;
  }

  /** Resolves once every listener has drained its queue (useful in tests and at shutdown). */
  async idle(): Promise<void> {
    for (;;) {
      const all = [...this.#events.values()].flatMap((set) => [...set]);
      if (all.every((l) => !l.busy)) return;
      await Promise.all(all.map((l) => l.idle()));
    }
  }

  /** Stops every listener, leaves the bus and refuses further registrations. Idempotent. */
  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    for (const set of this.#events.values()) for (const l of set) l.stop();
    this.#events.clear();
    this.#pending.length = 0;
    await this.bus?.close();
  }

  async #doStart(): Promise<void> {
    if (this.#state === 'closed') throw new FrameworkException('events.start(): the events are closed');
    for (const { event, fn } of this.#pending.splice(0)) this.#wire(event, fn);
    this.#state = 'started';
    // An app without events opens no Redis connections; the first event registered later joins.
    if (this.#events.size > 0) await this.#joinBus();
  }

  #joinBus(): Promise<void> {
    return this.bus?.start((event, payload) => this.#fromBus(event, payload)) ?? Promise.resolve();
  }

  #fromBus(event: string, payload: unknown): void {
    const listeners = this.#events.get(event);
    if (!listeners) {
      this.#logger.debug('events: no event of that name here; ignored a message from another process', { event });
      return;
    }
    for (const listener of listeners) listener.deliver(payload);
  }

  /** Checked registration: nothing is recorded unless every check passed. */
  #register(event: string, fn: EventListener | undefined): void {
    if (this.#state === 'closed') throw new FrameworkException(`events: cannot register '${event}': the events are closed`);
    if (this.#state === 'new') this.#pending.push(fn ? { event, fn } : { event });
    else this.#wire(event, fn);
  }

  #wire(event: string, fn: EventListener | undefined): void {
    const listener = fn ? this.#listener(event, fn) : undefined; // made first: may not fail midway
    let set = this.#events.get(event);
    if (!set) {
      set = new Set();
      this.#events.set(event, set);
      if (this.#state === 'started' && this.bus && !this.bus.started) void this.#joinBus();
    }
    if (listener) set.add(listener);
  }

  #listener(event: string, fn: EventListener): Listener {
    return new Listener(event, fn, { queueSize: this.queueSize, scope: this.#scope, logger: this.#logger });
  }

  #checkName(method: string, name: unknown): asserts name is string {
    if (typeof name !== 'string' || !EVENT_NAME.test(name)) {
      throw new FrameworkException(
        `events.${method}(): event name must be 1-128 letters, digits or "_.:-", got ${JSON.stringify(name) ?? String(name)}`,
      );
    }
  }

  #checkListener<T>(method: string, name: string, fn: EventListener<T>): EventListener {
    if (typeof fn !== 'function') throw new FrameworkException(`events.${method}('${name}'): the listener is not a function`);
    return fn as EventListener;
  }
}
