/**
 * The request context every fw handler receives: Koa's context extended with the app (`fluid`),
 * `render`, `urlFor` and the route `params`.
 */
import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';
import type { Fluid } from './fluid.js';
import type { Markup } from './templates/markup.js';
import type { MergedTranslations } from './i18n/merged.js';
import type { TemplateData } from './templates/engine.js';
import type { UrlForOptions, UrlParams } from './url.js';

/** `ctx.state`: free-form per-request data shared by middleware and handlers. */
export interface FluidState {
  [key: string]: unknown;
}

/** What fw adds to Koa's context. */
export interface FluidContextExtensions {
  /** The application serving this request. */
  readonly fluid: Fluid;
  /** Renders a template (app templates override additives' and the kernel's) as `Markup`. */
  render(template: string, data?: TemplateData): Markup;
  /** Builds the URL of a named route; see `Fluid#urlFor`. */
  urlFor(name: string, params?: UrlParams, options?: UrlForOptions): string;
  /** The real client address (peer, or X-Forwarded-For from a trusted proxy; see limits). */
  readonly clientAddress: string;
  /** Route parameters of the matched route. */
  params: Record<string, string>;
  /** The negotiated locale (`?lang=`, `lang` cookie, `Accept-Language`, default); see docs/i18n.md. */
  readonly locale: string;
  /** The translations of `locale` (source strings with `EXT_I18N` off). */
  readonly i18n: MergedTranslations;
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

/** Koa middleware on fw's context. */
export type FluidMiddleware = Koa.Middleware<FluidState, FluidContextExtensions>;

/** The connection request a websocket handler's context wraps. */
export type UpgradeRequest = IncomingMessage;
