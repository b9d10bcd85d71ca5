/**
 * Types of the fw browser client (`/fluid/static/fw/fw.js`), `window.fw`.
 *
 * Reference it from a frontend with `/// <reference path=".../fw.d.ts" />` or copy it into the
 * project's types.
 */

/** A JSON request/answer socket that reconnects with backoff (one per path per page). */
export interface FwSocket {
  /** The socket path, e.g. `/ws/events`. */
  readonly path: string;
  /** Sends `frame` with a fresh `id`; resolves with the answer's `data`, rejects with an Error carrying its `error`. */
  request<T = unknown>(frame: Record<string, unknown>): Promise<T>;
  /** Calls `handler` for every frame that answers no request (e.g. pushed events). */
  onPush(handler: (frame: Record<string, unknown>) => void): void;
  /** Calls `handler` after every reconnection (not the first connection). */
  onReconnect(handler: () => void): void;
  /** Closes for good: no more reconnection; waiting requests fail. */
  close(): void;
}

/** The events socket (`/ws/events`). */
export interface FwEvents {
  /** Calls `handler(data, event)` for each `event` pushed; resolves once the server confirmed the subscription. */
  subscribe<T = unknown>(event: string, handler: (data: T, event: string) => void): Promise<void>;
  /** Removes `handler` (or every handler); resolves with the server's answer once the last one is gone. */
  unsubscribe(event: string, handler?: (data: never, event: string) => void): Promise<boolean>;
  /** Runs the server query `name`; resolves with its answer, rejects with `Query '<name>' failed.` and the like. */
  query<T = unknown>(name: string, payload?: unknown): Promise<T>;
}

/** Extensions registered with `fw.extend` (the i18n extension adds `i18n`). */
export interface FwExtensions {
  [name: string]: unknown;
}

/** `window.fw`. */
export interface Fw {
  readonly version: string;
  /** The shared socket on `path` (e.g. `fw.socket('/ws/i18n')`). */
  socket(path: string): FwSocket;
  readonly events: FwEvents;
  /** Registered extensions by name. */
  readonly ext: FwExtensions;
  /** Registers an extension: `fw.ext[name] = factory(fw)`; throws when the name is taken. */
  extend<T>(name: string, factory: (fw: Fw) => T): T;
}

declare global {
  interface Window {
    fw: Fw;
  }
  // eslint-disable-next-line no-var
  var fw: Fw;
}
