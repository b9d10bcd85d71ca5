/**
 * `@fw/kernel/core`: the plugin-free core — the app object (`FluidCore`), Additives, routers and
 * the socket route table, hooks and lifecycle, config, errors and the logger, templates, static
 * files, `urlFor`, `serve`, after-request processors, the plugin contract and the loader of
 * optional packages. The root export (`@fw/kernel`) re-exports what a typical app needs.
 */
export { FluidCore } from './fluid.js';
export type { FluidOptions, LifecycleHook, AfterRequestHook, ArrivalHook, RequestListener, CloseOptions } from './fluid.js';
export { STAGES } from './plugin.js';
export type { Plugin, Stage, Backend } from './plugin.js';
export { reportBackends } from './backends.js';
export { createHttpServer, serverSettings, stopServer, closeAfterResponses } from './http-server.js';
export type { HttpServerOptions, ServerConfig, ServerSettings, SocketAnswerOptions } from './http-server.js';
export { Additive, RESERVED_ADDITIVE_NAMES, extendAdditives } from './additive.js';
export type { AdditiveOptions, AdditiveInitializer, BeforeEnableHook } from './additive.js';
export type { FluidApp, FluidContext, FluidContextExtensions, FluidState, FluidMiddleware, Handler, KoaContext, KoaMiddleware, KoaRouterFields, KoaRouterMiddleware, Next } from './context.js';
export { fluidContextOf } from './context.js';
export { renderingContext, renderFor } from './context.js';
export { HttpRouter, methodNotAllowed } from './router.js';
export type { BeforeRequestHook, AfterValueHook, RouteHooks, HttpRouterOptions } from './router.js';
export { WsRouter } from './ws-router.js';
export type { WsHandler, WsMatch, WsRouterOptions, WsGuard, WsRouteOptions } from './ws-router.js';
export { RouteTable, queryString, closeMatches } from './url.js';
export type { UrlParams, UrlForOptions, QueryValue, RouteEntry, RouteLayer } from './url.js';
export { setBody } from './body.js';
export { addressNetwork, clientAddress, normaliseAddress, trustFunction } from './client-address.js';
export type { ProxyConfig } from './client-address.js';
export { loadConfig, loadConfigDetails, decodeText, readText } from './config/index.js';
export type { ConfigNotice, LoadConfigOptions, LoadedConfig } from './config/index.js';
export type { Config, ProjectConfig } from '@fw/schemas';
export { FrameworkException, HttpError, ConfigError, createLogger, defaultMessage, outageFields } from './errors.js';
export type { HttpErrorOptions, OutageFields, ConfigErrorProblem, Logger, LogFields, LogLevel } from './errors.js';
export { errorHandler, answerError, answerErrorInDebug, fillErrorBody, wantsJson } from './error-handler.js';
export { ConflictMarkerError, findConflictMarker } from './errors/conflict-markers.js';
export type { ConflictMarker } from './errors/conflict-markers.js';
export { STYLED_STATUSES, KEPT_HEADERS, acceptsHtml, errorPageProcessor, keepDebugAnswer } from './error-pages.js';
export type { ErrorPageData } from './error-pages.js';
export { ProcessorRegistry } from './processors.js';
export type { AfterRequestProcessor, BufferedResponse, ReplacementResponse } from './processors.js';
export { Markup, escape, isMarkup, joinMarkup, joinHtml } from './markup.js';
export { TemplateEngine, TemplateRenderError, AUTOESCAPE_SUFFIXES, autoescapes } from './templates.js';
export type { TemplateData, TemplateHelper } from './templates.js';
export { KERNEL_DIR, KERNEL_STATIC_DIR, KERNEL_TEMPLATES_DIR, KERNEL_STATIC_PREFIX, serveMounts } from './static.js';
export type { StaticMount } from './static.js';
export { serveStatic } from './serve-static.js';
export type { StaticOptions } from './serve-static.js';
export { toDir, findProjectRoot } from './paths.js';
export { serve, serveArgs, startupFailed } from './serve.js';
export type { ServeOptions, Served } from './serve.js';
export { MissingPackageError, optionalPackages, importOptional, requireOptional, resolveOptional, assertInstalled } from './optional.js';
export type { OptionalUse } from './optional.js';
