/**
 * The `redis` cache on ioredis (`CACHE_REDIS_URL`), shared by every process of the app.
 *
 * While Redis is down, every call fails within about half a second with `HttpError(503)` code
 * `CACHE_UNAVAILABLE` (the client never queues commands past one reconnect attempt); the client
 * keeps reconnecting in the background and calls succeed again as soon as Redis is back. The
 * outage and the recovery are logged once each; an error event never crashes the process.
 */
import type { Redis } from 'ioredis';
import { HttpError, type Logger } from '../core/errors.js';
import { requireOptional } from '../core/optional.js';
import { checkEntry, type Cache, type JsonValue } from './cache.js';
import { redactRedisUrl, redisUrl } from './redis-url.js';

/** Options of `new RedisCache()`. */
export interface RedisCacheOptions {
  /** `redis://` or `rediss://` URL (checked; the error names `CACHE_REDIS_URL`). */
  url: string | undefined;
  logger: Logger;
  /** The app's root: ioredis is loaded from its `node_modules` (else next to the kernel). */
  root?: string | undefined;
}

/** A cache in Redis. */
export class RedisCache implements Cache {
  readonly kind = 'redis' as const;
  readonly #client: Redis;
  readonly #where: string;
  readonly #logger: Logger;
  #down = false;
  #closed = false;

  constructor(options: RedisCacheOptions) {
    const url = redisUrl(options.url);
    this.#where = redactRedisUrl(url);
    this.#logger = options.logger;
    const { Redis: Client } = requireOptional<typeof import('ioredis')>('ioredis', { root: options.root, feature: 'CACHE_TYPE=redis (the cache)' });
    this.#client = new Client(url, {
      enableOfflineQueue: true, // commands sent while connecting wait for the connection...
      maxRetriesPerRequest: 0, // ...but fail at the first failed reconnect attempt,
      retryStrategy: (attempt) => Math.min(attempt * 50, 500), // which comes within 0.5 s.
      commandTimeout: 2000, // a server that accepts but never answers.
      connectTimeout: 2000,
      lazyConnect: false,
    });
    // Without an 'error' listener ioredis would crash the process on the first refused connection.
    this.#client.on('error', (error: unknown) => this.#failed(error));
    this.#client.on('ready', () => {
      if (!this.#down) return;
      this.#down = false;
      this.#logger.info('cache: Redis available again', { url: this.#where });
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

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#client.status === 'ready') await this.#client.quit().catch(() => this.#client.disconnect());
    else this.#client.disconnect();
  }

  async #run<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (err) {
      this.#failed(err);
      throw new HttpError(503, 'Service Unavailable', { code: 'CACHE_UNAVAILABLE', cause: err });
    }
  }

  #failed(error: unknown): void {
    if (this.#down || this.#closed) return;
    this.#down = true;
    this.#logger.error('cache: Redis unavailable; requests that need the cache answer 503', { url: this.#where, error });
  }
}
