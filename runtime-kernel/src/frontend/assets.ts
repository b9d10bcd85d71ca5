/**
 * The catch-all asset route (the reference's `asset_catch`) and `contained()`.
 *
 * A Vite surface's code refers to root-relative assets (`/vite.svg`, `/fonts/x.woff2`) that the
 * app does not route. When at least one Vite surface exists, this middleware runs after every
 * router and resolves such a path inside the frontend workspace named by the `vite_ns` cookie:
 *
 * 1. paths without a dot, under `api/`, under the kernel's static prefix (`fluid/static/`) or
 *    containing `/frontend` are not looked up;
 * 2. the cookie must name a registered namespace (an empty or unknown value is refused);
 * 3. the candidates are `<ns>/<path>` and `<ns>/public/<path>` (debug) — in production only
 *    `<ns>/public/<path>` and the build output `<ns>/dist/<path>` (a deliberate deviation: source
 *    files, dotfiles, `node_modules` and manifests are never served);
 * 4. a candidate is served only when `contained()` confirms it is a file under the root.
 *
 * A refused or unresolved request passes to `next()`, so the app answers 404.
 */
import { realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import send from 'koa-send';
import type { FluidMiddleware } from '../core/context.js';
import { KERNEL_STATIC_PREFIX } from '../core/static.js';

/** Name of the cookie naming the frontend namespace for asset lookup. */
export const VITE_NS_COOKIE = 'vite_ns';

/**
 * Resolves `parts` under `root` and answers the absolute path only when it is an existing file
 * inside `root` (after following symlinks); otherwise `undefined`.
 */
export async function contained(root: string, ...parts: string[]): Promise<string | undefined> {
  const base = resolve(root);
  const candidate = resolve(base, ...parts);
  if (!inside(base, candidate)) return undefined;
  try {
    const [realBase, realFile] = await Promise.all([realRoot(base), realpath(candidate)]);
    if (!inside(realBase, realFile)) return undefined;
    return (await stat(realFile)).isFile() ? candidate : undefined;
  } catch {
    return undefined;
  }
}

// A root's real path, resolved once per root (roots are the project's own folders).
const realRoots = new Map<string, Promise<string>>();
function realRoot(base: string): Promise<string> {
  let real = realRoots.get(base);
  if (!real) {
    real = realpath(base);
    real.catch(() => realRoots.delete(base));
    realRoots.set(base, real);
  }
  return real;
}

function inside(base: string, path: string): boolean {
  const rel = relative(base, path);
  return rel !== '' && !rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel);
}

/** Options of `assetCatch`. */
export interface AssetCatchOptions {
  /** Production: look only in `<ns>/public` and `<ns>/dist`. Default false (debug lookup). */
  production?: boolean;
}

// Decoded characters no asset path may contain: backslash, NUL, C0 controls, DEL.
const FORBIDDEN = /[\\\u0000-\u001f\u007f]/;
const STATIC_PREFIX = KERNEL_STATIC_PREFIX.slice(1) + '/';

/**
 * Why a request path is not looked up at all (rule 1 plus the segment rules), or `undefined`
 * when it may be. `path` is the decoded request path without its leading slash.
 */
export function refusedAssetPath(path: string): string | undefined {
  if (!path.includes('.')) return 'no dot';
  if (path.startsWith('api/')) return 'under api/';
  if (path.startsWith(STATIC_PREFIX)) return `under ${KERNEL_STATIC_PREFIX}`;
  if (('/' + path).includes('/frontend')) return 'contains /frontend';
  if (FORBIDDEN.test(path)) return 'backslash or control character';
  const segments = path.split('/');
  if (segments.some((s) => s === '' || s === '..' || s === '.')) return 'empty or relative segment';
  if (segments.some((s) => s.startsWith('.'))) return 'dotfile';
  if (segments.includes('node_modules')) return 'node_modules';
  return undefined;
}

/** The files a request may resolve to, in order (rule 3), before `contained()`. */
export function assetCandidates(namespace: string, path: string, production: boolean): [root: string, rel: string][] {
  if (production) return [[`${namespace}/public`, path], [`${namespace}/dist`, path]];
  return [[namespace, path], [`${namespace}/public`, path]];
}

/**
 * The catch-all middleware. `namespaces` is the live set of registered namespaces (workspace
 * folders relative to `projectRoot`, e.g. `fluid/frontend`).
 */
export function assetCatch(projectRoot: string, namespaces: ReadonlySet<string>, options: AssetCatchOptions = {}): FluidMiddleware {
  const production = options.production ?? false;
  const root = resolve(projectRoot);
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const ns = ctx.cookies.get(VITE_NS_COOKIE);
    if (!ns || !namespaces.has(ns)) return next();
    let path: string;
    try {
      path = decodeURIComponent(ctx.path.slice(1));
    } catch {
      return next();
    }
    if (refusedAssetPath(path) !== undefined) return next();
    for (const [base, rel] of assetCandidates(ns, path, production)) {
      const file = await contained(resolve(root, base), rel);
      if (!file) continue;
      await send(ctx, basename(file), { root: dirname(file), hidden: false, index: undefined, setHeaders: setEtag });
      if (ctx.fresh) {
        if (ctx.body instanceof Readable) ctx.body.destroy();
        ctx.status = 304;
        ctx.body = null;
      }
      return;
    }
    return next();
  };
}

function setEtag(res: ServerResponse, _path: string, stats: Stats): void {
  res.setHeader('ETag', `W/"${stats.size.toString(16)}-${stats.mtime.getTime().toString(16)}"`);
}
