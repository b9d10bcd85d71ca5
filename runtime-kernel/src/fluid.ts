/**
 * `Fluid`: the app object of `@fw/kernel` — the plugin-free `FluidCore` with the built-in plugins
 * registered, each switched on by its config keys:
 *
 * | Plugin | Gives | Switched on by |
 * |---|---|---|
 * | events | `fluid.events` | always; Redis with `EVENTS_REDIS_URL` or `CACHE_TYPE=redis` |
 * | sockets | `fluid.sockets`, the `ws` routes, `/ws/events` | always (`WS_MAX_PAYLOAD`, `WS_MAX_BUFFERED_BYTES`) |
 * | frontend | `fluid.frontend`, `{{frontend}}`, htmx/Alpine | `APP_FRONTEND`, manifests, `FW_TAILWIND`, `DEBUG` |
 * | i18n | `fluid.i18n`, `ctx.locale`, `ctx.i18n` | `EXT_I18N` (off: source strings, nothing per request) |
 * | limits | `limit()`, `exempt()` | `RATELIMIT_DEFAULT`/`RATELIMIT_ENABLED`, or a route with `limit()` |
 * | mail | `fluid.mail` | first use (`MAIL_*`) |
 * | cache | `fluid.cache` | first use (`CACHE_TYPE`) |
 * | health | `fluid.health`, `/healthz`, `/readyz`, the drain | `HEALTH_*` (on by default) |
 * | logging | the request log, `X-Request-Id` | `FW_LOG_REQUESTS` (on by default) |
 * | security | the security headers, `{{csp_nonce}}` | `SECURITY_HEADERS` (on by default) |
 * | body | `ctx.request.body` for JSON, form and text bodies | `BODY_PARSER` (on by default) |
 *
 * Auth (`@fw/kernel/auth`), databases (`@fw/kernel/db`) and the app's own plugins are turned on
 * in `fluid/app.ts`: `fluid.plugin(auth({ users }))`. A plugin that is off costs nothing per
 * request, and its heavy packages (Vite, Tailwind, nodemailer, ioredis, Prisma adapters) are
 * never loaded.
 */
import { FluidCore, type FluidOptions } from './core/fluid.js';
import type { Plugin } from './core/plugin.js';
import { cache } from './cache/plugin.js';
import { events } from './events/create.js';
import { frontend } from './frontend/plugin.js';
import { health } from './health/plugin.js';
import { logging } from './logging/index.js';
import { i18n } from './i18n/i18n.js';
import { rateLimits } from './limits/plugin.js';
import { mail } from './mail/plugin.js';
import { sockets } from './sockets/sockets.js';
import { security } from './security/plugin.js';
import { bodyParser } from './body/plugin.js';

/**
 * The built-in plugins `Fluid` registers, in order (the order of their middleware at a stage):
 * health first, so probes skip the request log and everything after it.
 */
export function builtinPlugins(): Plugin[] {
  return [health(), logging(), security(), bodyParser(), events(), sockets(), frontend(), i18n(), rateLimits(), mail(), cache()];
}

/** The application object; see the module comment and `@fw/kernel/docs/kernel.md`. */
export class Fluid extends FluidCore {
  constructor(options: FluidOptions) {
    super(options);
    for (const plugin of builtinPlugins()) this.plugin(plugin);
  }
}
