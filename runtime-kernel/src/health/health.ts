/**
 * The health plugin (on by default): liveness and readiness routes for load balancers and
 * orchestrators, answered at the `first` stage (before sessions, CSRF, rate limits and the
 * request log, so a probe costs little and is never limited or logged).
 *
 * - `GET HEALTH_LIVE_PATH` (`/healthz`): `200 {"status":"ok"}` while the process serves, also
 *   while it drains (a liveness failure makes an orchestrator kill the process).
 * - `GET HEALTH_READY_PATH` (`/readyz`): `200 {"status":"ready","checks":{...}}` when every
 *   readiness check passes; `503` with each check's `ok` / `failed` / `timeout` when one does
 *   not; `503 {"status":"draining"}` from the moment the app starts shutting down.
 *   Checks: the Redis cache (`PING`) or the file cache's folder, the Redis events bus (`PING` on
 *   both connections; only once the app has an event, as the startup backends line), each database bind (`registerDatabase`: `SELECT 1` and its shipped
 *   migrations applied), and the app's own
 *   (`fluid.health.check(name, fn)`), each bounded by `HEALTH_CHECK_TIMEOUT`. Why a check failed
 *   is logged and shown by `fluid.health.readiness()`, never sent to the caller.
 * - `HEALTH_ACCESS`: `public`, `loopback` (the TCP peer must be a loopback address; proxies'
 *   headers are not believed) or `token` (`X-Health-Token` must equal `HEALTH_TOKEN`). A caller
 *   who may not see them gets whatever the app answers for that path (usually 404).
 * - Draining (`close({ drain: true })`, i.e. `serve()` on SIGTERM): when a prober asked for
 *   readiness in the last minute, the app keeps serving for `SERVER_DRAIN_DELAY` seconds while
 *   readiness answers 503, so the prober takes it out of rotation before it stops accepting.
 *   Nobody probing (a terminal, a test): no delay.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FluidContext, FluidMiddleware, Next } from '../core/context.js';
import { ConfigError, type Logger } from '../core/errors.js';
import type { FluidCore } from '../core/fluid.js';
import { Checks, type CheckOptions, type CheckResult, type Readiness, type ReadinessCheck } from './checks.js';

/** The config keys the health plugin reads. */
export interface HealthConfig {
  /** Serve the liveness and readiness routes (default true). */
  HEALTH_ENABLED: boolean;
  /** Path of the liveness route (default `/healthz`). */
  HEALTH_LIVE_PATH: string;
  /** Path of the readiness route (default `/readyz`). */
  HEALTH_READY_PATH: string;
  /** Who may call the routes: anyone (`public`, the default), loopback peers only, or callers sending `HEALTH_TOKEN` in `X-Health-Token`; others get a 404. */
  HEALTH_ACCESS: 'public' | 'loopback' | 'token';
  /** The token `HEALTH_ACCESS=token` requires in the `X-Health-Token` header. */
  HEALTH_TOKEN?: string | undefined;
  /** Seconds each readiness check may take before it counts as failed (default 2). */
  HEALTH_CHECK_TIMEOUT: number;
  /** Seconds readiness answers `503 draining` at shutdown before the server stops accepting connections, when a prober asked in the last minute (default 5). */
  SERVER_DRAIN_DELAY: number;
}

/** A readiness probe within this long makes a drain wait `SERVER_DRAIN_DELAY`. */
const PROBER_WINDOW_MS = 60_000;

/** The app's health: readiness checks, the routes' middleware and the drain (`fluid.health`). */
export class Health {
  readonly #app: FluidCore;
  readonly #config: HealthConfig;
  readonly #logger: Logger;
  readonly #checks: Checks;
  readonly #token: Buffer | undefined;
  #lastProbe = 0;

