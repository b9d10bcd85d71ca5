/**
 * The kernel's static mounts: `/fluid/static` (the kernel's own files), its `vendor/` files served
 * straight from the installed npm packages, `/static` (the app) and `/<additive>/static`.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import send from 'koa-send';
import { FrameworkException } from './errors/index.js';
import { serveStatic } from './surface/static.js';
import { KERNEL_STATIC_PREFIX } from './templates/frontend.js';
import type { FluidMiddleware } from './context.js';

/** The kernel package folder (holding `static/` and `templates/`), from `src/` or `dist/`. */
export const KERNEL_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The kernel's own static folder, served at `/fluid/static`. */
export const KERNEL_STATIC_DIR = join(KERNEL_DIR, 'static');
/** The kernel's own templates (default error pages). */
export const KERNEL_TEMPLATES_DIR = join(KERNEL_DIR, 'templates');

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

/** `vendor/<name>` → file, for the front-end libraries the kernel serves. */
export function vendorFiles(): ReadonlyMap<string, string> {
  return new Map([
    ['htmx.min.js', packageFile('htmx.org', 'dist/htmx.min.js')],
    ['alpine.min.js', packageFile('alpinejs', 'dist/cdn.min.js')],
  ]);
}

/** Serves exactly the vendor files at `/fluid/static/vendor/<name>` (GET/HEAD, ETag, 304). */
export function serveVendor(files: ReadonlyMap<string, string> = vendorFiles()): FluidMiddleware {
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

/** A static mount: files of `dir` at `prefix`. */
export interface StaticMount {
  readonly prefix: string;
  readonly dir: string;
}

/**
 * One middleware for every static mount (safe path rules, ETag, HEAD; see `surface/static`),
 * plus the vendor files: a request outside every prefix costs one prefix scan.
 */
export function serveMounts(mounts: readonly StaticMount[], vendor?: FluidMiddleware): FluidMiddleware {
  const table = mounts.map((m) => ({ base: m.prefix + '/', serve: serveStatic(m.prefix, m.dir) as FluidMiddleware }));
  if (vendor) table.unshift({ base: `${KERNEL_STATIC_PREFIX}/vendor/`, serve: vendor });
  return (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const path = ctx.path;
    for (const m of table) if (path.startsWith(m.base)) return m.serve(ctx, next);
    return next();
  };
}
