/**
 * The auth plugin, `auth({ users })` (or `installAuth(fluid, { users })`): `fluid.auth`, sessions,
 * the CSRF check, the `csrf_field` / `csrf_token` template helpers, the signed-in user on
 * websocket upgrades, signing-key rotation at startup and closing a given cache at shutdown.
 * Sessions and keys live in `fluid.cache` unless `options.cache` names another (the cache plugin
 * is registered when absent, and so is the body plugin, whose parsed forms carry CSRF tokens).
 */
import type { FluidContext } from '../core/context.js';
import { FrameworkException, HttpError } from '../core/errors.js';
import type { FluidCore } from '../core/fluid.js';
import { Markup, escape } from '../core/markup.js';
import type { Plugin } from '../core/plugin.js';
import { bodyParser } from '../body/plugin.js';
import { cache } from '../cache/plugin.js';
import type { Sockets } from '../sockets/sockets.js';
import { Auth, type AuthOptions } from './auth.js';
import { CSRF_FIELD, csrfMiddleware, csrfToken } from './csrf.js';
import { currentRequest, loadUpgradeUser, sessionMiddleware } from './session.js';
import type { User } from './user.js';

declare module '../core/fluid.js' {
  interface FluidCore {
    /** The app's auth, once the auth plugin is registered (`@fw/kernel/docs/auth.md`). */
    readonly auth: Auth;
  }
}

/** The auth plugin for `fluid.plugin(auth({ users }))`; see the module comment. */
export function auth<U extends User>(options: AuthOptions<U>): Plugin {
  return {
    name: 'auth',
    register(fluid) {
      const made = new Auth<U>(fluid, options) as unknown as Auth; // checks the options first
      if (!fluid.plugins.has('cache')) fluid.plugin(cache());
      if (!fluid.plugins.has('body')) fluid.plugin(bodyParser()); // CSRF reads form tokens from the parsed body
      Object.defineProperty(fluid, 'auth', { value: made, enumerable: true });
      fluid.use(sessionMiddleware(made));
      fluid.use(csrfMiddleware(made));
      // The signed-in user on websocket upgrades, for socket guards (when the app serves sockets).
      if (fluid.plugins.has('sockets')) (fluid.sockets as Sockets).onUpgrade((ctx) => loadUpgradeUser(made, ctx));
      // Helpers find the request being served (or a `ctx` passed in the template data).
      const tokenOf = (helperOptions: unknown): string => {
        const ctx = requestOf(helperOptions) ?? currentRequest.getStore();
        if (!ctx) throw new TypeError('{{csrf_token}} / {{csrf_field}} render only during a request (or with { ctx } in the data)');
        return csrfToken(ctx);
      };
      fluid.templates.registerHelper('csrf_token', (...args: unknown[]) => tokenOf(args[args.length - 1]));
      fluid.templates.registerHelper(
        'csrf_field',
        (...args: unknown[]) => new Markup(`<input type="hidden" name="${CSRF_FIELD}" value="${escape(tokenOf(args[args.length - 1])).toString()}">`),
      );
    },
    async start(fluid) {
      try {
        await fluid.auth.tokens.keys.rotate();
      } catch (error) {
        // A cache outage at boot must not keep the app from starting: the first mint rotates. The
        // cache has logged the outage itself, so a 503 from it is one line here, without a stack.
        if (error instanceof HttpError && error.status === 503) {
          fluid.logger.warn('auth: the cache is unavailable at startup; the JWT signing key is made at its first use', { code: error.code });
        } else {
          fluid.logger.error('auth: could not rotate the JWT signing key at startup; retrying on first use', { error });
        }
      }
    },
    close: (fluid) => fluid.auth.close(),
  };
}

/** Installs auth on `fluid` (before it starts) and returns the `Auth`: `fluid.plugin(auth(options))`. */
export function installAuth<U extends User>(fluid: FluidCore, options: AuthOptions<U>): Auth<U> {
  if (fluid.plugins.has('auth')) throw new FrameworkException('installAuth(): auth is already installed on this app');
  fluid.plugin(auth(options));
  return fluid.auth as unknown as Auth<U>;
}

function requestOf(options: unknown): FluidContext | undefined {
  const root = (options as { data?: { root?: { ctx?: unknown } } } | undefined)?.data?.root?.ctx;
  return root && typeof root === 'object' && 'fluid' in root ? (root as FluidContext) : undefined;
}
