/**
 * Rate-limit specs: `'10/minute'`, `'5 per second'`, `'100/hour'`, `'1000/day'`,
 * `'20 per 5 minutes'`, and several at once separated by `;` or `,`
 * (`'10/minute;100/hour'`), as in the reference's `fluid.limit` strings. The grammar lives in
 * `@fw/schemas`, so `RATELIMIT_DEFAULT` in config and `limit()` in code accept the same text.
 */
import { parseRateLimits, type RateLimit } from '@fw/schemas';
import { FrameworkException } from '../core/errors.js';

export type { RateLimit };

/**
 * Parse a spec string into its limits. Throws a `FrameworkException` naming `where` (e.g. `limit()` or
 * `RATELIMIT_DEFAULT`) and the offending part when the spec is malformed.
 */
export function parseLimits(spec: string, where = 'limit()'): RateLimit[] {
  if (typeof spec !== 'string' || spec.trim() === '') {
    throw new FrameworkException(`${where}: a rate limit spec must be a non-empty string such as "10/minute"`);
  }
  const parsed = parseRateLimits(spec);
  if (!Array.isArray(parsed)) {
    throw new FrameworkException(
      `${where}: invalid rate limit "${parsed.invalid}" in "${spec}"; expected "<count>/<period>" or ` +
        `"<count> per [<n>] <period>" with a count of at least 1 and a period of ` +
        `second, minute, hour or day (e.g. "10/minute;100/hour")`,
    );
  }
  return parsed;
}
