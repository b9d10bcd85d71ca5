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
}

/** An HMAC-SHA256 key (a WebCrypto key: jose verifies with it about twice as fast as with raw bytes). */
export type HmacKey = webcrypto.CryptoKey;

/** A signing key ready to use. */
export interface SigningKey {
  readonly kid: string;
  readonly key: HmacKey;
  /** Epoch ms after which this key no longer signs. */
  readonly signsUntil: number;
}

/** The app's signing keys, in the cache. */
export class KeyRing {
  readonly maxTokenSeconds: number;
  readonly #cacheOf: () => Cache;
  readonly #secret: string;
  readonly #margin: number;
  readonly #known = new Map<string, HmacKey>();
  #current: SigningKey | undefined;
  #rotating: Promise<SigningKey> | undefined;

  constructor(options: KeyRingOptions) {
    if (!options.secret) throw new TypeError('KeyRing: a secret (SECRET_KEY) is required');
    if (!(options.maxTokenSeconds > 0)) throw new TypeError('KeyRing: maxTokenSeconds must be a positive number');
    const cache = options.cache;
    this.#cacheOf = typeof cache === 'function' ? cache : () => cache;
    this.#secret = options.secret;
    this.maxTokenSeconds = options.maxTokenSeconds;
    this.#margin = options.marginSeconds ?? 300;
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

  /** The key to sign with now (rotating when the current one has signed long enough). */
  async current(): Promise<SigningKey> {
    const cur = this.#current;
    if (cur && Date.now() < cur.signsUntil) return cur;
    return this.rotate();
  }

  /**
   * The verification key of `kid`. A malformed kid throws `InvalidTokenError` before the cache is
   * touched; a kid the cache does not hold throws `InvalidTokenError` too.
   */
  async key(kid: unknown): Promise<HmacKey> {
    if (!isKid(kid)) throw new InvalidTokenError('malformed kid');
    const known = this.#known.get(kid);
    if (known) return known;
    const stored = await this.#cacheOf().get<StoredKey>(keyName(kid));
    if (!stored || typeof stored.material !== 'string') throw new InvalidTokenError('unknown kid');
    const key = await this.#derive(kid, stored.material);
    this.#known.set(kid, key);
    return key;
  }

  async #rotate(): Promise<SigningKey> {
    const kid = randomBytes(16).toString('hex');
    const stored: StoredKey = { material: randomBytes(32).toString('base64url'), created: Date.now() };
    await this.#cacheOf().set(keyName(kid), stored, this.keyTtlSeconds);
    const key = await this.#derive(kid, stored.material);
    this.#known.set(kid, key);
    this.#current = { kid, key, signsUntil: stored.created + this.maxTokenSeconds * 1000 };
    return this.#current;
  }

  #derive(kid: string, material: string): Promise<HmacKey> {
    const bytes = createHmac('sha256', this.#secret).update(`fw:jwt:${kid}:${material}`).digest();
    return webcrypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  }
}
