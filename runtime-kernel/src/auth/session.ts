/**
 * Sessions: koa-session with its store in the app cache (`sess:<id>`). The cookie is signed
 * (by `CookieKeys`, key derived from `SECRET_KEY`), HttpOnly, SameSite=Lax, and Secure when the
 * request is HTTPS (`X-Forwarded-Proto` only from a trusted proxy, see `isHttps`). `signIn`
 * regenerates the session id (no fixation); `signOut` clears the session.
 *
 * The store (`SessionStore`) reads and writes the app cache. On the `file` cache (the default) it
 * also keeps the sessions this process has seen in memory, writing every change through to the
 * file, so a signed-in request costs one `stat` instead of a file read and a JSON parse: the copy
 * is used only while the entry file is the one it was taken from (same inode, mtime and size),
 * so a change or sign-out by another process of the host, or a hand deletion, is seen on the
 * next request. The `memory` cache is already in memory; Redis and a cache given in the options
 * are read on every request (other hosts may change them).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { statSync, type Stats } from 'node:fs';
import { createSession } from 'koa-session';
import { fluidContextOf, type FluidContext, type KoaMiddleware } from '../core/context.js';
import type { Cache, JsonValue } from '../cache/cache.js';
import { FileCache } from '../cache/file.js';
import { authOf, type Auth } from './auth.js';
import { isHttps } from './https.js';
import { CookieKeys, deriveKey } from './signed.js';
import type { User } from './user.js';

/** What fw keeps in a session (the app may add its own JSON fields). */
export interface SessionData {
  /** The signed-in user's id. */
  uid?: string;
  /** The random id CSRF tokens are bound to (renewed at sign-in). */
  csrf?: string;
  /** The app's own fields; the session is stored as JSON, so values must be JSON-serialisable. */
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
export function sessionMiddleware(auth: Auth): KoaMiddleware {
  const fluid = auth.fluid;
  fluid.koa.keys = new CookieKeys([deriveKey(auth.secret, 'session').toString('base64url')]);
  const store = new SessionStore(() => auth.cache);
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
        get: (id: string) => store.get(id),
        set: (id: string, data: unknown, maxAge: number) => store.set(id, data as JsonValue, maxAge),
        destroy: (id: string) => store.destroy(id),
      },
      genid: () => randomBytes(24).toString('base64url'),
    },
    fluid.koa,
  );
  const config = fluid.config;
  return (koaCtx, next) => {
    const ctx = fluidContextOf(koaCtx, 'sessionMiddleware()');
    // Secure cookies only over HTTPS; a trusted proxy's X-Forwarded-Proto counts, no one else's.
    ctx.cookies.secure = isHttps(ctx, config);
    return currentRequest.run(ctx, inner, ctx, next);
  };
}

/** A session this process has read or written to a file cache: its JSON and the file's identity then. */
interface Remembered {
  readonly json: string;
  /** Epoch ms after which the copy is dropped (the session's own `_expire` is checked by koa-session). */
  readonly expires: number;
  /** The entry's file. */
  readonly file: string;
  /** The entry file's identity when the copy was taken (`undefined`: no file then). */
  readonly stamp: string | undefined;
}

/** Sessions remembered per process at most; the oldest are forgotten (and read again when used). */
const REMEMBERED_MAX = 10_000;

/**
 * The session store over the app cache; see the module comment. Values are copied through JSON
 * in and out, so a request changing its session object in place never changes the memory copy.
 */
export class SessionStore {
  readonly #cache: () => Cache;
  readonly #remembered = new Map<string, Remembered>();

  constructor(cache: () => Cache) {
    this.#cache = cache;
  }

  /** The session stored under `id`, or undefined. */
  async get(id: string): Promise<Record<string, unknown> | undefined> {
    const cache = this.#cache();
    if (!(cache instanceof FileCache)) return ((await cache.get(key(id))) ?? undefined) as Record<string, unknown> | undefined;
    const copy = this.#remembered.get(id);
    const now = Date.now();
    if (copy && copy.expires > now && copy.stamp !== undefined && copy.stamp === stampOf(copy.file)) {
      return JSON.parse(copy.json) as Record<string, unknown>;
    }
    // Not remembered, expired, or changed by another process: read the file (stamp first, so a
    // write racing the read leaves a stale stamp and the next request reads again).
    const file = copy?.file ?? cache.fileOf(key(id));
    const stamp = stampOf(file);
    const data = await cache.get(key(id));
    if (data === undefined || data === null) {
      this.#remembered.delete(id);
      return undefined;
    }
    const expire = (data as { _expire?: unknown })._expire;
    this.#remember(id, { json: JSON.stringify(data), expires: typeof expire === 'number' ? expire : now + 60_000, file, stamp });
    return data as Record<string, unknown>;
  }

  /** Writes the session through to the cache, then remembers it. */
  async set(id: string, data: JsonValue, maxAgeMs: number): Promise<void> {
    const cache = this.#cache();
    const ttl = Math.max(1, Math.ceil(maxAgeMs / 1000));
    if (!(cache instanceof FileCache)) return cache.set(key(id), data, ttl);
    this.#remembered.delete(id); // a failed write must not leave the old copy trusted
    await cache.set(key(id), data, ttl);
    const file = cache.fileOf(key(id));
    this.#remember(id, { json: JSON.stringify(data), expires: Date.now() + ttl * 1000, file, stamp: stampOf(file) });
  }

  /** Forgets the session here and in the cache. */
  async destroy(id: string): Promise<void> {
    this.#remembered.delete(id);
    await this.#cache().delete(key(id));
  }

  #remember(id: string, copy: Remembered): void {
    const remembered = this.#remembered;
    remembered.delete(id); // re-inserted last: the Map's order is the forgetting order
    if (remembered.size >= REMEMBERED_MAX) remembered.delete(remembered.keys().next().value!);
    remembered.set(id, copy);
  }
}

function key(id: string): string {
  return `sess:${id}`;
}

/** The identity of an entry file (a rename-into-place write gives it a new inode), or undefined when absent. */
function stampOf(file: string): string | undefined {
  const stats: Stats | undefined = statSync(file, { throwIfNoEntry: false });
  return stats && `${stats.ino}:${stats.mtimeMs}:${stats.size}`;
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
