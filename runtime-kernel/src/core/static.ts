/**
 * The kernel's static mounts: `/fluid/static` (the kernel's own files), `/static` (the app),
 * `/<additive>/static`, and whatever plugins mount (`fluid.mountStatic`), all behind one
 * dispatcher.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FluidMiddleware } from './context.js';
import { serveStatic } from './serve-static.js';

/** The kernel package folder (holding `static/`, `templates/` and `locales/`), from `src/` or `dist/`. */
export const KERNEL_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The kernel's own static folder, served at `/fluid/static`. */
export const KERNEL_STATIC_DIR = join(KERNEL_DIR, 'static');
/** The kernel's own templates (default error pages). */
export const KERNEL_TEMPLATES_DIR = join(KERNEL_DIR, 'templates');
/** Where the kernel serves its own static files. */
export const KERNEL_STATIC_PREFIX = '/fluid/static';

/** A static mount: the files of `dir` at `prefix`, or a middleware answering under `prefix`. */
export type StaticMount =
  | { readonly prefix: string; readonly dir: string }
  | { readonly prefix: string; readonly middleware: FluidMiddleware };

/**
 * One middleware for every static mount (safe path rules, ETag, HEAD; see `serve-static`): the
 * longest matching prefix wins, and a request outside every prefix costs one prefix scan.
 */
export function serveMounts(mounts: readonly StaticMount[]): FluidMiddleware {
  const table = mounts
    .map((m) => ({ base: m.prefix + '/', serve: 'dir' in m ? (serveStatic(m.prefix, m.dir) as FluidMiddleware) : m.middleware }))
    .sort((a, b) => b.base.length - a.base.length);
  return (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const path = ctx.path;
    for (const m of table) if (path.startsWith(m.base)) return m.serve(ctx, next);
    return next();
  };
}
