/**
 * The plugin contract: everything beyond the core (i18n, sockets, events, the frontend, limits,
 * mail, auth, cache, ...) plugs into the app through this one interface.
 *
 * A plugin is a plain object with a unique `name` and optional hooks, each given the app, called
 * in this order:
 *
 * | Hook | When |
 * |---|---|
 * | `register(fluid)` | at `fluid.plugin(p)`: add app/context fields, routes, template helpers, hooks and middleware |
 * | `start(fluid)` | in `mix()`, before every Additive's `beforeEnable` and the startup hooks |
 * | `build(fluid)` | in `mix()`, after the startup hooks, right before the request stack is built: the last moment for routes, middleware and static mounts that depend on what the app registered |
 * | `upgrade(fluid, req, socket, head)` | for every websocket upgrade request, in registration order, until one answers `true` |
 * | `drain(fluid)` | first in `close({ drain: true })` (what `serve()` does on SIGTERM), all at once, while the app still serves: let load balancers move the traffic away |
 * | `stop(fluid)` | first in `close()` (after `drain`), before the servers stop: end long-lived connections (websockets) |
 * | `close(fluid)` | last in `close()`, after the shutdown hooks, in reverse registration order: release connections and files |
 * | `backends(fluid)` | once the app serves (`serve()`): where the plugin keeps state the app's processes must share, for the startup line and the scale-out warnings |
 *
 * Middleware goes in at a named {@link Stage} with `fluid.use(middleware, stage)` (from
 * `register` or `build`); what only needs setting up per request, with no middleware level of
 * its own, goes in as an arrival hook, `fluid.onRequest(hook)` (the request log, the security
 * headers). A plugin adds typed fields to the app or the context by declaration
 * merging and defines them in `register`:
 *
 * ```ts
 * import type { Plugin } from '@fw/kernel';
 *
 * declare module '@fw/kernel' {
 *   interface FluidCore { readonly clock: () => Date }
 *   interface FluidContextExtensions { readonly startedAt: number }
 * }
 *
 * export const clock: Plugin = {
 *   name: 'clock',
 *   register(fluid) {
 *     Object.defineProperty(fluid, 'clock', { value: () => new Date() });
 *     fluid.use(async (ctx, next) => {
 *       ctx.set('X-Started', String(Date.now()));
 *       await next();
 *     });
 *   },
 * };
 *
 * fluid.plugin(clock);
 * ```
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FluidApp } from './context.js';

/**
 * The named places in the request stack where middleware runs, in request order:
 *
 * ```
 * outer → errors + processors → first → static files → context → app → request hooks → routers → fallback → 405
 * ```
 *
 * - `outer`: every request, around the error handler and the after-request processors, so it
 *   sees the final response, error pages included (an object body already as its JSON text); it
 *   must not throw;
 * - `first`: every request, before the static files (the rate limiter's per-request state);
 * - `context`: after the static files, before the app's middleware: proxies and per-request
 *   context (the Vite dev proxy, the locale);
 * - `app`: the app's own middleware (`fluid.use(mw)`), sessions and CSRF;
 * - `fallback`: after every router, for requests no route answered (the Vite asset catch-all).
 */
export type Stage = 'outer' | 'first' | 'context' | 'app' | 'fallback';

/** The stages in request order. */
export const STAGES: readonly Stage[] = ['outer', 'first', 'context', 'app', 'fallback'];

/**
 * Where a plugin keeps state that every process of the app must see alike (`Plugin.backends`).
 * `serve()` prints them in one line at startup and warns when the deployment (`--workers`,
 * `FW_INSTANCES`) runs more processes than the backend is shared by.
 */
export interface Backend {
  /** What it holds, e.g. `cache`, `events`, `rate limits`. */
  readonly name: string;
  /** The backend, e.g. `redis`, `file`, `memory`. */
  readonly kind: string;
  /** Who sees the same state: this process only, every process on this host, or every host. */
  readonly scope: 'process' | 'host' | 'shared';
  /** What goes wrong when processes do not share it, e.g. `each process counts its own requests`. */
  readonly breaks: string;
  /** How to share it, e.g. `set CACHE_TYPE=redis and CACHE_REDIS_URL`. */
  readonly fix: string;
}

/** A plugin: a unique name and optional lifecycle hooks (see the module comment). */
export interface Plugin {
  /** Unique per app: `fluid.plugins.get(name)`; registering a second plugin of a name is an error. */
  readonly name: string;
  /** Called once by `fluid.plugin(plugin)`, before the app starts. */
  register?(fluid: FluidApp): void;
  /** Called in `mix()` before the Additives are enabled and the startup hooks run. */
  start?(fluid: FluidApp): unknown;
  /** Called in `mix()` after the startup hooks, right before the request stack is built. */
  build?(fluid: FluidApp): unknown;
  /** Takes a websocket upgrade request; answers `true` when it did (the socket is then its own). */
  upgrade?(fluid: FluidApp, req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /**
   * Called by `close({ drain: true })` before anything stops, concurrently with the other
   * plugins' `drain`; the servers keep serving until every `drain` has settled.
   */
  drain?(fluid: FluidApp): unknown;
  /** Called first by `close()` (after `drain`), before the servers stop. */
  stop?(fluid: FluidApp): unknown;
  /** Called last by `close()`, after the shutdown hooks, in reverse registration order. */
  close?(fluid: FluidApp): unknown;
  /** The backends the plugin uses (asked once the app has started; none: `[]` or no hook). */
  backends?(fluid: FluidApp): readonly Backend[];
}
