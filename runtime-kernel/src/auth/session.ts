/**
 * Sessions: koa-session with its store in the app cache (`sess:<id>`). The cookie is signed
 * (key derived from `SECRET_KEY`), HttpOnly, SameSite=Lax, and Secure when the request is HTTPS
 * (`X-Forwarded-Proto` only from a trusted proxy, see `isHttps`). `signIn` regenerates the
 * session id (no fixation); `signOut` clears the session.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { createSession } from 'koa-session';
import type { FluidContext, FluidMiddleware } from '../core/context.js';
import type { JsonValue } from '../cache/cache.js';
import { authOf, type Auth } from './auth.js';
import { isHttps } from './https.js';
import { deriveKey } from './signed.js';
import type { User } from './user.js';

/** What fw keeps in a session (the app may add its own JSON fields). */
export interface SessionData {
  /** The signed-in user's id. */
  uid?: string;
  /** The random id CSRF tokens are bound to (renewed at sign-in). */
  csrf?: string;
  [key: string]: unknown;
}

/** The koa-session object on `ctx.session`. */
interface SessionObject extends SessionData {
  regenerate(): Promise<void> | undefined;
  toJSON(): Record<string, unknown>;
  isNew?: boolean;
}

type WithSession = { session: SessionObject | null };

/** The request being served (so template helpers such as `{{csrf_field}}` find its session). */
export const currentRequest = new AsyncLocalStorage<FluidContext>();

/** The session of a request (fw's auth must be installed). */
export function session(ctx: FluidContext): SessionData {
  const s = (ctx as unknown as WithSession).session;
  if (!s) throw new TypeError('the session was cleared in this request');
  return s;
}

/** Whether the request has a session (false once `signOut` cleared it in this request). */
export function hasSession(ctx: FluidContext): boolean {
  return (ctx as unknown as WithSession).session !== null;
}

/** The session middleware for `auth` (added by `installAuth`). */
export function sessionMiddleware(auth: Auth): FluidMiddleware {
  const fluid = auth.fluid;
  fluid.koa.keys = [deriveKey(auth.secret, 'session').toString('base64url')];
  const cache = () => auth.cache;
  const ttl = auth.options.sessionMaxAge;
  const inner = createSession(
    {
      key: auth.options.cookieName,
      maxAge: ttl * 1000,
      httpOnly: true,
      sameSite: 'lax',
      signed: true,
      rolling: false,
      renew: true,
      store: {
        get: async (id: string) => (await cache().get(`sess:${id}`)) ?? undefined,
        set: async (id: string, data: unknown, maxAge: number) => {
          await cache().set(`sess:${id}`, data as JsonValue, Math.max(1, Math.ceil(maxAge / 1000)));
        },
        destroy: async (id: string) => {
          await cache().delete(`sess:${id}`);
        },
      },
      genid: () => randomBytes(24).toString('base64url'),
    },
    fluid.koa,
  );
  return (ctx, next) => {
    // Secure cookies only over HTTPS; a trusted proxy's X-Forwarded-Proto counts, no one else's.
    ctx.cookies.secure = isHttps(ctx, fluid.config);
    return currentRequest.run(ctx, () => inner(ctx, next));
  };
}

/**
 * Signs `user` in: the session id is regenerated (the old session is destroyed, so a planted id
 * gains nothing), the old session data is dropped, and the user id and a new CSRF binding are
 * stored. Tokens from `csrf_token` made before sign-in stop verifying.
 */
export async function signIn(ctx: FluidContext, user: User): Promise<void> {
  authOf(ctx);
  const s = (ctx as unknown as WithSession).session;
  if (!s) throw new TypeError('signIn: the session was cleared in this request');
  for (const key of Object.keys(s.toJSON())) delete s[key];
  await s.regenerate();
  s.uid = String(user.id);
  s.csrf = randomBytes(16).toString('hex');
  ctx.state.user = user;
}

/** Signs the user out: the session is destroyed and its cookie cleared. */
export function signOut(ctx: FluidContext): void {
  (ctx as unknown as WithSession).session = null;
  ctx.state.user = null;
}

/** The signed-in user (loaded once per request through `UserService.findById`), or undefined. */
export async function currentUser(ctx: FluidContext): Promise<User | undefined> {
  const known = ctx.state.user;
  if (known !== undefined) return known === null ? undefined : (known as User);
  const auth = authOf(ctx);
  const s = (ctx as unknown as WithSession).session;
  const uid = s?.uid;
  const user = typeof uid === 'string' ? ((await auth.users.findById(uid)) ?? undefined) : undefined;
  ctx.state.user = user ?? null;
  return user;
}

/**
 * Puts the signed-in user of a websocket upgrade request on `ctx.state.user` (`null` when
 * anonymous), from the same signed session cookie; `installAuth` runs it as an upgrade hook, so
 * `requireUser.check` & co. work as websocket guards. Sessions are read, never written, here.
 */
export async function loadUpgradeUser(auth: Auth, ctx: FluidContext): Promise<void> {
  ctx.state.user = null;
  const id = ctx.cookies.get(auth.options.cookieName, { signed: true });
  if (!id) return;
  const data = await auth.cache.get<Record<string, JsonValue>>(`sess:${id}`);
  if (!data || (typeof data._expire === 'number' && data._expire < Date.now()) || typeof data.uid !== 'string') return;
  ctx.state.user = (await auth.users.findById(data.uid)) ?? null;
}
