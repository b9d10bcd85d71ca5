/**
 * The front-end libraries the kernel serves at `/fluid/static/vendor/<name>`, straight from the
 * installed npm packages `htmx.org` and `@alpinejs/csp` (or `alpinejs`), never a CDN.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import send from 'koa-send';
import type { KoaMiddleware } from '../core/context.js';
import { FrameworkException } from '../core/errors.js';
import { KERNEL_STATIC_PREFIX } from '../core/static.js';

/** URL of htmx, served from the installed `htmx.org` package. */
export const HTMX_URL = `${KERNEL_STATIC_PREFIX}/vendor/htmx.min.js`;
/** URL of Alpine, served from the installed `alpinejs` package. */
export const ALPINE_URL = `${KERNEL_STATIC_PREFIX}/vendor/alpine.min.js`;

const require = createRequire(import.meta.url);

/** A file inside an installed npm package. Throws naming the package when it is missing. */
export function packageFile(pkg: string, file: string): string {
  let root: string;
  try {
    root = dirname(require.resolve(`${pkg}/package.json`));
  } catch (err) {
    throw new FrameworkException(`The npm package '${pkg}' is not installed (needed for ${file}); run npm install`, { cause: err });
  }
  const path = join(root, file);
  if (!existsSync(path)) throw new FrameworkException(`The npm package '${pkg}' has no ${file}`);
  return path;
}

/**
 * `vendor/<name>` → file, for the front-end libraries the kernel serves. Alpine is its CSP build
 * (`@alpinejs/csp`, expressions evaluated without `new Function`) unless `alpine` is `standard`
 * (`FW_ALPINE_BUILD`).
 */
export function vendorFiles(alpine: 'csp' | 'standard' = 'csp'): ReadonlyMap<string, string> {
  return new Map([
    ['htmx.min.js', packageFile('htmx.org', 'dist/htmx.min.js')],
    ['alpine.min.js', alpine === 'csp' ? packageFile('@alpinejs/csp', 'dist/cdn.min.js') : packageFile('alpinejs', 'dist/cdn.min.js')],
  ]);
}

/** Serves exactly the vendor files under `/fluid/static/vendor/` (GET/HEAD, ETag, 304). */
export function serveVendor(files: ReadonlyMap<string, string> = vendorFiles()): KoaMiddleware {
  const prefix = `${KERNEL_STATIC_PREFIX}/vendor/`;
  return async (ctx, next) => {
    if (!ctx.path.startsWith(prefix) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    const file = files.get(ctx.path.slice(prefix.length));
    if (!file) return next();
    await send(ctx, basename(file), {
      root: dirname(file),
      maxage: 3_600_000,
      setHeaders: (res, _path, stats) =>
        res.setHeader('ETag', `W/"${stats.size.toString(16)}-${stats.mtime.getTime().toString(16)}"`),
    });
    if (ctx.fresh) {
      if (ctx.body instanceof Readable) ctx.body.destroy();
      ctx.status = 304;
      ctx.body = null;
    }
  };
}
