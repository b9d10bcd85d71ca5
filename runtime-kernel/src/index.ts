/**
 * `@fw/kernel`: the Koa kernel every fw app runs on. The root export is what a typical
 * `fluid/app.ts` needs; everything else is a subpath per plugin (`@fw/kernel/auth`,
 * `@fw/kernel/i18n`, ...) or the core's own (`@fw/kernel/core`).
 *
 * ```ts
 * import { Fluid } from '@fw/kernel';
 * export const fluid = new Fluid({ root: new URL('..', import.meta.url) });
 * fluid.app.get('home', '/', (ctx) => ctx.render('index.html', { title: 'my-app' }));
 * export default fluid;
 * ```
 */
// The built-in plugins' declaration merging (`fluid.events`, `ctx.locale`, ...) reaches every app
// that imports the root.
import './events/index.js';
import './sockets/index.js';
import './frontend/index.js';
import './i18n/index.js';
import './mail/index.js';
import './cache/index.js';
import './health/index.js';
import './logging/index.js';
import './body/index.js';

export { Fluid } from './fluid.js';
export { FluidCore } from './core/fluid.js';
export type { FluidOptions, LifecycleHook, AfterRequestHook, ArrivalHook, CloseOptions } from './core/fluid.js';
export type { Plugin, Stage, Backend } from './core/plugin.js';
export { Additive } from './core/additive.js';
export type { AdditiveOptions, BeforeEnableHook } from './core/additive.js';
export type { FluidApp, FluidContext, FluidContextExtensions, FluidState, FluidMiddleware, Handler, KoaContext, KoaMiddleware, KoaRouterFields, KoaRouterMiddleware, Next } from './core/context.js';
export type { HttpRouter, BeforeRequestHook, AfterValueHook } from './core/router.js';
export type { WsRouter, WsHandler, WsGuard, WsRouteOptions } from './core/ws-router.js';
export type { UrlParams, UrlForOptions } from './core/url.js';
export type { TemplateData } from './core/templates.js';
export { serve, serveArgs, startupFailed } from './core/serve.js';
export type { ServeOptions, Served } from './core/serve.js';
export { FrameworkException, HttpError, ConfigError } from './core/errors.js';
export type { HttpErrorOptions, Logger } from './core/errors.js';
export type { Config } from '@fw/schemas';
export { Markup, escape, joinHtml } from './core/markup.js';
