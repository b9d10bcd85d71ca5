/**
 * The request context every fw handler receives: Koa's context extended with the app (`fluid`),
 * `render`, `urlFor`, `clientAddress` and the route `params`.
 *
 * Plugins add their own fields by declaration merging, e.g. the i18n plugin:
 *
 * ```ts
 * declare module '@fw/kernel' {
 *   interface FluidContextExtensions { readonly locale: string }
 * }
 * ```
 */
import type { RouterInstance } from '@koa/router';
import type Koa from 'koa';
import type { Markup } from './markup.js';
import type { TemplateData } from './templates.js';
import type { UrlForOptions, UrlParams } from './url.js';

/**
 * The app as handlers, hooks and plugins see it: `FluidCore` with every plugin's fields
 * (core/fluid.ts makes it extend `FluidCore`; it is declared here so that the modules the app
 * object is built from need not import it, which keeps the core free of import cycles).
 */
export interface FluidApp {}

/** `ctx.state`: free-form per-request data shared by middleware and handlers. */
export interface FluidState {
  /** Any field; read it as `unknown` and narrow it (plugins declare theirs by declaration merging). */
  [key: string]: unknown;
}

/** What fw adds to Koa's context (plugins merge their fields into this interface). */
export interface FluidContextExtensions {
  /** The application serving this request. */
  readonly fluid: FluidApp;
  /** Renders a template (app templates override additives' and the kernel's) as `Markup`. */
  render(template: string, data?: TemplateData): Markup;
  /** Builds the URL of a named route; see `FluidCore#urlFor`. */
  urlFor(name: string, params?: UrlParams, options?: UrlForOptions): string;
  /** The real client address (peer, or X-Forwarded-For from a trusted proxy; see `@fw/kernel/docs/rate-limits.md`). */
  readonly clientAddress: string;
  /** Route parameters of the matched route. */
  params: Record<string, string>;
  /** Name of the matched route, when it has one. */
  _matchedRouteName?: string | undefined;
}

/** The context a handler, hook or middleware gets. */
export type FluidContext = Koa.ParameterizedContext<FluidState, FluidContextExtensions>;

/** Calls the rest of the middleware chain. */
export type Next = () => Promise<unknown>;

/**
 * A route handler or middleware. It may return the body: an object (JSON), a string (HTML or
 * text), `Markup` (HTML), a Buffer or a stream. Returning `undefined` leaves `ctx.body` as set.
 */
export type Handler = (ctx: FluidContext, next: Next) => unknown;

/**
 * Koa middleware on fw's context: it calls `await next()` to run the rest of the chain (the route
 * handler included) and may act before and after it. Any Koa middleware of this shape fits.
 */
export type FluidMiddleware = (ctx: FluidContext, next: Next) => unknown;

/**
 * What a plain `@koa/router` Router sets on the context as its `routes()` middleware dispatches a
 * request, and what the types of `routes()` and `allowedMethods()` therefore ask of their `ctx`:
 * the router (`ctx.router`) and the route parameters (`ctx.request.params`; `ctx.params` is a
 * `FluidContext` field already). `StateT` and `ContextT` are the Router's type parameters.
 */
export interface KoaRouterFields<StateT, ContextT> {
  /** The Router dispatching the request. */
  router: RouterInstance<StateT, ContextT>;
  /** The request, with the matched route's parameters. */
  request: { params: Record<string, string> };
}

/**
 * The middleware of a plain `@koa/router` Router, `router.routes()` and `router.allowedMethods()`,
 * as `fluid.use` takes it: a `FluidContext` plus the fields the Router sets itself
 * (`KoaRouterFields`). The Router's `StateT` and `ContextT` must be ones a `FluidContext`
 * satisfies, e.g. `new Router()` or `new Router<FluidState, FluidContextExtensions>()` (whose
 * routes then see `ctx.state` as `FluidState` and `ctx.fluid`, `ctx.render`, ... typed).
 */
export type KoaRouterMiddleware<StateT, ContextT> = (ctx: FluidContext & KoaRouterFields<StateT, ContextT>, next: Next) => unknown;

/**
 * The Koa context every Koa app's requests have, whatever its state and extensions: Koa's request,
 * response and helpers (`ctx.method`, `ctx.get()`, `ctx.throw()`, ...), `ctx.state` as `unknown`.
 * A `FluidContext` is one, and so is the context of a plain Koa app or `@koa/router` route.
 */
export type KoaContext = Koa.ParameterizedContext<unknown, object, unknown>;

/**
 * Middleware the kernel hands out for use on any Koa stack: `limit()`, `exempt()`,
 * `serveStatic()`, the auth guards, `csrfMiddleware()`, `sessionMiddleware()`. One value fits
 * everywhere under strict TypeScript: a fluid route (`fluid.app.get(name, path, mw, handler)`),
 * `fluid.use(mw)`, a plain `@koa/router` Router, Koa's `app.use(mw)` and a `Koa.Middleware[]`.
 * It resolves when the rest of the chain (`next`) has run.
 */
export type KoaMiddleware = (ctx: KoaContext, next: Next) => Promise<unknown>;

/**
 * `ctx` as the `FluidContext` it is when a fw app serves the request: what middleware of the
 * kernel that needs the app (`ctx.fluid`) calls first. Throws a `TypeError` naming `who` when the
 * request is served by a Koa app that is not a fw app.
 */
export function fluidContextOf(ctx: KoaContext, who: string): FluidContext {
  if (!('fluid' in ctx) || ctx.fluid === undefined) {
    throw new TypeError(`${who} needs a fw app: this request's context has no \`fluid\`, it is served by a Koa app that is not a Fluid`);
  }
  return ctx as FluidContext;
}

let rendering: FluidContext | undefined;

/**
 * The request whose `ctx.render(...)` is running, for template helpers that need it (the CSP
 * nonce of `{{frontend}}` and `{{csp_nonce}}`); `undefined` outside such a render (`fluid.render`).
 */
export function renderingContext(): FluidContext | undefined {
  return rendering;
}

/** Runs a synchronous render on behalf of `ctx` (what `ctx.render` does): see `renderingContext`. */
export function renderFor<T>(ctx: FluidContext, render: () => T): T {
  const previous = rendering;
  rendering = ctx;
  try {
    return render();
  } finally {
    rendering = previous;
  }
}
