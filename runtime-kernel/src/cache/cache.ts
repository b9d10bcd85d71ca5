/**
 * The cache interface every backend implements (`CACHE_TYPE`: memory, file, redis).
 *
 * Values are JSON: whatever `JSON.stringify` keeps comes back from `get`. A TTL is in seconds;
 * an entry past its TTL is gone for every method (`get`, `has`, `keys`).
 */

/** A JSON value as stored in the cache. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** The backends `CACHE_TYPE` selects. */
export type CacheKind = 'memory' | 'file' | 'redis';

/** A key-value cache with expiry. */
export interface Cache {
  /** Which backend this is. */
  readonly kind: CacheKind;
  /** The value under `key`, or `undefined` when absent or expired. */
  get<T extends JsonValue = JsonValue>(key: string): Promise<T | undefined>;
  /** Stores `value` under `key`; with `ttlSeconds` (> 0) it expires after that many seconds. */
  set(key: string, value: JsonValue, ttlSeconds?: number): Promise<void>;
  /** Removes `key`; true when it existed. */
  delete(key: string): Promise<boolean>;
  /** True when `key` holds an unexpired value. */
  has(key: string): Promise<boolean>;
  /** Every unexpired key starting with `prefix` (all keys for `''`), in no particular order. */
  keys(prefix?: string): Promise<string[]>;
  /** Releases connections and timers (idempotent). */
  close(): Promise<void>;
  /** Resolves when the backend answers (the readiness check); absent for `memory`. */
  ping?(): Promise<void>;
  /**
   * Calls `listener` each time the backend comes back after its connection was lost, when
   * entries may be gone (a Redis restarted without persistence); returns a function that stops
   * the calls. Only backends that can lose entries that way have it (`redis`).
   */
  onReconnect?(listener: () => void): () => void;
}

/** Checks a key and TTL the same way for every backend; throws a `TypeError` naming the problem. */
export function checkEntry(key: unknown, ttlSeconds?: unknown): void {
  if (typeof key !== 'string' || key.length === 0) throw new TypeError(`cache: a key must be a non-empty string, got ${JSON.stringify(key)}`);
  if (ttlSeconds !== undefined && (typeof ttlSeconds !== 'number' || !Number.isFinite(ttlSeconds) || ttlSeconds <= 0)) {
    throw new TypeError(`cache: ttlSeconds for '${key}' must be a positive number of seconds, got ${String(ttlSeconds)}`);
  }
}
