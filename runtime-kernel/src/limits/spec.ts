/**
 * Rate-limit specs: `'10/minute'`, `'5 per second'`, `'100/hour'`, `'1000/day'`,
 * `'20 per 5 minutes'`, and several at once separated by `;` or `,`
 * (`'10/minute;100/hour'`), as in the reference's `fluid.limit` strings.
 */
import { FrameworkException } from '../errors/index.js';

/** One parsed limit: `points` requests per `seconds`. */
export interface RateLimit {
  /** Requests allowed in the window. */
  readonly points: number;
  /** Window length in seconds. */
  readonly seconds: number;
  /** The text it was parsed from, normalised, e.g. `10/1 minute`. */
  readonly text: string;
}

const UNITS: Record<string, number> = { second: 1, minute: 60, hour: 3600, day: 86_400 };
const ONE = /^(\d+)\s*(?:\/|\s+per\s+)\s*(?:(\d+)\s*)?(second|minute|hour|day)s?$/i;

/**
 * Parse a spec string into its limits. Throws a `FrameworkException` naming `where` (e.g. `limit()` or
 * `RATELIMIT_DEFAULT`) and the offending part when the spec is malformed.
 */
export function parseLimits(spec: string, where = 'limit()'): RateLimit[] {
  if (typeof spec !== 'string' || spec.trim() === '') {
    throw new FrameworkException(`${where}: a rate limit spec must be a non-empty string such as "10/minute"`);
  }
  return spec.split(/[;,]/).map((raw) => {
    const part = raw.trim();
    const m = ONE.exec(part);
    const points = m ? Number(m[1]) : NaN;
    const multiplier = m?.[2] === undefined ? 1 : Number(m[2]);
    const unit = m?.[3]?.toLowerCase();
    if (!m || !unit || !(points >= 1) || !(multiplier >= 1) || !Number.isSafeInteger(points)) {
      throw new FrameworkException(
        `${where}: invalid rate limit "${part}" in "${spec}"; expected "<count>/<period>" or ` +
          `"<count> per [<n>] <period>" with a count of at least 1 and a period of ` +
          `second, minute, hour or day (e.g. "10/minute;100/hour")`,
      );
    }
    const seconds = multiplier * (UNITS[unit] ?? 1);
    return { points, seconds, text: `${points}/${multiplier} ${unit}` };
  });
}
