import { createHash } from 'node:crypto';

/** Lower-case hex SHA-256 of the parts, in order (strings as UTF-8), each followed by a NUL separator when there are several. */
export function sha256(...parts: ReadonlyArray<Uint8Array | string>): string {
  const hash = createHash('sha256');
  if (parts.length === 1) return hash.update(parts[0]!).digest('hex');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex');
}
