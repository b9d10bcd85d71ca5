/**
 * Byte-level helpers shared by the merge and the classifier: binary detection and line endings.
 * Text is always UTF-8; anything else is treated as binary and never merged line by line.
 */

/** Line-ending style of a text file. `none` when the text has no line break at all. */
export type Eol = 'lf' | 'crlf' | 'none';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes bytes as UTF-8 text, or returns `undefined` when they are binary: a NUL byte in the first
 * 8000 bytes (git's heuristic) or bytes that are not valid UTF-8.
 */
export function decodeText(bytes: Uint8Array): string | undefined {
  const head = bytes.subarray(0, 8000);
  if (head.includes(0)) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The file's own line-ending style. `crlf` only when every `\n` is preceded by `\r`; a file with
 * mixed endings counts as `lf`, so its stray `\r` characters stay part of the line content.
 */
export function detectEol(text: string): Eol {
  let lf = 0;
  let crlf = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    lf++;
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
  }
  if (lf === 0) return 'none';
  return crlf === lf ? 'crlf' : 'lf';
}

/** Converts CRLF line endings to LF when the whole text uses CRLF; otherwise returns it unchanged. */
export function toLf(text: string): string {
  return detectEol(text) === 'crlf' ? text.replaceAll('\r\n', '\n') : text;
}

/** Converts LF-normalised text to the given style (`none` and `lf` leave it unchanged). */
export function fromLf(text: string, eol: Eol): string {
  return eol === 'crlf' ? text.replaceAll('\n', '\r\n') : text;
}

/**
 * True when two files hold the same content: identical bytes, or the same text once CRLF endings
 * are normalised (a checkout with `core.autocrlf` must not look like a user edit).
 */
export function sameContent(a: Uint8Array, b: Uint8Array): boolean {
  if (Buffer.compare(a, b) === 0) return true;
  const ta = decodeText(a);
  const tb = decodeText(b);
  if (ta === undefined || tb === undefined) return false;
  return toLf(ta) === toLf(tb);
}
