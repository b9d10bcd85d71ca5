import { FrameworkException } from '../core/errors.js';

/**
 * A database fault: a bind whose URL cannot be used, a bind name that is not configured, or a
 * bind that failed to close. The message always names the bind (never its password).
 */
export class DatabaseError extends FrameworkException {
  /** Always `'DatabaseError'`. */
  override name = 'DatabaseError';
  /** The bind the fault concerns. */
  readonly bind: string;
  constructor(bind: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.bind = bind;
  }
}
