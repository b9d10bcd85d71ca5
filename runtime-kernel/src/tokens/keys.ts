/**
 * JWT signing keys: a `kid` of exactly 32 lowercase hex characters, the key material stored in
 * the cache under `jwt:<kid>`.
 *
 * Rotation: `rotate()` (run at startup) makes a new signing key. A key signs for at most
 * `maxTokenSeconds` (then the ring rotates again in-process) and stays in the cache for
 * `2 × maxTokenSeconds + marginSeconds`, so every token it signed (whose lifetime is capped at
 * `maxTokenSeconds`) can still be verified until it expires. Older keys are never deleted early.
 *
 * The cache holds random material; the HMAC key is derived from it and `SECRET_KEY`, so a leaked
 * cache alone cannot mint tokens.
 *
 * A shared store can lose the keys while the processes live on (Redis restarted without
 * persistence, `FLUSHALL`, eviction). Every process remembers the material of each key it made
 * or loaded, until the key's cache TTL ends, and puts back whichever the store lacks: at once
 * when the cache reconnects after losing its connection, and every `checkIntervalMs` (5 s)
 * otherwise. Before signing, a process makes sure the store holds its current key (re-publishing
 * it if not), so it never signs with a key the others cannot find. A token therefore verifies on
 * every process for its whole lifetime unless no live process knows its key any more; then every
 * process answers the same clean 401 (`unknown kid`).
 */
import { createHmac, randomBytes, webcrypto } from 'node:crypto';
import type { Cache } from '../cache/cache.js';
import { InvalidTokenError } from './errors.js';

/** Exactly 32 lowercase hexadecimal characters. */
export const KID_PATTERN = /^[0-9a-f]{32}$/;

/** True when `value` is a well-formed key id (checked before any cache lookup). */
export function isKid(value: unknown): value is string {
  return typeof value === 'string' && KID_PATTERN.test(value);
}

/** The cache key of a key id. */
export function keyName(kid: string): string {
  return `jwt:${kid}`;
}

/** What `jwt:<kid>` holds. */
interface StoredKey {
  [key: string]: string | number;
  material: string; // base64url, 32 random bytes
  created: number; // epoch ms
}

/** Options of `new KeyRing()`. */
export interface KeyRingOptions {
  /** The cache holding the keys, or a function answering it (opened lazily). */
  cache: Cache | (() => Cache);
  /** `SECRET_KEY`: mixed into every derived key. */
  secret: string;
  /** The longest lifetime a token may have, in seconds. */
  maxTokenSeconds: number;
  /** Extra time a key is kept past the last token it can have signed (clock skew); default 300. */
  marginSeconds?: number;
  /** How often the store is checked for keys it lost (shared caches only), in ms; default 5000. */
  checkIntervalMs?: number;
}

/** An HMAC-SHA256 key (a WebCrypto key: jose verifies with it about twice as fast as with raw bytes). */
export type HmacKey = webcrypto.CryptoKey;

/** A signing key ready to use. */
export interface SigningKey {
  /** The key's id: 32 hex digits, sent in the token header. */
  readonly kid: string;
  /** The HMAC-SHA-256 key, derived from the cached material and `SECRET_KEY`. */
  readonly key: HmacKey;
  /** Epoch ms after which this key no longer signs. */
  readonly signsUntil: number;
}

/** A key this process knows: what it re-publishes when the store lost it. */
interface KnownKey {
  readonly key: HmacKey;
  readonly stored: StoredKey;
  /** Epoch ms when the key leaves the cache (and this process forgets it). */
  readonly expires: number;
}

/** The app's signing keys, in the cache. */
export class KeyRing {
  /** The longest lifetime a token may have, in seconds (from the options); a key signs for at most this long. */
  readonly maxTokenSeconds: number;
  readonly #cacheOf: () => Cache;
  readonly #secret: string;
  readonly #margin: number;
  readonly #checkIntervalMs: number;
  readonly #known = new Map<string, KnownKey>();
  #current: SigningKey | undefined;
  #rotating: Promise<SigningKey> | undefined;
  #watching = false;
  #timer: NodeJS.Timeout | undefined;
  #unwatch: (() => void) | undefined;
  #restoring: Promise<void> | undefined;

  constructor(options: KeyRingOptions) {
    if (!options.secret) throw new TypeError('KeyRing: a secret (SECRET_KEY) is required');
    if (!(options.maxTokenSeconds > 0)) throw new TypeError('KeyRing: maxTokenSeconds must be a positive number');
    const cache = options.cache;
    this.#cacheOf = typeof cache === 'function' ? cache : () => cache;
    this.#secret = options.secret;
    this.maxTokenSeconds = options.maxTokenSeconds;
    this.#margin = options.marginSeconds ?? 300;
    this.#checkIntervalMs = options.checkIntervalMs ?? 5000;
  }

