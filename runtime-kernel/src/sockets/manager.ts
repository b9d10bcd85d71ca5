/**
 * `SocketManager(app, events, queries)`: the events socket (`/ws/events`).
 *
 * It keeps the subscription registry (event → subscriber ids), pushes each event a socket
 * subscribed to, and answers queries. Every message is handled inside the connection's context
 * (`currentContext()`), so the signed-in user, the locale and `urlFor` resolve as for HTTP.
 * Bad frames, throwing handlers and failing queries get an error answer and the socket stays
 * usable; a socket that falls behind (more than `WS_MAX_BUFFERED_BYTES` unsent) misses pushed
 * events until it catches up, with a warning logged. Requests go through the connection's
 * `Inbox` (inbox.ts): a few at a time, none while its answers pile up unread.
 */
import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import { FrameworkException, type Logger } from '../core/errors.js';
import type { FluidContext } from '../core/context.js';
import type { Events } from '../events/index.js';
import { runWithContext } from './context.js';
import { FrameError, parseFrame, type AnswerFrame, type ClientFrame, type FrameId } from './frames.js';
import { Inbox } from './inbox.js';

/** Answers a query: gets the frame's `payload` and the connection's context; may be async. */
export type QueryHandler<P = unknown, R = unknown> = (payload: P, ctx: FluidContext) => R | Promise<R>;

/** Options of a query. */
export interface QueryOptions {
  /** A public query answers without a signed-in user; others need `ctx.state.user`. Default false. */
  public?: boolean;
}

/** A query as given to the constructor: a handler (private), or a handler with options. */
export type QueryEntry = QueryHandler | ({ handler: QueryHandler } & QueryOptions);

/** What the manager needs from the app. */
export interface SocketManagerApp {
  /** Where failed requests and queries, and slow clients, are logged. */
  readonly logger: Logger;
  /** `WS_MAX_BUFFERED_BYTES`: past this many bytes waiting to be sent, a socket misses pushed events until it catches up. */
  readonly config: { readonly WS_MAX_BUFFERED_BYTES: number };
}

interface Query {
  handler: QueryHandler;
  public: boolean;
}

/** The subscription registry and frame handler of `/ws/events`. */
export class SocketManager {
  readonly #logger: Logger;
  readonly #events: Events;
  readonly #maxBuffered: number;
  readonly #queries = new Map<string, Query>();
  readonly #sockets = new Map<string, WebSocket>();
  /** event → subscribed sids */
  readonly #subscribers = new Map<string, Set<string>>();
  /** sid → events it subscribed to */
  readonly #subscriptions = new Map<string, Set<string>>();
  /** event → removes the manager's listener */
  readonly #listeners = new Map<string, () => void>();
  readonly #slow = new Set<string>();
  /** socket → its flow control; every frame sent on a socket reports to it when it went out */
  readonly #inboxes = new WeakMap<WebSocket, Inbox>();

  constructor(app: SocketManagerApp, events: Events, queries: Readonly<Record<string, QueryEntry>> = {}) {
    this.#logger = app.logger;
    this.#events = events;
    this.#maxBuffered = app.config.WS_MAX_BUFFERED_BYTES;
    for (const [name, entry] of Object.entries(queries)) {
      if (typeof entry === 'function') this.query(name, entry);
      else this.query(name, entry.handler, entry);
    }
  }

  /** Registers (or replaces) the query `name`. */
  query<P, R>(name: string, handler: QueryHandler<P, R>, options: QueryOptions = {}): this {
    if (typeof name !== 'string' || name === '') throw new FrameworkException('SocketManager.query(): a query needs a non-empty name');
    if (typeof handler !== 'function') throw new FrameworkException(`SocketManager.query('${name}'): the handler is not a function`);
    this.#queries.set(name, { handler: handler as QueryHandler, public: options.public === true });
    return this;
  }

  /** True when a query of that name is registered. */
  hasQuery(name: string): boolean {
    return this.#queries.has(name);
  }

  /** The open connections by sid. */
  get connections(): ReadonlyMap<string, WebSocket> {
    return this.#sockets;
  }

