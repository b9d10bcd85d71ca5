import { hash } from 'node:crypto';

/** Lower-case hex SHA-256 of the parts, in order (strings as UTF-8), each followed by a NUL separator when there are several. */
export function sha256(...parts: ReadonlyArray<Uint8Array | string>): string {
  if (parts.length === 1) return hash('sha256', parts[0]!, 'hex');
  const buffers = parts.flatMap((part) => [typeof part === 'string' ? Buffer.from(part, 'utf8') : part, NUL]);
  return hash('sha256', Buffer.concat(buffers), 'hex');
}

const NUL = new Uint8Array([0]);
