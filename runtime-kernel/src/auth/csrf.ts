/**
 * CSRF: a signed token (`{ t: 'csrf', sid, iat }`, see `PayloadSigner`) bound to a random
 * binding id, plus an Origin/Referer check, for every unsafe method (anything but GET, HEAD,
 * OPTIONS, TRACE).
 *
 * The binding lives where it costs nothing to keep:
 * - a signed-in session (or any session already stored) holds it (`session.csrf`, renewed at
 *   sign-in), so a signed-in user's tokens are bound to their session and to nothing else;
 * - an anonymous visitor's is a signed, HttpOnly cookie (`fw.csrf`, SameSite=Lax) made when a
 *   token is first rendered: no server session is created for them (double-submit, signed).
 *
 * The token comes in the `X-CSRF-Token` header (htmx: `hx-headers`, fetch) or, for
 * `application/x-www-form-urlencoded` forms, the `csrf_token` field (`{{csrf_field}}`), read from
 * the body the body plugin parsed (its form limit applies); the form is also handed to the
 * handler as `ctx.state.form` (URLSearchParams). A missing, tampered, expired, foreign or
 * wrong-type token answers 403 `INVALID_CSRF`, as does an `Origin` (or, without one, `Referer`)
 * that is neither the request's own origin nor `BASE_URL`'s. An unsafe method on a path whose
 * routes do not take it answers 405 with `Allow` first, as it would without auth. A request with
 * a valid bearer token is exempt by design (browsers never attach one on their own).
 */
import { randomBytes } from 'node:crypto';
import { fluidContextOf, type FluidContext, type KoaMiddleware } from '../core/context.js';
import { HttpError } from '../core/errors.js';
import { parseBody } from '../body/plugin.js';
import { methodNotRouted } from '../body/route.js';
import { bearerToken } from '../tokens/tokens.js';
import { authOf, type Auth } from './auth.js';
import { isHttps, requestOrigin } from './https.js';
import { hasSession, session } from './session.js';
import type { TypedPayload } from './signed.js';

/** The payload of a CSRF token. */
export interface CsrfPayload extends TypedPayload {
  /** The payload type: always `'csrf'`. */
  readonly t: 'csrf';
  /** The session's CSRF binding id. */
  readonly sid: string;
  /** Issued at, epoch seconds. */
  readonly iat: number;
}

/** Header name for htmx and fetch. */
export const CSRF_HEADER = 'X-CSRF-Token';
/** Form field name. */
export const CSRF_FIELD = 'csrf_token';
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

function invalid(reason: string): HttpError {
  return new HttpError(403, `Invalid CSRF token: ${reason}`, { code: 'INVALID_CSRF' });
}

const BINDING = /^[0-9a-f]{32}$/;
// A binding cookie made in this request (the request's own Cookie header does not have it yet).
const MADE: unique symbol = Symbol('fw.csrfBinding');
type WithMade = { [MADE]?: string };

/**
 * The binding a session keeps: a signed-in (or otherwise stored) session's, else none. A session
 * that `signOut` cleared earlier in this request has none: the page it renders (a signed-out
 * home, a sign-in form) gets the anonymous visitor's token.
 */
function sessionBinding(ctx: FluidContext): { bound: boolean; id: string | undefined } {
  if (!hasSession(ctx)) return { bound: false, id: undefined };
  const s = session(ctx);
  if (typeof s.csrf === 'string') return { bound: true, id: s.csrf };
  if (typeof s.uid === 'string') {
    s.csrf = randomBytes(16).toString('hex'); // a signed-in session without one (made before fw bound tokens to it)
    return { bound: true, id: s.csrf };
  }
  return { bound: false, id: undefined };
}

/** The anonymous visitor's binding from the signed `fw.csrf` cookie; made (and set) when `create`. */
function cookieBinding(ctx: FluidContext, auth: Auth, create: boolean): string | undefined {
  const made = (ctx as WithMade)[MADE];
  if (made) return made;
  const name = auth.options.csrfCookieName;
  const id = ctx.cookies.get(name, { signed: true });
  if (id && BINDING.test(id)) return id;
  if (!create) return undefined;
  const fresh = randomBytes(16).toString('hex');
  ctx.cookies.set(name, fresh, {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps(ctx, ctx.fluid.config),
    path: '/',
    maxAge: auth.options.sessionMaxAge * 1000,
    overwrite: true,
  });
  (ctx as WithMade)[MADE] = fresh;
  return fresh;
}

