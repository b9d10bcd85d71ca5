/**
 * Typed signed payloads: `base64url(JSON) + '.' + base64url(HMAC-SHA256)`, the key derived from
 * `SECRET_KEY` and a purpose. Every payload names its type in `t`; `verify(token, type)` refuses
 * a validly signed payload of another type (the reference's CSRF rule).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** A payload with its type. */
export interface TypedPayload {
  readonly t: string;
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
