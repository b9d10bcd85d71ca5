/**
 * `installAuth(fluid, { users })`: sessions, the CSRF check, the `csrf_field` / `csrf_token`
 * template helpers, the signed-in user on websocket upgrades, signing-key rotation at startup and
 * closing the cache at shutdown.
 */
import type { Fluid } from '../fluid.js';
import type { FluidContext } from '../context.js';
import { Markup, escape } from '../templates/markup.js';
import { Auth, type AuthOptions } from './auth.js';
import { CSRF_FIELD, csrfMiddleware, csrfToken } from './csrf.js';
import { currentRequest, loadUpgradeUser, sessionMiddleware } from './session.js';
import type { User } from './user.js';

/** Installs auth on `fluid` (before it starts) and returns the `Auth`. */
export function installAuth<U extends User>(fluid: Fluid, options: AuthOptions<U>): Auth<U> {
  const auth = new Auth<U>(fluid, options);
  auth.register();
  fluid.use(sessionMiddleware(auth as unknown as Auth));
  fluid.use(csrfMiddleware(auth as unknown as Auth));
  fluid.onStartup(async () => {
    try {
      await auth.tokens.keys.rotate();
    } catch (error) {
      // A cache outage at boot must not keep the app from starting: the first mint rotates.
      fluid.logger.error('auth: could not rotate the JWT signing key at startup; retrying on first use', { error });
    }
  });
  fluid.onShutdown(() => auth.close());
  fluid.sockets.onUpgrade((ctx) => loadUpgradeUser(auth as unknown as Auth, ctx));
  // Helpers find the request being served (or a `ctx` passed in the template data).
  const tokenOf = (options: unknown): string => {
    const ctx = requestOf(options) ?? currentRequest.getStore();
    if (!ctx) throw new TypeError('{{csrf_token}} / {{csrf_field}} render only during a request (or with { ctx } in the data)');
    return csrfToken(ctx);
  };
  fluid.templates.registerHelper('csrf_token', (...args: unknown[]) => tokenOf(args[args.length - 1]));
  fluid.templates.registerHelper(
    'csrf_field',
    (...args: unknown[]) => new Markup(`<input type="hidden" name="${CSRF_FIELD}" value="${escape(tokenOf(args[args.length - 1])).toString()}">`),
  );
  return auth;
}

function requestOf(options: unknown): FluidContext | undefined {
  const root = (options as { data?: { root?: { ctx?: unknown } } } | undefined)?.data?.root?.ctx;
  return root && typeof root === 'object' && 'fluid' in root ? (root as FluidContext) : undefined;
}