/**
 * The CSRF token for this request: bound to the session when it holds a binding (signed in),
 * else to the visitor's `fw.csrf` cookie (made now when missing; no session is stored).
 */
export function csrfToken(ctx: FluidContext): string {
  const auth = authOf(ctx);
  const fromSession = sessionBinding(ctx);
  const sid = fromSession.bound ? fromSession.id! : cookieBinding(ctx, auth, true)!;
  const payload: CsrfPayload = { t: 'csrf', sid, iat: Math.floor(Date.now() / 1000) };
  return auth.signer.sign(payload);
}

/**
 * Throws 403 `INVALID_CSRF` unless `token` is a valid CSRF token of this request: of its session
 * when the session holds a binding (a signed-in user's token never binds to a cookie), else of
 * its `fw.csrf` cookie.
 */
export function checkCsrfToken(ctx: FluidContext, token: unknown): void {
  const auth = authOf(ctx);
  if (typeof token !== 'string' || token === '') throw invalid('missing');
  const payload = auth.signer.verify<CsrfPayload>(token, 'csrf');
  if (!payload) throw invalid('bad signature or wrong type');
  const fromSession = sessionBinding(ctx);
  const expected = fromSession.bound ? fromSession.id : cookieBinding(ctx, auth, false);
  if (expected === undefined || payload.sid !== expected) throw invalid('not of this session');
  const age = Date.now() / 1000 - payload.iat;
  if (!(age >= -60 && age <= auth.options.sessionMaxAge)) throw invalid('expired');
}

/** Throws 403 `INVALID_CSRF` unless Origin (or Referer) is this request's origin or BASE_URL's. */
export function checkOrigin(ctx: FluidContext): void {
  const config = ctx.fluid.config;
  const allowed = new Set([requestOrigin(ctx, config)]);
  if (config.BASE_URL) allowed.add(new URL(config.BASE_URL).origin);
  const origin = ctx.get('Origin');
  const referer = ctx.get('Referer');
  let source: string | undefined;
  if (origin) source = origin === 'null' ? 'null' : safeOrigin(origin);
  else if (referer) source = safeOrigin(referer);
  else return; // neither header: a non-browser client; the token still decides
  if (!source || !allowed.has(source)) throw invalid('cross-origin request');
}

function safeOrigin(value: string): string | undefined {
  try {
    return new URL(value).origin.toLowerCase();
  } catch {
    return undefined;
  }
}

/** 405 with `Allow` when routes know the path but not the method (decided before the token). */
function checkMethod(ctx: FluidContext): void {
  const allowed = methodNotRouted(ctx);
  if (allowed) {
    throw new HttpError(405, undefined, { headers: { Allow: [...allowed].join(', ') } });
  }
}

/**
 * The `csrf_token` field of an urlencoded form, from the parsed body; the form goes to
 * `ctx.state.form` whichever way the token came (the field, the header or a bearer exemption).
 */
async function formToken(ctx: FluidContext): Promise<string | undefined> {
  if (!ctx.is('application/x-www-form-urlencoded')) return undefined;
  const body = await parseBody(ctx);
  if (body === undefined || body === null || typeof body !== 'object') return undefined;
  ctx.state.form = new URLSearchParams(ctx.request.rawBody ?? '');
  const token = (body as Record<string, unknown>)[CSRF_FIELD];
  return typeof token === 'string' ? token : undefined;
}

/** The CSRF middleware (added by `installAuth`). */
export function csrfMiddleware(auth: Auth): KoaMiddleware {
  return async (koaCtx, next) => {
    const ctx = fluidContextOf(koaCtx, 'csrfMiddleware()');
    if (SAFE.has(ctx.method)) return next();
    checkMethod(ctx);
    const bearer = bearerToken(ctx.get('Authorization'));
    if (bearer) {
      let exempt = false;
      try {
        ctx.state.bearer = await auth.verifyToken(bearer);
        exempt = true; // a grant bypasses CSRF by design
      } catch (err) {
        if (err instanceof HttpError && err.status >= 500) throw err;
        // an invalid token earns no exemption: fall through to the CSRF check
      }
      if (exempt) {
        await formToken(ctx); // hands the form to the handler
        return next();
      }
    }
    checkOrigin(ctx);
    const fromForm = await formToken(ctx);
    checkCsrfToken(ctx, ctx.get(CSRF_HEADER) || fromForm);
    return next();
  };
}
