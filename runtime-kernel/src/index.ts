/**
 * @fw/kernel: the Koa kernel every fw app runs on.
 *
 * ```ts
 * import { Fluid, serve } from '@fw/kernel';
 * export const fluid = new Fluid({ root: new URL('..', import.meta.url) });
 * fluid.app.get('home', '/', (ctx) => ctx.render('index.html', { title: 'my-app' }));
 * ```
 */
export { Fluid } from './fluid.js';
export type { FluidOptions, LifecycleHook, AfterRequestHook, RequestListener } from './fluid.js';
export { Additive, RESERVED_ADDITIVE_NAMES } from './additive.js';
export type { AdditiveOptions, BeforeEnableHook } from './additive.js';
export { HttpRouter } from './router.js';
export type { BeforeRequestHook, AfterValueHook, RouteHooks, HttpRouterOptions } from './router.js';
export { WsRouter, Sockets, SocketManager, currentContext, requireContext, runWithContext, SocketContext, parseFrame, FrameError } from './sockets/index.js';
export type {
  WsHandler,
  WsMatch,
  WsRouterOptions,
  WsGuard,
  WsRouteOptions,
  UpgradeHook,
  QueryHandler,
  QueryOptions,
  QueryEntry,
  ClientFrame,
  AnswerFrame,
  EventFrame,
  FrameId,
} from './sockets/index.js';
export { Events, createEvents, RedisBus, BoundedQueue, EVENT_NAME } from './events/index.js';
export type { Signal, EventListener, EventDecorator, EventsOptions, EventsConfig } from './events/index.js';
export type { FluidContext, FluidContextExtensions, FluidState, FluidMiddleware, Handler, Next } from './context.js';
export { serve } from './serve.js';
export type { ServeOptions, Served } from './serve.js';
export { RouteTable, queryString } from './url.js';
export type { UrlParams, UrlForOptions, QueryValue, RouteEntry } from './url.js';
export { ProcessorRegistry } from './processors.js';
export type { AfterRequestProcessor, BufferedResponse, ReplacementResponse } from './processors.js';
export { STYLED_STATUSES, KEPT_HEADERS, errorPageProcessor } from './errors/pages.js';
export type { ErrorPageData } from './errors/pages.js';
export { errorHandler, wantsJson } from './errors/handler.js';
export { FrameworkException, HttpError, createLogger, defaultMessage } from './errors/index.js';
export type { HttpErrorOptions, Logger, LogFields, LogLevel } from './errors/index.js';
export { loadConfig, loadConfigDetails, ConfigError, decodeText } from './config/index.js';
export type { Config, LoadConfigOptions, LoadedConfig, ConfigErrorProblem } from './config/index.js';
export {
  Markup,
  escape,
  isMarkup,
  joinMarkup,
  joinHtml,
  TemplateEngine,
  frontendInclude,
  HTMX_URL,
  ALPINE_URL,
  KERNEL_STATIC_PREFIX,
} from './templates/index.js';
export type { TemplateData, TemplateHelper, FrontendSurface, FrontendIncludeBlock } from './templates/index.js';
export { KERNEL_STATIC_DIR, KERNEL_TEMPLATES_DIR, packageFile, vendorFiles } from './static.js';
export { limit, exempt, clientAddress, createRateLimiter, withDefaultLimit } from './limits/index.js';
export { serveStatic } from './surface/static.js';
export { Mailer } from './mail/index.js';
export type { MailHost, MailConfig, MailMessage, TemplateMailMessage, OutgoingMail, SentInfo } from './mail/index.js';
export {
  installAuth,
  Auth,
  authOf,
  signIn,
  signOut,
  currentUser,
  session,
  requireUser,
  EmailVerifiedGate,
  require2fa,
  requireAdmin,
  requireRole,
  requirePermission,
  guard,
  requirementOrGrant,
  requirementAndGrant,
  csrfToken,
  checkCsrfToken,
  CSRF_HEADER,
  CSRF_FIELD,
  PayloadSigner,
  isHttps,
  emailVerified,
  isPositiveIntegerId,
  safeRedirect,
} from './auth/index.js';
export type { AuthOptions, SessionData, Guard, CsrfPayload, TypedPayload, User, UserService, PrincipalId } from './auth/index.js';
export { InvalidTokenError, KeyRing, TokenService, TOKEN_ALGORITHM, isKid, bearerToken } from './tokens/index.js';
export type { TokenClaims, KeyRingOptions, HmacKey } from './tokens/index.js';
export { openCache, MemoryCache, FileCache, RedisCache } from './cache/index.js';
export type { Cache, CacheKind, CacheConfig, JsonValue } from './cache/index.js';
export { I18n, MergedTranslations, PrismaTranslationStore, interpolate } from './i18n/index.js';
export type { TranslationStore, StoredMessages, TranslationVars, TranslationLayer, CatalogSnapshot } from './i18n/index.js';
export { Frontend, FrontendException, NodeError, TailwindError, Sources, contained, assetCatch, nodeCmd, nodeProc, nodeCli, loadNode, tailwindCmd, tailwindCli, generateTailwindCss } from './surface/index.js';
export type { FrontendOptions, FrontendWiring } from './surface/index.js';
