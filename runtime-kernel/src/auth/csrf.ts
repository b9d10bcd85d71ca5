/**
 * CSRF: a token bound to the session and signed (`{ t: 'csrf', sid, iat }`, see `PayloadSigner`),
 * plus an Origin/Referer check, for every unsafe method (anything but GET, HEAD, OPTIONS, TRACE).
 *
 * The token comes in the `X-CSRF-Token` header (htmx: `hx-headers`, fetch) or, for
 * `application/x-www-form-urlencoded` forms, the `csrf_token` field (`{{csrf_field}}`); fw then
 * reads the form and hands it to the handler as `ctx.state.form` (URLSearchParams). A missing,
 * tampered, expired, foreign-session or wrong-type token answers 403 `INVALID_CSRF`, as does an
 * `Origin` (or, without one, `Referer`) that is neither the request's own origin nor `BASE_URL`'s.
 * A request with a valid bearer token is exempt by design (browsers never attach one on their own).
 */
import { randomBytes } from 'node:crypto';
import type { FluidContext, FluidMiddleware } from '../core/context.js';
import { HttpError } from '../core/errors.js';
import { bearerToken } from '../tokens/tokens.js';
import { authOf, type Auth } from './auth.js';
import { requestOrigin } from './https.js';
import { session } from './session.js';
import type { TypedPayload } from './signed.js';

/** The payload of a CSRF token. */
export interface CsrfPayload extends TypedPayload {
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
const FORM_LIMIT = 1024 * 1024;

function invalid(reason: string): HttpError {
  return new HttpError(403, `Invalid CSRF token: ${reason}`, { code: 'INVALID_CSRF' });
}

/** The CSRF token for this request's session (creating the session binding when needed). */
export function csrfToken(ctx: FluidContext): string {
  const auth = authOf(ctx);
  const s = session(ctx);
  if (typeof s.csrf !== 'string') s.csrf = randomBytes(16).toString('hex');
  const payload: CsrfPayload = { t: 'csrf', sid: s.csrf, iat: Math.floor(Date.now() / 1000) };
  return auth.signer.sign(payload);
}

/** Throws 403 `INVALID_CSRF` unless `token` is a valid CSRF token of this request's session. */
export function checkCsrfToken(ctx: FluidContext, token: unknown): void {
  const auth = authOf(ctx);
  if (typeof token !== 'string' || token === '') throw invalid('missing');
  const payload = auth.signer.verify<CsrfPayload>(token, 'csrf');
  if (!payload) throw invalid('bad signature or wrong type');
  const s = session(ctx);
  if (typeof s.csrf !== 'string' || payload.sid !== s.csrf) throw invalid('not of this session');
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

async function readForm(ctx: FluidContext): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_LIMIT) throw new HttpError(413, 'Form too large');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** The CSRF middleware (added by `installAuth`). */
export function csrfMiddleware(auth: Auth): FluidMiddleware {
  return async (ctx, next) => {
    if (SAFE.has(ctx.method)) return next();
    const bearer = bearerToken(ctx.get('Authorization'));
    if (bearer) {
      try {
        ctx.state.bearer = await auth.verifyToken(bearer);
        return next(); // a grant bypasses CSRF by design
      } catch (err) {
        if (err instanceof HttpError && err.status >= 500) throw err;
        // an invalid token earns no exemption: fall through to the CSRF check
      }
    }
    checkOrigin(ctx);
    let token: string | null | undefined = ctx.get(CSRF_HEADER) || undefined;
    if (token === undefined && ctx.is('application/x-www-form-urlencoded')) {
      const form = await readForm(ctx);
      ctx.state.form = form;
      token = form.get(CSRF_FIELD);
    }
    checkCsrfToken(ctx, token);
    return next();
  };
}