  constructor(app: FluidCore, config: HealthConfig, logger: Logger) {
    // Mistakes in the config: a ConfigError, so a production start prints one line (startupFailed).
    if (config.HEALTH_LIVE_PATH === config.HEALTH_READY_PATH) {
      const line = `HEALTH_LIVE_PATH and HEALTH_READY_PATH are both "${config.HEALTH_LIVE_PATH}"; give them different paths`;
      throw new ConfigError(line, [{ source: undefined, path: 'HEALTH_READY_PATH', line }]);
    }
    if (config.HEALTH_ACCESS === 'token' && !config.HEALTH_TOKEN) {
      const line = 'HEALTH_ACCESS is "token" but HEALTH_TOKEN is not set; set HEALTH_TOKEN (or HEALTH_TOKEN_FILE) to a secret of at least 16 characters';
      throw new ConfigError(line, [{ source: undefined, path: 'HEALTH_TOKEN', line }]);
    }
    this.#app = app;
    this.#config = config;
    this.#logger = logger;
    this.#checks = new Checks(config.HEALTH_CHECK_TIMEOUT * 1000, logger);
    this.#token = config.HEALTH_TOKEN ? Buffer.from(config.HEALTH_TOKEN) : undefined;
  }

  /**
   * Adds a readiness check: `fn` resolves while its dependency is usable and throws, rejects or
   * hangs (past `HEALTH_CHECK_TIMEOUT`) while it is not. Names are unique.
   *
   * ```ts
   * fluid.health.check('payments', () => payments.ping());
   * ```
   */
  check(name: string, fn: ReadinessCheck, options?: CheckOptions): this {
    this.#checks.add(name, fn, options);
    return this;
  }

  /** Removes a readiness check; true when there was one. */
  removeCheck(name: string): boolean {
    return this.#checks.remove(name);
  }

  /** The names of the readiness checks, fw's and the app's. */
  get checks(): string[] {
    return this.#checks.names;
  }

  /** Runs every readiness check now and tells each outcome, with why it failed. */
  async readiness(): Promise<Readiness> {
    const checks = await this.#checks.run();
    if (this.#app.closing) return { status: 'draining', checks };
    return { status: Object.values(checks).every((c) => c.state === 'ok') ? 'ready' : 'unavailable', checks };
  }

  /** The middleware answering the two routes (for the `first` stage). */
  middleware(): FluidMiddleware {
    const live = this.#config.HEALTH_LIVE_PATH;
    const ready = this.#config.HEALTH_READY_PATH;
    // Not async: every other request pays one comparison, not a promise.
    return (ctx, next) => {
      const path = ctx.path;
      if (path !== live && path !== ready) return next();
      return this.#answer(ctx, next, path === live);
    };
  }

  async #answer(ctx: FluidContext, next: Next, live: boolean): Promise<unknown> {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || !this.allows(ctx)) return next();
    ctx.set('Cache-Control', 'no-store');
    if (live) {
      ctx.body = { status: 'ok' };
      return;
    }
    this.#lastProbe = Date.now();
    if (this.#app.closing) {
      ctx.status = 503;
      ctx.body = { status: 'draining' };
      return;
    }
    const result = await this.readiness();
    ctx.status = result.status === 'ready' ? 200 : 503;
    // A probe that was checking when the shutdown began answers as one that came after it.
    ctx.body = result.status === 'draining' ? { status: 'draining' } : { status: result.status, checks: publicChecks(result.checks) };
  }

  /** Keeps serving for `SERVER_DRAIN_DELAY` when a prober watched readiness in the last minute. */
  async drain(): Promise<void> {
    const delay = this.#config.SERVER_DRAIN_DELAY;
    if (delay === 0 || Date.now() - this.#lastProbe > PROBER_WINDOW_MS) return;
    this.#logger.info(`draining: readiness answers 503; serving ${delay} s more while the load balancer moves traffic away`);
    await new Promise((resolve) => setTimeout(resolve, delay * 1000));
  }

  /** Whether `HEALTH_ACCESS` lets this request see the health routes (the status Additive asks too). */
  allows(ctx: FluidContext): boolean {
    switch (this.#config.HEALTH_ACCESS) {
      case 'public':
        return true;
      case 'loopback':
        return isLoopback(ctx.req.socket.remoteAddress);
      case 'token': {
        const given = Buffer.from(ctx.get('X-Health-Token'));
        return given.length === this.#token!.length && timingSafeEqual(given, this.#token!);
      }
    }
  }
}

/** What a caller sees of each check: `ok`, `failed` or `timeout`, never the error itself. */
function publicChecks(checks: Readonly<Record<string, CheckResult>>): Record<string, CheckResult['state']> {
  const out: Record<string, CheckResult['state']> = {};
  for (const [name, result] of Object.entries(checks)) out[name] = result.state;
  return out;
}

/** True for an IPv4 loopback address (also IPv4-mapped) or `::1`. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}
