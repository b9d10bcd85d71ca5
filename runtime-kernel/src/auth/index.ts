/**
 * `@fw/kernel/auth`: sessions, guards, CSRF and grants. Turn it on with
 * `fluid.plugin(auth({ users }))` (or `installAuth(fluid, { users })`). See `@fw/kernel/docs/auth.md`.
 */
export { auth, installAuth } from './install.js';
export { Auth, authOf } from './auth.js';
export type { AuthOptions } from './auth.js';
export { session, sessionMiddleware, signIn, signOut, currentUser, loadUpgradeUser } from './session.js';
export type { SessionData } from './session.js';
export { guard, requireUser, EmailVerifiedGate, require2fa, requireAdmin, requireRole, requirePermission } from './guards.js';
export type { Guard } from './guards.js';
export { requirementOrGrant, requirementAndGrant } from './grants.js';
export { csrfToken, checkCsrfToken, checkOrigin, csrfMiddleware, CSRF_HEADER, CSRF_FIELD } from './csrf.js';
export type { CsrfPayload } from './csrf.js';
export { PayloadSigner, deriveKey } from './signed.js';
export type { TypedPayload } from './signed.js';
export { isHttps, requestOrigin } from './https.js';
export { emailVerified, isPositiveIntegerId } from './user.js';
export type { User, UserService, PrincipalId, MaybePromise } from './user.js';
export { safeRedirect } from './redirect.js';
