/**
 * Static files (`/static`, `/<additive>/static`, `/fluid/static`), served by koa-send.
 *
 * koa-send applies resolve-path's rules (NUL bytes and absolute paths are 400, a path that
 * climbs out of the root with `..` is 403), decodes the path exactly once (so `%252e%252e`
 * is a file literally named `%2e%2e`, not a traversal) and hides dotfiles. On top of it:
 * backslashes and control characters are refused (400), a weak `ETag` is derived from size and
 * mtime, and conditional requests (`If-None-Match` / `If-Modified-Since`) answer 304.
 * A file that does not exist falls through to `next()`, so the app's 404 handling answers.
 */
import type { Stats } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import type Koa from 'koa';
import send from 'koa-send';
import { FrameworkException, HttpError } from './errors.js';

/** Options of `serveStatic`. */
export interface StaticOptions {
  /** `Cache-Control: max-age` in SECONDS. Default 0 (revalidate every time, using the ETag). */
  maxAge?: number;
  /** Add `immutable` to `Cache-Control` (for fingerprinted file names). Default false. */
  immutable?: boolean;
}

// Decoded path characters no file under a static root may contain: backslash, NUL, C0, DEL.
const FORBIDDEN = /[\\\u0000-\u001f\u007f]/;

/**
 * Serve files under `root` at `prefix` (e.g. `serveStatic('/static', 'fluid/static')`):
 * GET and HEAD only; any other method, a path outside the prefix, a directory or a missing
 * or hidden file passes to `next()`.
 */
export function serveStatic(prefix: string, root: string, options: StaticOptions = {}): Koa.Middleware {
  if (typeof prefix !== 'string' || !/^\/[^?#]*[^/?#]$/.test(prefix)) {
    throw new FrameworkException(`serveStatic(): prefix must start with '/' and not end with one, got ${JSON.stringify(prefix)}`);
  }
  const maxAge = options.maxAge ?? 0;
  if (!Number.isFinite(maxAge) || maxAge < 0) {
    throw new FrameworkException(`serveStatic('${prefix}'): maxAge must be a number of seconds >= 0, got ${maxAge}`);
  }
  const base = prefix + '/';
  const sendOptions: send.SendOptions = {
    root: resolve(root),
    maxage: maxAge * 1000,
    immutable: options.immutable ?? false,
    hidden: false,
    index: undefined,
    gzip: false,
    brotli: false,
    setHeaders: setEtag,
  };

  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || !ctx.path.startsWith(base)) return next();
    const relative = ctx.path.slice(base.length);
    if (relative === '') return next();
    let decoded: string;
    try {
      decoded = decodeURIComponent(relative);
    } catch {
      throw new HttpError(400, 'Static path has malformed percent-encoding');
    }
    if (FORBIDDEN.test(decoded)) throw new HttpError(400, 'Static path contains a backslash or a control character');
    let served: string | undefined;
    try {
      served = await send(ctx, relative, sendOptions);
    } catch (err) {
      const status = (err as { status?: unknown }).status;
      if (status === 404) return next();
      if (status === 400 || status === 403) {
        throw new HttpError(status, status === 403 ? 'Static path leaves its folder' : 'Malicious static path', { cause: err });
      }
      throw err;
    }
    if (served === undefined) return next(); // a directory or a dotfile
    if (ctx.fresh) {
      if (ctx.body instanceof Readable) ctx.body.destroy();
      ctx.status = 304;
      ctx.body = null;
    }
  };
}

/** Weak validator from size and mtime, the same shape `send`/`serve-static` use. */
function setEtag(res: ServerResponse, _path: string, stats: Stats): void {
  res.setHeader('ETag', `W/"${stats.size.toString(16)}-${stats.mtime.getTime().toString(16)}"`);
}
