import { createHash, hash } from 'node:crypto';

/** Lower-case hex SHA-256 of the parts, in order (strings as UTF-8), each followed by a NUL separator when there are several. */
export function sha256(...parts: ReadonlyArray<Uint8Array | string>): string {
  if (parts.length === 1) return hash('sha256', parts[0]!, 'hex');
  const digest = createHash('sha256');
  for (const part of parts) digest.update(part).update('\0');
  return digest.digest('hex');
}
