/**
 * Signing with keys derived from `SECRET_KEY`:
 * - typed signed payloads: `base64url(JSON) + '.' + base64url(HMAC-SHA256)`, the key derived
 *   from `SECRET_KEY` and a purpose. Every payload names its type in `t`; `verify(token, type)`
 *   refuses a validly signed payload of another type (the reference's CSRF rule);
 * - `CookieKeys`, the signer of Koa's signed cookies (`fw.sid`, `fw.csrf`).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** A payload with its type. */
export interface TypedPayload {
  /** The payload type (`'csrf'`, ...): `PayloadSigner.verify(token, type)` accepts only a token of that type. */
  readonly t: string;
  /** The payload's other fields: JSON scalars only. */
  readonly [key: string]: string | number | boolean | null;
}

/** Derives a purpose-bound key from `SECRET_KEY` (so one secret never signs two kinds of thing). */
export function deriveKey(secret: string, purpose: string): Buffer {
  return createHmac('sha256', secret).update(`fw:${purpose}`).digest();
}

/** Signs and verifies typed payloads with one key. */
export class PayloadSigner {
  readonly #key: Buffer;

  constructor(secret: string, purpose = 'signed') {
    if (!secret) throw new TypeError('PayloadSigner: a secret (SECRET_KEY) is required');
    this.#key = deriveKey(secret, purpose);
  }

  /** The signed token of `payload`. */
  sign(payload: TypedPayload): string {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.#mac(body)}`;
  }

  /** The payload when `token` is validly signed and of `type`; otherwise undefined. */
  verify<P extends TypedPayload>(token: unknown, type: P['t']): P | undefined {
    if (typeof token !== 'string' || token.length > 4096) return undefined;
    const dot = token.indexOf('.');
    if (dot <= 0) return undefined;
    const body = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.#mac(body), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
    if (payload === null || typeof payload !== 'object' || (payload as { t?: unknown }).t !== type) return undefined;
    return payload as P;
  }

  #mac(body: string): string {
    return createHmac('sha256', this.#key).update(body).digest('base64url');
  }
}

/**
 * The signer of Koa's signed cookies (`koa.keys`, read by `ctx.cookies`): the same signatures as
 * Koa's default `keygrip` (HMAC-SHA1 of `name=value`, base64url without padding), so cookies
 * signed before stay valid, checked with one HMAC and `timingSafeEqual`. keygrip compares
 * through `tsscmp`, which draws 32 random bytes and computes two more HMACs with a fresh Buffer
 * key on every check: about 50 µs a request on Node 24, a third of a signed-in request's cost.
 * HMAC-SHA1 is still a sound MAC; SHA-1's collision attacks do not apply to HMAC.
 */
export class CookieKeys {
  readonly #keys: readonly string[];

  /** `keys[0]` signs; every key verifies (a rotated-out key as long as it is listed). */
  constructor(keys: readonly string[]) {
    if (keys.length === 0 || keys.some((k) => typeof k !== 'string' || k === '')) {
      throw new TypeError('CookieKeys: at least one non-empty key is required');
    }
    this.#keys = [...keys];
  }

  /** The signature of `data` with the first key. */
  sign(data: string): string {
    return cookieMac(this.#keys[0]!, data);
  }

  /** Whether `digest` is `data`'s signature under one of the keys. */
  verify(data: string, digest: string): boolean {
    return this.index(data, digest) > -1;
  }

  /** The index of the key that signed `data` as `digest`, or -1. */
  index(data: string, digest: string): number {
    if (typeof digest !== 'string') return -1;
    const given = Buffer.from(digest);
    for (let i = 0; i < this.#keys.length; i++) {
      const expected = Buffer.from(cookieMac(this.#keys[i]!, data));
      if (expected.length === given.length && timingSafeEqual(expected, given)) return i;
    }
    return -1;
  }
}

function cookieMac(key: string, data: string): string {
  return createHmac('sha1', key).update(data).digest('base64url');
}
