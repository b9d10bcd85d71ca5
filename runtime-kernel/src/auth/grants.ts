/**
 * `requirementOrGrant` / `requirementAndGrant`: a route open to a session that passes a guard
 * chain, or to a bearer token carrying grants.
 *
 * The session chain is tried first; when it throws an `HttpError` the bearer token decides, and
 * the token path checks only the token's grant list (no e-mail, 2FA or CSRF check: a grant
 * bypasses them by design; only verified principals can be minted a token).
 */
import type { FluidContext } from '../core/context.js';
import { HttpError } from '../core/errors.js';
import { InvalidTokenError } from '../tokens/errors.js';
import { bearerToken, type TokenClaims } from '../tokens/tokens.js';
import { authOf } from './auth.js';
import { guard, type Guard } from './guards.js';
import type { User } from './user.js';

async function tokenPath(ctx: FluidContext, sessionError: unknown, grants: readonly string[], every: boolean): Promise<User> {
  const token = bearerToken(ctx.get('Authorization'));
  if (!token) throw sessionError;
  const auth = authOf(ctx);
  const claims: TokenClaims = (ctx.state.bearer as TokenClaims | undefined) ?? (await auth.verifyToken(token));
  ctx.state.bearer = claims;
  const ok = every ? grants.every((g) => claims.grants.includes(g)) : grants.some((g) => claims.grants.includes(g));
  if (!ok) {
    throw new HttpError(403, `Token lacks the grant ${grants.join(every ? ' and ' : ' or ')}`, { code: 'MISSING_GRANT' });
  }
  const user = await auth.users.findById(claims.sub);
  if (!user) throw new InvalidTokenError('its principal no longer exists');
  ctx.state.user = user;
  return user;
}

function grantGuard(kind: string, requirement: Guard, grants: readonly string[], every: boolean): Guard {
  if (grants.length === 0 || grants.some((g) => typeof g !== 'string' || !g)) {
    throw new TypeError(`${kind}(${requirement.guardName}, ...grants): give at least one non-empty grant name`);
  }
  return guard(`${kind}(${requirement.guardName}, ${grants.join(', ')})`, async (ctx) => {
    try {
      return await requirement.check(ctx);
    } catch (err) {
      if (!(err instanceof HttpError) || err.status >= 500) throw err;
      return tokenPath(ctx, err, grants, every);
    }
  });
}

/** Passes a session that passes `requirement`, or a bearer token holding ANY of `grants`. */
export function requirementOrGrant(requirement: Guard, ...grants: string[]): Guard {
  return grantGuard('requirementOrGrant', requirement, grants, false);
}

/** Passes a session that passes `requirement`, or a bearer token holding ALL of `grants`. */
export function requirementAndGrant(requirement: Guard, ...grants: string[]): Guard {
  return grantGuard('requirementAndGrant', requirement, grants, true);
}
