import { Additive, HttpError, type Backend, type FluidContext } from '@fw/kernel';
import { isLoopback, type CheckResult } from '@fw/kernel/health';

/** One readiness check as the status shows it. */
export interface CheckStatus extends CheckResult {
  readonly name: string;
}

/** What the status page and `GET /api/health` show. */
export interface Status {
  /** The app's name (`fw.json`). */
  readonly app: string;
  /** `ready`, `unavailable` (a check fails) or `draining` (shutting down). */
  readonly status: 'ready' | 'unavailable' | 'draining';
  /** Every readiness check of the kernel's health plugin, fw's and the app's, by name, with why it failed. */
  readonly checks: readonly CheckStatus[];
  /** Where each part keeps its shared state (`fw: backends:` at startup). */
  readonly backends: readonly Backend[];
  /** This process. */
  readonly process: { readonly pid: number; readonly uptimeSeconds: number; readonly node: string; readonly rssMb: number };
}

/**
 * The status of the app as this process sees it: the kernel's readiness checks (run now, with
 * their timings and errors), the backends and the process.
 */
export async function status(ctx: FluidContext): Promise<Status> {
  const fluid = ctx.fluid;
  const readiness = await fluid.health.readiness();
  return {
    app: fluid.name,
    status: readiness.status,
    checks: Object.entries(readiness.checks)
      .map(([name, result]) => ({ name, ...result }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    backends: [...fluid.plugins.values()].flatMap((plugin) => plugin.backends?.(fluid) ?? []),
    process: {
      pid: process.pid,
      uptimeSeconds: Math.round(process.uptime()),
      node: process.version,
      rssMb: Math.round(process.memoryUsage.rss() / 1048576),
    },
  };
}

/**
 * Whether this request may see the status, which names hosts and errors. With
 * `HEALTH_ACCESS=token`, a caller with the token; otherwise (`loopback`, or `public`, the
 * default, meant for `/healthz` and `/readyz`) loopback callers only, and not requests a proxy
 * forwarded: a reverse proxy on the same host connects from loopback too. Others get 404.
 */
function visible(ctx: FluidContext): boolean {
  const fluid = ctx.fluid;
  if (fluid.config.HEALTH_ACCESS === 'token') return fluid.health.allows(ctx);
  const forwarded = ctx.get('X-Forwarded-For') !== '' || ctx.get('Forwarded') !== '' || ctx.get('X-Real-IP') !== '';
  return !forwarded && isLoopback(ctx.req.socket.remoteAddress);
}

/**
 * The "health" Additive: a status page for operators over the kernel's health plugin (the
 * kernel itself answers the load balancers' `/healthz` and `/readyz`). Register it with
 * `fluid.additive(health)` (`fw ocean install health` does it for you). Its routes:
 * - `GET /health/` (`health.page`): an HTML page with every readiness check (state, time, why it
 *   fails), the backends and the process, refreshed every 10 s;
 * - `GET /api/health` (`health.status`): the same as JSON ({@link Status}).
 * Both are `Cache-Control: no-store`, and shown only to callers `visible()` admits.
 */
export const health = new Additive('health', { root: new URL('..', import.meta.url) });

health.beforeRequest((ctx) => {
  if (!visible(ctx)) throw new HttpError(404);
  ctx.set('Cache-Control', 'no-store');
  return undefined;
});

health.api.get('status', '/', (ctx) => status(ctx));

health.app.get('page', '/', async (ctx) => {
  const current = await status(ctx);
  return ctx.render('health/status.html', { ...current, ok: current.status === 'ready' });
});

export default health;
