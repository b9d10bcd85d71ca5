/**
 * `RedisBus`: carries events between processes over Redis pub/sub.
 *
 * Every process publishes the events it triggers on one channel per app (`fw:events:<app>`)
 * and listens there on its own subscriber connection. Each message carries the publishing
 * process's node id, so a process skips its own messages (its local listeners were fed directly).
 * ioredis reconnects and resubscribes on its own; an outage and the recovery are logged once
 * each, and while Redis is away events still reach the listeners of the triggering process.
 *
 * A frozen Redis (SIGSTOP, a stalled network) keeps its connections open and never says so, so
 * once started the bus pings both connections every `heartbeatMs` (1 s): no answer within
 * `timeoutMs` (`REDIS_TIMEOUT`) is an outage, the next answer the recovery.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { redactRedisUrl, redisUrl } from '../cache/redis-url.js';
import { outageFields, type Logger } from '../core/errors.js';
import { requireOptional } from '../core/optional.js';

/** Receives an event published by another process. */
export type RemoteEventHandler = (event: string, payload: unknown) => void;

/** Options of `new RedisBus()`. */
export interface RedisBusOptions {
  /** `redis://` or `rediss://` URL. */
  url: string;
  /** Config key the URL came from, named in errors (`EVENTS_REDIS_URL` or `CACHE_REDIS_URL`). */
  key: string;
  /** Channel shared by every process of the app. */
  channel: string;
  /** Where an unavailable Redis and malformed bus messages are logged. */
  logger: Logger;
  /** How long `start()` waits for the subscription before going on without it (ms). Default 2000. */
  startTimeoutMs?: number;
  /** The app's root: ioredis is loaded from its `node_modules` (else next to the kernel). */
  root?: string | undefined;
  /** How long a command (publish, ping) may take, in ms (`REDIS_TIMEOUT`); default 2000. */
  timeoutMs?: number;
  /** How often both connections are pinged once started, in ms; default 1000. */
  heartbeatMs?: number;
}

/** Shape of a message on the channel. */
interface Wire {
  n: string;
  e: string;
  p: unknown;
}

const retryStrategy = (attempt: number): number => Math.min(attempt * 100, 1000);

/** Redis pub/sub between the processes of one app. */
export class RedisBus {
  /** This process's id; messages carrying it are skipped. */
  readonly nodeId = randomUUID();
  /** The pub/sub channel. */
  readonly channel: string;
  readonly #where: string;
  readonly #logger: Logger;
  readonly #pub: Redis;
  readonly #sub: Redis;
  readonly #startTimeoutMs: number;
  readonly #timeoutMs: number;
  readonly #heartbeatMs: number;
  #heartbeat: NodeJS.Timeout | undefined;
  #down = false;
  #closed = false;
  #started: Promise<void> | undefined;
  #ready = false;
  readonly #onStart: (() => void)[] = [];

