/**
 * Type test, checked by `npx tsc -p test --noEmit` (strict): the middleware `@fw/kernel` hands out
 * (`limit()`, `exempt()`, `serveStatic()`, the auth guards, `csrfMiddleware()`,
 * `sessionMiddleware()`, `serveVendor()`, `assetCatch()`) is a `KoaMiddleware`, which a fluid route,
 * `fluid.use`, a plain `@koa/router` Router, Koa's `app.use` and a `Koa.Middleware[]` all accept,
 * and whose `ctx` is Koa's context, not `any`; and `fluid.use` takes a plain Router's `routes()` and
 * `allowedMethods()`. Each `@ts-expect-error` line is a mistake tsc must still report. Nothing here
 * runs.
 */
import Router from '@koa/router';
import Koa from 'koa';
import type { FluidContext, FluidContextExtensions, FluidMiddleware, FluidState, Fluid, KoaContext, KoaMiddleware } from '@fw/kernel';
import { csrfMiddleware, EmailVerifiedGate, requireRole, requireUser, sessionMiddleware, type Auth, type Guard } from '@fw/kernel/auth';
import { serveStatic } from '@fw/kernel/core';
import { assetCatch, serveVendor } from '@fw/kernel/frontend';
import { createRateLimiter, exempt, limit } from '@fw/kernel/limits';

declare const fluid: Fluid;
declare const auth: Auth;

const portable: KoaMiddleware[] = [
  limit('5/minute'),
  limit('5/minute', { key: (ctx) => ctx.get('X-Api-Key') }),
  exempt(),
  serveStatic('/files', 'uploads'),
  requireUser,
  EmailVerifiedGate,
  requireRole('editor'),
  csrfMiddleware(auth),
  sessionMiddleware(auth),
  serveVendor(),
  assetCatch('.', new Set<string>()),
  createRateLimiter({ config: { CACHE_TYPE: 'memory', PROXY_FIX: false, PROXY_TRUSTED_HOSTS: [] }, logger: fluid.logger }).middleware,
];

// A fluid app: routes (before the handler, whose ctx stays a FluidContext) and app middleware.
fluid.app.get('report', '/report', requireUser, limit('10/minute'), (ctx) => ctx.clientAddress);
fluid.api.post('upload', '/upload', requireRole('editor'), exempt(), (ctx) => ({ by: ctx.state['user'] }));
fluid.app.use(limit('100/minute'));
fluid.use(serveStatic('/files', 'uploads'));
const inFluid: FluidMiddleware = async (ctx, next) => {
  await requireUser(ctx, next);
  await limit('1/second')(ctx, next);
};
fluid.use(inFluid);

// A plain @koa/router Router and a plain Koa app.
const router = new Router();
router.get('/report', requireUser, limit('10/minute'), (ctx) => {
  ctx.body = { id: ctx.params['id'] };
});
router.post('/upload', exempt(), csrfMiddleware(auth), (ctx) => {
  ctx.status = 204;
});
router.use(limit('100/minute'), ...portable);
const stated = new Router<{ user: string }>();
stated.get('/me', requireUser, limit('1/second'), (ctx) => {
  ctx.body = ctx.state.user.toUpperCase();
});
const koa = new Koa();
koa.use(serveStatic('/files', 'uploads')).use(limit('100/minute')).use(requireUser);
koa.use(router.routes());
const plain: Koa.Middleware[] = [...portable, requireUser, limit('1/second')];
koa.use(async (ctx, next) => {
  await requireUser(ctx, next);
  await serveStatic('/files', 'uploads')(ctx, next);
});

// A plain @koa/router Router mounted on the app: fluid.use takes its routes() and allowedMethods().
const mounted = new Router();
mounted.get('/items/:id', (ctx) => {
  ctx.body = ctx.params['id'];
});
fluid.use(mounted.routes()).use(mounted.allowedMethods());
fluid.use(mounted.allowedMethods({ throw: true }), 'fallback');
// On the app's state and context, its routes see ctx.state, ctx.fluid, ctx.urlFor, ... typed.
const onApp = new Router<FluidState, FluidContextExtensions>({ prefix: '/koa' });
onApp.get('/items/:id', requireUser, (ctx) => {
  const tenant: unknown = ctx.state['tenant'];
  ctx.body = { id: ctx.params['id'], tenant, client: ctx.clientAddress, home: ctx.urlFor('home') };
  // @ts-expect-error ctx.state holds `unknown` values: narrow them first
  const count: number = ctx.state['count'];
  // @ts-expect-error the context has no such field
  void ctx.missing;
  return count;
});
fluid.use(onApp.routes());
fluid.use(onApp.allowedMethods());
// @ts-expect-error a Router whose state the app does not have (`ctx.state.user` is not guaranteed)
fluid.use(new Router<{ user: string }>().routes());
// @ts-expect-error fluid.use's own middleware still gets a FluidContext, mistakes and all
fluid.use((ctx: number) => ctx);
fluid.use(async (ctx, next) => {
  // @ts-expect-error an unannotated middleware's ctx is a FluidContext
  void ctx.missing;
  await next();
});

// The ctx these functions take is Koa's, typed: no `any` to hide a mistake.
const seen = (ctx: KoaContext): string => `${ctx.method} ${ctx.path} ${ctx.get('Host')}`;
// @ts-expect-error ctx.state is `unknown` to a limit's key: narrow it first
limit('5/minute', { key: (ctx) => ctx.state.user.id });
// @ts-expect-error KoaContext has no fluid fields: a key function cannot assume a fw app
limit('5/minute', { key: (ctx) => ctx.clientAddress });
// @ts-expect-error middleware that needs a FluidContext is not portable
const fluidOnly: KoaMiddleware = (ctx: FluidContext, next) => next();
// @ts-expect-error a guard's check needs the request of a fw app, not any Koa context
const checked = (ctx: Koa.Context) => requireUser.check(ctx);
// @ts-expect-error a middleware is called with a context
void requireUser('ctx', async () => undefined);
// @ts-expect-error a Guard is made by guard(), not by any function
const notAGuard: Guard = async (_ctx: KoaContext, next: () => Promise<unknown>) => next();

export { checked, fluidOnly, notAGuard, plain, seen, stated };
