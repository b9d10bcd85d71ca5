/**
 * Guards: Koa middleware usable as route handlers (`fluid.app.get('x', '/x', requireAdmin, h)`).
 *
 * The chain: the default gate (`requireUser`: signed in) → `EmailVerifiedGate` (an e-mail address
 * is set and verified) → `require2fa`. Every guard past `requireUser` (2FA, admin, roles,
 * permissions) answers 401 `EMAIL_NOT_VERIFIED` when the address is unset or unverified; bare
 * `requireUser` does not, so a verification flow stays reachable. Every 401 carries
 * `WWW-Authenticate: Bearer realm="<app>"`.
 */
import { fluidContextOf, type FluidContext, type KoaMiddleware } from '../core/context.js';
import { HttpError } from '../core/errors.js';
import { wantsJson } from '../core/error-handler.js';
import { authOf } from './auth.js';
import { safeRedirect } from './redirect.js';
import { currentUser } from './session.js';
import { emailVerified, type User } from './user.js';

/**
 * A 401 of the auth plugin: every one carries `WWW-Authenticate` (RFC 9110 requires a challenge),
 * `Bearer realm="<app>"`, since a bearer token is the credential a non-browser client can send.
 */
export function unauthorized(ctx: FluidContext, message: string, code: string): HttpError {
  return new HttpError(401, message, { code, headers: { 'WWW-Authenticate': `Bearer realm="${authOf(ctx).fluid.name}"` } });
}

/**
 * A guard: middleware that throws an `HttpError` unless its check passes. It fits a fluid route and
 * a plain `@koa/router` route alike (`KoaMiddleware`); the request must be served by a fw app with
 * auth installed (a `TypeError` or `FrameworkException` says which is missing).
 */
export interface Guard extends KoaMiddleware {
  /** The guard's name, for messages and docs (e.g. `requireRole(editor)`). */
  readonly guardName: string;
  /** Runs the check only: resolves with the user, or throws the guard's `HttpError`. */
  check(ctx: FluidContext): Promise<User>;
}

/** Makes a guard from a check. */
export function guard(guardName: string, check: (ctx: FluidContext) => Promise<User>): Guard {
  const mw: KoaMiddleware = async (ctx, next) => {
    await check(fluidContextOf(ctx, guardName));
    await next();
  };
  return Object.assign(mw, { guardName, check });
}

/** The default gate: a signed-in user, or 401 `NOT_AUTHENTICATED` (HTML GETs go to `signInUrl`). */
export const requireUser: Guard = guard('requireUser', async (ctx) => {
  const user = await currentUser(ctx);
  if (user) return user;
  const signIn = authOf(ctx).options.signInUrl;
  if (signIn && (ctx.method === 'GET' || ctx.method === 'HEAD') && !wantsJson(ctx)) {
    const target = `${signIn}${signIn.includes('?') ? '&' : '?'}redirect=${encodeURIComponent(safeRedirect(ctx.originalUrl))}`;
    throw new HttpError(302, 'Sign-in required', { code: 'NOT_AUTHENTICATED', headers: { Location: target }, expose: true });
  }
  throw unauthorized(ctx, 'Sign-in required', 'NOT_AUTHENTICATED');
});

/** `EmailVerifiedGate`: the default gate, then a set and verified e-mail address (401 `EMAIL_NOT_VERIFIED`). */
export const EmailVerifiedGate: Guard = guard('EmailVerifiedGate', async (ctx) => {
  const user = await requireUser.check(ctx);
  if (!(await emailVerified(authOf(ctx).users, user))) {
    throw unauthorized(ctx, 'E-mail address not verified', 'EMAIL_NOT_VERIFIED');
  }
  return user;
});

/** The default gate, `EmailVerifiedGate`, then two-factor authentication (401 `TWO_FACTOR_REQUIRED`). */
export const require2fa: Guard = guard('require2fa', async (ctx) => {
  const user = await EmailVerifiedGate.check(ctx);
  if (!(await authOf(ctx).users.has2fa(user))) {
    throw unauthorized(ctx, 'Two-factor authentication required', 'TWO_FACTOR_REQUIRED');
  }
  return user;
});

/** `EmailVerifiedGate`, then an administrator (403 `NOT_ADMIN`). */
export const requireAdmin: Guard = guard('requireAdmin', async (ctx) => {
  const user = await EmailVerifiedGate.check(ctx);
  if (!(await authOf(ctx).users.isAdmin(user))) throw new HttpError(403, 'Administrators only', { code: 'NOT_ADMIN' });
  return user;
});

/** `EmailVerifiedGate`, then the role `name` (403 `MISSING_ROLE`). */
export function requireRole(name: string): Guard {
  if (typeof name !== 'string' || !name) throw new TypeError('requireRole(name): name must be a non-empty string');
  return guard(`requireRole(${name})`, async (ctx) => {
    const user = await EmailVerifiedGate.check(ctx);
    if (!(await authOf(ctx).users.roles(user)).includes(name)) {
      throw new HttpError(403, `Role '${name}' required`, { code: 'MISSING_ROLE' });
    }
    return user;
  });
}

/** `EmailVerifiedGate`, then the permission `name` (403 `MISSING_PERMISSION`). */
export function requirePermission(name: string): Guard {
  if (typeof name !== 'string' || !name) throw new TypeError('requirePermission(name): name must be a non-empty string');
  return guard(`requirePermission(${name})`, async (ctx) => {
    const user = await EmailVerifiedGate.check(ctx);
    if (!(await authOf(ctx).users.permissions(user)).includes(name)) {
      throw new HttpError(403, `Permission '${name}' required`, { code: 'MISSING_PERMISSION' });
    }
    return user;
  });
}
