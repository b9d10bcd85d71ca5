/**
 * A tiny Koa + @koa/router app wired the way the kernel wires rate limits:
 * error handler → rate limiter middleware → routers whose routes go through withDefaultLimit.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Router from '@koa/router';
import Koa from 'koa';
import { defaultMessage, HttpError, type Logger } from '@fw/kernel/core';
import {
  createRateLimiter,
  withDefaultLimit,
  type RateLimitConfig,
  type RateLimiter,
} from '@fw/kernel/limits';

/** A logger that keeps its lines. */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push(`${level} ${message}${fields ? ' ' + JSON.stringify(Object.keys(fields)) : ''}`);
  };
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** Route definer: `route('get', '/x', ...handlers)`. */
export type Define = (method: 'get' | 'post', path: string, ...handlers: Koa.Middleware[]) => void;

export interface TestApp {
  url: string;
  app: Koa;
  limiter: RateLimiter | undefined;
  /** Errors the handler saw that were not HttpErrors. */
  faults: Error[];
  close(): Promise<void>;
}

export const baseConfig: RateLimitConfig = { CACHE_TYPE: 'memory', PROXY_FIX: false, PROXY_TRUSTED_HOSTS: [] };

/** Start an app on 127.0.0.1:0. `install: false` leaves the rate limiter middleware out. */
export async function startApp(
  config: Partial<RateLimitConfig>,
  define: (route: Define, app: Koa) => void,
  options: { logger?: Logger; install?: boolean } = {},
): Promise<TestApp> {
  const app = new Koa();
  const faults: Error[] = [];
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (err instanceof HttpError) {
        ctx.status = err.status;
        ctx.set(err.headers);
        ctx.body = { error: err.expose ? err.message : defaultMessage(err.status) };
      } else {
        faults.push(err as Error);
        ctx.status = 500;
        ctx.body = { error: (err as Error).message };
      }
    }
  });
  const limiter =
    options.install === false
      ? undefined
      : createRateLimiter({ config: { ...baseConfig, ...config }, logger: options.logger ?? memoryLogger() });
  if (limiter) app.use(limiter.middleware);
  const router = new Router();
  const route: Define = (method, path, ...handlers) => {
    router[method](path, ...(withDefaultLimit(handlers) as Koa.Middleware[]));
  };
  define(route, app);
  app.use(router.routes());
  app.use((ctx) => {
    ctx.status = 404;
    ctx.body = { error: 'Not Found' };
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    limiter,
    faults,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await limiter?.close();
    },
  };
}

/** A handler answering `ok`. */
export const ok: Koa.Middleware = (ctx) => {
  ctx.body = 'ok';
};

/** GET `url` with `headers`; returns status, headers and text. */
export async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}
