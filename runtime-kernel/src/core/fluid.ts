/**
 * `FluidCore`: the application object (the reference's app "fluid") without any plugin.
 *
 * It loads and validates the config at construction, carries the routers (`app` at `/`, `api` at
 * `/api`, the socket route table `ws` at `/ws`), the request and lifecycle hooks, the Additives,
 * the templates, the after-request processors and the plugins, and builds the Koa stack in
 * `mix()`:
 *
 *   arrival hooks → outer → errors + processors → first → static files → context → app → request hooks → routers → fallback → 405
 *
 * `Fluid` (the root export) is this class with the built-in plugins enabled from the config.
 */
import cluster from 'node:cluster';
import { validateHeaderName, validateHeaderValue, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { join } from 'node:path';
import Koa from 'koa';
import type { Config, ProjectConfig } from '@fw/schemas';
import { Additive } from './additive.js';
import { setBody } from './body.js';
import { clientAddress } from './client-address.js';
import { loadConfigDetails } from './config/index.js';
import { renderFor, type FluidContext, type FluidContextExtensions, type FluidMiddleware, type FluidState, type KoaRouterMiddleware } from './context.js';
import { answerError, answerErrorInDebug, fillErrorBody, serialiseBody } from './error-handler.js';
import { errorPageProcessor } from './error-pages.js';
import { createLogger, FrameworkException, HttpError, type Logger } from './errors.js';
import { closeAfterResponses, createHttpServer, hostProblem, socketAnswer, stopServer, type SocketAnswerOptions } from './http-server.js';
import { escape, type Markup } from './markup.js';
import { STAGES, type Plugin, type Stage } from './plugin.js';
import { ProcessorRegistry, type AfterRequestProcessor } from './processors.js';
import { dispatchRouters, HttpRouter, methodNotAllowed, type BeforeRequestHook } from './router.js';
import { KERNEL_STATIC_DIR, KERNEL_STATIC_PREFIX, KERNEL_TEMPLATES_DIR, serveMounts, type StaticMount } from './static.js';
import { TemplateEngine, type TemplateData } from './templates.js';
import { RouteTable, type UrlForOptions, type UrlParams } from './url.js';
import { WsRouter } from './ws-router.js';

/** Socket errors of a client that reset or dropped the connection. */
/** The 400s of a request whose `Host` field lines are wrong (see `hostProblem`). */
const DUPLICATE_HOST = () => new HttpError(400, 'More than one Host header', { code: 'DUPLICATE_HOST' });
const MISSING_HOST = () => new HttpError(400, 'No Host header (HTTP/1.1 requires one)', { code: 'MISSING_HOST' });
const INVALID_HOST = () => new HttpError(400, 'The Host header is not a host[:port]', { code: 'INVALID_HOST' });

const PEER_RESET = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

function errorCode(error: unknown): unknown {
  return (error as { code?: unknown } | null | undefined)?.code;
}

/**
 * Whether a response failed because the client left mid-answer (a closed tab, a cancelled
 * download): the peer closed (FIN) or reset the connection, rather than our side destroying it.
 */
function clientLeft(err: unknown, ctx: Koa.Context): boolean {
  const socket = ctx.req.socket;
  const peerGone = socket.readableEnded || PEER_RESET.has(String(errorCode(socket.errored)));
  const code = String(errorCode(err));
  return peerGone && !ctx.res.writableFinished && (PEER_RESET.has(code) || code === 'ERR_STREAM_PREMATURE_CLOSE');
}

declare module './context.js' {
  // `ctx.fluid`, hooks and plugins see the app object with every plugin's fields.
  interface FluidApp extends FluidCore {}
}

/** Options of `new Fluid()` / `new FluidCore()`. */
export interface FluidOptions {
  /**
   * The project root (the folder holding `fw.json`), as a path or `file:` URL. A folder inside
   * the project works too (an app compiled to `dist/fluid/`): the nearest `fw.json` above it wins.
   */
  root: string | URL;
  /** Which `app_configs/<app>.ini` to read; default `FW_APP`, then the project `name`. */
  app?: string;
  /** Config values that win over every file and the environment (e.g. in tests). */
  config?: Readonly<Record<string, unknown>>;
  /** Environment to read config from; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Logger; default `createLogger()` with the config's `FW_LOG_LEVEL` and `FW_LOG_FORMAT` (pino JSON lines on stderr, readable lines on a terminal). */
  logger?: Logger;
}

/** A startup or shutdown hook. */
export type LifecycleHook = (fluid: FluidCore) => unknown;

/** The app's after-request hook: gets the real (Koa) response of every request. */
export type AfterRequestHook = (response: Koa.Response, ctx: FluidContext) => unknown;

/** A hook run as each request arrives (`fluid.onRequest`). */
export type ArrivalHook = (ctx: FluidContext) => void;

/** Options of `fluid.close()`. */
export interface CloseOptions {
  /**
   * Let load balancers move the traffic away first (default false; `serve()` sets it on
   * SIGTERM): every response closes its connection and the plugins' `drain` hooks run while the
   * app still serves (the health plugin keeps failing readiness for `SERVER_DRAIN_DELAY` when a
   * prober has been watching it) before the servers stop accepting.
   */
  drain?: boolean;
}

/** A Node request listener. */
export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** The application object without plugins; see the module comment. */
export class FluidCore {
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
  /** Websocket routes at `/ws` (served by the sockets plugin). */
  readonly ws: WsRouter;
  /** Every named route (app, api, ws and Additives), for `urlFor`. */
  readonly routes = new RouteTable();
  /** The template engine (app templates override Additives', which override the kernel's). */
  readonly templates: TemplateEngine;
  /** The after-request processors (`FW_PROCESSING` registers the styled error pages). */
  readonly processors = new ProcessorRegistry();
  /** The underlying Koa application. */
  readonly koa: Koa<FluidState, FluidContextExtensions>;

  readonly #plugins = new Map<string, Plugin>();
  readonly #additives = new Map<string, Additive>();
  readonly #startup: LifecycleHook[] = [];
  readonly #shutdown: LifecycleHook[] = [];
  readonly #before: BeforeRequestHook[] = [];
  readonly #after: AfterRequestHook[] = [];
  readonly #stages: Record<Stage, FluidMiddleware[]> = { outer: [], first: [], context: [], app: [], fallback: [] };
  readonly #arrivals: ArrivalHook[] = [];
  #clientErrorHeaders: readonly (readonly [string, string])[] = [];
  readonly #mounts: StaticMount[] = [];
  readonly #servers = new Set<Server>();
  #mixing: Promise<void> | undefined;
  #mixed = false;
  #frozen = false;
  #closing: Promise<void> | undefined;
  #listener: RequestListener | undefined;

  constructor(options: FluidOptions) {
    if (!options || options.root === undefined) throw new FrameworkException('new Fluid(): options.root (the project root) is required');
    const loaded = loadConfigDetails({ root: options.root, app: options.app, overrides: options.config, env: options.env, search: true });
    this.logger = options.logger ?? createLogger({ level: loaded.config.FW_LOG_LEVEL, format: loaded.config.FW_LOG_FORMAT });
    // Said once per start: in a cluster of `serve()` (`--workers N`) the primary, which loaded the
    // same config before forking, has said it.
    if (!cluster.isWorker) for (const notice of loaded.notices) this.logger[notice.level](notice.message);
    this.root = loaded.root;
    this.name = loaded.app;
    this.config = loaded.config;
    this.project = loaded.project;
    this.app = new HttpRouter({ prefix: '', mount: 'app' });
    this.api = new HttpRouter({ prefix: '/api', mount: 'api' });
    this.ws = new WsRouter({ prefix: '/ws', mount: 'ws' });
    for (const r of [this.app, this.api, this.ws]) r.attach(this.routes);
    this.templates = new TemplateEngine([join(this.root, 'fluid', 'templates'), KERNEL_TEMPLATES_DIR]);
    this.templates.reload = this.config.DEBUG; // development: edited templates show on the next render
    this.#registerHelpers();
    if (this.config.FW_PROCESSING) this.processors.add(errorPageProcessor((t, d) => this.render(t, d), { cacheable: () => (this.templates.reload ? undefined : this.templates.generation) }));
    this.#mounts.push({ prefix: KERNEL_STATIC_PREFIX, dir: KERNEL_STATIC_DIR }, { prefix: '/static', dir: join(this.root, 'fluid', 'static') });

    this.koa = new Koa<FluidState, FluidContextExtensions>({ proxy: false });
    this.koa.silent = true;
    this.koa.on('error', (err: unknown, ctx?: Koa.Context) => {
      // Not a failure of ours: the request log already says "aborted". A body stream that broke
      // on our side still is one.
      if (ctx && clientLeft(err, ctx)) return;
      this.logger.error('response failed', { error: err });
    });
    this.#extendContext();
  }

  /**
   * Registers a plugin (see `Plugin`): its `register` hook runs now, its other hooks in `mix()`
   * and `close()`. Plugins are registered before the app starts; a name is registered once.
   */
  plugin(plugin: Plugin): this {
    if (!plugin || typeof plugin.name !== 'string' || !plugin.name) throw new FrameworkException('fluid.plugin(): a plugin needs a non-empty name');
    if (this.#plugins.has(plugin.name)) throw new FrameworkException(`fluid.plugin(): a plugin named '${plugin.name}' is already registered`);
    if (this.#mixing) throw new FrameworkException(`fluid.plugin('${plugin.name}'): register plugins before the app starts`);
    plugin.register?.(this); // plugins it registers itself (its dependencies) come first
    this.#plugins.set(plugin.name, plugin);
    return this;
  }

  /** The registered plugins, by name, in registration order. */
  get plugins(): ReadonlyMap<string, Plugin> {
    return this.#plugins;
  }

  /** Registers a hook run before every request; returning a value answers with it. */
  beforeRequest(hook: BeforeRequestHook): this {
    this.#checkOpen('beforeRequest');
    this.#before.push(hook);
    return this;
  }

  /** Registers a hook run after every request with the real response (`ctx.response`). */
  afterRequest(hook: AfterRequestHook): this {
    this.#checkOpen('afterRequest');
    this.#after.push(hook);
    return this;
  }

  /**
   * Registers Koa middleware at a stage of the request stack (see `Stage`). The default stage,
   * `app`, wraps every routed request: after the static files and before the request hooks and
   * routers, inside the error handler (sessions and CSRF live there). Within a stage, middleware
   * runs in registration order. Frozen once the app has started, like the request hooks.
   */
  use(middleware: FluidMiddleware, stage?: Stage): this;
  /**
   * Registers the middleware of a plain `@koa/router` Router, `router.routes()` or
   * `router.allowedMethods()`, at a stage of the request stack (see `Stage`): at the default,
   * `app`, its routes answer before the app's routers; `allowedMethods()` answers 405/501 and
   * OPTIONS for its paths (see `@fw/kernel/docs/kernel.md`).
   * Their types ask for `ctx.router` and `ctx.request.params` (`KoaRouterFields`), which the
   * Router's `routes()` sets as it dispatches; other middleware reading them belongs inside the
   * Router (`router.use(mw)`), not here.
   */
  use<StateT, ContextT>(middleware: KoaRouterMiddleware<StateT, ContextT>, stage?: Stage): this;
  use(middleware: FluidMiddleware | KoaRouterMiddleware<unknown, unknown>, stage: Stage = 'app'): this {
    this.#checkOpen('use');
    if (typeof middleware !== 'function') throw new FrameworkException('fluid.use(): middleware must be a function');
    if (!STAGES.includes(stage)) throw new FrameworkException(`fluid.use(): unknown stage ${JSON.stringify(stage)}; expected one of ${STAGES.join(', ')}`);
    // A Router's middleware runs on the FluidContext: routes() sets the fields it declares.
    this.#stages[stage].push(middleware as FluidMiddleware);
    return this;
  }

  /**
   * Registers a hook run synchronously as each request arrives, before any middleware (the
   * `outer` stage included), in registration order. For plugins that only set something up per
   * request (a request id, a listener on the response) and need no middleware level of their
   * own: a hook costs a request one call, a middleware level a promise. A hook that throws fails
   * the request with a 500 (logged). Frozen once the app has started.
   */
  onRequest(hook: ArrivalHook): this {
    this.#checkOpen('onRequest');
    if (typeof hook !== 'function') throw new FrameworkException('fluid.onRequest(): hook must be a function');
    this.#arrivals.push(hook);
    return this;
  }

  /**
   * Serves static files under `prefix`: the files of a folder (`{ dir }`) or a middleware of its
   * own. Every mount shares one dispatcher; the longest matching prefix wins. Frozen once the
   * app has started.
   */
  mountStatic(prefix: string, source: { dir: string } | { middleware: FluidMiddleware }): this {
    this.#checkOpen('mountStatic');
    this.#mounts.push({ prefix, ...source });
    return this;
  }

  /**
   * Sets the headers of the answers the app's servers give themselves to a request Node's parser
   * refuses before the app sees it (400 malformed, 431 headers too large, 408 too slow, 413), beside
   * `Connection: close`. The security plugin puts its inert-response headers here. The last call wins.
   * Throws a `FrameworkException` naming a header whose name or value is not valid HTTP.
   */
  clientErrorHeaders(headers: readonly (readonly [string, string])[]): this {
    for (const [name, value] of headers) {
      try {
        validateHeaderName(name);
        validateHeaderValue(name, value);
      } catch (err) {
        throw new FrameworkException(`fluid.clientErrorHeaders(): ${JSON.stringify(name)}: ${(err as Error).message}`, { cause: err });
      }
    }
    this.#clientErrorHeaders = headers;
    return this;
  }

  /**
   * Answers on `socket`, outside Koa, with `status` and closes it: what a plugin writes to refuse
   * a websocket upgrade (the sockets plugin's 401/403/404/503, a dev server's 400). The answer
   * carries `Connection: close`, `options.headers`, an optional JSON body, and the headers of
   * {@link clientErrorHeaders} (the security plugin's inert set), as Node-level refusals do.
   */
  answerSocket(socket: Duplex, status: number, options: Omit<SocketAnswerOptions, 'common'> = {}): void {
    if (socket.destroyed) return;
    socket.end(socketAnswer(status, { ...options, common: this.#clientErrorHeaders }));
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
   * Registers an Additive: its routes join the route table now, its templates the lookup, its
   * static folder is served at `/<name>/static`; its `beforeEnable` hooks run in `mix()`, right
   * before its routes are mounted.
   */
  additive(additive: Additive): this {
    if (!(additive instanceof Additive)) throw new FrameworkException('fluid.additive(): expected an Additive instance');
    if (this.#additives.has(additive.name)) throw new FrameworkException(`Additive '${additive.name}' is already registered`);
    if (this.#mixing) throw new FrameworkException(`fluid.additive('${additive.name}'): register Additives before the app starts`);
    for (const r of [additive.api, additive.app, additive.ws]) r.attach(this.routes);
    this.#additives.set(additive.name, additive);
    this.templates.addDirectory(additive.templatesDir, this.templates.directories.length - 1);
    this.#mounts.push({ prefix: `/${additive.name}/static`, dir: additive.staticDir });
    return this;
  }

  /** The registered Additives, by name. */
  get additives(): ReadonlyMap<string, Additive> {
    return this.#additives;
  }

  /** The HTTP routers in dispatch order: `api`, each Additive's `api` and `app`, then `app`. */
  get routers(): readonly HttpRouter[] {
    const routers: HttpRouter[] = [this.api];
    for (const a of this.#additives.values()) routers.push(a.api, a.app);
    routers.push(this.app);
    return routers;
  }

  /** True once `mix()` has completed. */
  get mixed(): boolean {
    return this.#mixed;
  }

  /** True once `close()` has been called. */
  get closing(): boolean {
    return this.#closing !== undefined;
  }

  /**
   * Starts the plugins, runs every Additive's `beforeEnable` and the startup hooks, and builds
   * the Koa stack, once. Every later call returns the same promise. Called by `callback()`,
   * `listen()` and `serve()`.
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

  /**
   * Offers a websocket upgrade to the plugins (the sockets plugin serves the `ws` routes); one
   * nobody takes is answered 404, one with more than one `Host` header (or none, or one that is
   * not a host and port) 400.
   */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (hostProblem(req) !== undefined) return this.answerSocket(socket, 400);
    for (const plugin of this.#plugins.values()) if (plugin.upgrade?.(this, req, socket, head)) return;
    this.answerSocket(socket, 404);
  }

  /** Mixes the app and starts an HTTP server (default `PORT`/`HOST` from the config). */
  async listen(port: number = this.config.PORT, host: string = this.config.HOST): Promise<Server> {
    if (this.#closing) throw new FrameworkException('fluid.listen(): the app is closed');
    await this.mix();
    const server = createHttpServer(this.config, this.callback(), { clientErrorHeaders: () => this.#clientErrorHeaders });
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
   * Shuts the app down: `closing` turns true at once (the readiness route fails); with `drain`
   * the plugins' `drain` hooks run first while requests are still served; then the plugins'
   * long-lived connections close, the servers it started stop accepting and their in-flight
   * requests finish (`SERVER_DRAIN_TIMEOUT` at most), the shutdown hooks run once (when the app
   * was mixed), and the plugins close. Idempotent: later calls share the first one.
   */
  close(options: CloseOptions = {}): Promise<void> {
    this.#closing ??= this.#doClose(options.drain === true);
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

  /** URL of a static file: the app's (`/static/...`), an Additive's, or the kernel's (`fluid`). */
  staticUrl(path: string, surface?: string): string {
    const clean = encodeURI(path.replace(/^\/+/, ''));
    if (!surface) return `/static/${clean}`;
    if (surface === 'fluid') return `${KERNEL_STATIC_PREFIX}/${clean}`;
    if (!this.#additives.has(surface)) throw new FrameworkException(`static: no Additive named '${surface}'`);
    return `/${surface}/static/${clean}`;
  }

  async #doMix(): Promise<void> {
    for (const plugin of this.#plugins.values()) await plugin.start?.(this); // e.g. events: hooks below may trigger
    for (const a of this.#additives.values()) for (const hook of a.enableHooks) await hook(this);
    for (const hook of this.#startup) await hook(this);
    for (const plugin of this.#plugins.values()) await plugin.build?.(this);
    this.#checkSocketsServed();
    // The stack is built once every hook has run, so hooks may still add routes and hooks.
    const koa = this.koa;
    const { logger, processors, root } = this;
    const debug = this.config.DEBUG;
    const stages = this.#stages;
    const arrivals = this.#arrivals;
    const arrive = (ctx: FluidContext): void => {
      for (let i = 0; i < arrivals.length; i++) arrivals[i]!(ctx);
    };
    // With outer middleware the arrival hooks need a level of their own, before it; without,
    // they run in the error handler's level, whose handler then sees what they throw.
    const ownLevel = arrivals.length > 0 && stages.outer.length > 0;
    if (ownLevel) {
      koa.use((ctx, next) => {
        arrive(ctx);
        return next();
      });
    }
    for (const mw of stages.outer) koa.use(mw);
    // Not async: a response no processor touches costs one `then` here.
    const finish = (ctx: FluidContext): Promise<void> | undefined => {
      fillErrorBody(ctx);
      return processors.run(ctx, logger);
    };
    const fail = async (ctx: FluidContext, err: unknown): Promise<void> => {
      if (debug) await answerErrorInDebug(ctx, err, logger, root); // the debug page: never in production
      else answerError(ctx, err, logger);
      return finish(ctx);
    };
    // A body that does not become JSON (too deep, a cycle, a BigInt) fails here, after the
    // processors saw the object, and gets the app's own 500 instead of Koa's bare one.
    const serialise = (ctx: FluidContext): Promise<void> | undefined => {
      try {
        serialiseBody(ctx);
      } catch (err) {
        return fail(ctx, err);
      }
      return undefined;
    };
    const done = (ctx: FluidContext): Promise<void> | undefined => {
      const processing = finish(ctx);
      return processing === undefined ? serialise(ctx) : processing.then(() => serialise(ctx));
    };
    const arriveHere = arrivals.length > 0 && !ownLevel;
    koa.use((ctx, next) => {
      if (arriveHere) {
        try {
          arrive(ctx);
        } catch (err) {
          return fail(ctx, err);
        }
      }
      const host = hostProblem(ctx.req);
      if (host !== undefined) {
        return fail(ctx, host === 'duplicate' ? DUPLICATE_HOST() : host === 'missing' ? MISSING_HOST() : INVALID_HOST());
      }
      return next().then(
        () => done(ctx),
        (err: unknown) => fail(ctx, err),
      );
    });
    this.#frozen = true;
    for (const mw of stages.first) koa.use(mw);
    koa.use(serveMounts(this.#mounts));
    for (const mw of stages.context) koa.use(mw);
    for (const mw of stages.app) koa.use(mw);
    if (this.#before.length > 0 || this.#after.length > 0) koa.use(this.#hooksMiddleware());
    const routers = this.routers;
    const dispatch = dispatchRouters(routers);
    if (dispatch) koa.use(dispatch);
    for (const mw of stages.fallback) koa.use(mw);
    koa.use(methodNotAllowed(() => routers));
    this.#listener = koa.callback() as RequestListener; // requests wait in callback() until now
    this.#mixed = true;
  }

  async #doClose(drain: boolean): Promise<void> {
    const errors: unknown[] = [];
    const plugins = [...this.#plugins.values()];
    if (drain && this.#servers.size > 0) {
      for (const server of this.#servers) closeAfterResponses(server);
      await Promise.all(plugins.map((plugin) => plugin.drain?.(this)));
    }
    // Sockets first: an upgraded connection would keep its HTTP server from closing.
    for (const plugin of plugins) await plugin.stop?.(this);
    const drainTimeout = this.config.SERVER_DRAIN_TIMEOUT * 1000;
    await Promise.all([...this.#servers].map((s) => stopServer(s, drainTimeout)));
    this.#servers.clear();
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
    for (const plugin of plugins.reverse()) {
      try {
        await plugin.close?.(this);
      } catch (err) {
        errors.push(err);
        this.logger.error(`plugin '${plugin.name}' failed to close`, { error: err });
      }
    }
    if (errors.length) throw new FrameworkException(`${errors.length} shutdown hook(s) failed`, { cause: errors[0] });
  }

  /** Websocket routes need a plugin that accepts upgrades (the sockets plugin); say so at start. */
  #checkSocketsServed(): void {
    if ([...this.#plugins.values()].some((p) => p.upgrade)) return;
    const routes = [this.ws, ...[...this.#additives.values()].map((a) => a.ws)].flatMap((r) => r.routes);
    if (routes.length > 0) {
      throw new FrameworkException(
        `websocket route '${routes[0]!.name}' (${routes[0]!.path}) has no plugin to serve it: register the sockets plugin ` +
          '(fluid.plugin(sockets()) from @fw/kernel/sockets; the Fluid of @fw/kernel has it)',
      );
    }
  }

  #checkOpen(what: string): void {
    if (this.#frozen) {
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
        value(this: FluidContext, template: string, data?: TemplateData): Markup {
          return renderFor(this, () => fluid.render(template, data));
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
    this.templates.registerHelper('escape', (value: unknown) => escape(value));
  }
}
