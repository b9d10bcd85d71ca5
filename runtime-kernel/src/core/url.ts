/**
 * The route table behind `urlFor`: every named route of the app, its API, its sockets and its
 * Additives, usable in a request and off-request alike.
 */
import { FrameworkException } from './errors.js';

/** Values for a route's `:params`. Parameters the path does not name go to the query string. */
export type UrlParams = Record<string, string | number | boolean>;

/** A query string value: repeated keys come from arrays; `undefined`/`null` entries are left out. */
export type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number | boolean>;

/** Options of `urlFor`. */
export interface UrlForOptions {
  /** Query parameters, URL-encoded. */
  query?: Record<string, QueryValue>;
  /** Prefix the URL with `BASE_URL` (an error when `BASE_URL` is not set). */
  external?: boolean;
}

/** What the table needs of a `@koa/router` `Layer`. */
export interface RouteLayer {
  /** The route's path pattern, e.g. `/users/:id`. */
  readonly path: string | RegExp;
  /** The named parameters of the pattern, in order. */
  readonly paramNames: ReadonlyArray<{ name: string | number }>;
  /** The path with `params` filled in. */
  url(params: Record<string, string>): string;
  /** Whether `path` matches the pattern. */
  match(path: string): boolean;
  /** The pattern's captures in `path` (undecoded), in order. */
  captures(path: string): string[];
  /** The named parameters of `path` from its `captures`, added to `existing`. */
  params(path: string, captures: string[], existing?: Record<string, string>): Record<string, string>;
}

/** A route as the table records it. */
export interface RouteEntry {
  /** The full route name (an Additive's routes carry its `<name>.` prefix). */
  readonly name: string;
  /** The full path pattern, the router's prefix included, e.g. `/api/users/:id`. */
  readonly path: string;
  /** The HTTP methods it answers (`GET` routes also `HEAD`); `['*']` for every method. */
  readonly methods: readonly string[];
  /** `app`, `api`, `ws`, or `<additive>.app` / `.api` / `.ws`. */
  readonly mount: string;
  /** The router's layer, which matches paths and builds URLs. */
  readonly layer: RouteLayer;
}

/** All named routes of one application. */
export class RouteTable {
  readonly #routes = new Map<string, RouteEntry>();

  /** Throws when `name` is taken, naming the route that holds it. */
  check(name: string, path: string, mount: string): void {
    const existing = this.#routes.get(name);
    if (existing) {
      throw new FrameworkException(
        `Route name '${name}' is already used by ${existing.methods.join(',')} ${existing.path} (${existing.mount}); ` +
          `cannot reuse it for ${path} (${mount})`,
      );
    }
  }

  /** Records a named route; a name used twice is an error naming both routes. */
  add(entry: RouteEntry): void {
    this.check(entry.name, entry.path, entry.mount);
    this.#routes.set(entry.name, entry);
  }

  /** The route with this name, if any. */
  get(name: string): RouteEntry | undefined {
    return this.#routes.get(name);
  }

  /** Every recorded route, in registration order. */
  entries(): RouteEntry[] {
    return [...this.#routes.values()];
  }

  /**
   * Builds the path (or, with `external`, the absolute URL under `baseUrl`) of a named route.
   * Params and query values are URL-encoded.
   */
  url(name: string, params: UrlParams = {}, options: UrlForOptions = {}, baseUrl?: string): string {
    const route = this.#routes.get(name);
    if (!route) {
      const close = closeMatches(name, [...this.#routes.keys()]);
      throw new FrameworkException(
        `urlFor: no route named '${name}'` +
          (close.length ? `; did you mean ${close.map((n) => `'${n}'`).join(', ')}?` : '') +
          (this.#routes.size ? '' : ' (no named routes are registered)'),
      );
    }
    const names = new Set(route.layer.paramNames.map((k) => String(k.name)));
    const pathParams: Record<string, string> = {};
    const extra: Record<string, QueryValue> = {};
    for (const [k, v] of Object.entries(params)) {
      if (names.has(k)) pathParams[k] = String(v);
      else extra[k] = v;
    }
    const missing = [...names].filter((n) => !(n in pathParams) && !isOptional(route.path, n));
    if (missing.length) {
      throw new FrameworkException(
        `urlFor('${name}'): missing parameter${missing.length > 1 ? 's' : ''} ${missing.join(', ')} for ${route.path}`,
      );
    }
    let url: string;
    try {
      url = route.layer.url(pathParams);
    } catch (err) {
      throw new FrameworkException(`urlFor('${name}'): ${(err as Error).message} (route ${route.path})`, { cause: err });
    }
    const qs = queryString({ ...extra, ...options.query });
    if (qs) url += `?${qs}`;
    if (options.external) {
      if (!baseUrl) {
        throw new FrameworkException(`urlFor('${name}', …, { external: true }) needs BASE_URL to be set in the config`);
      }
      url = baseUrl.replace(/\/+$/, '') + url;
    }
    return url;
  }
}

function isOptional(path: string, param: string): boolean {
  return new RegExp(`\\{[^}]*[:*]${param}[^}]*\\}`).test(path);
}

/** `a=1&b=x%20y&c=1&c=2`, skipping null/undefined values. */
export function queryString(query: Record<string, QueryValue>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    const values = Array.isArray(v) ? (v as ReadonlyArray<string | number | boolean>) : [v as string | number | boolean];
    for (const one of values) parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(one))}`);
  }
  return parts.join('&');
}

/** Up to five names close to `name` (shared substring or small edit distance). */
export function closeMatches(name: string, names: string[]): string[] {
  const lower = name.toLowerCase();
  return names
    .map((n) => ({ n, d: distance(lower, n.toLowerCase()) }))
    .filter(({ n, d }) => d <= Math.max(2, Math.floor(name.length / 3)) || n.toLowerCase().includes(lower) || lower.includes(n.toLowerCase()))
    .sort((a, b) => a.d - b.d)
    .slice(0, 5)
    .map(({ n }) => n);
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}
