/** Reading config files: UTF-8, falling back to latin1 for files that are not valid UTF-8. */
import { readFileSync } from 'node:fs';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const latin1 = new TextDecoder('latin1');

/** Decodes bytes as UTF-8 (a BOM is dropped), or as latin1 when they are not valid UTF-8. */
export function decodeText(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    return latin1.decode(bytes);
  }
}

/** Reads a text file with {@link decodeText}. */
export function readText(file: string): string {
  return decodeText(readFileSync(file));
}
