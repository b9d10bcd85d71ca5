/** The error a bearer token that does not verify raises (the reference's `InvalidTokenError`). */
import { HttpError } from '../core/errors.js';

/** A bearer token was malformed, unsigned, expired, signed by an unknown key, or named a bad `sub`. */
export class InvalidTokenError extends HttpError {
  /** Always `'InvalidTokenError'`. */
  override name = 'InvalidTokenError';
  constructor(reason: string, options: { cause?: unknown } = {}) {
    super(401, `Invalid token: ${reason}`, {
      code: 'INVALID_TOKEN',
      headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
      cause: options.cause,
    });
  }
}
