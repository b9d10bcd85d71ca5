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
 * | `stop(fluid)` | first in `close()`, before the servers stop: end long-lived connections (websockets) |
 * | `close(fluid)` | last in `close()`, after the shutdown hooks, in reverse registration order: release connections and files |
 *
 * Middleware goes in at a named {@link Stage} with `fluid.use(middleware, stage)` (from
 * `register` or `build`). A plugin adds typed fields to the app or the context by declaration
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
 *   sees the final response, error pages included (the security headers); it must not throw;
 * - `first`: every request, before the static files (the rate limiter's per-request state);
 * - `context`: after the static files, before the app's middleware: proxies and per-request
 *   context (the Vite dev proxy, the locale);
 * - `app`: the app's own middleware (`fluid.use(mw)`), sessions and CSRF;
 * - `fallback`: after every router, for requests no route answered (the Vite asset catch-all).
 */
export type Stage = 'outer' | 'first' | 'context' | 'app' | 'fallback';

/** The stages in request order. */
export const STAGES: readonly Stage[] = ['outer', 'first', 'context', 'app', 'fallback'];

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
  /** Called first by `close()`, before the servers stop. */
  stop?(fluid: FluidApp): unknown;
  /** Called last by `close()`, after the shutdown hooks, in reverse registration order. */
  close?(fluid: FluidApp): unknown;
}
