/**
 * Checking and redacting Redis URLs (`CACHE_REDIS_URL`).
 */
import { FrameworkException } from '../core/errors.js';

/**
 * Return `value` when it is a `redis://` or `rediss://` URL; otherwise throw a
 * `FrameworkException` naming the config `key` and showing an example.
 */
export function redisUrl(value: string | undefined, key = 'CACHE_REDIS_URL'): string {
  const example = 'e.g. "redis://127.0.0.1:6379/0"';
  if (typeof value !== 'string' || value.trim() === '') {
    throw new FrameworkException(`${key} is required when CACHE_TYPE is "redis" (${example})`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new FrameworkException(`${key}: "${redactRedisUrl(value)}" is not a URL (${example})`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new FrameworkException(`${key}: expected a redis:// or rediss:// URL, got "${url.protocol}" (${example})`);
  }
  return value;
}

/** The URL with any password replaced by `***`, safe for logs and error messages. */
export function redactRedisUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return value.replace(/\/\/[^@/]*@/, '//***@');
  }
}
