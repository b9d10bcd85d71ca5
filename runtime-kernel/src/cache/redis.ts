/**
 * The `redis` cache on ioredis (`CACHE_REDIS_URL`), shared by every process of the app.
 *
 * While Redis is away every call fails with `HttpError(503)` code `CACHE_UNAVAILABLE` and
 * `Retry-After`, never hanging: a stopped Redis fails within about half a second (the client
 * never queues a command past one reconnect attempt), a frozen one (SIGSTOP, a stalled network)
 * within `REDIS_TIMEOUT`. The outage is logged once; while it lasts a probe pings Redis every
 * second, and the first answer (the probe's or a request's) logs the recovery once, whether Redis
 * was restarted (a new connection) or thawed (the old one answers again). An `error` event never
 * crashes the process. `onReconnect` listeners hear about every new connection after a lost one,
 * since Redis may have come back empty (the JWT key ring re-publishes its keys then).
 */
import type { Redis } from 'ioredis';
import { HttpError, outageFields, type Logger } from '../core/errors.js';
import { requireOptional } from '../core/optional.js';
import { checkEntry, type Cache, type JsonValue } from './cache.js';
import { redactRedisUrl, redisUrl } from './redis-url.js';

/** Options of `new RedisCache()`. */
export interface RedisCacheOptions {
  /** `redis://` or `rediss://` URL (checked; the error names `CACHE_REDIS_URL`). */
  url: string | undefined;
  /** Where connection loss and recovery are logged. */
  logger: Logger;
  /** The app's root: ioredis is loaded from its `node_modules` (else next to the kernel). */
  root?: string | undefined;
  /** How long a command may take before it fails (`REDIS_TIMEOUT`), in ms; default 2000. */
  timeoutMs?: number;
}

/** Seconds a client is asked to wait before retrying while the cache is away. */
const RETRY_AFTER = '5';
/** How often an unreachable Redis is probed. */
const PROBE_MS = 1000;

/** A cache in Redis. */
export class RedisCache implements Cache {
  readonly kind = 'redis' as const;
  readonly #client: Redis;
  readonly #where: string;
  readonly #logger: Logger;
  readonly #reconnect = new Set<() => void>();
  #down = false;
  #closed = false;
  #connectedBefore = false;
  #probe: NodeJS.Timeout | undefined;

  constructor(options: RedisCacheOptions) {
    const url = redisUrl(options.url);
    this.#where = redactRedisUrl(url);
    this.#logger = options.logger;
    const timeout = options.timeoutMs ?? 2000;
    const { Redis: Client } = requireOptional<typeof import('ioredis')>('ioredis', { root: options.root, feature: 'CACHE_TYPE=redis (the cache)' });
    this.#client = new Client(url, {
      enableOfflineQueue: true, // commands sent while connecting wait for the connection...
      maxRetriesPerRequest: 0, // ...but fail at the first failed reconnect attempt,
      retryStrategy: (attempt) => Math.min(attempt * 50, 500), // which comes within 0.5 s.
      commandTimeout: timeout, // a server that accepts but never answers (frozen).
      connectTimeout: timeout,
      lazyConnect: false,
    });
    // Without an 'error' listener ioredis would crash the process on the first refused connection.
    this.#client.on('error', (error: unknown) => this.#failed(error));
    this.#client.on('close', () => this.#failed(new Error('connection to Redis lost')));
    this.#client.on('ready', () => {
      if (this.#connectedBefore) for (const listener of this.#reconnect) listener();
      this.#connectedBefore = true;
      this.#recovered();
    });
  }

  async get<T extends JsonValue = JsonValue>(key: string): Promise<T | undefined> {
    checkEntry(key);
    const text = await this.#run(() => this.#client.get(key));
    return text === null ? undefined : (JSON.parse(text) as T);
  }

  async set(key: string, value: JsonValue, ttlSeconds?: number): Promise<void> {
    checkEntry(key, ttlSeconds);
    const json = JSON.stringify(value);
    if (json === undefined) throw new TypeError(`cache: the value for '${key}' is not JSON`);
    await this.#run(() =>
      ttlSeconds ? this.#client.set(key, json, 'PX', Math.max(1, Math.round(ttlSeconds * 1000))) : this.#client.set(key, json),
    );
  }

  async delete(key: string): Promise<boolean> {
    checkEntry(key);
    return (await this.#run(() => this.#client.del(key))) > 0;
  }

  async has(key: string): Promise<boolean> {
    checkEntry(key);
    return (await this.#run(() => this.#client.exists(key))) > 0;
  }

  async keys(prefix = ''): Promise<string[]> {
    const match = prefix.replace(/[\\*?[\]]/g, (c) => `\\${c}`) + '*';
    const out = new Set<string>();
    let cursor = '0';
    do {
      const [next, batch] = await this.#run(() => this.#client.scan(cursor, 'MATCH', match, 'COUNT', 500));
      for (const key of batch) out.add(key);
      cursor = next;
    } while (cursor !== '0');
    return [...out];
  }

  async ping(): Promise<void> {
    await this.#run(() => this.#client.ping());
  }

  onReconnect(listener: () => void): () => void {
    this.#reconnect.add(listener);
    return () => this.#reconnect.delete(listener);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#probe);
    this.#reconnect.clear();
    if (this.#client.status === 'ready') await this.#client.quit().catch(() => this.#client.disconnect());
    else this.#client.disconnect();
  }

  async #run<T>(command: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await command();
    } catch (err) {
      this.#failed(err);
      throw new HttpError(503, 'Service Unavailable', { code: 'CACHE_UNAVAILABLE', headers: { 'Retry-After': RETRY_AFTER }, cause: err });
    }
    if (this.#down) this.#recovered();
    return result;
  }

  #failed(error: unknown): void {
    if (this.#down || this.#closed) return;
    this.#down = true;
    this.#logger.error('cache: Redis unavailable; requests that need the cache answer 503', { url: this.#where, ...outageFields(error) });
    this.#scheduleProbe();
  }

  /** While Redis is away, one PING a second (never two at once) notices when it answers again. */
  #scheduleProbe(): void {
    this.#probe = setTimeout(() => {
      this.#client.ping().then(
        () => this.#recovered(),
        () => {
          if (this.#down && !this.#closed) this.#scheduleProbe();
        },
      );
    }, PROBE_MS);
    this.#probe.unref();
  }

  #recovered(): void {
    if (!this.#down || this.#closed) return;
    this.#down = false;
    clearTimeout(this.#probe);
    this.#logger.info('cache: Redis available again', { url: this.#where });
  }
}
