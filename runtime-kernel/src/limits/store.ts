/**
 * The counter store behind rate limits: rate-limiter-flexible's `RateLimiterMemory` (one
 * process) or `RateLimiterRedis` on an ioredis client (shared by every process), with one
 * limiter instance per distinct `points/seconds` window.
 */
import { createRequire } from 'node:module';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { redactRedisUrl, redisUrl } from '../cache/redis-url.js';
import { outageFields, type Logger } from '../core/errors.js';
import { requireOptional } from '../core/optional.js';
import type { RateLimit } from './spec.js';

/** Where counters live. */
export interface LimitStore {
  /** `memory` or `redis`. */
  readonly kind: 'memory' | 'redis';
  /** The limiter counting `limit`'s window (created on first use, then reused). */
  limiter(limit: RateLimit): RateLimiterAbstract;
  /** True for a refusal (the limit is used up), false for a store failure. */
  refused(reason: unknown): reason is RateLimiterRes;
  /** Report a failed store call; logs once per outage. */
  failed(error: unknown): void;
  /** Report a successful store call; logs the recovery after an outage. */
  succeeded(): void;
  /** Release the connection (idempotent). */
  close(): Promise<void>;
}

/** Key prefix of every counter, e.g. `fw:rl:10/60s:...`. */
export const KEY_PREFIX = 'fw:rl';

/**
 * Open the store for `CACHE_TYPE` (`redis` → Redis at `CACHE_REDIS_URL`, anything else →
 * memory). The Redis client never queues a command past one reconnect attempt, so during an
 * outage a request fails within about half a second instead of hanging.
 */
export function openStore(
  config: { CACHE_TYPE: string; CACHE_REDIS_URL?: string; REDIS_TIMEOUT?: number },
  logger: Logger,
  root?: string,
): LimitStore {
  // Loaded here, when the app turns rate limiting on: an app without limits never pays for it.
  const { RateLimiterMemory, RateLimiterRedis, RateLimiterRes: Refusal } = createRequire(import.meta.url)('rate-limiter-flexible') as typeof import('rate-limiter-flexible');
  const limiters = new Map<string, RateLimiterAbstract>();
  const cached = (limit: RateLimit, make: (keyPrefix: string) => RateLimiterAbstract) => {
    const id = `${limit.points}/${limit.seconds}s`;
    let limiter = limiters.get(id);
    if (!limiter) {
      limiter = make(`${KEY_PREFIX}:${id}`);
      limiters.set(id, limiter);
    }
    return limiter;
  };

  if (config.CACHE_TYPE !== 'redis') {
    return {
      kind: 'memory',
      limiter: (limit) =>
        cached(limit, (keyPrefix) => new RateLimiterMemory({ points: limit.points, duration: limit.seconds, keyPrefix })),
      refused: (reason) => reason instanceof Refusal,
      failed: (error) => logger.error('rate limiter: memory store failed', { error }),
      succeeded: () => {},
      close: async () => {},
    };
  }

  const url = redisUrl(config.CACHE_REDIS_URL);
  const where = redactRedisUrl(url);
  const { Redis } = requireOptional<typeof import('ioredis')>('ioredis', { root, feature: 'CACHE_TYPE=redis (rate-limit counters)' });
  const client = new Redis(url, {
    enableOfflineQueue: true, // commands sent while connecting wait for the connection...
    maxRetriesPerRequest: 0, // ...but fail at the first failed reconnect attempt,
    retryStrategy: (attempt) => Math.min(attempt * 50, 500), // which comes within 0.5 s.
    commandTimeout: (config.REDIS_TIMEOUT ?? 2) * 1000, // a server that accepts but never answers.
    connectTimeout: (config.REDIS_TIMEOUT ?? 2) * 1000,
  });
  let down = false;
  let closed = false;
  const failed = (error: unknown) => {
    if (down || closed) return;
    down = true;
    logger.error('rate limiter: Redis store unavailable; rate-limited requests answer 503', { url: where, ...outageFields(error) });
  };
  const succeeded = () => {
    if (!down) return;
    down = false;
    logger.info('rate limiter: Redis store available again', { url: where });
  };
  // Without an 'error' listener ioredis would crash the process on the first refused connection.
  client.on('error', failed);
  client.on('ready', succeeded);

  return {
    kind: 'redis',
    limiter: (limit) =>
      cached(
        limit,
        (keyPrefix) =>
          new RateLimiterRedis({ storeClient: client, points: limit.points, duration: limit.seconds, keyPrefix }),
      ),
    refused: (reason) => reason instanceof Refusal,
    failed,
    succeeded,
    close: async () => {
      if (closed) return;
      closed = true;
      if (client.status === 'ready') {
        await client.quit().catch(() => client.disconnect());
      } else {
        client.disconnect();
      }
    },
  };
}
