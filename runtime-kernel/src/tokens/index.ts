/** Bearer tokens: rotating signing keys in the cache, HS256 JWTs with grants. */
export { InvalidTokenError } from './errors.js';
export { KeyRing, KID_PATTERN, isKid, keyName } from './keys.js';
export type { KeyRingOptions, SigningKey, HmacKey } from './keys.js';
export { TokenService, TOKEN_ALGORITHM, bearerToken } from './tokens.js';
export type { TokenClaims, TokenServiceOptions } from './tokens.js';
