/**
 * Static files (`/static`, `/<additive>/static`, `/fluid/static`).
 *
 * The path rules are koa-send's (resolve-path's): NUL bytes and absolute paths are 400, a path
 * that climbs out of the root with `..` is 403, the path is decoded exactly once (so `%252e%252e`
 * is a file literally named `%2e%2e`, not a traversal) and dotfiles are hidden. On top of them:
 * backslashes and control characters are refused (400). A request path's outcome is a pure
 * function of the path, so the file it names is remembered per path.
 *
 * The file itself is answered by `StaticFileSender` (`static-file.ts`): a weak `ETag` from size
 * and mtime, `Last-Modified`, `Cache-Control`, and 304 for a fresh conditional request
 * (`If-None-Match` / `If-Modified-Since`), the headers and small files' bytes kept per file and
 * checked with one `stat` per request. A file that does not exist falls through to `next()`,
 * so the app's 404 handling answers; so does a symlink whose real path leaves the root (a link to
 * another file of the root is served).
 */
import { isAbsolute, join, normalize, resolve, sep, win32 } from 'node:path';
import type { KoaMiddleware } from './context.js';
import { FrameworkException, HttpError } from './errors.js';
import { StaticFileSender } from './static-file.js';

/** Options of `serveStatic`. */
export interface StaticOptions {
  /** `Cache-Control: max-age` in SECONDS. Default 0 (revalidate every time, using the ETag). */
  maxAge?: number;
  /** Add `immutable` to `Cache-Control` (for fingerprinted file names). Default false. */
  immutable?: boolean;
}

// Decoded path characters no file under a static root may contain: backslash, NUL, C0, DEL.
const FORBIDDEN = /[\\\u0000-\u001f\u007f]/;
// A `..` segment (resolve-path's test, after normalising).
const UP_PATH = /(?:^|[\\/])\.\.(?:[\\/]|$)/;
/** The `code` of a 400 answer (JSON clients get `{"error","code"}`, as for the kernel's other refusals). */
const INVALID = { code: 'INVALID_STATIC_PATH' } as const;

/** Request paths remembered per mount; when full, all are forgotten (hostile paths cannot grow it). */
const PATHS_MAX = 1000;

/**
 * Serve files under `root` at `prefix` (e.g. `serveStatic('/static', 'fluid/static')`):
 * GET and HEAD only; any other method, a path outside the prefix, a directory or a missing
 * or hidden file passes to `next()`.
 */
export function serveStatic(prefix: string, root: string, options: StaticOptions = {}): KoaMiddleware {
  if (typeof prefix !== 'string' || !/^\/[^?#]*[^/?#]$/.test(prefix)) {
    throw new FrameworkException(`serveStatic(): prefix must start with '/' and not end with one, got ${JSON.stringify(prefix)}`);
  }
  const maxAge = options.maxAge ?? 0;
  if (!Number.isFinite(maxAge) || maxAge < 0) {
    throw new FrameworkException(`serveStatic('${prefix}'): maxAge must be a number of seconds >= 0, got ${maxAge}`);
  }
  const base = prefix + '/';
  const dir = normalize(resolve(root));
  const sender = new StaticFileSender(`max-age=${Math.trunc(maxAge)}${options.immutable ? ',immutable' : ''}`);
  // Request path → the file it names, or null (hidden, or the root itself: pass on).
  const files = new Map<string, string | null>();

  return (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || !ctx.path.startsWith(base)) return next();
    const path = ctx.path;
    let file = files.get(path);
    if (file === undefined) {
      file = fileOf(dir, path.slice(base.length)); // throws the 400 and 403 answers
      if (files.size >= PATHS_MAX) files.clear();
      files.set(path, file);
    }
    if (file === null) return next();
    return sender.send(ctx, file, dir).then((sent) => (sent ? undefined : next()));
  };
}

/**
 * The file under `root` that `relative` (the still-encoded path after the prefix) names, `null`
 * when nothing is to be served (empty, hidden, the root itself); throws `HttpError` 400/403.
 */
function fileOf(root: string, relative: string): string | null {
  if (relative === '') return null;
  let path: string;
  try {
    path = decodeURIComponent(relative);
  } catch {
    throw new HttpError(400, 'Static path has malformed percent-encoding', INVALID);
  }
  if (FORBIDDEN.test(path)) throw new HttpError(400, 'Static path contains a backslash or a control character', INVALID);
  if (relative.startsWith('/')) path = path.slice(1); // koa-send drops the root of the raw path: `//x` stays absolute
  if (isAbsolute(path) || win32.isAbsolute(path)) throw new HttpError(400, 'Malicious static path', INVALID);
  if (UP_PATH.test(normalize('.' + sep + path))) throw new HttpError(403, 'Static path leaves its folder', { code: 'STATIC_PATH_OUTSIDE' });
  const file = join(root, path);
  // Hidden: any segment under the root starting with a dot (koa-send's rule, after normalising).
  for (const segment of file.slice(root.length).split(sep)) if (segment.startsWith('.')) return null;
  return file === root || file === root + sep ? null : file;
}
