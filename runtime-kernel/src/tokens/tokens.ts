/**
 * Bearer tokens (JWT, on jose): HS256 only, a `kid` from the `KeyRing`, `sub` a principal id,
 * and a `grants` list.
 *
 * Why HS256: the keys never leave the app (no JWKS is published), the app both signs and
 * verifies, and HMAC verification is a few microseconds. Pinning one symmetric algorithm makes
 * `alg: none` (any spelling) and RS/HS confusion fail before a key is even looked up.
 */
import { decodeProtectedHeader, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { InvalidTokenError } from './errors.js';
import type { KeyRing } from './keys.js';

/** The one algorithm tokens are signed and verified with. */
export const TOKEN_ALGORITHM = 'HS256';

/** The claims of a verified token. */
export interface TokenClaims {
  /** The principal id. */
  readonly sub: string;
  /** What the token allows, e.g. `['posts:write']`. */
  readonly grants: readonly string[];
  /** Issued at, epoch seconds. */
  readonly iat: number;
  /** Expires at, epoch seconds. */
  readonly exp: number;
  /** The signing key's id. */
  readonly kid: string;
}

/** Options of `new TokenService()`. */
export interface TokenServiceOptions {
  /** The signing keys (rotated, shared through the cache). */
  keys: KeyRing;
  /** Whether a `sub` is a valid principal id of the app. */
  isPrincipalId: (id: string) => boolean;
}

const GRANT = /^[A-Za-z0-9_.:*-]{1,100}$/;

/** Mints and verifies bearer tokens. */
export class TokenService {
  /** The signing keys this service signs and verifies with. */
  readonly keys: KeyRing;
  readonly #isPrincipalId: (id: string) => boolean;

  constructor(options: TokenServiceOptions) {
    this.keys = options.keys;
    this.#isPrincipalId = options.isPrincipalId;
  }

  /**
   * A token for principal `sub` carrying `grants`, valid `ttlSeconds` (at most the key ring's
   * `maxTokenSeconds`). Throws a `TypeError` naming the bad argument.
   */
  async mint(sub: string, grants: readonly string[], ttlSeconds: number): Promise<string> {
    if (!this.#isPrincipalId(sub)) throw new TypeError(`mintToken: '${sub}' is not a valid principal id`);
    if (!Array.isArray(grants) || grants.some((g) => typeof g !== 'string' || !GRANT.test(g))) {
      throw new TypeError(`mintToken: grants must be a list of names matching ${GRANT}, got ${JSON.stringify(grants)}`);
    }
    if (!Number.isInteger(ttlSeconds) || ttlSeconds <= 0 || ttlSeconds > this.keys.maxTokenSeconds) {
      throw new TypeError(`mintToken: ttl must be a whole number of seconds in 1..${this.keys.maxTokenSeconds}, got ${ttlSeconds}`);
    }
    const { kid, key } = await this.keys.current();
    return new SignJWT({ grants: [...grants] })
      .setProtectedHeader({ alg: TOKEN_ALGORITHM, kid, typ: 'JWT' })
      .setSubject(sub)
      .setIssuedAt()
      .setExpirationTime(`${ttlSeconds}s`)
      .sign(key);
  }

  /** The claims of a valid token; anything else throws `InvalidTokenError` (a 401). */
  async verify(token: string): Promise<TokenClaims> {
    if (typeof token !== 'string' || token.length === 0 || token.length > 8192) throw new InvalidTokenError('malformed token');
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(token);
    } catch (err) {
      throw new InvalidTokenError('malformed token', { cause: err });
    }
    if (header.alg !== TOKEN_ALGORITHM) throw new InvalidTokenError(`algorithm must be ${TOKEN_ALGORITHM}`);
    const key = await this.keys.key(header.kid); // malformed kid: rejected before the cache
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, key, { algorithms: [TOKEN_ALGORITHM], requiredClaims: ['sub', 'exp', 'iat'] }));
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      throw new InvalidTokenError(
        code === 'ERR_JWT_EXPIRED' ? 'expired' : code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' ? 'claim check failed' : 'signature or format',
        { cause: err },
      );
    }
    const { sub, grants, iat, exp } = payload as JWTPayload & { grants?: unknown };
    if (typeof sub !== 'string' || !this.#isPrincipalId(sub)) throw new InvalidTokenError('sub is not a valid principal id');
    if (typeof iat !== 'number' || iat > Date.now() / 1000 + 60) throw new InvalidTokenError('not yet valid');
    if (typeof exp !== 'number' || exp - iat > this.keys.maxTokenSeconds) throw new InvalidTokenError('lifetime too long');
    if (!Array.isArray(grants) || grants.some((g) => typeof g !== 'string')) throw new InvalidTokenError('grants must be a list of strings');
    return { sub, grants: grants as string[], iat, exp, kid: header.kid as string };
  }
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined;
  const match = /^Bearer[ ]+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(authorization);
  return match?.[1];
}
