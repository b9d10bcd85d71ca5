/**
 * Sanitising `?redirect=` targets (reference "Authentication" 6): only a same-site absolute
 * path survives; everything else becomes `/`.
 */

const PROBE_ORIGIN = 'http://fw.invalid';
const MAX_LENGTH = 2048;
// Backslash, C0 controls (tab, CR, LF, NUL, ...), DEL and the C1 range: browsers strip or
// reinterpret these, which is how `/\evil.com` and `/\t/evil.com` become `//evil.com`.
const FORBIDDEN = /[\\\u0000-\u001f\u007f-\u009f]/;

/**
 * Return `value` as a safe same-site path (`/a/b?c=d#e`), or `/` when it is anything else:
 * not a string, an absolute or protocol-relative URL (`https://x`, `//x`, `/\x`, `\\x`), a
 * `javascript:` URL, a value with backslashes or control characters (raw or percent-encoded,
 * at any depth of encoding), or a path whose normalised form would start with `//`.
 * The result is the URL-normalised path, query and fragment, safe for a `Location` header.
 */
export function safeRedirect(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_LENGTH) return '/';
  if (!value.startsWith('/') || value.startsWith('//') || FORBIDDEN.test(value)) return '/';
  const decoded = decodeFully(value);
  if (decoded === undefined || decoded.startsWith('//') || FORBIDDEN.test(decoded)) return '/';
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return '/';
  }
  if (url.origin !== PROBE_ORIGIN || url.username || url.password) return '/';
  const path = url.pathname + url.search + url.hash;
  // `/.//evil.com` and `/%2e%2e//evil.com` normalise to `//evil.com`.
  const decodedPath = decodeFully(url.pathname);
  if (path.startsWith('//') || decodedPath === undefined || decodedPath.startsWith('//')) return '/';
  return path;
}

/** Percent-decode until stable (catches double and triple encoding); undefined if malformed. */
function decodeFully(value: string): string | undefined {
  let current = value;
  for (let round = 0; round < 5; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return undefined;
    }
    if (next === current) return current;
    current = next;
  }
  return undefined;
}