  /** How long a key stays in the cache, in seconds. */
  get keyTtlSeconds(): number {
    return 2 * this.maxTokenSeconds + this.#margin;
  }

  /** Makes and stores a new signing key; it becomes the current one. */
  rotate(): Promise<SigningKey> {
    this.#rotating ??= this.#rotate().finally(() => (this.#rotating = undefined));
    return this.#rotating;
  }

  /**
   * The key to sign with now (rotating when the current one has signed long enough). The store
   * is asked first whether it still holds the key; if it lost it, the key is published again, so
   * every process can verify what this one signs. A store that does not answer fails the call
   * (`HttpError(503)` from the cache) rather than sign with a key others may not find.
   */
  async current(): Promise<SigningKey> {
    const cur = this.#current;
    if (!cur || Date.now() >= cur.signsUntil) return this.rotate();
    const known = this.#known.get(cur.kid);
    const cache = this.#cacheOf();
    if (known && !(await cache.has(keyName(cur.kid)))) await this.#publish(cache, cur.kid, known);
    return cur;
  }

  /**
   * The verification key of `kid`. A malformed kid throws `InvalidTokenError` before the cache is
   * touched; a kid the cache does not hold throws `InvalidTokenError` too.
   */
  async key(kid: unknown): Promise<HmacKey> {
    if (!isKid(kid)) throw new InvalidTokenError('malformed kid');
    const known = this.#known.get(kid);
    if (known && known.expires > Date.now()) return known.key;
    const stored = await this.#cacheOf().get<StoredKey>(keyName(kid));
    if (!stored || typeof stored.material !== 'string' || typeof stored.created !== 'number') throw new InvalidTokenError('unknown kid');
    return (await this.#remember(kid, stored)).key;
  }

  /**
   * Puts back every key this process knows that the store lacks (the watch runs it on reconnect
   * and every `checkIntervalMs`); forgets keys past their TTL. Concurrent calls share one run.
   */
  restore(): Promise<void> {
    this.#restoring ??= this.#restoreAll().finally(() => (this.#restoring = undefined));
    return this.#restoring;
  }

  /** Stops watching the store (idempotent); the auth plugin calls it when the app closes. */
  close(): void {
    clearInterval(this.#timer);
    this.#unwatch?.();
    this.#timer = undefined;
    this.#unwatch = undefined;
  }

  async #restoreAll(): Promise<void> {
    const cache = this.#cacheOf();
    const now = Date.now();
    for (const [kid, known] of [...this.#known]) {
      if (known.expires <= now) {
        this.#known.delete(kid);
        continue;
      }
      if (!(await cache.has(keyName(kid)))) await this.#publish(cache, kid, known);
    }
  }

  async #publish(cache: Cache, kid: string, known: KnownKey): Promise<void> {
    const seconds = (known.expires - Date.now()) / 1000;
    if (seconds > 0) await cache.set(keyName(kid), known.stored, seconds);
  }

  async #rotate(): Promise<SigningKey> {
    const kid = randomBytes(16).toString('hex');
    const stored: StoredKey = { material: randomBytes(32).toString('base64url'), created: Date.now() };
    await this.#cacheOf().set(keyName(kid), stored, this.keyTtlSeconds);
    const { key } = await this.#remember(kid, stored);
    this.#current = { kid, key, signsUntil: stored.created + this.maxTokenSeconds * 1000 };
    return this.#current;
  }

  async #remember(kid: string, stored: StoredKey): Promise<KnownKey> {
    const known: KnownKey = { key: await this.#derive(kid, stored.material), stored, expires: stored.created + this.keyTtlSeconds * 1000 };
    this.#known.set(kid, known);
    this.#watch();
    return known;
  }

  /** Once the ring holds a key: re-publish on every reconnect of a shared store, and check every `checkIntervalMs`. */
  #watch(): void {
    if (this.#watching) return;
    this.#watching = true;
    const cache = this.#cacheOf();
    if (cache.kind === 'memory') return; // nobody else reads it, and it cannot lose keys on its own
    const restore = (): void => void this.restore().catch(() => undefined); // the cache logs its outage
    this.#unwatch = cache.onReconnect?.(restore);
    this.#timer = setInterval(restore, this.#checkIntervalMs);
    this.#timer.unref();
  }

  #derive(kid: string, material: string): Promise<HmacKey> {
    const bytes = createHmac('sha256', this.#secret).update(`fw:jwt:${kid}:${material}`).digest();
    return webcrypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  }
}
