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
 * 4. a candidate is served only when `contained()` confirms it is a file under the root (in
 *    production that answer is remembered; see `assetCatch`).
 *
 * A refused or unresolved request passes to `next()`, so the app answers 404.
 */
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { KoaMiddleware } from '../core/context.js';
import { KERNEL_STATIC_PREFIX } from '../core/static.js';
import { StaticFileSender } from '../core/static-file.js';

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

/** One place a request may resolve to: `rel` under the folder `base` (absolute). */
interface Candidate {
  readonly key: string;
  readonly base: string;
  readonly rel: string;
}

/** Lookups remembered (namespace + request path → candidates); when full, all are forgotten. */
const LOOKUPS_MAX = 1000;
// The cookie as the `cookies` package reads it (unsigned): the first `vite_ns=` pair, quotes dropped.
const NS_COOKIE = new RegExp(`(?:^|;) *${VITE_NS_COOKIE}=([^;]*)`);

/** The `vite_ns` cookie's value, or `undefined`. */
function namespaceOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = NS_COOKIE.exec(header)?.[1];
  return value !== undefined && value.startsWith('"') ? value.slice(1, -1) : value;
}

/**
 * The catch-all middleware. `namespaces` is the live set of registered namespaces (workspace
 * folders relative to `projectRoot`, e.g. `fluid/frontend`).
 */
export function assetCatch(projectRoot: string, namespaces: ReadonlySet<string>, options: AssetCatchOptions = {}): KoaMiddleware {
  const production = options.production ?? false;
  const root = resolve(projectRoot);
  // Production serves build output, so what `contained()` found is remembered: a file found
  // inside its root stays trusted (it is still stat'ed on every request, and a vanished file is
  // looked up again), a missing one is looked up again after a second. Debug looks every time.
  const facts = production ? new CandidateFacts() : undefined;
  const sender = new StaticFileSender('max-age=0');
  // The rules of a request path are a pure function of it: decoded and checked once.
  const lookups = new Map<string, readonly Candidate[] | null>();
  const candidatesOf = (ns: string, rawPath: string): readonly Candidate[] | null => {
    const key = `${ns}\0${rawPath}`;
    let found = lookups.get(key);
    if (found !== undefined) return found;
    found = null;
    let path: string | undefined;
    try {
      path = decodeURIComponent(rawPath.slice(1));
    } catch {
      path = undefined;
    }
    if (path !== undefined && refusedAssetPath(path) === undefined) {
      found = assetCandidates(ns, path, production).map(([base, rel]) => ({ key: `${base}\0${rel}`, base: resolve(root, base), rel }));
    }
    if (lookups.size >= LOOKUPS_MAX) lookups.clear();
    lookups.set(key, found);
    return found;
  };
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const ns = namespaceOf(ctx.req.headers.cookie);
    if (!ns || !namespaces.has(ns)) return next();
    const candidates = candidatesOf(ns, ctx.path);
    if (candidates === null) return next();
    for (const { key, base, rel } of candidates) {
      let file = facts?.get(key);
      if (file === null) continue;
      if (file === undefined) {
        file = await contained(base, rel);
        facts?.set(key, file ?? null);
        if (!file) continue;
      }
      if (await sender.send(ctx, file, base)) return;
      facts?.forget(key); // removed since it was found: look again next time
    }
    return next();
  };
}

/** How long a candidate found missing stays known as missing, in ms. */
const MISSING_FOR_MS = 1000;
/** Facts kept at most; when full they are all dropped (so hostile paths cannot grow memory). */
const FACTS_MAX = 10_000;

/** What `contained()` said about a candidate: its file (kept), or `null` (missing, for a second). */
class CandidateFacts {
  readonly #found = new Map<string, string>();
  readonly #missing = new Map<string, number>();

  /** The file, `null` when recently missing, `undefined` when unknown. */
  get(key: string): string | null | undefined {
    const file = this.#found.get(key);
    if (file !== undefined) return file;
    const until = this.#missing.get(key);
    if (until === undefined) return undefined;
    if (until > Date.now()) return null;
    this.#missing.delete(key);
    return undefined;
  }

  set(key: string, file: string | null): void {
    const map = file === null ? this.#missing : this.#found;
    if (map.size >= FACTS_MAX) map.clear();
    if (file === null) this.#missing.set(key, Date.now() + MISSING_FOR_MS);
    else this.#found.set(key, file);
  }

  forget(key: string): void {
    this.#found.delete(key);
  }
}
