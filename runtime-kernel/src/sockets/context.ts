/**
 * The request-like context of websocket code: an AsyncLocalStorage holding the `FluidContext`
 * built on a connection's upgrade request. Upgrade hooks, guards, the route handler and every
 * message handled by the `SocketManager` (queries included) run inside it, so code that cannot
 * be handed `ctx` still finds the connection's cookies, headers, user (`ctx.state.user`), locale
 * and `urlFor` through `currentContext()`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { FrameworkException } from '../core/errors.js';
import type { FluidContext } from '../core/context.js';

const storage = new AsyncLocalStorage<FluidContext>();

/** The context of the websocket connection being served, or `undefined` outside one. */
export function currentContext(): FluidContext | undefined {
  return storage.getStore();
}

/** Like `currentContext()`, but throws a `FrameworkException` outside a connection. */
export function requireContext(): FluidContext {
  const ctx = storage.getStore();
  if (!ctx) throw new FrameworkException('currentContext(): not inside a websocket connection (upgrade hook, guard, socket handler or query)');
  return ctx;
}

/** Runs `fn` with `ctx` as the current context (and every async continuation of it). */
export function runWithContext<T>(ctx: FluidContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

/** The current connection context: `FluidContext.current()` in the reference's words. */
export const SocketContext = { current: currentContext, require: requireContext, run: runWithContext } as const;