  /** Subscribes `sid` to `event`; true when it was not subscribed before. Throws for an unknown event. */
  subscribe(event: string, sid: string): boolean {
    if (!this.#events.hasEvent(event)) throw new FrameworkException(`Unknown event '${event}'.`);
    let sids = this.#subscribers.get(event);
    if (sids?.has(sid)) return false;
    if (!sids) {
      const remove = this.#events.on(event, (payload) => this.#push(event, payload));
      sids = new Set();
      this.#subscribers.set(event, sids);
      this.#listeners.set(event, remove);
    }
    sids.add(sid);
    let mine = this.#subscriptions.get(sid);
    if (!mine) {
      mine = new Set();
      this.#subscriptions.set(sid, mine);
    }
    mine.add(event);
    return true;
  }

  /** Unsubscribes `sid` from `event`; true only when `sid` itself was subscribed. */
  unsubscribe(event: string, sid: string): boolean {
    const sids = this.#subscribers.get(event);
    if (!sids?.delete(sid)) return false;
    const mine = this.#subscriptions.get(sid);
    mine?.delete(event);
    if (mine?.size === 0) this.#subscriptions.delete(sid);
    if (sids.size === 0) {
      this.#subscribers.delete(event);
      this.#listeners.get(event)?.();
      this.#listeners.delete(event);
    }
    return true;
  }

  /** Drops `sid` from every event (a connection that left). */
  leave(sid: string): void {
    for (const event of [...(this.#subscriptions.get(sid) ?? [])]) this.unsubscribe(event, sid);
    this.#subscriptions.delete(sid);
    this.#slow.delete(sid);
  }

  /** True when `sid` is subscribed to `event`; without a sid, when anyone is. */
  hasSubscriptions(event: string, sid?: string): boolean {
    const sids = this.#subscribers.get(event);
    if (!sids) return false;
    return sid === undefined ? sids.size > 0 : sids.has(sid);
  }

  /** Serves one connection (the `/ws/events` route handler). Returns its sid. */
  serve(socket: WebSocket, ctx: FluidContext): string {
    const sid = randomUUID();
    this.#sockets.set(sid, socket);
    const inbox = new Inbox(socket, this.#maxBuffered, (data, isBinary) =>
      runWithContext(ctx, () => this.#onMessage(sid, socket, ctx, data, isBinary)).catch((error: unknown) =>
        this.#logger.error('events socket: message handling failed', { sid, error }),
      ),
    );
    this.#inboxes.set(socket, inbox);
    socket.on('message', (data, isBinary) => inbox.receive(data as Buffer | ArrayBuffer | Buffer[], isBinary));
    socket.once('close', () => {
      this.#sockets.delete(sid);
      this.leave(sid);
    });
    return sid;
  }

  /** Closes every connection (1001) and forgets every subscription. */
  closeAll(): void {
    for (const [sid, socket] of this.#sockets) {
      socket.close(1001, 'Server shutting down');
      this.leave(sid);
    }
    this.#sockets.clear();
  }

  async #onMessage(sid: string, socket: WebSocket, ctx: FluidContext, data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean): Promise<void> {
    let frame: ClientFrame;
    try {
      frame = parseFrame(data, isBinary);
    } catch (err) {
      if (!(err instanceof FrameError)) throw err;
      this.#answer(socket, err.id, { error: err.message });
      return;
    }
    try {
      if (frame.action === 'query') {
        this.#answer(socket, frame.id, await this.#query(frame.query, frame.payload, ctx));
      } else if (frame.action === 'subscribe') {
        if (!this.#events.hasEvent(frame.event)) this.#answer(socket, frame.id, { error: `Unknown event '${frame.event}'.` });
        else if (socket.readyState === socket.OPEN) this.#answer(socket, frame.id, { ok: true, data: this.subscribe(frame.event, sid) });
      } else {
        this.#answer(socket, frame.id, { ok: true, data: this.unsubscribe(frame.event, sid) });
      }
    } catch (error) {
      this.#logger.error('events socket: request failed', { sid, action: frame.action, error });
      this.#answer(socket, frame.id, { error: 'Request failed.' });
    }
  }

  async #query(name: string, payload: unknown, ctx: FluidContext): Promise<AnswerFrame> {
    const query = this.#queries.get(name);
    if (!query) return { error: `Unknown query '${name}'.` };
    if (!query.public && (ctx.state.user === undefined || ctx.state.user === null)) {
      return { error: `Query '${name}' needs a signed-in user.` };
    }
    try {
      const data = await query.handler(payload, ctx);
      JSON.stringify(data ?? null); // an answer JSON cannot carry fails here, as the query
      return { ok: true, data: data ?? null };
    } catch (error) {
      this.#logger.error(`events socket: query '${name}' failed`, { query: name, error });
      return { error: `Query '${name}' failed.` };
    }
  }

  /** Sends an answer when the socket is still open (a client may leave mid-query). */
  #answer(socket: WebSocket, id: FrameId | undefined, frame: AnswerFrame): void {
    if (socket.readyState !== socket.OPEN) return;
    socket.send(JSON.stringify(id === undefined ? frame : { id, ...frame }), this.#inboxes.get(socket)?.sent);
  }

  #push(event: string, payload: unknown): void {
    const sids = this.#subscribers.get(event);
    if (!sids || sids.size === 0) return;
    let text: string;
    try {
      text = JSON.stringify({ event, data: payload ?? null });
    } catch (error) {
      this.#logger.error('events socket: payload is not JSON; not pushed', { event, error });
      return;
    }
    for (const sid of sids) {
      const socket = this.#sockets.get(sid);
      if (!socket || socket.readyState !== socket.OPEN) continue;
      if (socket.bufferedAmount > this.#maxBuffered) {
        if (!this.#slow.has(sid)) {
          this.#slow.add(sid);
          this.#logger.warn('events socket: a slow client misses events until it catches up', {
            sid,
            event,
            bufferedAmount: socket.bufferedAmount,
            limit: this.#maxBuffered,
          });
        }
        continue;
      }
      if (this.#slow.delete(sid)) this.#logger.info('events socket: a slow client caught up', { sid });
      socket.send(text, this.#inboxes.get(socket)?.sent);
    }
  }
}
