/**
 * `Fluid`: the application object (the reference's app "fluid").
 *
 * It loads and validates the config at construction, carries the routers (`app` at `/`, `api` at
 * `/api`, `ws` at `/ws`), the request and lifecycle hooks, the Additives, the templates and the
 * after-request processors, and builds the Koa stack in `mix()`:
 *
 *   processors → errors → rate limiter → static mounts → app hooks → routers
 */
import { createServer, ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { join } from 'node:path';
import Koa from 'koa';
import type { Config, ProjectConfig } from '@fw/schemas';
import { Additive } from './additive.js';
import { loadConfigDetails } from './config/load.js';
import type { FluidContext, FluidContextExtensions, FluidMiddleware, FluidState } from './context.js';
import { createLogger, FrameworkException, type Logger } from './errors/index.js';
import { answerError, fillErrorBody } from './errors/handler.js';
import { errorPageProcessor } from './errors/pages.js';
import { clientAddress, createRateLimiter, type RateLimiter } from './limits/index.js';
import { setBody } from './body.js';
import { ProcessorRegistry, type AfterRequestProcessor } from './processors.js';
import { HttpRouter, methodNotAllowed, type BeforeRequestHook } from './router.js';
import { KERNEL_STATIC_DIR, KERNEL_TEMPLATES_DIR, serveMounts, serveVendor, type StaticMount } from './static.js';
import { TemplateEngine, type TemplateData } from './templates/engine.js';
import { KERNEL_STATIC_PREFIX } from './templates/frontend.js';
import { Frontend, type FrontendWiring } from './surface/frontend.js';
import { escape, type Markup } from './templates/markup.js';
import { Mailer } from './mail/index.js';
import { I18n } from './i18n/i18n.js';
import { RouteTable, type UrlForOptions, type UrlParams } from './url.js';
import { Sockets, WsRouter } from './sockets/index.js';
import { createEvents, type Events } from './events/index.js';
import { toDir } from './paths.js';

/** Options of `new Fluid()`. */
export interface FluidOptions {
  /** The project root (the folder holding `fw.json`), as a path or `file:` URL. */
  root: string | URL;
  /** Which `app_configs/<app>.ini` to read; default `FW_APP`, then the project `name`. */
  app?: string;
  /** Config values that win over every file and the environment (e.g. in tests). */
  config?: Readonly<Record<string, unknown>>;
  /** Environment to read config from; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Logger; default one line per record on stderr, level from `FW_LOG_LEVEL`. */
  logger?: Logger;
}

/** A startup or shutdown hook. */
export type LifecycleHook = (fluid: Fluid) => unknown;

/** The app's after-request hook: gets the real (Koa) response of every request. */
export type AfterRequestHook = (response: Koa.Response, ctx: FluidContext) => unknown;

/** A Node request listener. */
export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** The application object. */
export class Fluid {
  /** The project root folder. */
  readonly root: string;
  /** The app name (which `app_configs/<name>.ini` was read). */
  readonly name: string;
  /** The validated runtime config. */
  readonly config: Config;
  /** The validated `fw.json`. */
  readonly project: ProjectConfig;
  /** The framework logger. */
  readonly logger: Logger;
  /** HTTP routes at `/`. */
  readonly app: HttpRouter;
  /** HTTP routes at `/api`. */
  readonly api: HttpRouter;
  /** Websocket routes at `/ws`. */
  readonly ws: WsRouter;
  /** Events: `createSignal`, `event`, `trigger`, `hasEvent` (across processes with Redis; docs/events.md). */
  readonly events: Events;
  /** Websocket plugin: upgrade hooks and the events socket at `/ws/events` (docs/sockets.md). */
  readonly sockets: Sockets;
  /** Every named route (app, api, ws and Additives), for `urlFor`. */
  readonly routes = new RouteTable();
  /** The template engine (app templates override Additives', which override the kernel's). */
  readonly templates: TemplateEngine;
  /** The after-request processors (`FW_PROCESSING` registers the styled error pages). */
  readonly processors = new ProcessorRegistry();
  /** The app's frontend surface (from `APP_FRONTEND`); wired by `Frontend.prepare` in `mix()`. */
  readonly frontend: Frontend;
  /** The underlying Koa application. */
  readonly koa: Koa<FluidState, FluidContextExtensions>;
  /** Translations (`EXT_I18N`): catalogs, `ctx.locale`/`ctx.i18n`, template helpers, `/ws/i18n`. */
  readonly i18n: I18n;

  readonly #additives = new Map<string, Additive>();
  readonly #startup: LifecycleHook[] = [];
  readonly #shutdown: LifecycleHook[] = [];
  readonly #before: BeforeRequestHook[] = [];
  readonly #after: AfterRequestHook[] = [];
  readonly #middleware: FluidMiddleware[] = [];
  readonly #servers = new Set<Server>();
  #mixing: Promise<void> | undefined;
  #mixed = false;
  #hooksFrozen = false;
  #closing: Promise<void> | undefined;
  #listener: RequestListener | undefined;
  #limiter: RateLimiter | undefined;
  #mail: Mailer | undefined;
  #frontendWiring: FrontendWiring | undefined;

  constructor(options: FluidOptions) {
    if (!options || options.root === undefined) throw new FrameworkException('new Fluid(): options.root (the project root) is required');
    this.logger = options.logger ?? createLogger();
    const loaded = loadConfigDetails({ root: options.root, app: options.app, overrides: options.config, env: options.env });
    this.root = toDir(loaded.root, 'Fluid');
    this.name = loaded.app;
    this.config = loaded.config;
    this.project = loaded.project;
    this.app = new HttpRouter({ prefix: '', mount: 'app' });
    this.api = new HttpRouter({ prefix: '/api', mount: 'api' });
    this.ws = new WsRouter({ prefix: '/ws', mount: 'ws' });
    for (const r of [this.app, this.api, this.ws]) r.attach(this.routes);
    this.templates = new TemplateEngine([join(this.root, 'fluid', 'templates'), KERNEL_TEMPLATES_DIR]);
    this.templates.reload = this.config.DEBUG; // development: edited templates show on the next render
    this.frontend = new Frontend({ fluid: this });
    this.#registerHelpers();
    this.events = createEvents(this.config, this.logger, this.name);
    this.sockets = new Sockets(this);
    if (this.config.FW_PROCESSING) this.processors.add(errorPageProcessor((t, d) => this.render(t, d)));

    this.koa = new Koa<FluidState, FluidContextExtensions>({ proxy: false });
    this.koa.silent = true;
    this.koa.on('error', (err: unknown) => this.logger.error('response failed', { error: err }));
    this.#extendContext();
    this.i18n = new I18n(this);
  }

  /** Registers a hook run before every request; returning a value answers with it. */
  beforeRequest(hook: BeforeRequestHook): this {
    this.#checkHooksOpen('beforeRequest');
    this.#before.push(hook);
    return this;
  }

  /** Registers a hook run after every request with the real response (`ctx.response`). */
  afterRequest(hook: AfterRequestHook): this {
    this.#checkHooksOpen('afterRequest');
    this.#after.push(hook);
    return this;
  }

  /**
   * Registers Koa middleware that wraps every routed request: it runs after the static mounts and
   * before the request hooks and routers, inside the error handler (plugins such as sessions and
   * CSRF use it). Frozen once the app has started, like the request hooks.
   */
  use(middleware: FluidMiddleware): this {
    this.#checkHooksOpen('use');
    this.#middleware.push(middleware);
    return this;
  }

  /** Registers a hook run once, when the app is mixed (before it serves its first request). */
  onStartup(hook: LifecycleHook): this {
    this.#startup.push(hook);
    return this;
  }

  /** Registers a hook run once, when the app is closed. */
  onShutdown(hook: LifecycleHook): this {
    this.#shutdown.push(hook);
    return this;
  }

  /** Registers an after-request processor (see `ProcessorRegistry`). */
  processor(processor: AfterRequestProcessor): this {
    this.processors.add(processor);
    return this;
  }

  /**
   * Registers an Additive: its routes join the route table now, its templates the lookup; its
   * `beforeEnable` hooks run in `mix()`, right before its routes are mounted.
   */
  additive(additive: Additive): this {
    if (!(additive instanceof Additive)) throw new FrameworkException('fluid.additive(): expected an Additive instance');
    if (this.#additives.has(additive.name)) throw new FrameworkException(`Additive '${additive.name}' is already registered`);
    if (this.#mixing) throw new FrameworkException(`fluid.additive('${additive.name}'): register Additives before the app starts`);
    for (const r of [additive.api, additive.app, additive.ws]) r.attach(this.routes);
    this.#additives.set(additive.name, additive);
    this.templates.addDirectory(additive.templatesDir, this.templates.directories.length - 1);
    return this;
  }

  /** The registered Additives, by name. */
  get additives(): ReadonlyMap<string, Additive> {
    return this.#additives;
  }

  /** True once `mix()` has completed. */
  get mixed(): boolean {
    return this.#mixed;
  }

  /**
   * Builds the Koa stack and runs the startup hooks, once. Every later call returns the same
   * promise. Called by `callback()`, `listen()` and `serve()`.
   */
  mix(): Promise<void> {
    this.#mixing ??= this.#doMix();
    return this.#mixing;
  }

  /**
   * A Node request listener serving the app. The app mixes on the first request, so the
   * startup hooks run under any server (`http.createServer(fluid.callback())`).
   */
  callback(): RequestListener {
    return (req, res) => {
      const listener = this.#listener;
      if (listener) return listener(req, res);
      this.mix().then(
        () => this.#listener!(req, res),
        (err: unknown) => {
          this.logger.error('app failed to start', { error: err });
          res.statusCode = 500;
          res.end('Internal Server Error');
        },
      );
    };
  }

  /** Accepts a websocket upgrade for a route of `ws` (or an Additive's `ws`); others get 404. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (this.#frontendWiring?.upgrade(req, socket, head)) return; // the /vite-dev HMR socket (debug)
    const pathname = (req.url ?? '/').split('?')[0] ?? '/';
    let match = this.ws.match(pathname);
    for (const a of this.#additives.values()) match ??= a.ws.match(pathname);
    if (!match || this.#closing) {
      socket.end(`HTTP/1.1 ${match ? '503 Service Unavailable' : '404 Not Found'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const found = match;
    this.mix().then(
      () => this.sockets.accept(req, socket, head, found),
      () => socket.destroy(),
    );
  }

  /** Mixes the app and starts an HTTP server (default `PORT`/`HOST` from the config). */
  async listen(port: number = this.config.PORT, host: string = this.config.HOST): Promise<Server> {
    if (this.#closing) throw new FrameworkException('fluid.listen(): the app is closed');
    await this.mix();
    const server = createServer(this.callback());
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.handleUpgrade(req, socket, head));
    await new Promise<void>((resolve, reject) => {
      const fail = (err: NodeJS.ErrnoException) =>
        reject(new FrameworkException(`Cannot listen on ${host}:${port}: ${err.code ?? err.message}`, { cause: err }));
      server.once('error', fail);
      server.listen(port, host, () => {
        server.off('error', fail);
        resolve();
      });
    });
    this.#servers.add(server);
    return server;
  }

  /**
   * Stops the servers it started (in-flight requests finish), closes sockets and the rate
   * limiter, and runs the shutdown hooks once (when the app was mixed). Idempotent.
   */
  close(): Promise<void> {
    this.#closing ??= this.#doClose();
    return this.#closing;
  }

  /**
   * The URL of a named route. Additive routes are named `<additive>.<route>`. Params the path
   * does not use go to the query string; `external: true` prefixes `BASE_URL`.
   */
  urlFor(name: string, params?: UrlParams, options?: UrlForOptions): string {
    return this.routes.url(name, params, options, this.config.BASE_URL);
  }

  /** Renders a template, in or out of a request. */
  render(template: string, data: TemplateData = {}): Markup {
    return this.templates.render(template, data);
  }

  /**
   * The app's mailer, made on first use from the `MAIL_*` keys (SMTP, or the `var/outbox` folder when
   * `MAIL_SERVER` is unset). Templated mail renders through the app's templates. `close()` waits up
   * to 10 s for background sends still in flight.
   */
  get mail(): Mailer {
    this.#mail ??= new Mailer({ config: this.config, logger: this.logger, render: (t, d) => this.render(t, d), root: this.root });
    return this.#mail;
  }

  /** URL of a static file: the app's (`/static/...`), an Additive's, or the kernel's (`fluid`). */
  staticUrl(path: string, surface?: string): string {
    const clean = encodeURI(path.replace(/^\/+/, ''));
    if (!surface) return `/static/${clean}`;
    if (surface === 'fluid') return `${KERNEL_STATIC_PREFIX}/${clean}`;
    if (!this.#additives.has(surface)) throw new FrameworkException(`static: no Additive named '${surface}'`);
    return `/${surface}/static/${clean}`;
  }

  /** The markup of the `{{frontend}}` helper for the app's surface. */
  frontendInclude(): Markup {
    return this.frontend.include();
  }

  async #doMix(): Promise<void> {
    await this.events.start(); // queued registrations are wired; hooks below may trigger
    for (const a of this.#additives.values()) for (const hook of a.enableHooks) await hook(this);
    for (const hook of this.#startup) await hook(this);
    const frontend = (this.#frontendWiring = await Frontend.prepare(this));
    // The stack is built once every hook has run, so hooks may still add routes and hooks.
    const koa = this.koa;
    const { logger, processors } = this;
    koa.use(async (ctx, next) => {
      try {
        await next();
      } catch (err) {
        answerError(ctx, err, logger);
      }
      fillErrorBody(ctx);
      if (processors.size > 0) await processors.run(ctx, logger);
    });
    const routers: HttpRouter[] = [this.api];
    for (const a of this.#additives.values()) routers.push(a.api, a.app);
    routers.push(this.app);
    // Rate limiting costs nothing per request when no limit is configured anywhere.
    const defaultLimit = Boolean(this.config.RATELIMIT_DEFAULT) && this.config.RATELIMIT_ENABLED;
    if (!defaultLimit) for (const r of routers) r.dropDefaultLimit();
    if (defaultLimit || routers.some((r) => r.usesRateLimits())) {
      this.#limiter = createRateLimiter({ config: this.config, logger });
      koa.use(this.#limiter.middleware as FluidMiddleware);
    }
    const mounts: StaticMount[] = [
      { prefix: KERNEL_STATIC_PREFIX, dir: KERNEL_STATIC_DIR },
      { prefix: '/static', dir: join(this.root, 'fluid', 'static') },
    ];
    for (const a of this.#additives.values()) mounts.push({ prefix: `/${a.name}/static`, dir: a.staticDir });
    mounts.push(...frontend.mounts);
    koa.use(serveMounts(mounts, serveVendor()));
    for (const mw of frontend.before) koa.use(mw);
    if (this.i18n.enabled) koa.use(this.i18n.middleware());
    this.#hooksFrozen = true;
    for (const mw of this.#middleware) koa.use(mw);
    if (this.#before.length > 0 || this.#after.length > 0) koa.use(this.#hooksMiddleware());
    for (const r of routers) {
      const mw = r.dispatcher();
      if (mw) koa.use(mw);
    }
    for (const mw of frontend.after) koa.use(mw); // the catch-all: after every route
    koa.use(methodNotAllowed(() => routers));
    this.#listener = koa.callback() as RequestListener; // requests wait in callback() until now
    this.#mixed = true;
  }

  async #doClose(): Promise<void> {
    const errors: unknown[] = [];
    // Sockets first: an upgraded connection would keep its HTTP server from closing.
    await this.sockets.close();
    await Promise.all([...this.#servers].map((s) => stopServer(s)));
    this.#servers.clear();
    await this.#frontendWiring?.close();
    if (this.#mixing) {
      await this.#mixing.catch(() => undefined);
      for (const hook of this.#shutdown) {
        try {
          await hook(this);
        } catch (err) {
          errors.push(err);
          this.logger.error('shutdown hook failed', { error: err });
        }
      }
    }
    await this.events.close();
    await this.#limiter?.close();
    await this.#mail?.close({ timeoutMs: 10_000 });
    if (errors.length) throw new FrameworkException(`${errors.length} shutdown hook(s) failed`, { cause: errors[0] });
  }

  #checkHooksOpen(what: string): void {
    if (this.#hooksFrozen) {
      throw new FrameworkException(`fluid.${what}(): the app has started; register request hooks before (at import or in a startup hook)`);
    }
  }

  #hooksMiddleware(): FluidMiddleware {
    const before = this.#before;
    const after = this.#after;
    return async (ctx, next) => {
      let answered = false;
      for (const hook of before) {
        const early = await hook(ctx);
        if (early !== undefined) {
          setBody(ctx, early); // answered early: the routes are skipped, the after hooks still run
          answered = true;
          break;
        }
      }
      if (!answered) await next();
      for (const hook of after) await hook(ctx.response, ctx);
    };
  }

  #extendContext(): void {
    const fluid = this;
    const config = this.config;
    Object.defineProperties(this.koa.context, {
      fluid: { value: fluid, enumerable: false },
      render: {
        value(template: string, data?: TemplateData): Markup {
          return fluid.render(template, data);
        },
      },
      urlFor: {
        value(name: string, params?: UrlParams, options?: UrlForOptions): string {
          return fluid.urlFor(name, params, options);
        },
      },
      clientAddress: {
        get(this: FluidContext): string {
          return clientAddress(this as unknown as Koa.Context, config);
        },
      },
    });
  }

  #registerHelpers(): void {
    this.templates.registerHelper('url_for', (name: unknown, ...rest: unknown[]) => {
      const options = rest[rest.length - 1] as { hash?: Record<string, unknown> } | undefined;
      if (typeof name !== 'string') throw new FrameworkException('{{url_for}} needs a route name, e.g. {{url_for "home"}}');
      const params: UrlParams = {};
      let external = false;
      for (const [k, v] of Object.entries(options?.hash ?? {})) {
        if (k === '_external') external = v === true || v === 'true';
        else if (v !== undefined && v !== null) params[k] = v as string | number | boolean;
      }
      return this.urlFor(name, params, { external });
    });
    this.templates.registerHelper('static', (path: unknown, ...rest: unknown[]) => {
      const options = rest[rest.length - 1] as { hash?: Record<string, unknown> } | undefined;
      if (typeof path !== 'string') throw new FrameworkException('{{static}} needs a file path, e.g. {{static "app.css"}}');
      const surface = options?.hash?.additive;
      return this.staticUrl(path, typeof surface === 'string' ? surface : undefined);
    });
    this.templates.registerHelper('frontend', () => this.frontendInclude());
    this.templates.registerHelper('escape', (value: unknown) => escape(value));
  }
}

/** Stops accepting, lets in-flight requests finish (10 s at most), closes idle keep-alives. */
function stopServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), 10_000);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}