  constructor(options: RedisBusOptions) {
    const url = redisUrl(options.url, options.key);
    this.channel = options.channel;
    this.#where = redactRedisUrl(url);
    this.#logger = options.logger;
    this.#startTimeoutMs = options.startTimeoutMs ?? 2000;
    this.#timeoutMs = options.timeoutMs ?? 2000;
    this.#heartbeatMs = options.heartbeatMs ?? 1000;
    const feature = `${options.key === 'CACHE_REDIS_URL' ? 'CACHE_TYPE=redis' : options.key} (events across processes)`;
    const { Redis } = requireOptional<typeof import('ioredis')>('ioredis', { root: options.root, feature });
    // Publishing never waits for a connection: during an outage it fails at once.
    const timeout = this.#timeoutMs;
    this.#pub = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy,
      connectTimeout: timeout,
      commandTimeout: timeout,
    });
    // The subscription waits for the connection, however long it takes, and is renewed on reconnect.
    this.#sub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: null, retryStrategy, connectTimeout: timeout, autoResubscribe: true });
    for (const client of [this.#pub, this.#sub]) {
      client.on('error', (error: unknown) => this.#failed(error));
      client.on('close', () => this.#failed(new Error('connection to Redis lost')));
    }
    this.#sub.on('ready', () => this.#recovered());
  }

  /** True while Redis is unreachable. */
  get down(): boolean {
    return this.#down;
  }

  /**
   * Subscribes and feeds other processes' events to `onMessage`. Waits at most
   * `startTimeoutMs` for Redis; past that the app starts anyway and the bus joins when Redis does.
   */
  start(onMessage: RemoteEventHandler): Promise<void> {
    this.#started ??= this.#doStart(onMessage).finally(() => {
      this.#ready = true;
      if (!this.#closed) this.#beat();
      for (const fn of this.#onStart.splice(0)) fn();
    });
    return this.#started;
  }

  /**
   * Calls `fn` once `start()` has finished (subscribed, or gone on without Redis after
   * `startTimeoutMs`), at once when it has: the health plugin adds the bus's readiness check then,
   * since a bus nobody started has no connection to check, and one still connecting has not failed.
   */
  whenStarted(fn: () => void): void {
    if (this.#ready) fn();
    else this.#onStart.push(fn);
  }

  /**
   * Resolves when both connections answer a PING within `timeoutMs`; rejects otherwise (and
   * marks the outage). The heartbeat and the readiness check call it.
   */
  async ping(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer a PING within ${this.#timeoutMs} ms`)), this.#timeoutMs);
    });
    try {
      await Promise.race([Promise.all([this.#pub.ping(), this.#sub.ping()]), late]);
    } catch (error) {
      this.#failed(error);
      throw error;
    } finally {
      clearTimeout(timer);
    }
    this.#recovered();
  }

  /** One heartbeat after another (never two at once) until the bus closes. */
  #beat(): void {
    this.#heartbeat = setTimeout(() => {
      // A failed ping has logged the outage already.
      void this.ping()
        .catch(() => undefined)
        .finally(() => {
          if (!this.#closed) this.#beat();
        });
    }, this.#heartbeatMs);
    this.#heartbeat.unref();
  }

  /** True once `start()` was called. */
  get started(): boolean {
    return this.#started !== undefined;
  }

  async #doStart(onMessage: RemoteEventHandler): Promise<void> {
    this.#sub.on('message', (channel: string, text: string) => {
      if (channel !== this.channel) return;
      let wire: Wire;
      try {
        wire = JSON.parse(text) as Wire;
      } catch (error) {
        this.#logger.warn('events: ignored a malformed bus message', { channel, error });
        return;
      }
      if (!wire || typeof wire !== 'object' || typeof wire.e !== 'string' || wire.n === this.nodeId) return;
      onMessage(wire.e, wire.p);
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.#startTimeoutMs);
      timer.unref();
    });
    const ready = Promise.all([this.#pub.connect().catch(() => undefined), this.#sub.subscribe(this.channel)]).then(() => 'ready' as const);
    ready.catch((error: unknown) => this.#failed(error));
    const outcome = await Promise.race([ready.catch(() => 'failed' as const), timeout]);
    clearTimeout(timer);
    if (outcome !== 'ready') this.#failed(new Error(`no answer from Redis within ${this.#startTimeoutMs} ms`));
  }

  /**
   * Publishes an event (`payloadJson` is its payload, already JSON); while `start()` is still
   * connecting it waits for it. Failures are logged once per outage.
   */
  publish(event: string, payloadJson: string): void {
    if (this.#closed) return;
    const text = `{"n":${JSON.stringify(this.nodeId)},"e":${JSON.stringify(event)},"p":${payloadJson}}`;
    if (!this.#ready && this.#started) void this.#started.then(() => this.#send(text));
    else this.#send(text);
  }

  #send(text: string): void {
    if (this.#closed) return;
    this.#pub.publish(this.channel, text).then(
      () => this.#recovered(),
      (error: unknown) => this.#failed(error),
    );
  }

  /** Closes both connections (idempotent). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#heartbeat);
    await Promise.all(
      [this.#pub, this.#sub].map(async (client) => {
        if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
        else client.disconnect();
      }),
    );
  }

  #failed(error: unknown): void {
    if (this.#down || this.#closed) return;
    this.#down = true;
    this.#logger.error('events: Redis bus unavailable; events reach this process only until it is back', { url: this.#where, ...outageFields(error) });
  }

  #recovered(): void {
    if (!this.#down || this.#closed) return;
    if (this.#sub.status !== 'ready') return;
    this.#down = false;
    this.#logger.info('events: Redis bus available again', { url: this.#where });
  }
}
